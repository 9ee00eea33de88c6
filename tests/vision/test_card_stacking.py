"""The joint decoding's program and its search: the placements considered, the rows that keep cards from
lying on each other, the branch and bound on the stacking order, and the doubt checks' early stop."""

from __future__ import annotations

import math
import random

import highspy
import numpy as np
import pytest

from scoring.layouts import LAYOUTS
from scoring.placement import Play, simulate_play
from vision.cards.branch import best_stacking, stacking_cycle, two_cycles
from vision.cards.pieces import ANCHOR, SURELY_EMPTY, Placement, candidate_pieces, quadrants
from vision.cards.program import UNEXPLAINED_COST, CardProgram
from vision.cards.stacking import EMPTY_LABEL, CellEvidence, stack_cards

STOP = 6.0  # nats: where the checks in the test stop
LABELS = [(z, r) for z in "RCI" for r in (None, "NS", "NE", "NW", "SE", "SW", "EW")] + [("P", None)]


def _random_evidence(rng: random.Random) -> CellEvidence | None:
    """A cell as the classifier might read it: now and then beyond the frame, under Wrecktar, or table."""
    roll = rng.random()
    if roll < 0.05:
        return None
    if roll < 0.08:
        return CellEvidence({EMPTY_LABEL: math.log(0.01)}, wrecktar=True)
    labels = rng.sample([*LABELS, EMPTY_LABEL], 4)
    weights = np.array([rng.random() ** 3 for _ in labels])
    weights /= weights.sum()
    return CellEvidence({lab: math.log(max(w, 1e-6)) for lab, w in zip(labels, weights, strict=True)})


def _reference_pieces(program: CardProgram, placement: Placement) -> list | None:
    """The rule for one placement, cell by cell (what candidate_pieces does on arrays)."""
    out = []
    for k, ((r, c), label) in enumerate(placement.cells()):
        if not (0 <= r < program.rows and 0 <= c < program.cols):
            return None
        ev = program.grid[r][c]
        if ev is None or ev.wrecktar:
            continue
        if math.exp(ev.log(EMPTY_LABEL)) >= SURELY_EMPTY:
            return None
        value = ev.log(label)
        if value >= ev.best_block[1] - program.costs[(r, c)]:
            out.append((k, (r, c), value))
    if not any(value >= math.log(ANCHOR) for _, _, value in out):
        return None
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_placements_found_on_arrays_are_those_the_rule_gives_cell_by_cell(seed: int) -> None:
    rng = random.Random(seed)
    grid = [[_random_evidence(rng) for _ in range(7)] for _ in range(6)]
    cards = list(LAYOUTS)
    program = CardProgram(grid, cards, UNEXPLAINED_COST)
    expected = []
    for card in cards:
        for rotated in (False, True):
            for r0 in range(-1, 6):
                for c0 in range(-1, 7):
                    placement = Placement(card, rotated, r0, c0)
                    pieces = _reference_pieces(program, placement)
                    if pieces:
                        expected.append((placement, pieces))
    candidates = candidate_pieces(program.table, cards)
    found = [
        (placement, [(k, rc, candidates.value[p, k]) for k, (rc, _) in enumerate(placement.cells()) if on[k]])
        for p, (placement, on) in enumerate(zip(candidates.placements(), candidates.shown, strict=True))
    ]
    assert [p for p, _ in found] == [p for p, _ in expected]
    for (_, got), (_, want) in zip(found, expected, strict=True):
        assert [(k, rc) for k, rc, _ in got] == [(k, rc) for k, rc, _ in want]
        assert np.allclose([v for *_, v in got], [v for *_, v in want])
    assert len(expected) > 20  # the grids are not so noisy that nothing fits


def _no_two_cycle(program: CardProgram, p: int, q: int) -> list[tuple[dict[int, float], float, float]]:
    """Rows that placements p and q never both show a cell of their overlap: y_pa + y_qb ≤ 1, a ≠ b."""
    overlap = set(program.covers(p)) & set(program.covers(q))
    mine = [y for y in program.shown(p) if program.names[y][3] in overlap]
    theirs = [y for y in program.shown(q) if program.names[y][3] in overlap]
    return [
        ({a: 1.0, b: 1.0}, -np.inf, 1.0)
        for a in mine
        for b in theirs
        if program.names[a][3] != program.names[b][3]
    ]


def _exact_optimum(program: CardProgram) -> float:
    """The best stacking by HiGHS's own branch and bound, every pair of overlapping placements kept from
    lying on each other by rows and longer cycles cut until none is left (slow, but exact)."""
    n = len(program.placements)
    for p in range(n):
        for q in range(p + 1, n):
            if set(program.covers(p)) & set(program.covers(q)):
                program.extra_rows += _no_two_cycle(program, p, q)
    h = program._model()
    cols = len(program.names)
    h.changeColsIntegrality(
        cols, np.arange(cols, dtype=np.int32), np.full(cols, highspy.HighsVarType.kInteger)
    )
    while True:
        h = program._model()
        h.run()
        assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
        x = np.round(np.array(h.getSolution().col_value)).astype(bool)
        cycle = stacking_cycle(program, x)
        if cycle is None:
            return -float(h.getInfo().objective_function_value)
        program.extra_rows.append(({y: 1.0 for y in cycle}, -np.inf, len(cycle) - 1.0))


def _noisy_city_grid(seed: int, n_cards: int, misreads: int) -> list[list[CellEvidence | None]]:
    """A simulated city read with a ring of table, a few of its blocks misread fairly surely."""
    return _noisy_play(seed, n_cards, misreads)[0]


def _noisy_play(seed: int, n_cards: int, misreads: int) -> tuple[list[list[CellEvidence | None]], Play]:
    rng = random.Random(seed)
    play = simulate_play(rng, n_cards=n_cards)
    city = play.city
    rows, cols = city.n_rows + 2, city.n_cols + 2
    grid: list[list[CellEvidence | None]] = [
        [CellEvidence({EMPTY_LABEL: math.log(0.97), ("P", None): math.log(0.03)})] * cols for _ in range(rows)
    ]
    blocks = [(r, c, cell) for r, c, cell in city.cells() if cell.is_block]
    wrong = {(r, c) for r, c, _ in rng.sample(blocks, misreads)}
    for r, c, cell in blocks:
        true = (cell.zone, cell.road)
        other = rng.choice([lab for lab in LABELS if lab != true])
        p = rng.uniform(0.5, 0.8) if (r, c) in wrong else rng.uniform(0.6, 0.99)
        best, second = (other, true) if (r, c) in wrong else (true, other)
        log_p = {best: math.log(p), second: math.log((1 - p) * 0.8), EMPTY_LABEL: math.log((1 - p) * 0.2)}
        grid[r + 1][c + 1] = CellEvidence(log_p)
    return grid, play


@pytest.mark.parametrize(("seed", "n_cards"), [(4, 6), (9, 8), (21, 7)])
def test_the_search_finds_the_best_stacking(seed: int, n_cards: int) -> None:
    grid = _noisy_city_grid(seed, n_cards, misreads=4)
    program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    solved = best_stacking(program)
    assert solved is not None
    objective, x, _ = solved
    assert not two_cycles(program, x) and stacking_cycle(program, x) is None
    used = [program.placements[int(program.names[i][1])] for i in program.x_vars if x[i]]
    assert len({p.card for p in used}) == len(used)
    reference = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    assert objective == pytest.approx(_exact_optimum(reference), abs=1e-6)


def _two_halves() -> tuple[list, list]:
    """Two cards (with turns) whose top row and bottom row, side by side at one place, no single card
    shows three of: only the two together, each lying on the other, would explain all four."""
    turns = [(n, t) for n in LAYOUTS for t in (False, True)]
    for first in turns:
        for second in turns:
            if first[0] == second[0]:
                continue
            want = [*quadrants(*first)[:2], *quadrants(*second)[2:]]
            best_single = max(
                sum(q[2] == w[2] for q, w in zip(quadrants(*t), want, strict=True)) for t in turns
            )
            if best_single <= 2:
                return list(quadrants(*first)[:2]), list(quadrants(*second)[2:])
    raise AssertionError("no such pair of cards")


def test_two_cards_at_one_place_are_never_both_placed() -> None:
    top, bottom = _two_halves()
    empty = CellEvidence({EMPTY_LABEL: math.log(0.97), ("P", None): math.log(0.03)})
    grid: list[list[CellEvidence | None]] = [[empty] * 4 for _ in range(4)]
    for dr, dc, label in (*top, *bottom):
        grid[1 + dr][1 + dc] = CellEvidence({label: math.log(0.9), EMPTY_LABEL: math.log(0.01)})
    decoding = stack_cards(grid)
    places = [(p.row, p.col) for p in decoding.placements]
    assert len(places) == len(set(places))
    program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    assert decoding.objective == pytest.approx(_exact_optimum(program), abs=1e-6)


def test_a_check_stopped_early_never_reports_more_margin_than_there_is() -> None:
    grid = _noisy_city_grid(9, 8, misreads=3)
    program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    solved = best_stacking(program)
    assert solved is not None
    objective, x, _ = solved
    stopped = exact = 0
    for rc in program.visible:
        shown = [i for i in program.at_cell[rc] if x[i] and program.names[i][0] == "y"]
        if not shown:
            continue
        n = program.names[shown[0]]
        forbid = program.label_vars(rc, program.placements[n[1]].cells()[n[2]][1])
        full = program.relaxed_best(forbid)
        early = program.relaxed_best(forbid, stop_below=objective - STOP)
        assert full is not None and early is not None
        assert early >= full - 1e-6  # still an upper bound: the margin is never overstated
        if objective - full < STOP:
            exact += 1
            assert early == pytest.approx(full, abs=1e-6)  # below the stop the margin is exact
        else:
            stopped += 1
            assert objective - early >= STOP - 1e-6
    assert stopped and exact


def test_a_second_decoding_of_the_same_grid_reuses_the_program_and_agrees_with_a_fresh_one() -> None:
    from vision.cards.stacking import stack_program

    grid, play = _noisy_play(31, 15, misreads=5)
    program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    first = stack_program(program)
    again = stack_program(program, exclude=play.scoring_cards)
    fresh = stack_cards(grid, exclude=play.scoring_cards)
    assert not {p.card for p in again.placements} & set(play.scoring_cards)
    assert again.objective == pytest.approx(fresh.objective, abs=1e-6)
    assert {rc: d.label for rc, d in again.cells.items()} == {rc: d.label for rc, d in fresh.cells.items()}
    assert first.objective >= again.objective - 1e-6  # fewer cards can only explain less


def test_the_scan_builds_one_program_for_its_two_decodings(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.cards.city as city_as_cards
    from vision.cells.reading import CellReading

    grid, play = _noisy_play(8, 15, misreads=2)
    built = []

    class Counted(CardProgram):
        def __init__(self, *args: object) -> None:
            built.append(1)
            super().__init__(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(city_as_cards, "CardProgram", Counted)
    monkeypatch.setattr(city_as_cards, "evidence_grid", lambda *_: grid)
    readings = [
        [CellReading.from_options(((*ev.best[0], 0.9),)) if ev else None for ev in row] for row in grid
    ]
    first = city_as_cards.read_as_cards(readings, [], np.ones(1), np.ones(1))
    second = city_as_cards.read_as_cards(readings, [], np.ones(1), np.ones(1), exclude=play.scoring_cards)
    assert len(built) == 1
    fresh = stack_cards(grid, exclude=play.scoring_cards)
    assert second.decoding.objective == pytest.approx(fresh.objective)
    other = [list(row) for row in grid]
    other[1][1] = CellEvidence({("P", None): 0.0})
    monkeypatch.setattr(city_as_cards, "evidence_grid", lambda *_: other)
    city_as_cards.read_as_cards(readings, [], np.ones(1), np.ones(1))
    assert len(built) == 2  # another grid, another program
    assert first.used


def test_a_decoding_without_checks_reads_the_same_and_claims_no_margins() -> None:
    grid = _noisy_city_grid(12, 15, misreads=4)
    full = stack_cards(grid)
    quick = stack_cards(grid, checks=False)
    assert full.checks > 0 and quick.checks == 0
    assert quick.placements == full.placements and quick.explained == full.explained
    assert {rc: d.label for rc, d in quick.cells.items()} == {rc: d.label for rc, d in full.cells.items()}
    assert all(d.margin is None for d in quick.cells.values()) and quick.missing_margin is None


def test_the_best_card_left_out_is_found_as_solving_each_in_turn_finds_it() -> None:
    from vision.cards.stacking import stack_program

    for seed in (7, 8, 10):
        grid, _ = _noisy_play(seed, 15, misreads=5)
        program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
        decoding = stack_program(program, checks=False)
        left_out = [n for n in LAYOUTS if n not in {p.card for p in decoding.placements}]
        one_by_one = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
        stack_program(one_by_one, checks=False)
        bounds = [b for n in left_out if (b := one_by_one.best_using(n)) is not None]
        assert program.best_using_any(left_out) == pytest.approx(max(bounds), abs=1e-7)


class _OneByOne(CardProgram):
    """The program as it found the left-out cards' margin before: each card solved in turn on the model."""

    def best_using_any(self, cards: list[int]) -> float | None:  # type: ignore[override]
        return max((b for n in cards if (b := self.best_using(n)) is not None), default=None)


@pytest.mark.parametrize("seed", [8, 10, 12])
def test_a_second_decoding_takes_the_path_it_took_when_each_left_out_card_was_solved_in_turn(
    seed: int,
) -> None:
    """The margin is found on a copy of the model, which then solves each card in turn before its next
    solve: a second decoding makes the same choice between equally good explanations, and its checks stop
    early at the same bounds."""
    from dataclasses import replace

    from vision.cards.stacking import stack_program

    grid, play = _noisy_play(seed, 15, misreads=5)
    fast, slow = (
        CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST),
        _OneByOne(grid, list(LAYOUTS), UNEXPLAINED_COST),
    )
    first, first_slow = stack_program(fast), stack_program(slow)
    assert first.missing_margin is not None and fast._owed
    assert first.missing_margin == pytest.approx(first_slow.missing_margin, abs=1e-7)
    assert replace(first, missing_margin=None) == replace(first_slow, missing_margin=None)
    second = stack_program(fast, exclude=play.scoring_cards)
    assert not fast._owed
    assert second == stack_program(slow, exclude=play.scoring_cards)


def test_a_decoding_told_a_second_one_may_follow_solves_the_left_out_cards_on_the_model_itself() -> None:
    from vision.cards.stacking import stack_program

    grid, play = _noisy_play(8, 15, misreads=5)
    told, untold = (CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST) for _ in range(2))
    first = stack_program(told, again_if=play.scoring_cards)
    assert {p.card for p in first.placements} & set(play.scoring_cards)  # a second decoding will follow
    assert not told._owed
    assert first.missing_margin == pytest.approx(stack_program(untold).missing_margin, abs=1e-7)
    assert untold._owed
    second = stack_program(told, exclude=play.scoring_cards)
    assert second == stack_program(untold, exclude=play.scoring_cards)
