"""The integer program behind :mod:`vision.card_decoding`: what a cell's reading says, what a card placed
at a grid position shows, and the model HiGHS solves (through its own Python interface, ``highspy``).

* a *placement* is one card, one turn, one grid position (its top-left block); ``x_p`` says it is used;
* ``y_pk`` says placement ``p`` shows its quadrant ``k`` at that cell; every visible cell is shown by one
  placement, or read empty (``e``), or left *unexplained* (``u``: it keeps the classifier's reading, at a
  cost of :data:`UNEXPLAINED_COST` nats — expansion cards and cards we do not know end up here);
* each card is placed once at most and never lies on a cell read empty, a placed card shows at least one
  cell (it costs :data:`PLACEMENT_COST`, so a card that shows nothing is never placed), and two
  overlapping cards never both show a cell of their overlap (rows for cards at one place or side by side,
  the only ones that can); :mod:`vision.card_stacking` finds the best solution that is a stacking;
* the objective is the sum of the cells' log-probabilities of what they are read as, less the costs below.

The placements considered come from :mod:`vision.card_pieces`. The model is built once per grid and
solved many times (the doubt checks, the scoring cards' margin), each time from HiGHS's last basis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import highspy
import numpy as np
from highspy._core import _Highs

from vision.card_pieces import SURELY_EMPTY, CellTable, Placement, candidate_pieces, quadrants

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
# A Sprawlopolis city holds 15 cards (18 less the three scoring cards).
CITY_CARDS = 15
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


class _Rows:
    """Rows gathered as one sparse matrix (compressed by row) and added to HiGHS in one call."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.index: list[int] = []
        self.value: list[float] = []
        self.lo: list[float] = []
        self.hi: list[float] = []

    def __len__(self) -> int:
        return len(self.lo)

    def add(self, index: Sequence[int], value: float | Sequence[float], lo: float, hi: float) -> None:
        self.starts.append(len(self.index))
        self.index += index
        self.value += [value] * len(index) if isinstance(value, float) else value
        self.lo.append(max(lo, -highspy.kHighsInf))
        self.hi.append(min(hi, highspy.kHighsInf))

    def add_pairs(self, a: np.ndarray, b: np.ndarray, hi: float) -> None:
        """Rows ``v_a - v_b ≤ hi``, one for each pair of ``a`` and ``b``."""
        n = len(a)
        self.starts += (len(self.index) + 2 * np.arange(n)).tolist()
        self.index += np.stack([a, b], axis=1).ravel().tolist()
        self.value += [1.0, -1.0] * n
        self.lo += [-highspy.kHighsInf] * n
        self.hi += [hi] * n

    def add_to(self, h: _Highs) -> None:
        if not self.lo:
            return
        h.addRows(
            len(self.lo),
            np.array(self.lo),
            np.array(self.hi),
            len(self.index),
            np.array(self.starts, np.int32),
            np.array(self.index, np.int32),
            np.array(self.value, np.float64),
        )


class CardProgram:
    """The integer program for one grid, kept (with its HiGHS model) so that it can be solved again with
    extra rows or variables forbidden."""

    def __init__(
        self, grid: Sequence[Sequence[CellEvidence | None]], cards: Sequence[int], unexplained_cost: float
    ):
        self.rows, self.cols = len(grid), max((len(r) for r in grid), default=0)
        self.grid = grid
        self.visible = [(r, c) for r in range(self.rows) for c in range(self.cols) if grid[r][c] is not None]
        self.costs = {rc: self._unexplained_cost(rc, unexplained_cost) for rc in self.visible}
        pieces = candidate_pieces(self._table(cards), cards)

        # ("x", p) | ("y", p, quadrant, rc) | ("e", rc) | ("u", rc) | ("w", rc, neighbour rc)
        names: list[tuple] = []
        gain: list[float] = []
        self.placements = [placement for placement, _, _ in pieces]
        shown: dict[int, list[int]] = {}  # placement -> its y variables
        covers: dict[int, list[tuple[int, int]]] = {}
        for p, (_, ys, covered) in enumerate(pieces):
            names.append(("x", p))
            gain.append(-PLACEMENT_COST)
            shown[p] = list(range(len(names), len(names) + len(ys)))
            covers[p] = covered
            names += [("y", p, k, rc) for k, rc, _ in ys]
            gain += [value for _, _, value in ys]
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
            gain.append(0.0 if ev.wrecktar else ev.best_block[1] - self.costs[rc])
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
        self.x_vars = np.array([i for i, n in enumerate(names) if n[0] == "x"], np.int64)
        self.shown, self.covers = shown, covers
        # The variables that explain each cell: the quadrants shown there, table, unexplained.
        self.at_cell: dict[tuple[int, int], list[int]] = {rc: [] for rc in self.visible}
        for i, n in enumerate(names):
            if n[0] == "y":
                self.at_cell[n[3]].append(i)
            elif n[0] in ("e", "u"):
                self.at_cell[n[1]].append(i)
        self.base_rows = self._base_rows(pairs, min(CITY_CARDS, len(cards)))
        self.extra_rows: list[tuple[dict[int, float], float, float]] = []
        self._highs: _Highs | None = None
        self._rows_in = 0

    def _table(self, cards: Sequence[int]) -> CellTable:
        """The grid as arrays over the labels the cards show (see :class:`vision.card_pieces.CellTable`)."""
        labels: dict[Label, int] = {EMPTY_LABEL: 0}
        for card in cards:
            for rotated in (False, True):
                for _, _, label in quadrants(card, rotated):
                    labels.setdefault(label, len(labels))
        log_p = np.full((self.rows, self.cols, len(labels)), LOG_FLOOR)
        visible = np.zeros((self.rows, self.cols), bool)
        open_ = np.zeros_like(visible)
        surely_empty = np.zeros_like(open_)
        threshold = np.zeros((self.rows, self.cols))
        for r, c in self.visible:
            ev = self.grid[r][c]
            assert ev is not None
            for label, i in labels.items():
                log_p[r, c, i] = ev.log(label)
            visible[r, c], open_[r, c] = True, not ev.wrecktar
            surely_empty[r, c] = math.exp(ev.log(EMPTY_LABEL)) >= SURELY_EMPTY
            threshold[r, c] = ev.best_block[1] - self.costs[(r, c)]
        return CellTable(labels, log_p, visible, open_, surely_empty, threshold)

    def _base_rows(self, pairs: Sequence[tuple[int, int, int]], most_cards: int) -> _Rows:
        """The program's rows (see the module's docstring), as one sparse matrix."""
        rows = _Rows()
        for rc in self.visible:
            rows.add(self.at_cell[rc], 1.0, 1.0, 1.0)  # one explanation per cell
        if pairs:  # w ≤ u_i, w ≤ u_j
            w, i, j = np.array(pairs).T
            rows.add_pairs(np.repeat(w, 2), np.stack([i, j], axis=1).ravel(), 0.0)
        by_card: dict[int, list[int]] = {}
        for p, placement in enumerate(self.placements):
            by_card.setdefault(placement.card, []).append(self.var[("x", p)])
        ys = [(y, self.var[("x", p)]) for p, shown in self.shown.items() for y in shown]
        if ys:
            y, x = np.array(ys).T
            rows.add_pairs(y, x, 0.0)  # shown only when placed
        # A card that shows nothing is never placed: it costs PLACEMENT_COST and explains nothing, so the
        # program needs no row for it.
        for xs in by_card.values():
            rows.add(xs, 1.0, -np.inf, 1.0)  # each card once
        self._add_overlap_rows(rows)
        rows.add([x for xs in by_card.values() for x in xs], 1.0, -np.inf, float(most_cards))
        return rows

    def _add_overlap_rows(self, rows: _Rows) -> None:
        """Rows that no two cards lie on each other, for every pair of places that overlap in two or
        four cells (one cell cannot be shown by both). They also keep the relaxation integral far more
        often than rows for single pairs of cells would.

        Two cards at one place: the one below would show nothing, so one card at most per place (and with
        it, one row per cell that no card there lies on a cell read empty). Cards at
        places side by side (or one above the other) overlap in two cells a, b: a card at the first place
        showing a and one at the second showing b lie on each other, so ``Σ y_first,a + Σ y_second,b ≤ 1``
        and the same with a and b swapped.
        """
        by_place: dict[tuple[int, int], list[int]] = {}
        for p, placement in enumerate(self.placements):
            by_place.setdefault((placement.row, placement.col), []).append(p)
        y_at: dict[tuple[int, tuple[int, int]], int] = {}
        for p, ys in self.shown.items():
            for y in ys:
                y_at[(p, self.names[y][3])] = y
        for (r, c), here in by_place.items():
            xs = [self.var[("x", p)] for p in here]
            if len(xs) > 1:
                rows.add(xs, 1.0, -np.inf, 1.0)
            for rc in self.covers[here[0]]:  # never on a cell read empty (one row for all cards here)
                e = self.var.get(("e", rc))
                if e is not None:
                    rows.add([*xs, e], 1.0, -np.inf, 1.0)
            for dr, dc in ((0, 1), (1, 0)):
                there = by_place.get((r + dr, c + dc))
                if not there:
                    continue
                a, b = (r + dr, c + dc), (r + 1, c + 1)  # the two cells both places cover
                for first, second in ((a, b), (b, a)):
                    ys = [y_at[k] for k in ((p, first) for p in here) if k in y_at]
                    ys += [y_at[k] for k in ((q, second) for q in there) if k in y_at]
                    if ys:
                        rows.add(ys, 1.0, -np.inf, 1.0)

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

    def _model(self) -> _Highs:
        """The HiGHS model, built on first use; rows added since are appended (warm re-solves)."""
        if self._highs is None:
            # The core class, not highspy.Highs: the wrapper prints a banner on creation whatever the
            # options, and adds the callback machinery we do not use.
            h = _Highs()
            h.setOptionValue("output_flag", False)
            h.setOptionValue("threads", 1)
            # Presolve costs more than it saves on these small programs, solved again and again warm.
            h.setOptionValue("presolve", "off")
            n = len(self.names)
            h.addVars(n, np.zeros(n), np.ones(n))
            h.changeColsCost(n, np.arange(n, dtype=np.int32), -self.gain)
            self._highs, self._rows_in = h, 0
        if self._rows_in == 0:
            self.base_rows.add_to(self._highs)
            self._rows_in = 1
        if self._rows_in - 1 < len(self.extra_rows):
            extra = _Rows()
            for coef, low, high in self.extra_rows[self._rows_in - 1 :]:
                extra.add(list(coef), list(coef.values()), low, high)
            extra.add_to(self._highs)
            self._rows_in = 1 + len(self.extra_rows)
        return self._highs

    def relax(self, forbid: Sequence[int] = (), force: Sequence[int] = ()) -> tuple[float, np.ndarray] | None:
        """The linear relaxation's optimum (objective, values) with ``forbid`` at 0 and ``force`` at 1, or
        None when that is infeasible. HiGHS starts from its last basis: only bounds change in between."""
        h = self._model()
        forbid = np.asarray(list(forbid), np.int32)
        force = np.asarray(list(force), np.int32)
        if len(forbid):
            h.changeColsBounds(len(forbid), forbid, np.zeros(len(forbid)), np.zeros(len(forbid)))
        if len(force):
            h.changeColsBounds(len(force), force, np.ones(len(force)), np.ones(len(force)))
        h.run()
        status = h.getModelStatus()
        solution = np.array(h.getSolution().col_value) if h.getSolution().value_valid else None
        objective = -float(h.getInfo().objective_function_value)
        for fixed in (forbid, force):
            if len(fixed):
                h.changeColsBounds(len(fixed), fixed, np.zeros(len(fixed)), np.ones(len(fixed)))
        usable = status in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kObjectiveBound)
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
            solved = self.relax()
        finally:
            h.deleteRows(1, np.array([h.getNumRow() - 1], np.int32))
        return None if solved is None else solved[0]

    def relaxed_best(self, forbid: Sequence[int], stop_below: float = -math.inf) -> float | None:
        """An upper bound on the objective with ``forbid`` set to 0: the linear relaxation's optimum, or,
        once that is known to lie below ``stop_below``, the bound the dual simplex has reached by then
        (still an upper bound, found in fewer iterations)."""
        h = self._model()
        if stop_below > -math.inf:
            h.setOptionValue("objective_bound", -stop_below)  # HiGHS minimises the negated objective
        try:
            solved = self.relax(forbid)
        finally:
            h.setOptionValue("objective_bound", highspy.kHighsInf)
        return None if solved is None else solved[0]

    def card_vars(self, cards: Sequence[int]) -> list[int]:
        """The placement variables of ``cards``."""
        wanted = set(cards)
        return [self.var[("x", p)] for p, placement in enumerate(self.placements) if placement.card in wanted]

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
