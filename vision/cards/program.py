"""The integer program behind :mod:`vision.cards.stacking`: what a cell's reading says, what a card placed
at a grid position shows, and the model HiGHS solves (through its own Python interface, ``highspy``).

* a *placement* is one card, one turn, one grid position (its top-left block); ``x_p`` says it is used;
* ``y_pk`` says placement ``p`` shows its quadrant ``k`` at that cell; every visible cell is shown by one
  placement, or read empty (``e``), or left *unexplained* (``u``: it keeps the classifier's reading, at a
  cost of :data:`UNEXPLAINED_COST` nats — expansion cards and cards we do not know end up here);
* each card is placed once at most, never on a cell read empty, and shows at least one cell (it costs
  :data:`~vision.cards.variables.PLACEMENT_COST`); two overlapping cards never both show a cell of their
  overlap (rows for cards at one place or side by side); :mod:`vision.cards.branch` finds the best stacking;
* the objective is the sum of the cells' log-probabilities of what they are read as, less the costs below.

Placements come from :mod:`vision.cards.pieces`, rows from :mod:`vision.cards.rows`, HiGHS calls from
:mod:`vision.cards.solves`. Built once per grid, the model is solved many times, each from its last basis.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np
from highspy._core import _Highs

from vision.cards.pieces import (
    EMPTY_LABEL,
    CellEvidence,
    Label,
    Placement,
    candidate_pieces,
    cell_table,
    quadrants,
)
from vision.cards.rows import Layout, Rows, overlap_rows
from vision.cards.solves import OPTIMAL, bounded, new_highs, solve, using, using_solution
from vision.cards.variables import E, U, X, Y, leave_cost, program_variables
from vision.runtime import current_workers

__all__ = ["EMPTY_LABEL", "CardProgram", "CellEvidence", "Label", "Placement"]


# Leaving a visible cell unexplained by any card costs this many nats against its best reading: a cell the
# classifier read at p = 3e-4 or better for a card's quadrant is explained by that card when the card fits
# its neighbours too. A cell with an expansion mark (or next to one) belongs to a card we do not know and
# costs nothing, or little, to leave as read.
UNEXPLAINED_COST = 8.0
# A Sprawlopolis city holds 15 cards (18 less the three scoring cards).
CITY_CARDS = 15
# In best_using_any, other cards placed this little (in all) beside one count as none, and a card whose
# bound lies this close to the bound for any card reaches it: HiGHS solves these programs to about 1e-9.
ONE_CARD = 1e-9


class CardProgram:
    """The integer program for one grid, kept (with its HiGHS model) so that it can be solved again with
    extra rows or variables forbidden.

    Its variables lie in arrays (see :data:`X`, :data:`Y`, :data:`E`, :data:`U`, :data:`W`): ``kind``,
    and for each variable its placement (``place_of``, -1 for none), quadrant (``quad_of``) and cell
    (``cell_of``, flat: ``row · cols + col``); ``x_vars[p]`` is placement ``p``'s variable and
    ``y_of[p, k]`` the one of its quadrant ``k`` (-1 where it shows nothing). ``names`` gives the same
    as tuples, for reading."""

    def __init__(
        self, grid: Sequence[Sequence[CellEvidence | None]], cards: Sequence[int], unexplained_cost: float
    ):
        self.rows, self.cols = len(grid), max((len(r) for r in grid), default=0)
        self.grid = grid
        self.visible = [(r, c) for r in range(self.rows) for c in range(self.cols) if grid[r][c] is not None]
        self.costs = {rc: leave_cost(grid, rc, unexplained_cost) for rc in self.visible}
        self.table = cell_table(grid, (self.rows, self.cols), self.costs, cards)
        self.visible_at = self.table.visible
        self.candidates = found = candidate_pieces(self.table, cards)

        v = program_variables(grid, found, self.visible, self.costs, self.rows, self.cols)
        self.x_vars, self.y_of, self.e_at = v.x_vars, v.y_of, v.e_at
        self.kind, self.place_of, self.quad_of, self.cell_of, self.gain = (
            v.kind,
            v.place_of,
            v.quad_of,
            v.cell_of,
            v.gain,
        )
        self._pairs, self._w_cells = v.pairs, v.w_cells
        self.base_rows = self._base_rows(min(CITY_CARDS, len(cards)))
        self.extra_rows: list[tuple[dict[int, float], float, float]] = []
        # The solves the model owes (see best_using_any).
        self._owed: list[int] = []
        self._highs: _Highs | None = None
        self._rows_in = 0

    @cached_property
    def placements(self) -> list[Placement]:
        """The placements considered, in the order of their variables."""
        return self.candidates.placements()

    @cached_property
    def names(self) -> list[tuple]:
        """The variables as ``("x", p)``, ``("y", p, quadrant, rc)``, ``("e", rc)``, ``("u", rc)`` or
        ``("w", rc, neighbour rc)``."""
        out: list[tuple] = []
        w_cells = iter(self._w_cells)
        for kind, p, k, cell in zip(
            self.kind.tolist(),
            self.place_of.tolist(),
            self.quad_of.tolist(),
            self.cell_of.tolist(),
            strict=True,
        ):
            rc = divmod(cell, self.cols) if cell >= 0 else None
            if kind == X:
                out.append(("x", p))
            elif kind == Y:
                out.append(("y", p, k, rc))
            else:
                out.append(("e", rc) if kind == E else ("u", rc) if kind == U else ("w", *next(w_cells)))
        return out

    @cached_property
    def at_cell(self) -> dict[tuple[int, int], list[int]]:
        """The variables that explain each visible cell: the quadrants shown there, table, unexplained."""
        order, lengths = self._cell_rows
        out, start = {}, 0
        for rc, n in zip(self.visible, lengths.tolist(), strict=True):
            out[rc] = order[start : start + n].tolist()
            start += n
        return out

    @cached_property
    def _cell_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The variables of every visible cell, cell by cell (row-major) and in variable order within a
        cell, with how many each cell has."""
        explains = np.flatnonzero(self.cell_of >= 0)
        cell = self.cell_of[explains]
        order = explains[np.lexsort((explains, cell))]
        flat = np.array([r * self.cols + c for r, c in self.visible], np.int64)
        lengths = np.bincount(cell, minlength=self.rows * self.cols)[flat] if len(flat) else flat
        return order, lengths

    def shown(self, p: int) -> list[int]:
        """Placement ``p``'s y variables."""
        ys = self.y_of[p]
        return ys[ys >= 0].tolist()

    def covers(self, p: int) -> list[tuple[int, int]]:
        """The visible cells placement ``p`` covers (TL, TR, BL, BR)."""
        r0, c0 = int(self.candidates.row[p]), int(self.candidates.col[p])
        cells = ((r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1))
        return [rc for rc in cells if self.visible_at[rc]]

    def cell(self, var: int) -> tuple[int, int]:
        """The cell a y, e or u variable explains."""
        return divmod(int(self.cell_of[var]), self.cols)

    def _base_rows(self, most_cards: int) -> Rows:
        """The program's rows (see the module's docstring), as one sparse matrix."""
        rows = Rows()
        order, lengths = self._cell_rows
        rows.add_many(lengths, order, np.ones(len(order)), 1.0, 1.0)  # one explanation per cell
        if self._pairs:  # w ≤ u_i, w ≤ u_j
            w, i, j = np.array(self._pairs).T
            rows.add_pairs(np.repeat(w, 2), np.stack([i, j], axis=1).ravel(), 0.0)
        on_p, on_k = np.nonzero(self.y_of >= 0)
        rows.add_pairs(self.y_of[on_p, on_k], self.x_vars[on_p], 0.0)  # shown only when placed
        # Each card once (in the order the cards first appear). A card that shows nothing is never placed:
        # it costs PLACEMENT_COST and explains nothing, so the program needs no row for it.
        _, first, inverse, count = np.unique(
            self.candidates.card, return_index=True, return_inverse=True, return_counts=True
        )
        by_first = np.argsort(first, kind="stable")
        rank = np.empty(len(first), np.int64)
        rank[by_first] = np.arange(len(first))
        xs = self.x_vars[np.argsort(rank[inverse], kind="stable")]
        rows.add_many(count[by_first], xs, np.ones(len(xs)), -np.inf, 1.0)
        place = self.candidates.row * self.cols + self.candidates.col
        overlap_rows(rows, Layout(place, self.x_vars, self.y_of, self.e_at, self.cols))
        rows.add(xs, 1.0, -np.inf, float(most_cards))
        return rows

    def _model(self) -> _Highs:
        """The HiGHS model, built on first use; rows added since are appended (warm re-solves)."""
        if self._highs is None:
            h = new_highs()
            n = len(self.gain)
            h.addVars(n, np.zeros(n), np.ones(n))
            h.changeColsCost(n, np.arange(n, dtype=np.int32), -self.gain)
            self._highs, self._rows_in = h, 0
        if self._rows_in == 0:
            self.base_rows.add_to(self._highs)
            self._rows_in = 1
        if self._rows_in - 1 < len(self.extra_rows):
            extra = Rows()
            for coef, low, high in self.extra_rows[self._rows_in - 1 :]:
                extra.add(list(coef), list(coef.values()), low, high)
            extra.add_to(self._highs)
            self._rows_in = 1 + len(self.extra_rows)
        return self._highs

    def relax(self, forbid: Sequence[int] = (), force: Sequence[int] = ()) -> tuple[float, np.ndarray] | None:
        """The linear relaxation's optimum (objective, values) with ``forbid`` at 0 and ``force`` at 1, or
        None when that is infeasible. HiGHS starts from its last basis: only bounds change in between."""
        return solve(self._settled(), forbid, force, values=True)  # type: ignore[return-value]

    def relaxed_best(self, forbid: Sequence[int], stop_below: float = -math.inf) -> float | None:
        """An upper bound on the objective with ``forbid`` set to 0: the linear relaxation's optimum, or,
        once that is known to lie below ``stop_below``, the bound the dual simplex has reached by then
        (still an upper bound, found in fewer iterations)."""
        return bounded(self._settled(), forbid, stop_below)

    def best_using(self, card: int) -> float | None:
        """An upper bound on the objective when ``card`` must be placed (the relaxation's optimum)."""
        return using(self._settled(), self.card_vars([card]))

    def best_using_without(self, card: int, forbid: Sequence[int]) -> float | None:
        """:meth:`best_using` with the cards ``forbid`` not placed (the relaxation solved to its optimum)."""
        solved = using_solution(self._settled(), self.card_vars([card]), False, self.card_vars(forbid))
        return None if solved is None else solved[0]

    def best_using_any(self, cards: Sequence[int]) -> float | None:
        """The highest :meth:`best_using` of ``cards`` (None when none can be placed), mostly in one solve
        (see :meth:`best_using_any_later`)."""
        return self.best_using_any_later(cards)()

    def best_using_any_later(self, cards: Sequence[int]) -> Callable[[], float | None]:
        """Start finding the highest :meth:`best_using` of ``cards``, in another thread, and return the
        function that waits for it: the decoding goes on with its checks meanwhile.

        The relaxation with at least one of ``cards`` placed, whichever, can only do as well or better;
        where its optimum places one card only (nearly always), that card does as well, and that is the
        answer. Else each card is solved, from the one most placed there, each solve stopping once its card
        is known to lie below the best so far, until one reaches that first bound.

        Where HiGHS stops depends on where it starts, and so does which of two equally good solutions a
        later solve of this program finds: these solves run on a copy of the model, and from when the
        answer is taken the model owes :meth:`best_using` for each card, in turn, solved when it is next
        used, so that every later solve starts where it always has.
        """
        h = self._model()
        copy = new_highs()
        copy.passModel(h.getLp())
        copy.setBasis(h.getBasis())
        # On the scan's solves pool, beside the decoding's own solve (HiGHS lets go of the interpreter).
        job = current_workers().solves.submit(self._best_any, copy, list(cards))

        def answer() -> float | None:
            self._owed = list(cards)
            return job.result()

        return answer

    def _best_any(self, copy: _Highs, cards: list[int]) -> float | None:
        solved = using_solution(copy, self.card_vars(cards))
        if solved is None:
            return None  # no card of them can be placed
        ceiling, x = solved
        assert x is not None
        mass = [float(x[self.card_vars([card])].sum()) for card in cards]
        if copy.getModelStatus() == OPTIMAL and sum(mass) - max(mass) <= ONE_CARD:
            return ceiling
        best: float | None = None
        for _, card in sorted(zip(mass, cards, strict=True), reverse=True):  # the likeliest to reach it first
            if best is not None and best >= ceiling - ONE_CARD:
                break
            found = using(copy, self.card_vars([card]), -math.inf if best is None else best)
            if found is not None and (best is None or found > best):
                best = found
        return best

    def _settled(self) -> _Highs:
        """The model, once it has solved what it owes (see :meth:`best_using_any`)."""
        h = self._model()
        owed, self._owed = self._owed, []
        for card in owed:
            using(h, self.card_vars([card]))
        return h

    def card_vars(self, cards: Sequence[int]) -> list[int]:
        """The placement variables of ``cards``."""
        return self.x_vars[np.isin(self.candidates.card, list(cards))].tolist()

    def label_vars(self, rc: tuple[int, int], label: Label) -> list[int]:
        """The variables that would read cell ``rc`` as ``label``."""
        out = []
        for i in self.at_cell[rc]:
            kind = self.kind[i]
            if kind == Y:
                p = int(self.place_of[i])
                reads = quadrants(int(self.candidates.card[p]), bool(self.candidates.rotated[p]))[
                    self.quad_of[i]
                ][2]
            elif kind == E:
                reads = EMPTY_LABEL
            else:
                ev = self.grid[rc[0]][rc[1]]
                assert ev is not None
                reads = ev.best_block[0]
            if reads == label:
                out.append(i)
        return out
