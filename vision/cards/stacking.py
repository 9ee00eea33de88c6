"""Read the city as a stack of the 18 known cards, jointly, from the classifier's per-cell probabilities.

A finished city is built from cards whose layouts are known (:mod:`scoring.layouts`): every visible cell is
one quadrant of one card, lying either way round, each card is in the city at most once, a card's covered
quadrants lie under other cards (never on an empty cell), and the stacking has an order (no two cards each
lie on the other). Reading cell by cell ignores all of that, and on real art the classifier makes mistakes
that break it: a curve read as straight in a block whose three neighbours on its card are read right. This
module finds the most probable reading that obeys the structure, as a small integer program on HiGHS
(:mod:`vision.cards.program`, the placements it considers from :mod:`vision.cards.pieces`) solved by a
branch and bound on its relaxation (:mod:`vision.cards.branch`).

Cells the decoding changed, and those the classifier doubted, are checked by solving the relaxation once
more with their label forbidden: when the next best explanation is less than :data:`DOUBT_MARGIN` nats
worse, the cell is reported in doubt rather than guessed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.layouts import LAYOUTS
from vision.cards.branch import best_stacking
from vision.cards.pieces import quadrants
from vision.cards.program import (
    CITY_CARDS,
    EMPTY_LABEL,
    UNEXPLAINED_COST,
    CardProgram,
    CellEvidence,
    Label,
    Placement,
)
from vision.cards.variables import E, U, Y

__all__ = [
    "DOUBT_MARGIN",
    "EMPTY_LABEL",
    "CardStacking",
    "StackedCell",
    "CellEvidence",
    "cell_margins",
    "explain_solution",
    "placements_of",
    "Placement",
    "stack_cards",
    "stack_program",
]

# The next best explanation of a cell must be this much less probable (nats) for the cell not to be in doubt.
DOUBT_MARGIN = 1.5
# Cells the classifier read less surely than this are checked for doubt, and at most this many checks run.
CHECK_BELOW = 0.8
MAX_CHECKS = 10
# A check stops once the margin is known to be at least this (nats): the cell is sure (confidence 0.993 or
# more), and the exact margin would cost the solver more iterations.
ENOUGH_MARGIN = 5.0


@dataclass(frozen=True)
class StackedCell:
    """How one visible cell was explained: ``source`` is ``"card"`` (``card`` shows ``label`` there),
    ``"empty"`` or ``"kept"`` (no card explains it: the classifier's reading stands). ``margin`` is how much
    less probable (nats) the best explanation with another label is, where it was checked."""

    label: Label
    source: str
    card: int | None = None
    margin: float | None = None

    @property
    def doubtful(self) -> bool:
        return self.margin is not None and self.margin < DOUBT_MARGIN


@dataclass(frozen=True)
class CardStacking:
    placements: tuple[Placement, ...]
    cells: Mapping[tuple[int, int], StackedCell]
    objective: float
    # Share of the visible blocks that a card explains.
    explained: float
    cut_rounds: int = 0
    checks: int = 0
    notes: tuple[str, ...] = field(default=())
    # How much less probable (nats) the best reading is that uses one of the cards no placement uses, where
    # it was checked (a whole city: every card but three placed); small when the cards are not certain.
    missing_margin: float | None = None

    @property
    def doubtful(self) -> list[tuple[int, int]]:
        return sorted(rc for rc, d in self.cells.items() if d.doubtful)

    def missing_cards(self, deck: Sequence[int] = tuple(LAYOUTS)) -> tuple[int, ...]:
        """The cards of ``deck`` that no placement uses."""
        used = {p.card for p in self.placements}
        return tuple(n for n in deck if n not in used)


def explain_solution(program: CardProgram, x: np.ndarray) -> dict[tuple[int, int], StackedCell]:
    """How a 0/1 solution ``x`` explains each visible cell (no margins)."""
    out: dict[tuple[int, int], StackedCell] = {}
    found = program.candidates
    for i in np.flatnonzero(x).tolist():
        kind = program.kind[i]
        if kind == Y:
            p = int(program.place_of[i])
            card = int(found.card[p])
            label = quadrants(card, bool(found.rotated[p]))[program.quad_of[i]][2]
            out[program.cell(i)] = StackedCell(label, "card", card)
        elif kind == E:
            out[program.cell(i)] = StackedCell(EMPTY_LABEL, "empty")
        elif kind == U:
            rc = program.cell(i)
            ev = program.grid[rc[0]][rc[1]]
            assert ev is not None
            out[rc] = StackedCell(EMPTY_LABEL if ev.wrecktar else ev.best_block[0], "kept")
    return out


def stack_cards(
    grid: Sequence[Sequence[CellEvidence | None]],
    *,
    exclude: Sequence[int] = (),
    unexplained_cost: float = UNEXPLAINED_COST,
    checks: bool = True,
) -> CardStacking:
    """The most probable reading of ``grid`` as a stack of the known cards.

    Parameters
    ----------
    grid : sequence of sequences of CellEvidence or None
        The lattice, row by row; ``None`` for a cell the photo does not show (beyond its frame). The lattice
        must reach at least one cell past the city on every side where the city is in view.
    exclude : sequence of int
        Cards known not to be in the city (the three scoring cards, when they are known).
    unexplained_cost : float
        Nats a cell costs when no card explains it (see :data:`UNEXPLAINED_COST`).
    checks : bool
        Whether to check the cells in doubt and the cards left out (most of the time a decoding takes);
        without, no cell has a margin and ``missing_margin`` is None.

    Returns
    -------
    CardStacking
        The placements, and for every visible cell its label, its card and, where checked, its margin.

    Examples
    --------
    Card 1 (``C:NS P / I:NE R:EW``) alone on the table, its bottom-left curve misread as straight:

    >>> import math
    >>> sure = lambda z, r=None: CellEvidence({(z, r): 0.0, (None, None): math.log(1e-4)})
    >>> empty = CellEvidence({(None, None): 0.0})
    >>> misread = CellEvidence({("I", "NS"): math.log(0.9), ("I", "NE"): math.log(0.05)})
    >>> grid = [[empty] * 4,
    ...         [empty, sure("C", "NS"), sure("P"), empty],
    ...         [empty, misread, sure("R", "EW"), empty],
    ...         [empty] * 4]
    >>> d = stack_cards(grid)
    >>> d.placements
    (Placement(card=1, rotated=False, row=1, col=1),)
    >>> d.cells[(2, 1)].label, d.cells[(2, 1)].card
    (('I', 'NE'), 1)
    """
    return stack_program(CardProgram(grid, list(LAYOUTS), unexplained_cost), exclude=exclude, checks=checks)


def stack_program(
    program: CardProgram, *, exclude: Sequence[int] = (), checks: bool = True, again_if: Sequence[int] = ()
) -> CardStacking:
    """:func:`stack_cards` on a program already built for the grid (with all 18 cards): a second
    decoding of the same grid, with other cards excluded, starts from where the first left HiGHS.

    ``again_if``: cards that, placed, mean the caller will decode the program again (the scoring cards
    given or read from their backs). The left-out cards' margin is then found card by card on the model
    itself, as the second decoding's start needs; otherwise with fewer iterations on a copy of it, in
    another thread while the checks run (see :meth:`CardProgram.best_using_any_later`). Either way the
    decoding is the same.
    """
    if not program.visible:
        return CardStacking((), {}, 0.0, 0.0)
    excluded = program.card_vars(exclude)
    solved = best_stacking(program, forbid=excluded)
    if solved is None:  # nothing feasible within the limits: every cell as read
        cells = {rc: StackedCell(program.grid[rc[0]][rc[1]].best[0], "kept") for rc in program.visible}  # type: ignore[union-attr]
        return CardStacking((), cells, float("nan"), 0.0, notes=("the card decoding found no solution",))
    objective, x, rounds = solved
    cells = explain_solution(program, x)
    placements = placements_of(program, x)
    used = {p.card for p in placements}
    left_out = [n for n in LAYOUTS if n not in used]
    whole_city = checks and len(placements) == CITY_CARDS and not exclude
    best_left_out = None
    if whole_city and not used & set(again_if):
        best_left_out = program.best_using_any_later(left_out)  # beside the checks
    margins = cell_margins(program, cells, _doubts(program, cells) if checks else [], excluded, objective)
    cells = {
        rc: StackedCell(d.label, d.source, d.card, margins.get(rc)) if rc in margins else d
        for rc, d in cells.items()
    }
    missing_margin = None
    if whole_city:
        if best_left_out is None:
            bounds = [b for n in left_out if (b := program.best_using(n)) is not None]
            best = max(bounds, default=None)
        else:
            best = best_left_out()
        missing_margin = float("inf") if best is None else objective - best
    blocks = [
        rc for rc, d in cells.items() if d.label != EMPTY_LABEL and not program.grid[rc[0]][rc[1]].wrecktar
    ]  # type: ignore[union-attr]
    explained = sum(cells[rc].source == "card" for rc in blocks) / max(1, len(blocks))
    return CardStacking(placements, cells, objective, explained, rounds, len(margins), (), missing_margin)


def placements_of(program: CardProgram, x: np.ndarray) -> tuple[Placement, ...]:
    """The cards a solution ``x`` places, in reading order."""
    found = program.candidates
    return tuple(
        sorted(
            (
                Placement(int(found.card[p]), bool(found.rotated[p]), int(found.row[p]), int(found.col[p]))
                for p in np.flatnonzero(x[program.x_vars]).tolist()
            ),
            key=lambda p: (p.row, p.col, p.card),
        )
    )


def _doubts(
    program: CardProgram, cells: dict[tuple[int, int], StackedCell]
) -> list[tuple[float, tuple[int, int]]]:
    """The cells to check, likeliest first: those the decoding changed and those the classifier doubted,
    each with how much less likely its decoded label is than the best read (≤ 0).

    Among cells the decoding left as read, the least surely read come first: only :data:`MAX_CHECKS` are
    checked, and in reading order a doubtful cell late in the city went unchecked (devset comp016 shrunk:
    a curve read straight at 0.69, margin 0.73 once checked)."""
    ranked = []
    for rc, d in cells.items():
        ev = program.grid[rc[0]][rc[1]]
        assert ev is not None
        best_label, best_log = ev.best
        if d.label != best_label or best_log < math.log(CHECK_BELOW):
            ranked.append((ev.log(d.label) - best_log, best_log, rc))
    ranked.sort()
    return [(change, rc) for change, _, rc in ranked]


def cell_margins(
    program: CardProgram,
    cells: dict[tuple[int, int], StackedCell],
    doubts: list[tuple[float, tuple[int, int]]],
    excluded: list[int],
    objective: float,
) -> dict[tuple[int, int], float]:
    """How much worse the next best explanation of each of the first :data:`MAX_CHECKS` doubted cells is."""
    margins: dict[tuple[int, int], float] = {}
    for _, rc in doubts[:MAX_CHECKS]:
        forbid = program.label_vars(rc, cells[rc].label) + excluded
        # The relaxation bounds the next best explanation from above, so the margin is at least this:
        # a cell reported in doubt may, rarely, be a little surer than reported, never the other way.
        bound = program.relaxed_best(forbid, stop_below=objective - ENOUGH_MARGIN)
        margins[rc] = float("inf") if bound is None else max(0.0, objective - bound)
    return margins
