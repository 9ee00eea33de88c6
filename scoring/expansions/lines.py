"""The breakdown lines of every selected expansion except Interstate (which scores the whole city itself)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.breakdown import LineItem
from scoring.city import City
from scoring.expansions.beaches import beach_items
from scoring.expansions.construction import construction_item
from scoring.expansions.errors import ExpansionOptionError
from scoring.expansions.options import Options
from scoring.expansions.poi import poi_item
from scoring.expansions.roadwork import roadwork_item
from scoring.expansions.selection import Selection, select
from scoring.expansions.wrecktar import wrecktar_item


def _marks_without_expansion(city: City, selection: Selection) -> list[str]:
    """Notes for expansion marks in the city whose expansion was not selected (they then score nothing)."""
    kinds = {cell.kind for _, _, cell in city.cells()}
    blocks = [cell for _, _, cell in city.blocks()]
    present = {
        "poi": any(cell.poi for cell in blocks),
        "construction": any(cell.construction for cell in blocks),
        "wrecktar": "wrecktar" in kinds,
        "beaches": "beach" in kinds,
    }
    marks = {"poi": "'*'", "construction": "'!'", "wrecktar": "'W'", "beaches": "'~'"}
    return [
        f"the city has {marks[name]} cells but the {name} expansion is not selected, so they score nothing "
        f"(add expansion {name}, or an 'expansions: {name}' header)."
        for name, found in present.items()
        if found and name not in selection
    ]


def expansion_items(
    city: City,
    expansions: Sequence[str] | None,
    options: Options,
    base_items: Sequence[LineItem],
) -> tuple[list[LineItem], list[str]]:
    """Score every selected expansion except Interstate.

    ``base_items`` are the base lines already computed for ``city`` (Scenic Route cancels their ``roads``
    line). Returns the expansion lines, in the order Points of Interest, Construction Zones, Wrecktar,
    Beaches, Roadwork, and notes for the user (missing options, marks of unselected expansions). Raises
    :class:`UnknownExpansionError` / :class:`UnsupportedExpansionError` for a bad expansion name and
    :class:`ExpansionOptionError` for a bad option, impossible marks, or Interstate (which has its own entry
    point).
    """
    selection = select(expansions)
    if "interstate" in selection:
        # Interstate changes how the whole city is scored, so it can never be a few extra lines.
        raise ExpansionOptionError(
            "the Interstate expansion is scored by scoring.expansions.interstate.score_interstate; name it "
            "'interstate' and give the mode and card as options interstate-mode and interstate-card"
        )
    items: list[LineItem] = []
    notes: list[str] = _marks_without_expansion(city, selection)

    def add(result: tuple[list[LineItem], list[str]]) -> None:
        items.extend(result[0])
        notes.extend(result[1])

    if "poi" in selection:
        add(poi_item(city))
    if "construction" in selection:
        add(construction_item(city, options))
    if "wrecktar" in selection:
        add(wrecktar_item(city))
    if "beaches" in selection:
        add(beach_items(city, selection.beach_cards, options, base_items))
    if "roadwork" in selection:
        add(roadwork_item(city, options))
    return items, notes
