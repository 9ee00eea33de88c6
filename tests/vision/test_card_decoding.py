"""The joint card decoding on hand-made grids: cities built from the known layouts, read with noise."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from scoring.city import City
from scoring.placement import Play, simulate_play
from vision.cards.stacking import DOUBT_MARGIN, EMPTY_LABEL, CellEvidence, stack_cards

Label = tuple[str | None, str | None]
ZONE_ROADS: list[Label] = [(z, r) for z in "RCI" for r in (None, "NS", "NE", "NW", "SE", "SW", "EW")] + [
    ("P", None),
    EMPTY_LABEL,
]


def _evidence(label: Label, p: float = 0.95, rng: random.Random | None = None) -> CellEvidence:
    """A reading that gives ``label`` probability ``p`` and spreads the rest over the other labels."""
    rng = rng or random.Random(0)
    others = [lab for lab in ZONE_ROADS if lab != label]
    weights = np.array([rng.random() for _ in others])
    rest = (1 - p) * weights / weights.sum()
    log_p = {lab: math.log(max(q, 1e-6)) for lab, q in zip(others, rest, strict=True)}
    log_p[label] = math.log(p)
    return CellEvidence(log_p)


def _grid(city: City, *, pad: int = 1, misread: dict[tuple[int, int], tuple[Label, float]] | None = None):
    """Evidence for every cell of ``city`` with a ring of empty table around it; ``misread`` gives some
    cells (city coordinates) another best label ``(label, p)``, the true one then at 1 − p − 0.05."""
    rng = random.Random(1)
    rows, cols = city.n_rows + 2 * pad, city.n_cols + 2 * pad
    grid: list[list[CellEvidence | None]] = [[_evidence(EMPTY_LABEL, 0.97, rng)] * cols for _ in range(rows)]
    for r, c, cell in city.cells():
        if cell.kind == "wrecktar":
            grid[r + pad][c + pad] = CellEvidence({EMPTY_LABEL: math.log(0.01)}, wrecktar=True)
            continue
        label = (cell.zone, cell.road) if cell.is_block else EMPTY_LABEL
        grid[r + pad][c + pad] = _evidence(label, 0.95, rng)
        if misread and (r, c) in misread:
            wrong, p = misread[(r, c)]
            ev = _evidence(wrong, p, rng)
            log_p = dict(ev.log_p)
            log_p[label] = math.log(1 - p - 0.05)
            grid[r + pad][c + pad] = CellEvidence(log_p, marked=cell.poi or cell.construction)
        elif cell.poi or cell.construction:
            grid[r + pad][c + pad] = CellEvidence(dict(grid[r + pad][c + pad].log_p), marked=True)  # type: ignore[union-attr]
    return grid


def _labels(decoding, pad: int = 1) -> dict[tuple[int, int], Label]:
    return {(r - pad, c - pad): d.label for (r, c), d in decoding.cells.items() if d.label != EMPTY_LABEL}


def _truth(city: City) -> dict[tuple[int, int], Label]:
    return {(r, c): (cell.zone, cell.road) for r, c, cell in city.blocks()}


def _play(seed: int, **kw: object) -> Play:
    return simulate_play(random.Random(seed), **kw)  # type: ignore[arg-type]


def _top_cards(play: Play) -> dict[tuple[int, int], int]:
    out = {}
    for r, c, _ in play.city.blocks():
        top = play.top_card_at(r, c)
        if top is not None and top.kind == "city":
            out[(r, c)] = top.number
    return out


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_city_read_right_is_explained_by_its_own_cards(seed: int) -> None:
    play = _play(seed)
    decoding = stack_cards(_grid(play.city))
    assert _labels(decoding) == _truth(play.city)
    assert decoding.explained == 1.0 and not decoding.doubtful
    assert len(decoding.placements) <= 15
    # Each card is placed once, and every block is shown by a card that has that block there.
    assert len({p.card for p in decoding.placements}) == len(decoding.placements)
    layout = {(p.card, rc): label for p in decoding.placements for rc, label in p.cells()}
    assert all(layout[d.card, rc] == d.label for rc, d in decoding.cells.items() if d.source == "card")


@pytest.mark.parametrize("seed", [3, 11, 29, 41])
def test_one_misread_cell_is_corrected_by_its_card(seed: int) -> None:
    play = _play(seed)
    truth = _truth(play.city)
    # Misread a block whose card shows at least one other block: a curve read as the straight road, or a
    # commercial block read as industrial, with the classifier fairly sure of it.
    top = _top_cards(play)
    candidates = [rc for rc in sorted(truth) if sum(n == top.get(rc) for n in top.values()) >= 2]
    rc = candidates[len(candidates) // 2]
    zone, road = truth[rc]
    wrong: Label = ({"C": "I", "I": "C", "R": "I", "P": "R"}[zone or "P"], road)
    # With the scoring cards known (a card left over might otherwise show exactly the misreading there).
    decoding = stack_cards(_grid(play.city, misread={rc: (wrong, 0.85)}), exclude=play.scoring_cards)
    assert _labels(decoding)[rc] == truth[rc]
    assert _labels(decoding) == truth


def test_an_ambiguous_pair_is_reported_not_guessed() -> None:
    # Card 1 (C:NS P / I:NE R:EW) and card 10 (P I:NE / C:EW R:EW) overlap in one column, where both show
    # a park on top and then R:EW (card 1) or C:EW (card 10). The reading cannot tell which lies on top.
    lay = {
        (0, 0): ("C", "NS"),
        (0, 1): ("P", None),
        (1, 0): ("I", "NE"),
        (0, 2): ("I", "NE"),
        (1, 2): ("R", "EW"),
    }
    rng = random.Random(2)
    grid: list[list[CellEvidence | None]] = [
        [_evidence(EMPTY_LABEL, 0.97, rng) for _ in range(5)] for _ in range(4)
    ]
    for (r, c), label in lay.items():
        grid[r + 1][c + 1] = _evidence(label, 0.95, rng)
    grid[2][2] = CellEvidence({("R", "EW"): math.log(0.48), ("C", "EW"): math.log(0.48), EMPTY_LABEL: -9.0})
    decoding = stack_cards(grid)
    assert (2, 2) in decoding.doubtful
    assert decoding.cells[(2, 2)].label in {("R", "EW"), ("C", "EW")}
    # Its neighbours are settled.
    assert not set(decoding.doubtful) - {(2, 2), (1, 2)}


def test_a_five_card_city_reads_as_five_cards() -> None:
    play = _play(5, n_cards=5)
    decoding = stack_cards(_grid(play.city))
    assert _labels(decoding) == _truth(play.city)
    assert len(decoding.placements) <= 5


def test_wrecktar_cells_stay_wrecktar_and_the_rest_is_decoded() -> None:
    play = _play(7, wrecktar=True)
    assert any(cell.kind == "wrecktar" for _, _, cell in play.city.cells())
    rc = next((r, c) for r, c, cell in play.city.blocks() if cell.road and (r, c) in _top_cards(play))
    decoding = stack_cards(_grid(play.city, misread={rc: ((play.city.cell(*rc).zone, "NS"), 0.8)}))
    wreck = {(r + 1, c + 1) for r, c, cell in play.city.cells() if cell.kind == "wrecktar"}
    assert all(decoding.cells[w].source == "kept" and decoding.cells[w].card is None for w in wreck)
    assert _labels(decoding) == _truth(play.city)  # the misread road corrected, Wrecktar's cells not blocks


def test_an_unknown_extra_card_is_left_as_read() -> None:
    play = _play(13)
    # An expansion card we do not know lies beside the city: four blocks in a layout none of the 18 has.
    extra = [("C", "SE"), ("R", "SW"), ("I", "NE"), ("C", "NW")]
    city = play.city
    rows = [list(row) for row in city.grid]
    width = city.n_cols
    from scoring.city import EMPTY, block

    for row in rows:
        row += [EMPTY, EMPTY]
    spots = [(0, width), (0, width + 1), (1, width), (1, width + 1)]
    for (r, c), (zone, road) in zip(spots, extra, strict=True):
        rows[r][c] = block(zone, road)
    bigger = City(tuple(tuple(r) for r in rows))
    decoding = stack_cards(_grid(bigger))
    labels = _labels(decoding)
    assert all(labels[s] == e for s, e in zip(spots, extra, strict=True))
    assert all(decoding.cells[(r + 1, c + 1)].source == "kept" for r, c in spots)
    assert {k: v for k, v in labels.items() if k not in spots} == _truth(city)


def test_the_cards_missing_from_a_whole_city_are_its_scoring_cards_when_certain() -> None:
    # 15-card cities in which every card still shows a block: where the decoding is sure that no other card
    # could be among the fifteen, the three cards no placement uses are the scoring cards.
    certain = 0
    for seed in range(100, 160):
        play = _play(seed)
        if len(set(_top_cards(play).values())) != 15:
            continue
        decoding = stack_cards(_grid(play.city))
        if decoding.missing_margin is not None and decoding.missing_margin >= DOUBT_MARGIN:
            certain += 1
            assert sorted(decoding.missing_cards()) == sorted(play.scoring_cards)
    assert certain >= 1


def test_known_scoring_cards_are_not_placed() -> None:
    play = _play(17)
    decoding = stack_cards(_grid(play.city), exclude=play.scoring_cards)
    assert not {p.card for p in decoding.placements} & set(play.scoring_cards)
    assert _labels(decoding) == _truth(play.city)


def test_an_empty_grid_and_cells_beyond_the_frame() -> None:
    assert stack_cards([]).placements == ()
    # A card half beyond the photo's frame (None cells), showing P and C:NS on top (cards 4 and 17 both
    # do), the second read as C:EW, which no card shows beside a park: the visible half is read as a card.
    empty = _evidence(EMPTY_LABEL, 0.97)
    park = _evidence(("P", None))
    misread = CellEvidence({("C", "EW"): math.log(0.7), ("C", "NS"): math.log(0.2), EMPTY_LABEL: -9.0})
    grid: list[list[CellEvidence | None]] = [[empty] * 4, [empty, park, misread, empty], [None] * 4]
    decoding = stack_cards(grid)
    assert decoding.cells[(1, 2)].label == ("C", "NS") and decoding.cells[(1, 2)].card in {4, 17}
    assert [(p.row, p.col) for p in decoding.placements] == [(1, 1)]


def test_the_scan_keeps_its_cell_readings_where_the_cards_explain_too_little() -> None:
    from vision.cards.city import apply_stacking
    from vision.cards.stacking import CardStacking, StackedCell
    from vision.cells.reading import CellReading

    readings = [
        [CellReading.from_options((("C", "NS", 0.6),)), CellReading.from_options((("I", "EW", 0.9),))]
    ]
    cells = {(0, 0): StackedCell(("I", "NS"), "card", 8, 0.4), (0, 1): StackedCell(("I", "EW"), "kept")}
    weak = apply_stacking(readings, CardStacking((), cells, 0.0, explained=0.5))
    assert not weak.used and weak.readings == readings
    strong = apply_stacking(readings, CardStacking((), cells, 0.0, explained=0.9))
    assert strong.used and strong.readings[0][0].best[:2] == ("I", "NS") and strong.cards[0][0] == 8
    assert strong.readings[0][1] is readings[0][1]  # kept as read


def test_a_cell_the_cards_do_not_settle_is_named_in_doubt_and_in_no_warning() -> None:
    from vision.cards.city import apply_stacking
    from vision.cards.stacking import CardStacking, StackedCell
    from vision.cells.reading import CellReading
    from vision.city.assemble import assemble_city
    from vision.city.doubt import find_doubts

    # A1 read C:NS; the cards put card 8's I:NS there by a margin under DOUBT_MARGIN: in doubt.
    readings = [
        [CellReading.from_options((("C", "NS", 0.6), ("I", "NS", 0.3))), CellReading.certain("I", "EW", 0.99)]
    ]
    margin = DOUBT_MARGIN / 3
    cells = {(0, 0): StackedCell(("I", "NS"), "card", 8, margin), (0, 1): StackedCell(("I", "EW"), "kept")}
    as_cards = apply_stacking(readings, CardStacking((), cells, 0.0, explained=0.9))
    assembled = assemble_city(as_cards.readings)
    assert assembled.warnings == []
    (doubt,) = find_doubts(assembled, as_cards)
    assert (doubt.name, doubt.reading) == ("A1", "I:NS") and "cards" in doubt.sources
    assert "C:NS" in doubt.alternatives


def test_a_cell_a_card_settles_in_doubt_keeps_only_readings_a_card_can_show() -> None:
    from vision.cards.city import apply_stacking
    from vision.cards.stacking import CardStacking, StackedCell
    from vision.cells.reading import CellReading

    # The crop missed the road: "I" alone (no card has an industrial block without a road) and "empty"
    # lead the classifier's readings; the cards put card 10's I:NE there, in doubt.
    options = (("I", None, 0.55), (None, None, 0.14), ("I", "NE", 0.07), ("I", "NS", 0.05))
    readings = [[CellReading.from_options(options)]]
    cells = {(0, 0): StackedCell(("I", "NE"), "card", 10, 0.2)}
    settled = apply_stacking(readings, CardStacking((), cells, 0.0, explained=1.0)).readings[0][0]
    assert settled is not None and settled.label == "I:NE"
    # The road repair may still swap in another road, but never the table or a roadless block.
    assert [o[:2] for o in settled.alternatives] == [("I", "NE"), ("I", "NS")]
    # Beside a Point of Interest (its card's other blocks carry no road) the roadless reading stays.
    poi = CellReading("R", None, 0.9, "R*", (("R", None, 0.9),), poi=True)
    beside = {**cells, (0, 1): StackedCell(("R", None), "kept")}
    settled = apply_stacking([[readings[0][0], poi]], CardStacking((), beside, 0.0, explained=1.0)).readings[
        0
    ][0]
    assert settled is not None and [o[:2] for o in settled.alternatives] == [
        ("I", "NE"),
        ("I", None),
        ("I", "NS"),
    ]
