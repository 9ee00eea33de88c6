"""The city read as a stacking of the 18 known cards, jointly, from the classifier's evidence.

``pieces`` lists the placements considered, ``rows`` and ``program`` build the integer program,
``solves`` holds the HiGHS calls, ``branch`` finds the best reading that is a real stacking, ``stacking``
reads a grid as cards (with the doubt checks), ``city`` turns a scan's cell readings into that evidence and
back. Other rooms use only the names below; the model's rows, HiGHS calls and stacking search are also
used by :mod:`vision.towns` (the same decoding for Circle the Wagons cards).
"""

from vision.cards.branch import MAX_NODES, best_stacking
from vision.cards.city import CardReading, evidence_grid, read_alike, read_as_cards, read_same_blocks
from vision.cards.pieces import covering
from vision.cards.program import CITY_CARDS, Label
from vision.cards.rows import Layout, Rows, overlap_rows
from vision.cards.solves import new_highs, solve
from vision.cards.stacking import CardStacking, StackedCell, stack_cards
from vision.cards.variables import PLACEMENT_COST

__all__ = [
    "CITY_CARDS",
    "MAX_NODES",
    "PLACEMENT_COST",
    "CardReading",
    "CardStacking",
    "Label",
    "Layout",
    "Rows",
    "StackedCell",
    "best_stacking",
    "covering",
    "evidence_grid",
    "new_highs",
    "overlap_rows",
    "read_alike",
    "read_as_cards",
    "read_same_blocks",
    "solve",
    "stack_cards",
]
