"""The city read as a stacking of the 18 known cards, jointly, from the classifier's evidence.

``pieces`` lists the placements considered, ``rows`` and ``program`` build the integer program,
``solves`` holds the HiGHS calls, ``branch`` finds the best reading that is a real stacking, ``stacking``
reads a grid as cards (with the doubt checks), ``city`` turns a scan's cell readings into that evidence and
back. Other rooms use only the names below.
"""

from vision.cards.city import CardReading, evidence_grid, name_cells, read_as_cards
from vision.cards.program import CITY_CARDS, Label
from vision.cards.stacking import CardStacking, StackedCell, stack_cards

__all__ = [
    "CITY_CARDS",
    "CardReading",
    "CardStacking",
    "Label",
    "StackedCell",
    "evidence_grid",
    "name_cells",
    "read_as_cards",
    "stack_cards",
]
