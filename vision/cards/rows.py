"""The rows of the card program (:mod:`vision.cards.program`), built on arrays as one sparse matrix.

A scan builds its program on every photo, and a city has some two thousand variables and rows: the rows
are made group by group from index arrays (no loop over placements), in the order the program gives them
to HiGHS (see :meth:`vision.cards.program.CardProgram.base_rows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import highspy
import numpy as np
from highspy._core import _Highs

__all__ = ["Layout", "Rows", "overlap_rows"]

# Row slots at one place, in the order the overlap rows come (see overlap_rows).
_ONE_PER_PLACE, _OFF_TABLE, _RIGHT, _DOWN = 0, 1, 5, 7
_SLOTS = 9


class Rows:
    """Rows gathered as one sparse matrix (compressed by row) and added to HiGHS in one call."""

    def __init__(self) -> None:
        self._lengths: list[np.ndarray] = []
        self._index: list[np.ndarray] = []
        self._value: list[np.ndarray] = []
        self._lo: list[np.ndarray] = []
        self._hi: list[np.ndarray] = []

    def __len__(self) -> int:
        return sum(len(lo) for lo in self._lo)

    def add(self, index: Sequence[int], value: float | Sequence[float], lo: float, hi: float) -> None:
        """One row ``lo ≤ Σ value · v_index ≤ hi`` (``value`` one for all, or one each)."""
        index = np.asarray(index, np.int64)
        value = np.full(len(index), value) if isinstance(value, float) else np.asarray(value, np.float64)
        self.add_many(np.array([len(index)]), index, value, lo, hi)

    def add_many(
        self, lengths: np.ndarray, index: np.ndarray, value: np.ndarray, lo: float, hi: float
    ) -> None:
        """Rows of the given lengths, their entries one after the other, all bounded by ``lo``, ``hi``."""
        self._lengths.append(np.asarray(lengths, np.int64))
        self._index.append(np.asarray(index, np.int64))
        self._value.append(np.asarray(value, np.float64))
        n = len(lengths)
        self._lo.append(np.full(n, max(lo, -highspy.kHighsInf)))
        self._hi.append(np.full(n, min(hi, highspy.kHighsInf)))

    def add_pairs(self, a: np.ndarray, b: np.ndarray, hi: float) -> None:
        """Rows ``v_a - v_b ≤ hi``, one for each pair of ``a`` and ``b``."""
        n = len(a)
        index = np.stack([np.asarray(a, np.int64), np.asarray(b, np.int64)], axis=1).ravel()
        self.add_many(np.full(n, 2), index, np.tile([1.0, -1.0], n), -np.inf, hi)

    def add_to(self, h: _Highs) -> None:
        if not self._lo:
            return
        lengths = np.concatenate(self._lengths)
        starts = np.zeros(len(lengths), np.int32)
        np.cumsum(lengths[:-1], out=starts[1:])
        index = np.concatenate(self._index).astype(np.int32)
        lo, hi = np.concatenate(self._lo), np.concatenate(self._hi)
        h.addRows(len(lo), lo, hi, len(index), starts, index, np.concatenate(self._value))


@dataclass(frozen=True)
class Layout:
    """Where the placements and their variables are: ``place`` each placement's top-left cell (flat,
    ``row · cols + col``), ``x`` its variable, ``y[p, k]`` the variable of its quadrant ``k`` (TL, TR,
    BL, BR; -1 where it shows nothing), ``e`` the table variable of each cell (flat; -1 where none), and
    ``cols`` the grid's width."""

    place: np.ndarray
    x: np.ndarray
    y: np.ndarray
    e: np.ndarray
    cols: int


def overlap_rows(rows: Rows, layout: Layout) -> None:
    """Add the rows that no two cards lie on each other (see
    :meth:`vision.cards.program.CardProgram.overlap_rows` for what they say), place by place in the order
    the places first appear among the placements, and at each place: one card at most (where several
    may lie there), no card on a cell read empty (TL, TR, BL, BR), then the place to the right and the
    one below, each with its two crossed rows."""
    place, x, y, cols = layout.place, layout.x, layout.y, layout.cols
    if not len(place):
        return
    places, first, inverse, count = np.unique(
        place, return_index=True, return_inverse=True, return_counts=True
    )
    rank_at = np.full(len(layout.e), -1, np.int64)  # each place's rank in order of first appearance
    rank_at[places[np.argsort(first, kind="stable")]] = np.arange(len(places))
    keys: list[np.ndarray] = []
    vars_: list[np.ndarray] = []

    def entries(slot: int, which: np.ndarray, var: np.ndarray, at: np.ndarray) -> None:
        keys.append(rank_at[at[which]] * _SLOTS + slot)
        vars_.append(var[which])

    several = np.flatnonzero(count[inverse] > 1)
    entries(_ONE_PER_PLACE, several, x, place)
    lead = np.zeros(len(place), bool)
    lead[first] = True
    for k, cell in enumerate((place, place + 1, place + cols, place + cols + 1)):
        e = layout.e[cell]
        on = np.flatnonzero(e >= 0)
        entries(_OFF_TABLE + k, on, x, place)
        entries(_OFF_TABLE + k, on[lead[on]], e, place)  # the table variable once per place
    for step, slot, pairs in ((1, _RIGHT, ((1, 2), (3, 0))), (cols, _DOWN, ((2, 1), (3, 0)))):
        # Placements whose place has placements at the next place this way, and those at such places.
        ahead = place + step
        here = np.flatnonzero(rank_at[ahead] >= 0)
        behind = place - step
        there = np.flatnonzero(behind >= 0)
        there = there[rank_at[behind[there]] >= 0]
        for offset, (mine, theirs) in enumerate(pairs):
            entries(slot + offset, here[y[here, mine] >= 0], y[:, mine], place)
            entries(slot + offset, there[y[there, theirs] >= 0], y[:, theirs], behind)
    key, var = np.concatenate(keys), np.concatenate(vars_)
    order = np.argsort(key, kind="stable")
    _, lengths = np.unique(key[order], return_counts=True)
    rows.add_many(lengths, var[order], np.ones(len(var)), -np.inf, 1.0)
