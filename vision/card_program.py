"""The integer program behind :mod:`vision.card_decoding`: what a cell's reading says, what a card placed
at a grid position shows, and the model HiGHS solves (through its own Python interface, ``highspy``).

* a *placement* is one card, one turn, one grid position (its top-left block); ``x_p`` says it is used;
* ``y_pk`` says placement ``p`` shows its quadrant ``k`` at that cell; every visible cell is shown by one
  placement, or read empty (``e``), or left *unexplained* (``u``: it keeps the classifier's reading, at a
  cost of :data:`UNEXPLAINED_COST` nats — expansion cards and cards we do not know end up here);
* each card is placed once at most, a placed card shows at least one cell and never lies on a cell read
  empty, and two overlapping cards never both show a cell of their overlap;
* the objective is the sum of the cells' log-probabilities of what they are read as, less the costs below;
* longer stacking cycles are cut when a solution has one, and the program solved again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import highspy
import numpy as np
from highspy._core import _Highs

from scoring.layouts import card_blocks

__all__ = ["EMPTY_LABEL", "CardProgram", "CellEvidence", "Label", "Placement"]

Label = tuple[str | None, str | None]  # (zone, road) of a block; (None, None) for an empty cell
EMPTY_LABEL: Label = (None, None)

# Leaving a visible cell unexplained by any card costs this many nats against its best reading: a cell the
# classifier read at p = 3e-4 or better for a card's quadrant is explained by that card when the card fits
# its neighbours too. A cell with an expansion mark (or next to one) belongs to a card we do not know and
# costs nothing, or little, to leave as read.
UNEXPLAINED_COST = 8.0
# Two neighbouring blocks that no card explains earn this back (nats): see _Program.
UNKNOWN_CARD_BONUS = 2.0
# Reading as table a cell the classifier read as a block costs this much on top of its log-probability.
HOLE_COST = 2.0
# Every card placed costs this many nats: a card that explains a single misread cell where the card that
# shows its neighbours would explain it too must be worth more than that (the scoring cards and cards
# covered whole are otherwise free to explain any confident misreading exactly).
PLACEMENT_COST = 3.0
MARKED_COST = 0.0
NEAR_MARK_COST = 1.0
# A placement may not cover a cell read empty this surely (it would lie on the table).
SURELY_EMPTY = 0.95
# A placement is considered only where the classifier read at least one of its blocks at this probability
# or more: a card is found by what it shows clearly, and then explains its doubtful blocks.
ANCHOR = 0.3
# A Sprawlopolis city holds 15 cards (18 less the three scoring cards).
CITY_CARDS = 15
MAX_CUT_ROUNDS = 30
# Branch and bound (needed only when the relaxation is fractional) and the doubt checks get this long
# (seconds) after the program is built: branch and bound then keeps its best solution so far, with at least
# 0.05 s a round, and the checks left are skipped. The stacking-cycle cuts always run.
DEADLINE = 0.15
LOG_FLOOR = math.log(1e-6)


@dataclass(frozen=True)
class CellEvidence:
    """What the classifier read in one visible cell.

    ``log_p`` maps labels (``(zone, road)``, and :data:`EMPTY_LABEL`) to log-probabilities; labels not in
    it count as :data:`LOG_FLOOR`. ``wrecktar``: the cell is under the Wrecktar card (never shown by a city
    card, never empty); ``marked``: the block carries an expansion mark, so it is part of a card whose
    layout is not one of the 18.
    """

    log_p: Mapping[Label, float]
    wrecktar: bool = False
    marked: bool = False

    def log(self, label: Label) -> float:
        return float(self.log_p.get(label, LOG_FLOOR))

    @cached_property  # asked for every quadrant of every placement considered: computed once
    def best(self) -> tuple[Label, float]:
        label = max(self.log_p, key=self.log_p.__getitem__)
        return label, float(self.log_p[label])

    @cached_property
    def best_block(self) -> tuple[Label, float]:
        """The most probable block label (the reading a cell keeps when no card explains it)."""
        blocks = [k for k in self.log_p if k != EMPTY_LABEL] or [("P", None)]
        label = max(blocks, key=self.log)
        return label, self.log(label)


@dataclass(frozen=True)
class Placement:
    """One card in the city: its number, whether it lies turned by 180°, and its top-left block's cell."""

    card: int
    rotated: bool
    row: int
    col: int

    def cells(self) -> list[tuple[tuple[int, int], Label]]:
        """The card's four cells with the block each shows, TL, TR, BL, BR."""
        return [
            ((self.row + dr, self.col + dc), label) for dr, dc, label in _quadrants(self.card, self.rotated)
        ]


@lru_cache(maxsize=64)
def _quadrants(card: int, rotated: bool) -> tuple[tuple[int, int, Label], ...]:
    (tl, tr), (bl, br) = card_blocks(card, rotated)
    return tuple((dr, dc, (b.zone, b.road)) for dr, dc, b in ((0, 0, tl), (0, 1, tr), (1, 0, bl), (1, 1, br)))


class CardProgram:
    """The integer program for one grid, kept (with its HiGHS model) so that it can be solved again with
    extra rows or variables forbidden."""

    def __init__(
        self, grid: Sequence[Sequence[CellEvidence | None]], cards: Sequence[int], unexplained_cost: float
    ):
        self.rows, self.cols = len(grid), max((len(r) for r in grid), default=0)
        self.grid = grid
        self.visible = [(r, c) for r in range(self.rows) for c in range(self.cols) if grid[r][c] is not None]
        seen = set(self.visible)
        self.costs = {rc: self._unexplained_cost(rc, unexplained_cost) for rc in self.visible}

        # ("x", p) | ("y", p, quadrant, rc) | ("e", rc) | ("u", rc) | ("w", rc, neighbour rc)
        names: list[tuple] = []
        gain: list[float] = []
        self.placements: list[Placement] = []
        shown: dict[int, list[int]] = {}  # placement -> its y variables
        covers: dict[int, list[tuple[int, int]]] = {}
        for card in cards:
            for rotated in (False, True):
                for r0 in range(-1, self.rows):
                    for c0 in range(-1, self.cols):
                        placement = Placement(card, rotated, r0, c0)
                        ys = self._pieces(placement)
                        if ys is None or not ys:
                            continue
                        p = len(self.placements)
                        self.placements.append(placement)
                        names.append(("x", p))
                        gain.append(-PLACEMENT_COST)
                        shown[p] = []
                        covers[p] = [rc for rc, _ in placement.cells() if rc in seen]
                        for k, rc, value in ys:
                            shown[p].append(len(names))
                            names.append(("y", p, k, rc))
                            gain.append(value)
        for rc in self.visible:
            ev = grid[rc[0]][rc[1]]
            assert ev is not None
            if not ev.wrecktar:
                # Reading a cell as table where the classifier saw a block most likely costs extra: a block
                # no card explains (an expansion card, a card we do not know) is kept, not made a hole.
                names.append(("e", rc))
                hole = HOLE_COST if ev.best[0] != EMPTY_LABEL else 0.0
                gain.append(ev.log(EMPTY_LABEL) - hole)
            # Unexplained: the cell keeps its best block reading.
            names.append(("u", rc))
            kept = 0.0 if ev.wrecktar else ev.best_block[1] - self.costs[rc]
            gain.append(kept)
        # Neighbouring cells left unexplained together earn UNKNOWN_CARD_BONUS: a card we do not know shows
        # up to four neighbouring blocks, a misreading is one cell alone.
        u_at = {n[1]: i for i, n in enumerate(names) if n[0] == "u"}
        pairs = []
        for (r, c), i in u_at.items():
            for other in ((r, c + 1), (r + 1, c)):
                j = u_at.get(other)
                if j is None:
                    continue
                ev_a, ev_b = grid[r][c], grid[other[0]][other[1]]
                if ev_a is None or ev_b is None or ev_a.wrecktar or ev_b.wrecktar:
                    continue
                if ev_a.best[0] == EMPTY_LABEL or ev_b.best[0] == EMPTY_LABEL:
                    continue
                pairs.append((len(names), i, j))
                names.append(("w", (r, c), other))
                gain.append(UNKNOWN_CARD_BONUS)
        self.names, self.gain = names, np.array(gain)
        self.var = {n: i for i, n in enumerate(names)}
        self.shown, self.covers = shown, covers

        rows: list[tuple[dict[int, float], float, float]] = []
        # The variables that explain each cell: the quadrants shown there, table, unexplained.
        self.at_cell: dict[tuple[int, int], list[int]] = {rc: [] for rc in self.visible}
        for i, n in enumerate(names):
            if n[0] == "y":
                self.at_cell[n[3]].append(i)
            elif n[0] in ("e", "u"):
                self.at_cell[n[1]].append(i)
        for rc in self.visible:
            rows.append(({i: 1.0 for i in self.at_cell[rc]}, 1.0, 1.0))  # one explanation per cell
        for w, i, j in pairs:  # w ≤ u_i, w ≤ u_j
            rows.append(({w: 1.0, i: -1.0}, -np.inf, 0.0))
            rows.append(({w: 1.0, j: -1.0}, -np.inf, 0.0))
        by_card: dict[int, list[int]] = {}
        for p, placement in enumerate(self.placements):
            x = self.var[("x", p)]
            by_card.setdefault(placement.card, []).append(x)
            for y in shown[p]:
                rows.append(({y: 1.0, x: -1.0}, -np.inf, 0.0))  # shown only when placed
            rows.append(({x: 1.0, **{y: -1.0 for y in shown[p]}}, -np.inf, 0.0))  # placed only when seen
            for rc in covers[p]:  # never on a cell read empty
                e = self.var.get(("e", rc))
                if e is not None:
                    rows.append(({x: 1.0, e: 1.0}, -np.inf, 1.0))
        for xs in by_card.values():
            rows.append(({x: 1.0 for x in xs}, -np.inf, 1.0))  # each card once
        every = [x for xs in by_card.values() for x in xs]
        rows.append(({x: 1.0 for x in every}, -np.inf, float(min(CITY_CARDS, len(cards)))))
        self.base_rows = rows
        self.extra_rows: list[tuple[dict[int, float], float, float]] = []
        self._highs: _Highs | None = None
        self._rows_in = 0
        self._cut: set[tuple[int, int]] = set()
        self.deadline = time.perf_counter() + DEADLINE

    def _no_two_cycle(self, p: int, q: int) -> list[tuple[dict[int, float], float, float]]:
        """Two overlapping cards never both show a cell of their overlap (each would lie on the other):
        ``y_pa + y_qb ≤ 1`` for every pair of different cells a, b in it (pairs, not one summed row: the
        relaxation stays integral far more often)."""
        overlap = set(self.covers[p]) & set(self.covers[q])
        mine = [y for y in self.shown[p] if self.names[y][3] in overlap]
        theirs = [y for y in self.shown[q] if self.names[y][3] in overlap]
        return [
            ({a: 1.0, b: 1.0}, -np.inf, 1.0)
            for a in mine
            for b in theirs
            if self.names[a][3] != self.names[b][3]
        ]

    def _unexplained_cost(self, rc: tuple[int, int], default: float) -> float:
        ev = self.grid[rc[0]][rc[1]]
        assert ev is not None
        if ev.marked or ev.wrecktar:
            return MARKED_COST
        r, c = rc
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                other = self.grid[rr][cc]
                if other is not None and other.marked:
                    return min(default, NEAR_MARK_COST)
        return default

    def _pieces(self, placement: Placement) -> list[tuple[int, tuple[int, int], float]] | None:
        """The quadrants worth showing (k, cell, log-probability), or None when the card cannot lie there."""
        out = []
        for k, (rc, label) in enumerate(placement.cells()):
            r, c = rc
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                return None  # beyond the lattice, which always reaches past the city
            ev = self.grid[r][c]
            if ev is None or ev.wrecktar:
                continue  # outside the photo (it may be there, unseen), or under Wrecktar
            if math.exp(ev.log(EMPTY_LABEL)) >= SURELY_EMPTY:
                return None
            value = ev.log(label)
            if value >= ev.best_block[1] - self.costs[rc]:  # else leaving it unexplained is better anyway
                out.append((k, rc, value))
        if not any(value >= math.log(ANCHOR) for _, _, value in out):
            return None
        return out

    def _model(self) -> _Highs:
        """The HiGHS model, built on first use; rows added since are appended (warm re-solves)."""
        if self._highs is None:
            # The core class, not highspy.Highs: the wrapper prints a banner on creation whatever the
            # options, and adds the callback machinery we do not use.
            h = _Highs()
            h.setOptionValue("output_flag", False)
            h.setOptionValue("threads", 1)
            n = len(self.names)
            h.addVars(n, np.zeros(n), np.ones(n))
            h.changeColsCost(n, np.arange(n, dtype=np.int32), -self.gain)
            self._highs, self._rows_in = h, 0
        rows = self.base_rows + self.extra_rows
        if self._rows_in < len(rows):
            starts, index, value, lo, hi = [], [], [], [], []
            for coef, low, high in rows[self._rows_in :]:
                starts.append(len(index))
                index += list(coef)
                value += list(coef.values())
                lo.append(max(low, -highspy.kHighsInf))
                hi.append(min(high, highspy.kHighsInf))
            self._highs.addRows(
                len(lo),
                np.array(lo),
                np.array(hi),
                len(index),
                np.array(starts, np.int32),
                np.array(index, np.int32),
                np.array(value, np.float64),
            )
            self._rows_in = len(rows)
        return self._highs

    def _run(self, forbid: Sequence[int], integral: bool) -> tuple[float, np.ndarray] | None:
        h = self._model()
        n = len(self.names)
        forbid = np.asarray(list(forbid), np.int32)
        if len(forbid):
            h.changeColsBounds(len(forbid), forbid, np.zeros(len(forbid)), np.zeros(len(forbid)))
        if integral:
            h.changeColsIntegrality(
                n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kInteger)
            )
            h.setOptionValue("time_limit", max(0.05, self.deadline - time.perf_counter()))
        h.run()
        status = h.getModelStatus()
        solution = np.array(h.getSolution().col_value) if h.getSolution().value_valid else None
        objective = -float(h.getInfo().objective_function_value)
        if integral:
            h.changeColsIntegrality(
                n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kContinuous)
            )
            h.setOptionValue("time_limit", highspy.kHighsInf)
        if len(forbid):
            h.changeColsBounds(len(forbid), forbid, np.zeros(len(forbid)), np.ones(len(forbid)))
        usable = status == highspy.HighsModelStatus.kOptimal or (
            integral and status == highspy.HighsModelStatus.kTimeLimit
        )
        if solution is None or not usable:
            return None
        return objective, solution

    def best_using(self, card: int) -> float | None:
        """An upper bound on the objective when ``card`` must be placed (the relaxation's optimum)."""
        xs = [self.var[("x", p)] for p, placement in enumerate(self.placements) if placement.card == card]
        if not xs:
            return None
        h = self._model()
        h.addRow(1.0, highspy.kHighsInf, len(xs), np.array(xs, np.int32), np.ones(len(xs)))
        try:
            solved = self._run((), integral=False)
        finally:
            h.deleteRows(1, np.array([h.getNumRow() - 1], np.int32))
        return None if solved is None else solved[0]

    def relaxed_best(self, forbid: Sequence[int]) -> float | None:
        """An upper bound on the objective with ``forbid`` set to 0: the linear relaxation's optimum."""
        solved = self._run(forbid, integral=False)
        return None if solved is None else solved[0]

    def solve(self, forbid: Sequence[int] = ()) -> tuple[float, np.ndarray] | None:
        """The best 0/1 solution: the linear relaxation first (on these programs it is nearly always
        integral already, and many times faster), branch and bound only when it is not."""
        solved = self._run(forbid, integral=False)
        if solved is None:
            return None
        if np.abs(solved[1] - np.round(solved[1])).max() > 1e-6:
            solved = self._run(forbid, integral=True)
            if solved is None:
                return None
        return solved[0], np.round(solved[1]).astype(bool)

    def _used(self, x: np.ndarray) -> list[int]:
        """The placements a solution uses."""
        return [p for p in range(len(self.placements)) if x[self.var[("x", p)]]]

    def two_cycles(self, x: np.ndarray) -> list[tuple[int, int]]:
        """Pairs of used placements that each show a cell of their overlap."""
        used = self._used(x)
        showing = {p: {self.names[y][3] for y in self.shown[p] if x[y]} for p in used}
        out = []
        for i, p in enumerate(used):
            for q in used[i + 1 :]:
                overlap = set(self.covers[p]) & set(self.covers[q])
                if overlap & showing[p] and overlap & showing[q]:
                    out.append((p, q))
        return out

    def stacking_cycle(self, x: np.ndarray) -> list[int] | None:
        """The y variables of one stacking cycle in a solution, or None (placement p lies above q when p
        shows a cell that q covers)."""
        used = self._used(x)
        above: dict[int, list[tuple[int, int]]] = {p: [] for p in used}  # p -> (q below, y var)
        for p in used:
            for y in self.shown[p]:
                if not x[y]:
                    continue
                rc = self.names[y][3]
                for q in used:
                    if q != p and rc in self.covers[q]:
                        above[p].append((q, y))
        colour: dict[int, int] = {}
        stack: list[tuple[int, int]] = []

        def visit(p: int) -> list[int] | None:
            colour[p] = 1
            for q, y in above[p]:
                if colour.get(q) == 1:
                    cycle = [y]
                    for node, var in reversed(stack):
                        cycle.append(var)
                        if node == q:
                            break
                    return cycle
                if q not in colour:
                    stack.append((p, y))
                    found = visit(q)
                    stack.pop()
                    if found:
                        return found
            colour[p] = 2
            return None

        for p in used:
            if p not in colour:
                found = visit(p)
                if found:
                    return found
        return None

    def solve_acyclic(self, forbid: Sequence[int] = ()) -> tuple[float, np.ndarray, int] | None:
        # Not cut short by the deadline: without its cycle cuts a solution is not a stacking of cards. The
        # rounds are bounded by MAX_CUT_ROUNDS, and past the deadline each branch and bound gets its minimum.
        for rounds in range(MAX_CUT_ROUNDS):
            solved = self.solve(forbid)
            if solved is None:
                return None
            pairs = [pq for pq in self.two_cycles(solved[1]) if pq not in self._cut]
            for p, q in pairs:
                self._cut.add((p, q))
                self.extra_rows += self._no_two_cycle(p, q)
            if pairs:
                continue
            cycle = self.stacking_cycle(solved[1])
            if cycle is None:
                return solved[0], solved[1], rounds
            self.extra_rows.append(({y: 1.0 for y in cycle}, -np.inf, len(cycle) - 1.0))
        return None

    def label_vars(self, rc: tuple[int, int], label: Label) -> list[int]:
        """The variables that would read cell ``rc`` as ``label``."""
        out = []
        for i in self.at_cell[rc]:
            n = self.names[i]
            if n[0] == "y":
                reads = self.placements[n[1]].cells()[n[2]][1]
            elif n[0] == "e":
                reads = EMPTY_LABEL
            else:
                ev = self.grid[rc[0]][rc[1]]
                assert ev is not None
                reads = ev.best_block[0]
            if reads == label:
                out.append(i)
        return out
