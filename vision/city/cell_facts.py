"""What the scan knows of each cell of a city read, gathered once for the doubt's sources to judge: the
label and its confidence, the classifier's first reading, the cards' decoding of the cell, how many of its
sides touch a block, and what the light and the scoring cards said of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.city import SIDES
from vision.cards import CardReading, StackedCell
from vision.cells import CellReading, Grid
from vision.city.assemble import Assembled
from vision.city.stack_order import StackOrder, stack_orders

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CellFacts", "cell_facts"]


@dataclass(frozen=True)
class CellFacts:
    """What the scan knows of one cell of the city read, for :mod:`vision.city.doubt` to judge."""

    label: str
    confidence: float
    before: CellReading | None
    decoded: StackedCell | None
    block_sides: int  # how many of its four sides touch a block
    glare: float = 0.0
    order: StackOrder | None = None
    table_pattern: bool = False  # read as table off the cards, and showing the table's own pattern
    hanging: bool = False  # the card the decoding put here lies partly on cells the photo does not show
    held: tuple[int, str] | None = None  # (scoring card the city seems to hold, this cell's label without it)
    settled: str | None = None  # the label the city alone read, where three backs read surely settled it


def cell_facts(
    assembled: Assembled,
    as_cards: CardReading,
    *,
    glare: np.ndarray | None = None,
    photographed: Grid | None = None,
    table_pattern: np.ndarray | None = None,
    held: Mapping[tuple[int, int], tuple[int, str]] | None = None,
    settled: Mapping[tuple[int, int], str] | None = None,
) -> dict[tuple[int, int], CellFacts]:
    """What the scan knows of each cell of the city read (``assembled``), by its (row, col) there: its
    readings, the cards' decoding of it, and what else was measured (see :class:`vision.city.doubt.Evidence`,
    whose fields the keywords are)."""
    r0, c0 = assembled.origin
    before = as_cards.before
    orders = stack_orders(as_cards, photographed)
    hanging = _hanging_cards(as_cards)
    out = {}
    for r in range(assembled.city.n_rows):
        for c in range(assembled.city.n_cols):
            rc = (r + r0, c + c0)
            decoded = as_cards.decoding.cells.get(rc) if as_cards.used else None
            out[(r, c)] = CellFacts(
                assembled.labels[r][c],
                float(assembled.confidence[r, c]),
                before[rc[0]][rc[1]] if before is not None else None,
                decoded,
                sum(assembled.city.block_across(r, c, side) is not None for side in SIDES),
                float(glare[r, c]) if glare is not None else 0.0,
                orders.get(rc),
                bool(table_pattern[r, c]) if table_pattern is not None else False,
                decoded is not None and decoded.card in hanging,
                (held or {}).get(rc),
                (settled or {}).get(rc),
            )
    return out


def _hanging_cards(as_cards: CardReading) -> frozenset[int]:
    """The cards the decoding placed with a cell beyond the cells read: only their other cells, fewer than
    four, speak for them, and the cells they overrule rest on that (random city edition 37 000: a card
    hanging off a dark corner turned a surely read industrial curve the other way, named nowhere)."""
    if not as_cards.used:
        return frozenset()
    cells = as_cards.decoding.cells
    placements = as_cards.decoding.placements
    return frozenset(p.card for p in placements if any(rc not in cells for rc, _ in p.cells()))
