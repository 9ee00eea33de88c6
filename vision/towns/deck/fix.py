"""Corrections of a taught Circle the Wagons deck, without the photo: "the card at row 2, card 3 is card 9,
turned" (``2,3=9r``), or "is not a card" (``2,3=none``).

A version-2 deck file keeps every card found with its four territories' patches as they lay
(:class:`~vision.towns.deck.TownDeck`), so a correction only changes what the named places are taken for
and rebuilds the prototypes and the calibration from those patches exactly as teaching does
(:func:`vision.towns.deck.teach.build_town_deck`; a card said to lie turned has its patches turned back).
The corrections are applied together (two cards taken for each other are fixed in one go) and checked as a
Sprawlopolis deck's are: a place with no card, or a result with one of the 18 cards twice or missing, is
refused naming them, and the deck is left as it was. The cards are numbered 0–17
(:mod:`scoring.wagons.cards`); a Circle the Wagons deck has no expansion cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from vision.deck import CardSeen, DeckFixError, card_from_meta, json_place, text_place
from vision.towns.deck.taught import CARDS, TownDeck
from vision.towns.deck.teach import build_town_deck

__all__ = [
    "NOT_A_CARD",
    "TownFix",
    "parse_town_fix",
    "relabel_town_deck",
    "town_fix_from_json",
]

#: How the player says a place holds no Circle the Wagons card (``2,3=none``; JSON ``"card": null``).
NOT_A_CARD = "none"
_CARD_WORDS = (
    f"a card {CARDS[0]} to {CARDS[-1]} ('r' after it when turned, e.g. 9r) or {NOT_A_CARD} (not a card)"
)


@dataclass(frozen=True)
class TownFix:
    """The player's word on one place (photo, row, col; 0-based): it holds ``card`` (turned or not), or,
    ``card`` None, no Circle the Wagons card at all."""

    photo: int
    row: int
    col: int
    card: int | None
    rotated: bool = False


def parse_town_fix(text: str) -> TownFix:
    """``[PHOTO,]ROW,COL=VALUE`` as the player counts (from 1); VALUE a card (``9``, ``9r`` turned) or
    ``none``.

    >>> parse_town_fix("2,3=0r")
    TownFix(photo=0, row=1, col=2, card=0, rotated=True)
    """
    photo, row, col, value = text_place(text)
    value = value.strip().lower()
    if value == NOT_A_CARD:
        return TownFix(photo, row, col, None)
    m = re.fullmatch(r"(\d{1,2})(r?)", value)
    if not m or int(m[1]) not in CARDS:
        raise DeckFixError(f"{text!r}: {value!r} is not a Circle the Wagons card: give {_CARD_WORDS}")
    return TownFix(photo, row, col, int(m[1]), bool(m[2]))


def town_fix_from_json(obj: object, where: str) -> TownFix:
    """A correction as the service takes it: ``{"photo", "row", "col", "card", "rotated"}`` (0-based places,
    as the cards are listed; ``photo`` may be left out for 0; ``"card": null`` for not a card)."""
    if not isinstance(obj, dict):
        raise DeckFixError(f"{where}: a correction is an object with row, col and card")
    unknown = set(obj) - {"photo", "row", "col", "card", "rotated", "extra"}
    if unknown:
        raise DeckFixError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if obj.get("extra") is not None:
        raise DeckFixError(
            f"{where}: extra: a Circle the Wagons deck has no expansion cards (card null: not a card)"
        )
    photo, row, col = json_place(obj, where)
    if "card" not in obj:
        raise DeckFixError(f"{where}: card: give {_CARD_WORDS.replace(NOT_A_CARD, 'null')}")
    card, rotated = obj["card"], obj.get("rotated", False)
    if card is not None and (not isinstance(card, int) or isinstance(card, bool) or card not in CARDS):
        raise DeckFixError(f"{where}: card {card!r} is not one of the Circle the Wagons cards 0 to 17")
    if not isinstance(rotated, bool):
        raise DeckFixError(f"{where}: rotated must be true or false (got {rotated!r})")
    return TownFix(photo, row, col, card, rotated and card is not None)


def _where(seen: Sequence[CardSeen], place: tuple[int, int, int]) -> str:
    many = len({c.photo for c in seen}) > 1
    return f"{f'photo {place[0] + 1} ' if many else ''}row {place[1] + 1} card {place[2] + 1}"


def _problems(seen: Sequence[CardSeen]) -> list[str]:
    """One of the 18 twice (its places named) or missing."""
    problems = []
    for n in CARDS:
        holders = [c for c in seen if c.card == n]
        if len(holders) > 1:
            places = ", ".join(_where(seen, c.place) for c in holders)
            problems.append(f"card {n} would lie twice ({places})")
    missing = [n for n in CARDS if not any(c.card == n for c in seen)]
    if missing:
        problems.append(f"missing: card{'s' * (len(missing) > 1)} {', '.join(map(str, missing))}")
    return problems


def relabel_town_deck(deck: TownDeck, fixes: Iterable[TownFix], name: str = "taught deck") -> TownDeck:
    """``deck`` with the places of ``fixes`` taken for what the player said, rebuilt from its patches.
    Raises :class:`~vision.deck.DeckFixError` for a version-1 deck (no patches kept), a place with no card,
    and a result with one of the 18 cards twice or missing (naming them)."""
    if deck.patches is None or not deck.seen:
        raise DeckFixError(
            f"{name}: taught before corrections were kept (teach the deck again to correct it)"
        )
    seen = [card_from_meta(m) for m in deck.seen]
    by_place = {c.place: i for i, c in enumerate(seen)}
    for fix in fixes:
        place = (fix.photo, fix.row, fix.col)
        i = by_place.get(place)
        if i is None:
            raise DeckFixError(f"{name}: no card at {_where(seen, place)}")
        seen[i] = replace(seen[i], card=fix.card, rotated=fix.rotated and fix.card is not None, fit=None)
    problems = _problems(seen)
    if problems:
        raise DeckFixError(f"{name}: not corrected: " + "; ".join(problems) + " (each of the 18 cards once)")
    return build_town_deck(seen, deck.patches, deck.source, deck.look)
