"""Which card placements the joint decoding considers, found for all cards and grid positions at once,
from the classifier's evidence per cell (:class:`CellEvidence`) laid out as arrays (:func:`cell_table`).

A placement (one card, one turn, its top-left block at one cell) is worth a variable only where it could
explain something: it lies inside the lattice, no cell it covers is surely table, and the classifier read
at least one of its blocks at :data:`ANCHOR` or more. Of its four quadrants only those whose label is
read at least as probably as leaving the cell unexplained become pieces (``y`` variables) of the program
(:mod:`vision.cards.program`). Done on arrays (cells × labels) rather than cell by cell: the decoding runs
on every scan, and this is most of its building time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from scoring.layouts import card_blocks

__all__ = [
    "ANCHOR",
    "EMPTY_LABEL",
    "LOG_FLOOR",
    "SURELY_EMPTY",
    "Candidates",
    "CellEvidence",
    "CellTable",
    "Placement",
    "candidate_pieces",
    "cell_table",
    "quadrants",
]

Label = tuple[str | None, str | None]
EMPTY_LABEL: Label = (None, None)
# A label a cell's evidence does not name counts as this log-probability (see CellEvidence).
LOG_FLOOR = math.log(1e-6)
# A placement may not cover a cell read empty this surely (it would lie on the table).
SURELY_EMPTY = 0.95
# A placement is considered only where the classifier read at least one of its blocks at this probability
# or more: a card is found by what it shows clearly, and then explains its doubtful blocks.
ANCHOR = 0.3


@dataclass(frozen=True)
class CellEvidence:
    """What the classifier read in one visible cell.

    ``log_p`` maps labels (``(zone, road)``, and :data:`EMPTY_LABEL`) to log-probabilities; labels not in
    it count as :data:`LOG_FLOOR`. ``wrecktar``: the cell is under the Wrecktar card (never shown by a city
    card, never empty); ``marked``: the block carries an expansion mark, so it is part of a card whose
    layout is not one of the 18; ``enclosed``: blocks were read on all four sides and ``log_p`` already
    weighs how rare a hole is there (the program's own hole cost does not count it again).
    """

    log_p: Mapping[Label, float]
    wrecktar: bool = False
    marked: bool = False
    enclosed: bool = False

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
            ((self.row + dr, self.col + dc), label) for dr, dc, label in quadrants(self.card, self.rotated)
        ]


def covering(placements: Iterable[Placement]) -> dict[tuple[int, int], list[tuple[int, Label]]]:
    """Every card over each cell, with the block it has there, whether that block shows or lies under
    another card.

    Examples
    --------
    Card 1 (``C:NS P / I:NE R:EW``) with card 2 laid over its right column:

    >>> cover = covering([Placement(1, False, 0, 0), Placement(2, False, 0, 1)])
    >>> cover[(0, 1)]
    [(1, ('P', None)), (2, ('I', 'NW'))]
    >>> cover[(1, 2)]
    [(2, ('C', 'EW'))]
    """
    out: dict[tuple[int, int], list[tuple[int, Label]]] = {}
    for placement in placements:
        for rc, label in placement.cells():
            out.setdefault(rc, []).append((placement.card, label))
    return out


@lru_cache(maxsize=64)
def quadrants(card: int, rotated: bool) -> tuple[tuple[int, int, Label], ...]:
    """The card's blocks as (row offset, column offset, label), TL, TR, BL, BR."""
    (tl, tr), (bl, br) = card_blocks(card, rotated)
    return tuple((dr, dc, (b.zone, b.road)) for dr, dc, b in ((0, 0, tl), (0, 1, tr), (1, 0, bl), (1, 1, br)))


@dataclass(frozen=True)
class CellTable:
    """The grid as arrays: ``log_p[r, c, i]`` is cell (r, c)'s log-probability of ``labels[i]``;
    ``visible`` marks the cells the photo shows, ``open_`` those a card can show (not under Wrecktar),
    ``surely_empty`` cells no card may cover, ``threshold`` the least log-probability worth showing
    (leaving the cell unexplained is better below it)."""

    labels: dict[Label, int]
    log_p: np.ndarray
    visible: np.ndarray
    open_: np.ndarray
    surely_empty: np.ndarray
    threshold: np.ndarray


def cell_table(
    grid: Sequence[Sequence[CellEvidence | None]],
    shape: tuple[int, int],
    costs: Mapping[tuple[int, int], float],
    cards: Sequence[int],
) -> CellTable:
    """The grid of :class:`CellEvidence` (``None`` beyond the frame) as arrays over
    the labels ``cards`` show; ``costs`` is what leaving each visible cell unexplained costs."""
    labels: dict[Label, int] = {EMPTY_LABEL: 0}
    for card in cards:
        for rotated in (False, True):
            for _, _, label in quadrants(card, rotated):
                labels.setdefault(label, len(labels))
    log_p = np.full((*shape, len(labels)), LOG_FLOOR)
    visible = np.zeros(shape, bool)
    open_ = np.zeros_like(visible)
    surely_empty = np.zeros_like(open_)
    threshold = np.zeros(shape)
    for (r, c), cost in costs.items():
        ev = grid[r][c]
        assert ev is not None
        line = [LOG_FLOOR] * len(labels)
        for label, value in ev.log_p.items():
            i = labels.get(label)
            if i is not None:
                line[i] = value
        log_p[r, c] = line
        visible[r, c], open_[r, c] = True, not ev.wrecktar
        surely_empty[r, c] = math.exp(ev.log(EMPTY_LABEL)) >= SURELY_EMPTY
        threshold[r, c] = ev.best_block[1] - cost
    return CellTable(labels, log_p, visible, open_, surely_empty, threshold)


@dataclass(frozen=True)
class Candidates:
    """The placements worth a variable, in the order card, turn, row, column: ``card``, ``rotated``,
    ``row`` and ``col`` (one entry each); ``shown[p, k]`` says quadrant ``k`` (TL, TR, BL, BR) of
    placement ``p`` becomes a piece, with log-probability ``value[p, k]``."""

    card: np.ndarray
    rotated: np.ndarray
    row: np.ndarray
    col: np.ndarray
    shown: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.card)

    def placements(self) -> list[Placement]:
        return [
            Placement(n, t, r, c)
            for n, t, r, c in zip(
                self.card.tolist(), self.rotated.tolist(), self.row.tolist(), self.col.tolist(), strict=True
            )
        ]


def candidate_pieces(table: CellTable, cards: Sequence[int]) -> Candidates:
    """The placements worth a variable and their pieces (see :class:`Candidates`)."""
    rows, cols = table.open_.shape
    found: list[tuple[int, bool, np.ndarray, np.ndarray, np.ndarray]] = []
    if rows >= 2 and cols >= 2:
        anchor = math.log(ANCHOR)
        for card in cards:
            for rotated in (False, True):
                values, active = [], []
                reject = np.zeros((rows - 1, cols - 1), bool)
                for dr, dc, label in quadrants(card, rotated):
                    window = (slice(dr, rows - 1 + dr), slice(dc, cols - 1 + dc))
                    value = table.log_p[window + (table.labels[label],)]
                    is_open = table.open_[window]
                    reject |= is_open & table.surely_empty[window]
                    values.append(value)
                    active.append(is_open & (value >= table.threshold[window]))
                value_k, active_k = np.stack(values), np.stack(active)
                ok = ~reject & (active_k & (value_k >= anchor)).any(axis=0)
                found.append((card, rotated, np.argwhere(ok), active_k[:, ok].T, value_k[:, ok].T))
    n = [len(where) for *_, where, _, _ in found]
    where = np.concatenate([f[2] for f in found]) if found else np.zeros((0, 2), np.int64)
    return Candidates(
        card=np.repeat(np.array([f[0] for f in found], np.int64), n),
        rotated=np.repeat(np.array([f[1] for f in found], bool), n),
        row=where[:, 0].astype(np.int64),
        col=where[:, 1].astype(np.int64),
        shown=np.concatenate([f[3] for f in found]) if found else np.zeros((0, 4), bool),
        value=np.concatenate([f[4] for f in found]) if found else np.zeros((0, 4)),
    )
