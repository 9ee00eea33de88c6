"""The variables of a :class:`~vision.cards.program.CardProgram`, in arrays: each placement's ``x`` and the
``y`` of the quadrants it shows, each visible cell's ``e`` (read as table) and ``u`` (left unexplained), and
the ``w`` of two neighbouring cells left unexplained together, with what each gains in the objective."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.cards.pieces import EMPTY_LABEL, Candidates, CellEvidence

__all__ = [
    "HOLE_COST",
    "PLACEMENT_COST",
    "UNKNOWN_CARD_BONUS",
    "Variables",
    "leave_cost",
    "program_variables",
]

# Two neighbouring blocks that no card explains earn this back (nats): see CardProgram.
UNKNOWN_CARD_BONUS = 2.0
# Reading as table a cell the classifier read as a block costs this much on top of its log-probability.
HOLE_COST = 2.0
# Every card placed costs this many nats: a card that explains a single misread cell where the card that
# shows its neighbours would explain it too must be worth more than that (the scoring cards and cards
# covered whole are otherwise free to explain any confident misreading exactly).
PLACEMENT_COST = 3.0
# Leaving unexplained a cell with an expansion mark costs this, and one next to such a cell at most this.
MARKED_COST = 0.0
NEAR_MARK_COST = 1.0
# The kinds of variable (see CardProgram).
X, Y, E, U, W = range(5)


@dataclass(frozen=True)
class Variables:
    """The program's variables: ``kind`` of each, its placement (``place_of``, -1 for none), quadrant
    (``quad_of``), cell (``cell_of``, flat) and ``gain``; ``x_vars[p]`` is placement ``p``'s, ``y_of[p, k]``
    its quadrant ``k``'s (-1 where it shows nothing), ``e_at`` each flat cell's e (-1: none); ``pairs``
    are (w, u_i, u_j) and ``w_cells`` the two cells of each w."""

    x_vars: np.ndarray
    y_of: np.ndarray
    e_at: np.ndarray
    kind: np.ndarray
    place_of: np.ndarray
    quad_of: np.ndarray
    cell_of: np.ndarray
    gain: np.ndarray
    pairs: list[tuple[int, int, int]]
    w_cells: list[tuple[tuple[int, int], tuple[int, int]]]


def program_variables(
    grid: Sequence[Sequence[CellEvidence | None]],
    found: Candidates,
    visible: list[tuple[int, int]],
    costs: dict[tuple[int, int], float],
    rows: int,
    cols: int,
) -> Variables:
    """Each placement's x, then its y (TL, TR, BL, BR as shown); then each visible cell's e (not under
    Wrecktar) and u; then the w of neighbours left unexplained together."""
    x_vars, y_of, kind, place_of, quad_of, cell_of, gain = _placement_variables(found, cols)
    n_pieces = len(kind)
    more_kind: list[int] = []
    more_cell: list[int] = []
    more_gain: list[float] = []
    e_at = np.full(rows * cols, -1, np.int64)
    u_at: dict[tuple[int, int], int] = {}
    for rc in visible:
        ev = grid[rc[0]][rc[1]]
        assert ev is not None
        flat = rc[0] * cols + rc[1]
        if not ev.wrecktar:
            # Reading a cell as table where the classifier saw a block most likely costs extra: a block
            # no card explains (an expansion card, a card we do not know) is kept, not made a hole.
            e_at[flat] = n_pieces + len(more_kind)
            hole = HOLE_COST if ev.best[0] != EMPTY_LABEL and not ev.enclosed else 0.0
            more_kind.append(E), more_cell.append(flat), more_gain.append(ev.log(EMPTY_LABEL) - hole)
        # Unexplained: the cell keeps its best block reading.
        u_at[rc] = n_pieces + len(more_kind)
        more_kind.append(U), more_cell.append(flat)
        more_gain.append(0.0 if ev.wrecktar else ev.best_block[1] - costs[rc])
    pairs, w_cells = _unknown_card_pairs(grid, u_at, n_pieces + len(more_kind))
    for _ in pairs:
        more_kind.append(W), more_cell.append(-1), more_gain.append(UNKNOWN_CARD_BONUS)
    return Variables(
        x_vars,
        y_of,
        e_at,
        np.concatenate([kind, np.array(more_kind, np.int8)]),
        np.concatenate([place_of, np.full(len(more_kind), -1)]),
        np.concatenate([quad_of, np.full(len(more_kind), -1)]),
        np.concatenate([cell_of, np.array(more_cell, np.int64)]),
        np.concatenate([gain, np.array(more_gain, np.float64)]),
        pairs,
        w_cells,
    )


def _placement_variables(
    found: Candidates, cols: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """x_vars, y_of, and the kind, placement, quadrant, cell and gain of each placement's variables."""
    n_shown = found.shown.sum(axis=1)
    first = np.zeros(len(found), np.int64)
    np.cumsum(1 + n_shown[:-1], out=first[1:])
    y_of = np.where(found.shown, first[:, None] + np.cumsum(found.shown, axis=1), -1)
    n_pieces = int((1 + n_shown).sum())
    kind = np.full(n_pieces, Y, np.int8)
    kind[first] = X
    place_of = np.repeat(np.arange(len(found)), 1 + n_shown)
    quad_of = np.full(n_pieces, -1, np.int64)
    on_p, on_k = np.nonzero(found.shown)
    quad_of[y_of[on_p, on_k]] = on_k
    cell_of = np.full(n_pieces, -1, np.int64)
    ys = y_of[on_p, on_k]
    cell_of[ys] = (found.row[on_p] + on_k // 2) * cols + found.col[on_p] + on_k % 2
    gain = np.full(n_pieces, -PLACEMENT_COST)
    gain[ys] = found.value[on_p, on_k]
    return first, y_of, kind, place_of, quad_of, cell_of, gain


def _unknown_card_pairs(
    grid: Sequence[Sequence[CellEvidence | None]], u_at: dict[tuple[int, int], int], first_w: int
) -> tuple[list[tuple[int, int, int]], list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Neighbouring cells left unexplained together earn UNKNOWN_CARD_BONUS: a card we do not know shows
    up to four neighbouring blocks, a misreading is one cell alone. Their w variables number from
    ``first_w``: (w, u_i, u_j) and the two cells of each."""
    pairs: list[tuple[int, int, int]] = []
    w_cells: list[tuple[tuple[int, int], tuple[int, int]]] = []
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
            pairs.append((first_w + len(pairs), i, j))
            w_cells.append(((r, c), other))
    return pairs, w_cells


def leave_cost(grid: Sequence[Sequence[CellEvidence | None]], rc: tuple[int, int], default: float) -> float:
    """What leaving cell ``rc`` unexplained costs: ``default``, less at or beside an expansion's mark (an
    expansion card, which no known card explains, lies there)."""
    ev = grid[rc[0]][rc[1]]
    assert ev is not None
    if ev.marked or ev.wrecktar:
        return MARKED_COST
    r, c = rc
    rows, cols = len(grid), max((len(row) for row in grid), default=0)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            other = grid[rr][cc]
            if other is not None and other.marked:
                return min(default, NEAR_MARK_COST)
    return default
