"""Which expansions a game uses: the names a user may write, parsed into a :class:`Selection`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.expansions.beaches import beach_card_name
from scoring.expansions.errors import UnknownExpansionError
from scoring.expansions.options import norm_name
from scoring.expansions.unsupported import unsupported_error

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

    Examples
    --------
    >>> chosen = select(["POI", "beach:Lookout Point", "interstate:competitive"])
    >>> sorted(chosen.names), chosen.beach_cards, chosen.interstate_args
    (['beaches', 'interstate', 'poi'], ('lookout-point',), ('competitive',))
    """
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
