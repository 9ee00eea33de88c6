"""The integer program that reads a town grid as a stack of known cards, on HiGHS.

The same model as the Sprawlopolis decoding (:mod:`vision.cards.program`), for cards whose quadrants are
territories, with none of the Sprawlopolis expansions: Circle the Wagons cards lie the same way (2 × 2
cells, 0° or 180°, overlapping by whole cells, each new card on top).

* ``x_p``: placement ``p`` (one card, one turn, one top-left cell) is used; it costs
  :data:`PLACEMENT_COST`, so a card that explains nothing is never placed;
* ``y_pk``: placement ``p`` shows its quadrant ``k`` (TL, TR, BL, BR), gaining the cell's log-probability
  of that territory; ``e``: the cell is table (less :data:`HOLE_COST` where a territory was read); ``u``:
  no card explains the cell, which keeps its best territory reading at the decoder's unexplained cost;
* every cell has exactly one explanation, a quadrant is shown only by a placed card, each card is placed
  at most once, no card lies on a cell read as table, two cards at one place are never both placed, and
  two overlapping cards never each show a cell of their overlap (the rows of
  :func:`vision.cards.overlap_rows`, reused as they are). Longer stacking cycles are cut by
  :func:`vision.cards.best_stacking`, which this program serves as it serves a ``CardProgram``.

Placements are considered only inside the grid (every cell of a card is a cell of the town, shown or
covered), where no cell they cover is surely table, and where one of their quadrants is read at
:data:`ANCHOR` or more. A quadrant whose territory is read less probably than leaving the cell unexplained
gets no ``y`` (it could never be the better choice).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np
from highspy._core import _Highs

from scoring.wagons.cards import CardGrid
from vision.cards import Layout, Rows, new_highs, overlap_rows, solve
from vision.towns.evidence import TABLE, label_index
from vision.towns.placements import TownPlacement

__all__ = ["ANCHOR", "HOLE_COST", "PLACEMENT_COST", "SELECT_PLACEMENT_COST", "SURELY_TABLE", "TownProgram"]

# Every card placed costs this many nats. A misread cell can be explained by an unused card peeking out
# under the others (one more card in the town, one of a dozen either way round at one of a few dozen
# places: some 600 choices, e^-6.4), and a card that does peek out showing one cell only (one or two in a
# town of ten) is lost when its cell is cheaper to explain by the card under it: the cost weighs the two.
# 5 lost such cards on 3 of 58 rendered towns (the classifier, trained with label smoothing, gives the
# icon it reads about 0.8 and a wrong one 0.02: 3.5 nats); 3 read all 58 right, 2.5 and 2 began to
# explain misreads by cards that are not there. A card showing one cell is then found where the
# classifier gave that territory at least e^1 times the table's probability (HOLE_COST counts too).
PLACEMENT_COST = 3.0
#: The placement cost when the decoding only ranks lattices (vision.towns.arbitrate): cheaper cards also
#: explain a lattice of half cells (two lattice cells to a territory), which then shows more territories;
#: at 5 such lattices stay unexplained (2 of 59 rendered towns were read on one at 3).
SELECT_PLACEMENT_COST = 5.0
# Reading as table a cell the classifier read as a territory costs this much on top of its
# log-probability: a town has few holes, and a territory seen is kept rather than made one.
HOLE_COST = 2.0
SURELY_TABLE = 0.95
ANCHOR = 0.3
_X, _Y, _E, _U = range(4)


class TownProgram:
    """The program for one grid of log-probabilities ``(rows, cols, 37)``, kept with its HiGHS model so
    that it can be solved again with variables forbidden (the margins) or rows added (stacking cycles,
    through :attr:`extra_rows`).

    Variables: each placement's ``x`` then its ``y`` (TL, TR, BL, BR as shown), then each cell's ``e`` and
    ``u`` (cells row-major). ``x_vars[p]``, ``y_of[p, k]`` (-1: none), ``kind``, ``place_of``, ``quad_of``,
    ``cell_of`` (flat, ``row · cols + col``; -1 for an x) and ``gain`` describe them."""

    def __init__(
        self,
        log_p: np.ndarray,
        deck: Mapping[int, CardGrid],
        unexplained_cost: float,
        placement_cost: float = PLACEMENT_COST,
    ):
        self.log_p = log_p
        self.placement_cost = placement_cost
        self.rows, self.cols, _ = log_p.shape
        self.deck = deck
        self.read = np.argmax(log_p[:, :, :TABLE], axis=2)  # each cell's best territory
        self.read_log = np.take_along_axis(log_p[:, :, :TABLE], self.read[:, :, None], axis=2)[:, :, 0]
        self.placements, shown, values = self._candidates(unexplained_cost)
        self._variables(shown, values, unexplained_cost)
        self.extra_rows: list[tuple[dict[int, float], float, float]] = []
        self._highs: _Highs | None = None
        self._rows_in = 0

    def quadrant_labels(self, placement: TownPlacement) -> list[int]:
        """The label index each quadrant of ``placement`` shows, TL, TR, BL, BR."""
        return [label_index(t) for _, t in placement.cells(self.deck)]

    def _candidates(self, cost: float) -> tuple[list[TownPlacement], np.ndarray, np.ndarray]:
        """The placements worth a variable, in the order card, turn, row, column, with which quadrants
        become pieces (``shown``, placements × 4) and their log-probabilities (``values``)."""
        rows, cols = self.rows, self.cols
        found: list[TownPlacement] = []
        shown_all, values_all = [], []
        if rows < 2 or cols < 2:
            return found, np.zeros((0, 4), bool), np.zeros((0, 4))
        threshold = self.read_log - cost
        surely_table = self.log_p[:, :, TABLE] >= math.log(SURELY_TABLE)
        for card in sorted(self.deck):
            for rotated in (False, True):
                labels = self.quadrant_labels(TownPlacement(card, rotated, 0, 0))
                values, active = [], []
                reject = np.zeros((rows - 1, cols - 1), bool)
                for k, label in enumerate(labels):
                    dr, dc = divmod(k, 2)
                    window = (slice(dr, rows - 1 + dr), slice(dc, cols - 1 + dc))
                    value = self.log_p[window + (label,)]
                    reject |= surely_table[window]
                    values.append(value)
                    active.append(value >= threshold[window])
                value_k, active_k = np.stack(values), np.stack(active)
                ok = ~reject & (active_k & (value_k >= math.log(ANCHOR))).any(axis=0)
                for r, c in np.argwhere(ok).tolist():
                    found.append(TownPlacement(card, rotated, r, c))
                    shown_all.append(active_k[:, r, c])
                    values_all.append(value_k[:, r, c])
        if not found:
            return found, np.zeros((0, 4), bool), np.zeros((0, 4))
        return found, np.array(shown_all), np.array(values_all)

    def _variables(self, shown: np.ndarray, values: np.ndarray, cost: float) -> None:
        kind, place_of, quad_of, cell_of, gain = [], [], [], [], []
        x_vars = np.zeros(len(self.placements), np.int64)
        y_of = np.full((len(self.placements), 4), -1, np.int64)
        for p, placement in enumerate(self.placements):
            x_vars[p] = len(kind)
            kind.append(_X), place_of.append(p), quad_of.append(-1), cell_of.append(-1)
            gain.append(-self.placement_cost)
            for k in np.flatnonzero(shown[p]).tolist():
                y_of[p, k] = len(kind)
                flat = (placement.row + k // 2) * self.cols + placement.col + k % 2
                kind.append(_Y), place_of.append(p), quad_of.append(k), cell_of.append(flat)
                gain.append(float(values[p, k]))
        self.e_at = np.zeros(self.rows * self.cols, np.int64)
        for flat in range(self.rows * self.cols):
            r, c = divmod(flat, self.cols)
            self.e_at[flat] = len(kind)
            kind.append(_E), place_of.append(-1), quad_of.append(-1), cell_of.append(flat)
            hole = HOLE_COST if self.log_p[r, c, TABLE] < self.read_log[r, c] else 0.0
            gain.append(float(self.log_p[r, c, TABLE]) - hole)
            kind.append(_U), place_of.append(-1), quad_of.append(-1), cell_of.append(flat)
            gain.append(float(self.read_log[r, c]) - cost)
        self.x_vars, self.y_of = x_vars, y_of
        self.kind, self.place_of, self.quad_of = np.array(kind), np.array(place_of), np.array(quad_of)
        self.cell_of, self.gain = np.array(cell_of), np.array(gain)

    def _base_rows(self) -> Rows:
        rows = Rows()
        explains = np.flatnonzero(self.cell_of >= 0)
        order = explains[np.lexsort((explains, self.cell_of[explains]))]
        lengths = np.bincount(self.cell_of[explains], minlength=self.rows * self.cols)
        rows.add_many(lengths, order, np.ones(len(order)), 1.0, 1.0)  # one explanation per cell
        on_p, on_k = np.nonzero(self.y_of >= 0)
        rows.add_pairs(self.y_of[on_p, on_k], self.x_vars[on_p], 0.0)  # shown only when placed
        cards = np.array([p.card for p in self.placements], np.int64)
        for card in np.unique(cards).tolist():  # each card once
            xs = self.x_vars[cards == card]
            if len(xs) > 1:
                rows.add(xs, 1.0, -np.inf, 1.0)
        place = np.array([p.row * self.cols + p.col for p in self.placements], np.int64)
        overlap_rows(rows, Layout(place, self.x_vars, self.y_of, self.e_at, self.cols))
        return rows

    def _model(self) -> _Highs:
        """The HiGHS model, built on first use; stacking-cycle rows added since are appended."""
        if self._highs is None:
            h = new_highs()
            n = len(self.gain)
            h.addVars(n, np.zeros(n), np.ones(n))
            h.changeColsCost(n, np.arange(n, dtype=np.int32), -self.gain)
            self._base_rows().add_to(h)
            self._highs = h
        if self._rows_in < len(self.extra_rows):
            extra = Rows()
            for coef, low, high in self.extra_rows[self._rows_in :]:
                extra.add(list(coef), list(coef.values()), low, high)
            extra.add_to(self._highs)
            self._rows_in = len(self.extra_rows)
        return self._highs

    # The interface vision.cards.best_stacking uses.
    def relax(self, forbid: Sequence[int] = (), force: Sequence[int] = ()) -> tuple[float, np.ndarray] | None:
        """The relaxation's optimum (objective, values) with ``forbid`` at 0 and ``force`` at 1, or None."""
        return solve(self._model(), forbid, force, values=True)  # type: ignore[return-value]

    def shown(self, p: int) -> list[int]:
        ys = self.y_of[p]
        return ys[ys >= 0].tolist()

    def cell(self, var: int) -> tuple[int, int]:
        return divmod(int(self.cell_of[var]), self.cols)

    def covers(self, p: int) -> list[tuple[int, int]]:
        return [rc for rc, _ in self.placements[p].cells(self.deck)]

    def label_of(self, var: int) -> int:
        """The label index a y, e or u variable reads its cell as."""
        kind = int(self.kind[var])
        if kind == _Y:
            return self.quadrant_labels(self.placements[int(self.place_of[var])])[int(self.quad_of[var])]
        return TABLE if kind == _E else int(self.read[self.cell(var)])

    def at_cell(self, rc: tuple[int, int]) -> list[int]:
        """The variables that explain cell ``rc``."""
        return np.flatnonzero(self.cell_of == rc[0] * self.cols + rc[1]).tolist()

    @cached_property
    def reachable(self) -> set[tuple[int, int]]:
        """The cells some placement considered covers."""
        return {rc for p in range(len(self.placements)) for rc in self.covers(p)}

    def is_kind(self, var: int, name: str) -> bool:
        return int(self.kind[var]) == {"x": _X, "y": _Y, "e": _E, "u": _U}[name]
