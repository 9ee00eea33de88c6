"""Beaches: four scoring cards about the beach borders of the city (beach cells are written ``~``).

Beach cells are not blocks. A block *borders* a beach when a beach cell lies across one of its sides (on the
same side of the interstate, if there is one).

- Peninsula: +10, −1 per row between the north and south beaches.
- Lookout Point: +5 if the largest park group borders a beach.
- Scenic Route: if every block bordering a beach lies on one and the same road, the road penalty is waived.
- Waterfront: +1 per residential block bordering a beach.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.breakdown import LineItem
from scoring.city import SIDES, City, cell_name, cell_names
from scoring.expansions.errors import ExpansionOptionError
from scoring.expansions.options import Options, norm_name, option
from scoring.expansions.roads import road_groups
from scoring.geometry import Pos, largest_groups

CARDS = {
    "peninsula": "Peninsula",
    "lookout-point": "Lookout Point",
    "scenic-route": "Scenic Route",
    "waterfront": "Waterfront",
}
_ALIASES = {"lookout": "lookout-point", "scenic": "scenic-route"}
OPTION = "beach-cards"

RULING_PENINSULA = (
    "Ruling (Peninsula): the north beach is the top-most row of beach cells that have a block directly "
    "below them, the south beach the bottom-most row of beach cells with a block directly above; the rows "
    "between are the rows holding blocks strictly between those two."
)
RULING_SCENIC = (
    "Ruling (Scenic Route): the road penalty is waived by a line that cancels the Roads line, so the roads "
    "stay visible in the breakdown."
)


def beach_card_name(value: str) -> str:
    """A beach card's canonical name: ``peninsula``, ``lookout-point``, ``scenic-route`` or ``waterfront``.

    Examples
    --------
    >>> beach_card_name("Lookout Point"), beach_card_name("beach:waterfront")
    ('lookout-point', 'waterfront')
    """
    name = norm_name(value).removeprefix("beach:")
    name = _ALIASES.get(name, name)
    if name not in CARDS:
        raise ExpansionOptionError(f"unknown beach card {value!r} (known: {', '.join(CARDS)})")
    return name


def chosen_cards(city: City, named: Sequence[str], options: Options) -> list[str]:
    """The beach scoring cards in play: those named as ``beach:<card>`` plus the ``beach-cards`` option."""
    cards = list(named)
    for word in (option(city, options, OPTION) or "").replace(",", " ").split():
        card = beach_card_name(word)
        if card not in cards:
            cards.append(card)
    return cards


def beach_sides(city: City, pos: Pos) -> str:
    """The sides of the cell at ``pos`` with a beach cell across them (never across the interstate)."""
    out = ""
    for side in SIDES:
        other = city.neighbour(*pos, side)
        if other is not None and city.cell(*other).kind == "beach":
            out += side
    return out


def beachfront(city: City) -> list[Pos]:
    """Every block that borders a beach, in reading order."""
    return [(r, c) for r, c, _ in city.blocks() if beach_sides(city, (r, c))]


def _names(cells: Sequence[Pos]) -> tuple[str, ...]:
    return tuple(cell_name(r, c) for r, c in sorted(cells))


def peninsula(city: City) -> LineItem:
    """``beach:peninsula``: +10, −1 per block row strictly between the north and south beaches."""
    key, label = "beach:peninsula", "Peninsula"
    beaches = [(r, c) for r, c, cell in city.cells() if cell.kind == "beach"]
    north = [(r, c) for r, c in beaches if "S" in _block_sides(city, (r, c))]
    south = [(r, c) for r, c in beaches if "N" in _block_sides(city, (r, c))]
    if not north or not south:
        missing = " and ".join(w for w, found in (("north", north), ("south", south)) if not found)
        detail = (
            f"no {missing} beach found (beach cells '~' with a block directly "
            f"{'below' if not north else 'above'} them), so the rows between the beaches cannot be counted; "
            f"this line scores 0 instead of guessing. {RULING_PENINSULA}"
        )
        return LineItem(key, label, 0, detail)
    top = min(r for r, _ in north)
    bottom = max(r for r, _ in south)
    rows = sorted({r for r, _, _ in city.blocks() if top < r < bottom})
    listing = ", ".join(str(r + 1) for r in rows) or "none"
    detail = (
        f"+10, −1 for each of {len(rows)} row{'s' if len(rows) != 1 else ''} between the north beach (row "
        f"{top + 1}) and the south beach (row {bottom + 1}): rows {listing}. {RULING_PENINSULA}"
    )
    return LineItem(key, label, 10 - len(rows), detail)


def _block_sides(city: City, pos: Pos) -> str:
    """The sides of the cell at ``pos`` with a block across them."""
    return "".join(s for s in SIDES if city.block_across(*pos, s) is not None)


def lookout_point(city: City) -> LineItem:
    """``beach:lookout-point``: +5 when a largest park group borders a beach (any of tied groups)."""
    key, label = "beach:lookout-point", "Lookout Point"
    groups = largest_groups(city, "P")
    if not groups:
        return LineItem(key, label, 0, "no park block, so no largest park group to border a beach.")
    for group in groups:
        touching = sorted(p for p in group if beach_sides(city, p))
        if touching:
            tie = " (one of the groups tied for largest)" if len(groups) > 1 else ""
            detail = (
                f"+5: the largest park group{tie}, {len(group)} blocks at {cell_names(group)}, "
                f"borders a beach at {cell_names(touching)}."
            )
            return LineItem(key, label, 5, detail, _names(touching))
    size = len(groups[0])
    which = "none of the tied largest park groups" if len(groups) > 1 else "the largest park group"
    where = "; ".join(cell_names(g) for g in groups)
    detail = f"{which} ({size} block{'s' if size != 1 else ''} at {where}) borders a beach."
    if len(groups) == 1:
        detail = detail.replace(") borders", ") does not border")
    return LineItem(key, label, 0, detail)


def scenic_route(city: City, base_items: Sequence[LineItem]) -> LineItem:
    """``beach:scenic-route``: cancels the ``roads`` line if one road passes every block bordering a beach."""
    key, label = "beach:scenic-route", "Scenic Route"
    roads_line = next((item for item in base_items if item.key == "roads"), None)
    front = beachfront(city)
    if not front:
        return LineItem(
            key, label, 0, "no block borders a beach, so no road connects them; roads still cost."
        )
    owner: dict[Pos, int] = {}
    for index, group in enumerate(road_groups(city)):
        for pos in group.cells:
            owner[pos] = index
    roadless = [p for p in front if p not in owner]
    road_ids = {owner[p] for p in front if p in owner}
    if roadless or len(road_ids) != 1:
        why = []
        if roadless:
            why.append(f"{cell_names(roadless)} {'has' if len(roadless) == 1 else 'have'} no road")
        if len(road_ids) > 1:
            why.append(f"the others lie on {len(road_ids)} different roads")
        detail = (
            f"the {len(front)} blocks bordering a beach ({cell_names(front)}) are not all on one road: "
            f"{'; '.join(why)}. Roads still cost."
        )
        return LineItem(key, label, 0, detail, _names(front))
    penalty = roads_line.points if roads_line is not None else 0
    if penalty >= 0:
        detail = f"one road passes every beach-side block ({cell_names(front)}); roads cost nothing here."
        return LineItem(key, label, 0, detail, _names(front))
    detail = (
        f"+{-penalty} cancels the Roads line (−{-penalty}): one road passes every block bordering a beach "
        f"({cell_names(front)}), so the road penalty is waived. {RULING_SCENIC}"
    )
    return LineItem(key, label, -penalty, detail, _names(front))


def waterfront(city: City) -> LineItem:
    """``beach:waterfront``: +1 per residential block bordering a beach."""
    found = [p for p in beachfront(city) if city.cell(*p).zone == "R"]
    if not found:
        return LineItem("beach:waterfront", "Waterfront", 0, "no residential block borders a beach.")
    n = len(found)
    detail = (
        f"+1 for each of {n} residential block{'s' if n != 1 else ''} bordering a beach: {cell_names(found)}."
    )
    return LineItem("beach:waterfront", "Waterfront", n, detail, _names(found))


def beach_items(
    city: City, named: Sequence[str], options: Options, base_items: Sequence[LineItem]
) -> tuple[list[LineItem], list[str]]:
    """One line per beach scoring card in play (see :func:`chosen_cards`), and notes."""
    cards = chosen_cards(city, named, options)
    if not cards:
        detail = (
            "no beach scoring card was named, so nothing scores (set option beach-cards=peninsula, "
            "or choose expansion beach:waterfront, …)."
        )
        return [LineItem("beach", "Beaches", 0, detail)], [
            f"Beaches: name the beach scoring card in play with option {OPTION}=CARD "
            f"(one of {', '.join(CARDS)})."
        ]
    if not any(cell.kind == "beach" for _, _, cell in city.cells()):
        note = "Beaches: the city has no beach cells ('~'); mark the beaches to score the beach cards."
        notes = [note]
    else:
        notes = []
    scorers = {
        "peninsula": lambda: peninsula(city),
        "lookout-point": lambda: lookout_point(city),
        "scenic-route": lambda: scenic_route(city, base_items),
        "waterfront": lambda: waterfront(city),
    }
    return [scorers[card]() for card in cards], notes
