"""The Sprawlopolis expansions: which ones a game uses, their options, and their breakdown lines.

:func:`expansion_items` is the engine's single entry point for every expansion except Interstate, which
changes how the whole city is scored and so has its own entry point,
:func:`scoring.expansions.interstate.score_interstate`. The options each expansion reads are documented in
``scoring/expansions/README.md``; an option comes from the ``options`` mapping (the command line's
``--option KEY=VALUE``) or, failing that, from a ``key: value`` header line of the city file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.breakdown import LineItem
from scoring.city import City
from scoring.errors import InputError
from scoring.numbers import NumberError, whole_number

Options = Mapping[str, str] | None


class UnknownExpansionError(InputError):
    """An expansion name this scorer does not know."""

    code = "unknown_expansion"


class UnsupportedExpansionError(InputError):
    """A known expansion whose rules are not available, so it cannot be scored."""

    code = "unsupported_expansion"


class ExpansionOptionError(InputError):
    """An expansion option (or an expansion mark in the city) that cannot be used as given."""

    code = "bad_expansion_option"


def norm_name(name: str) -> str:
    """Lower-case a user-written name, word breaks as ``-``: ``"Lookout Point"`` → ``"lookout-point"``."""
    return "-".join(name.strip().lower().replace("_", " ").replace("'", "").split())


# Every accepted spelling of each supported expansion, mapped to its canonical name.
EXPANSION_ALIASES: dict[str, str] = {
    "poi": "poi",
    "points-of-interest": "poi",
    "point-of-interest": "poi",
    "construction": "construction",
    "construction-zones": "construction",
    "construction-zone": "construction",
    "wrecktar": "wrecktar",
    "beaches": "beaches",
    "beach": "beaches",
    "interstate": "interstate",
    "roadwork": "roadwork",
}
# Names of expansions that exist but cannot be scored, with the reason shown to the user.
UNSUPPORTED: dict[str, str] = {
    "stew": "Stew: Fungus Among Us",
    "fungus-among-us": "Stew: Fungus Among Us",
    "stew:fungus-among-us": "Stew: Fungus Among Us",
    "fungus": "Stew: Fungus Among Us",
    "tussie-mussie": "Tussie Mussie: Flower Shoppe",
    "flower-shoppe": "Tussie Mussie: Flower Shoppe",
    "tussie-mussie:flower-shoppe": "Tussie Mussie: Flower Shoppe",
    "flower-shop": "Tussie Mussie: Flower Shoppe",
}
KNOWN_NAMES = (
    "poi",
    "construction",
    "wrecktar",
    "beaches",
    "beach:peninsula",
    "beach:lookout-point",
    "beach:scenic-route",
    "beach:waterfront",
    "interstate",
    "interstate:MODE-or-CARD",
    "roadwork",
)


@dataclass(frozen=True)
class Selection:
    """The expansions of one game, parsed from their names.

    ``beach_cards`` are canonical beach card names (``peninsula`` …) named as ``beach:<card>``;
    ``interstate_args`` the words given as ``interstate:<word>`` (a mode or an interstate card).
    """

    names: frozenset[str]
    beach_cards: tuple[str, ...] = ()
    interstate_args: tuple[str, ...] = ()

    def __contains__(self, name: object) -> bool:
        return name in self.names


def select(expansions: Iterable[str] | None) -> Selection:
    """Parse expansion names; raise :class:`UnknownExpansionError` or :class:`UnsupportedExpansionError`.

    Accepts the canonical names (``poi construction wrecktar beaches interstate roadwork``), the spelled-out
    forms (``points-of-interest``, ``construction-zones``), ``beach:<card>`` to choose a beach scoring card
    and ``interstate:<mode or card>``. Case, spaces and underscores do not matter.
    """
    from scoring.expansions.beaches import beach_card_name
    from scoring.expansions.unsupported import unsupported_error

    names: set[str] = set()
    beach_cards: list[str] = []
    interstate_args: list[str] = []
    for raw in expansions or ():
        name = norm_name(raw)
        if name in UNSUPPORTED:
            raise unsupported_error(UNSUPPORTED[name])
        base, _, arg = name.partition(":")
        canonical = EXPANSION_ALIASES.get(base)
        if canonical is None or (arg and canonical not in ("beaches", "interstate")):
            raise UnknownExpansionError(
                f"unknown expansion {raw!r} (known: {', '.join(KNOWN_NAMES)}; not supported: "
                "Stew: Fungus Among Us and Tussie Mussie: Flower Shoppe)"
            )
        names.add(canonical)
        if arg and canonical == "beaches":
            card = beach_card_name(arg)
            if card not in beach_cards:
                beach_cards.append(card)
        elif arg:
            interstate_args.append(arg)
    return Selection(frozenset(names), tuple(beach_cards), tuple(interstate_args))


def option(city: City, options: Options, key: str) -> str | None:
    """The value of expansion option ``key``: from ``options`` first, else from the city's header lines."""
    if options:
        for k, v in options.items():
            if norm_name(k) == key:
                return str(v).strip()
    value = city.header(key)
    return None if value is None else value.strip()


def int_option(city: City, options: Options, key: str, *, minimum: int | None = None) -> int | None:
    """An option holding a whole number, ``None`` when absent; raise :class:`ExpansionOptionError` if bad."""
    value = option(city, options, key)
    if value is None or value == "":
        return None
    try:
        return whole_number(value, lo=-999 if minimum is None else minimum, hi=999)
    except NumberError as exc:
        raise ExpansionOptionError(f"option {key}: {exc}") from None


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
        f"(add it with --expansion {name} or an 'expansions: {name}' header)."
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
    from scoring.expansions.beaches import beach_items
    from scoring.expansions.construction import construction_item
    from scoring.expansions.poi import poi_item
    from scoring.expansions.roadwork import roadwork_item
    from scoring.expansions.wrecktar import wrecktar_item

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
