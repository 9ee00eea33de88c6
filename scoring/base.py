"""Base scoring: the largest group of each zone and the road penalty, with the rulebook's variants.

Standard: each zone's largest group scores 1 per block, and every road costs 1. *Easier*: no road
penalty. *Harder*: only the largest group of one zone type counts (the best one, since the players choose).
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.breakdown import LineItem
from scoring.cards import road_text
from scoring.city import ZONE_NAMES, City, cell_name, cell_names
from scoring.errors import InputError
from scoring.geometry import Pos, shape

ZONE_ORDER = "RCIP"
VARIANTS = ("standard", "easier", "harder")


class UnknownVariantError(InputError):
    """A variant other than standard, easier or harder."""

    code = "unknown_variant"


def check_variant(variant: str | None) -> str:
    """Return the variant's canonical name (``None`` means standard); raise :class:`UnknownVariantError`.

    Examples
    --------
    >>> check_variant("Easier"), check_variant(None)
    ('easier', 'standard')
    """
    name = (variant or "standard").strip().lower()
    if name not in VARIANTS:
        raise UnknownVariantError(f"unknown variant {variant!r} (expected one of: {', '.join(VARIANTS)})")
    return name


def largest_item(city: City, zone: str) -> LineItem:
    """``largest:Z``: 1 point per block of the zone's largest group; names its cells and any tie."""
    name = ZONE_NAMES[zone]
    label = f"Largest {name} group"
    groups = shape(city).zone_groups[zone]
    if not groups:
        return LineItem(f"largest:{zone}", label, 0, f"no {name} block in the city.")
    best = groups[0]
    tied = [g for g in groups[1:] if len(g) == len(best)]
    detail = f"{len(best)} block{'s' if len(best) != 1 else ''} at {cell_names(best)}"
    if tied:
        others = "; ".join(cell_names(g) for g in tied)
        detail += (
            f"; {len(tied) + 1} groups tie at this size (also {others}), any one of them scores the same."
        )
    else:
        detail += "."
    return LineItem(f"largest:{zone}", label, len(best), detail, _cell_tuple(best))


def roads_item(city: City, variant: str = "standard") -> LineItem:
    """``roads``: −1 per road (0 in the easier variant); the detail traces every road by its cells."""
    found = shape(city).roads
    listing = "; ".join(road_text(r) for r in found)
    counted = f"{len(found)} road{'s' if len(found) != 1 else ''}" + (f": {listing}" if found else "")
    names = _cell_tuple(p for r in found for p in r.cells)
    if check_variant(variant) == "easier":
        return LineItem("roads", "Roads", 0, f"easier variant: no road penalty ({counted}).", names)
    return LineItem(
        "roads", "Roads", -len(found), f"−1 for each of {counted}." if found else "no road.", names
    )


def _cell_tuple(cells: Iterable[Pos]) -> tuple[str, ...]:
    return tuple(cell_name(r, c) for r, c in sorted(set(cells)))


def base_items(city: City, variant: str | None = "standard") -> list[LineItem]:
    """The four ``largest:Z`` items (order R, C, I, P) and ``roads``, under ``variant``.

    In the harder variant only the zone whose largest group is biggest keeps its points (the first in
    R, C, I, P order on equal size); the others stay in the list with 0 points and say why.
    """
    name = check_variant(variant)
    items = [largest_item(city, zone) for zone in ZONE_ORDER]
    if name == "harder":
        best = max(items, key=lambda item: item.points)
        best_name = best.label.removeprefix("Largest ").removesuffix(" group")
        items = [
            item
            if item is best
            else LineItem(
                item.key,
                item.label,
                0,
                f"harder variant: only one zone's largest group counts, and the {best_name} group "
                f"({best.points}) scores most. Not counted: {item.detail}",
                item.cells,
            )
            for item in items
        ]
    items.append(roads_item(city, name))
    return items
