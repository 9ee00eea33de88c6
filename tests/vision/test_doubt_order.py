"""Doubt from the stacking order: where two placed cards overlap and only the reading of the cells they share
tells which lies on top, a cell whose road decides it is named, with the other card's block as what else
it could be."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from games.doubt_text import doubt_text
from games.sprawlopolis import ScoreOptions, score_scan
from scoring.city import parse_cell
from scoring.city_text import parse_city
from vision.cards import CardReading, CardStacking, StackedCell
from vision.cards.pieces import Placement
from vision.cells import CellReading
from vision.city.assemble import assemble_city
from vision.city.doubt import ORDER_DOUBT, CellDoubt, Evidence, find_doubts
from vision.city.doubt_matters import doubts_that_matter, scored_lines
from vision.city.result import ScanResult

ROOT = Path(__file__).resolve().parents[2]

# Card 12 (P R:NS / I:SW C:NS) with its top-left block at B1, and card 14 (P I:NS / C:EW R:NW) at A2 over
# it: they share B2 alone, where card 12 has an industrial curve and card 14 a straight industrial road.
CORNER = """\
.     P     R:NS
P     I:NS  C:NS
C:EW  R:NW  .
"""
CORNER_CARDS = (Placement(12, False, 0, 1), Placement(14, False, 1, 0))
# Card 2 (I:NW P / R:EW C:EW) laid on the bottom row of card 1 (C:NS P / I:NE R:EW): they share A2 (an
# industrial road either way) and B2 (a park on card 2, a residential block on card 1).
ROW = """\
C:NS  P
I:NW  P
R:EW  C:EW
"""
ROW_CARDS = (Placement(1, False, 0, 0), Placement(2, False, 1, 0))


def _as_cards(text: str, placements: tuple[Placement, ...], **read: CellReading) -> CardReading:
    """``text`` read surely (but the cells named in ``read``, e.g. ``B2=...``) and decoded as ``placements``
    (the last one on top)."""
    city = parse_city(text)
    readings = [[CellReading.certain(cell.zone, cell.road, 0.97) for cell in row] for row in city.grid]
    for name, reading in read.items():
        readings[int(name[1:]) - 1][ord(name[0]) - ord("A")] = reading
    shows: dict[tuple[int, int], StackedCell] = {}
    for placement in placements:
        for rc, label in placement.cells():
            shows[rc] = StackedCell(label, "card", placement.card)
    rows, cols = city.n_rows, city.n_cols
    cards = [[shows[(r, c)].card if (r, c) in shows else None for c in range(cols)] for r in range(rows)]
    return CardReading(readings, cards, CardStacking(placements, shows, 0.0, 1.0), True, readings)


def _straight_or_curve(p_straight: float, p_curve: float) -> CellReading:
    rest = 1.0 - p_straight - p_curve
    return CellReading.from_options((("I", "NS", p_straight), ("I", "SW", p_curve), ("I", "NW", rest)))


def test_a_road_that_alone_decides_which_card_lies_on_top_is_doubted_with_the_other_cards_block() -> None:
    as_cards = _as_cards(CORNER, CORNER_CARDS, B2=_straight_or_curve(0.8, 0.1))
    (doubt,) = find_doubts(assemble_city(as_cards.readings), as_cards)
    assert (doubt.name, doubt.reading, doubt.sources) == ("B2", "I:NS", ("order",))
    assert doubt.alternatives[0] == "I:SW"
    assert "14" in doubt.why and "12" in doubt.why


def test_a_stacking_order_the_reading_settles_surely_is_not_doubted() -> None:
    sure = _straight_or_curve(0.995, 0.995 * math.exp(-ORDER_DOUBT - 0.5))  # over ORDER_DOUBT nats apart
    as_cards = _as_cards(CORNER, CORNER_CARDS, B2=sure)
    assert find_doubts(assemble_city(as_cards.readings), as_cards) == ()


def test_the_reading_as_photographed_can_raise_the_doubt_the_colour_corrected_one_settles() -> None:
    as_cards = _as_cards(CORNER, CORNER_CARDS, B2=_straight_or_curve(0.995, 0.001))
    assert find_doubts(assemble_city(as_cards.readings), as_cards) == ()
    first_look = [list(row) for row in as_cards.readings]
    first_look[1][1] = _straight_or_curve(0.6, 0.3)
    (doubt,) = find_doubts(assemble_city(as_cards.readings), as_cards, Evidence(photographed=first_look))
    assert doubt.name == "B2" and doubt.alternatives[0] == "I:SW"


def test_a_swap_that_would_also_change_a_surely_read_block_is_not_doubted() -> None:
    # A2 alone would leave the order open (I:NW 0.8 against I:NE 0.15), but with card 1 on top B2 would
    # be its residential block, and B2 is read a park surely: the order is settled.
    a2 = CellReading.from_options((("I", "NW", 0.8), ("I", "NE", 0.15), ("I", "EW", 0.05)))
    as_cards = _as_cards(ROW, ROW_CARDS, A2=a2)
    assert find_doubts(assemble_city(as_cards.readings), as_cards) == ()


@pytest.mark.slow
def test_a_scan_whose_colours_were_corrected_keeps_its_first_look_for_the_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.pipeline as pipeline

    photo = (ROOT / "samples" / "demo.jpg").read_bytes()
    first: list[object] = []

    def corrected(geometry: object, readings: list, classify: object) -> tuple[object, list]:
        first.append(readings)
        return geometry, [list(row) for row in readings]  # read again: new readings

    monkeypatch.setattr(pipeline, "normalise_zone_colours", corrected)
    result = pipeline.scan_image(photo)
    assert result.cards_read is not None and result.cards_read.photographed is first[0]
    monkeypatch.setattr(pipeline, "normalise_zone_colours", lambda g, readings, c: (g, readings))
    assert pipeline.scan_image(photo).cards_read.photographed is None  # nothing corrected, no second look


def _told(as_cards: CardReading) -> tuple[CellDoubt, ...]:
    """The doubts a player is told of, with the scoring cards unknown (any of the 18 may score)."""
    assembled = assemble_city(as_cards.readings)
    return doubts_that_matter(assembled.city, find_doubts(assembled, as_cards), None)


def test_a_road_that_alone_decides_the_order_is_told_though_the_other_road_scores_the_same() -> None:
    # B2 as a curve scores every line of every card the same: only the road the overlay draws changes.
    city = parse_city(CORNER)
    curve = city.with_cell(1, 1, parse_cell("I:SW"))
    assert scored_lines(curve, None) == scored_lines(city, None)
    as_cards = _as_cards(CORNER, CORNER_CARDS, B2=_straight_or_curve(0.89, 0.1))  # no third road
    (doubt,) = _told(as_cards)
    assert (doubt.name, doubt.alternatives, doubt.sources) == ("B2", ("I:SW",), ("order",))
    # Asked only what a card scores (whether the city's scoring cards stand), the road is no doubt.
    found = find_doubts(assemble_city(as_cards.readings), as_cards)
    assert doubts_that_matter(city, found, None, seen=False) == ()


def test_a_road_the_cards_chose_over_the_classifiers_own_reading_is_not_told_where_it_scores_the_same() -> (
    None
):
    # The classifier's first look prefers the curve; card 14 on top (the other cells say so) shows the
    # straight road: the order rests on the cards, and the curve would change no line.
    as_cards = _as_cards(CORNER, CORNER_CARDS)
    first_look = [list(row) for row in as_cards.readings]
    first_look[1][1] = CellReading.from_options((("I", "SW", 0.6), ("I", "NS", 0.35), ("I", "NW", 0.05)))
    as_cards = replace(as_cards, before=first_look)
    (found,) = find_doubts(assemble_city(as_cards.readings), as_cards)
    assert "order" in found.sources and found.seen == ()
    assert _told(as_cards) == ()


def test_a_road_the_card_decoding_hardly_tells_is_told_whatever_it_scores() -> None:
    as_cards = _as_cards(CORNER, CORNER_CARDS, B2=_straight_or_curve(0.8, 0.15))
    shown = dict(as_cards.decoding.cells)
    shown[(1, 1)] = replace(shown[(1, 1)], margin=0.5)  # another explanation almost as good
    as_cards = replace(as_cards, decoding=replace(as_cards.decoding, cells=shown))
    (doubt,) = _told(as_cards)
    assert "cards" in doubt.sources and "I:SW" in doubt.alternatives and "I:SW" in doubt.seen


def test_a_road_told_for_what_it_shows_says_that_the_score_stays() -> None:
    city = parse_city(CORNER)
    (doubt,) = _told(_as_cards(CORNER, CORNER_CARDS, B2=_straight_or_curve(0.89, 0.1)))
    scored = score_scan(ScanResult(city, [], [], {}, None, doubts=(doubt,)), ScoreOptions())
    line = doubt_text(scored.doubt, scored.breakdown.total)
    total = scored.breakdown.total
    assert f"B2 read as I:NS: if it is I:SW the total is {total} too, and no line changes (cards 14" in line
