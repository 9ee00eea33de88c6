"""Which card placements the joint decoding considers, found for all cards and grid positions at once.

A placement (one card, one turn, its top-left block at one cell) is worth a variable only where it could
explain something: it lies inside the lattice, no cell it covers is surely table, and the classifier read
at least one of its blocks at :data:`ANCHOR` or more. Of its four quadrants only those whose label is
read at least as probably as leaving the cell unexplained become pieces (``y`` variables) of the program
(:mod:`vision.card_program`). Done on arrays (cells × labels) rather than cell by cell: the decoding runs
on every scan, and this is most of its building time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.layouts import card_blocks

__all__ = ["ANCHOR", "SURELY_EMPTY", "CellTable", "Placement", "candidate_pieces", "quadrants"]

Label = tuple[str | None, str | None]
EMPTY_LABEL: Label = (None, None)
# A placement may not cover a cell read empty this surely (it would lie on the table).
SURELY_EMPTY = 0.95
# A placement is considered only where the classifier read at least one of its blocks at this probability
# or more: a card is found by what it shows clearly, and then explains its doubtful blocks.
ANCHOR = 0.3


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


Pieces = list[tuple[int, tuple[int, int], float]]


def candidate_pieces(
    table: CellTable, cards: Sequence[int]
) -> list[tuple[Placement, Pieces, list[tuple[int, int]]]]:
    """The placements worth a variable, each with its pieces ``(quadrant, cell, log-probability)`` and
    the visible cells it covers, in the order card, turn, row, column."""
    rows, cols = table.open_.shape
    out: list[tuple[Placement, Pieces, list[tuple[int, int]]]] = []
    if rows < 2 or cols < 2:
        return out
    anchor = math.log(ANCHOR)
    for card in cards:
        for rotated in (False, True):
            quads = quadrants(card, rotated)
            values, active = [], []
            reject = np.zeros((rows - 1, cols - 1), bool)
            for dr, dc, label in quads:
                window = (slice(dr, rows - 1 + dr), slice(dc, cols - 1 + dc))
                value = table.log_p[window + (table.labels[label],)]
                is_open = table.open_[window]
                reject |= is_open & table.surely_empty[window]
                values.append(value)
                active.append(is_open & (value >= table.threshold[window]))
            value_k, active_k = np.stack(values), np.stack(active)
            ok = ~reject & (active_k & (value_k >= anchor)).any(axis=0)
            shown = active_k[:, ok].T.tolist()
            values = value_k[:, ok].T.tolist()
            for (r0, c0), on, value in zip(np.argwhere(ok).tolist(), shown, values, strict=True):
                cells = [(r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1)]  # TL, TR, BL, BR
                pieces = [(k, cells[k], value[k]) for k in range(4) if on[k]]
                covers = [rc for rc in cells if table.visible[rc]]
                out.append((Placement(card, rotated, r0, c0), pieces, covers))
    return out
