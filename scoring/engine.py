"""The public entry point: score a Sprawlopolis city into a :class:`~scoring.breakdown.Breakdown`.

>>> from scoring.city_text import parse_city
>>> bd = score_city(parse_city("R:EW  R:EW  I\\nP     C     P\\n"), [6])
>>> [(i.key, i.points) for i in bd.items], bd.total, bd.target
([('largest:R', 2), ('largest:C', 1), ('largest:I', 1), ('largest:P', 1), ('roads', -1), ('card:6', 1)], 5, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.base import base_items, check_variant
from scoring.breakdown import Breakdown, LineItem
from scoring.card_set import check_game_cards
from scoring.cards import CARD_NAMES, RULING_EDGE, RULING_TIES, UnknownCardError, card_item
from scoring.city import City, format_city
from scoring.errors import InputError
from scoring.expansions.interstate import score_interstate
from scoring.expansions.lines import expansion_items

__all__ = ["CARD_NAMES", "UnknownCardError", "score_city"]

# The options the expansions read (scoring/expansions/README.md); any other key is a typing mistake.
OPTIONS = (
    "beach-cards",
    "construction-card",
    "construction-penalty",
    "interstate-card",
    "interstate-mode",
    "roadwork-unplayed",
)

_VARIANT_NOTES = {
    "easier": "Easier variant: roads cost nothing.",
    "harder": "Harder variant: only the largest group of one zone type counts (the best one).",
}


def score_city(
    city: City,
    cards: Sequence[int] | None = None,
    expansions: Sequence[str] | None = None,
    *,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
) -> Breakdown:
    """Score ``city`` and explain every line.

    ``cards`` (default ``city.cards``) are the scoring-card numbers in play; any number of them may be given
    (players also score partial sets) but each must be 1–18 and appear once, else
    :class:`~scoring.cards.UnknownCardError`. The target is their sum, ``None`` when there are none.
    ``expansions`` defaults to ``city.expansions``; ``variant`` ("standard", "easier", "harder") to the
    city's ``variant:`` header; ``options`` are the city's other headers updated by the given mapping.
    Returns items ``largest:R/C/I/P``, ``roads``, ``card:N`` per card, then the expansions' items.
    Raises :class:`~scoring.errors.InputError` for anything that cannot be scored.
    """
    # Any count: partial sets are scored here; the inputs (file, CLI, service) hold a game to its count.
    numbers = check_game_cards(city.cards if cards is None else cards, None)
    given = city.expansions if expansions is None else expansions
    if isinstance(given, str):  # "wrecktar beaches" rather than a list of names
        given = given.replace(",", " ").split()
    names = tuple(e.strip().lower() for e in given if e.strip())
    all_options = dict(city.headers)
    all_options.update(check_options(options or {}))
    chosen = check_variant(variant if variant is not None else city.header("variant", "standard"))

    # "interstate:competitive" and the like name a mode; every such name goes to the Interstate scorer.
    if any(n.partition(":")[0] == "interstate" for n in names):
        return score_interstate(city, numbers, names, chosen, all_options)

    items: list[LineItem] = base_items(city, chosen)
    items += [card_item(city, n) for n in numbers]
    notes: list[str] = []
    if chosen in _VARIANT_NOTES:
        notes.append(_VARIANT_NOTES[chosen])
    if names:
        extra_items, extra_notes = expansion_items(city, names, all_options, list(items))
        items += extra_items
        notes += extra_notes
    # A ruling belongs in the notes when it decided at least one line (its text then appears there).
    notes += [r for r in (RULING_EDGE, RULING_TIES) if any(r in item.detail for item in items)]
    return Breakdown(
        game="sprawlopolis",
        city=format_city(city),
        cards=numbers,
        items=tuple(items),
        target=sum(numbers) if numbers else None,
        notes=tuple(dict.fromkeys(notes)),
    )


def check_options(options: Mapping[str, str]) -> Mapping[str, str]:
    """Refuse option keys no expansion reads (spelled any case, ``_`` or spaces for ``-``)."""
    for key in options:
        if "-".join(str(key).strip().lower().replace("_", " ").split()) not in OPTIONS:
            raise UnknownOptionError(
                f"unknown option {key!r} for Sprawlopolis; expected one of: {', '.join(OPTIONS)}"
            )
    return options


class UnknownOptionError(InputError):
    """An option key that no expansion reads."""

    code = "unknown_option"
