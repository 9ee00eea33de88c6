"""Points of Interest: +1 per block of the Point of Interest's zone sharing a side with it.

The Point of Interest is the block in the yellow border, written with a ``*`` mark (``R*``, ``C:EW*``).
"""

from __future__ import annotations

from scoring.breakdown import LineItem
from scoring.city import SIDES, ZONE_NAMES, City, cell_name, cell_names
from scoring.expansions.errors import ExpansionOptionError

KEY = "poi"
LABEL = "Point of Interest"


def poi_item(city: City) -> tuple[list[LineItem], list[str]]:
    """The ``poi`` line and notes; raise :class:`ExpansionOptionError` if several blocks are marked ``*``."""
    marked = [(r, c) for r, c, cell in city.blocks() if cell.poi]
    if len(marked) > 1:
        raise ExpansionOptionError(
            f"the Points of Interest card has one Point of Interest, but {len(marked)} blocks are marked "
            f"'*': {cell_names(marked)}"
        )
    if not marked:
        detail = "no block is marked '*' as the Point of Interest (a card may cover it); nothing scores."
        return [LineItem(KEY, LABEL, 0, detail)], [
            "Points of Interest: no Point of Interest block ('*') is visible, so it scores 0."
        ]
    pos = marked[0]
    zone = city.cell(*pos).zone or "?"
    matching = [
        other
        for side in SIDES
        if (other := city.block_across(*pos, side)) is not None and city.cell(*other).zone == zone
    ]
    name = ZONE_NAMES[zone]
    if matching:
        detail = (
            f"+1 for each of {len(matching)} {name} block{'s' if len(matching) != 1 else ''} sharing a side "
            f"with the {name} Point of Interest at {cell_name(*pos)}: {cell_names(matching)}."
        )
    else:
        detail = f"no {name} block shares a side with the {name} Point of Interest at {cell_name(*pos)}."
    detail += " Diagonal neighbours do not count."
    cells = (cell_name(*pos), *(cell_name(r, c) for r, c in sorted(matching)))
    return [LineItem(KEY, LABEL, len(matching), detail, cells)], []
