"""Taught decks of either game, as ``sprawlscan teach``/``scan --deck`` and the service's deck and scans
share them.

A deck photo shows Sprawlopolis cards or Circle the Wagons cards; unless the player names the game, the
scanner tells: the territory reader reads the cards found, and when the Circle the Wagons cards fit at least
:data:`WAGONS_SHARE` of them it is a wagons deck (:mod:`vision.towns.deck.teach`), otherwise it is taught
as a Sprawlopolis deck exactly as before (whose own refusals then name what is wrong). A deck file records
its game (:func:`vision.deck.deck_game`), and a deck is used only for a photo of its game: a player of
both games keeps one deck of each (``scan --deck`` twice; on the service one per device and game), and a
scan uses the one of the game it reads; a city scanned with only a Circle the Wagons deck, or a town with
only a Sprawlopolis one, is read without it and says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from scoring.errors import InputError

__all__ = [
    "DECK_GAMES",
    "WAGONS_SHARE",
    "DeckGameError",
    "deck_for",
    "deck_games",
    "deck_not_used",
    "load_any_deck",
    "teach_photos",
]

DECK_GAMES = ("sprawlopolis", "wagons")
#: A deck photo is of Circle the Wagons cards when they fit at least this share of the cards found.
WAGONS_SHARE = 0.6
_NAMES = {"sprawlopolis": "Sprawlopolis", "wagons": "Circle the Wagons"}


class DeckGameError(InputError):
    """A game named for a deck that it cannot be (unknown, or options of the other game given)."""

    code = "wrong_game_option"


def _town_reader() -> Any:
    from vision.towns.scan import shipped_reader

    return shipped_reader()


def teach_photos(
    photos: Sequence[bytes], *, names: Sequence[str], game: str | None = None, extras: Sequence[Any] = ()
) -> Any:
    """The teaching (:class:`vision.deck.Teaching`; its ``deck.game`` says which) from deck ``photos``
    of the game named, or of the game they show (see the module note). Raises the decks' own
    :class:`~vision.deck.DeckError` naming the cards, and :class:`DeckGameError`."""
    from vision.deck import DeckError, teach_deck

    if game is not None and game not in DECK_GAMES:
        raise DeckGameError(f"unknown game {game!r}: sprawlopolis or wagons")
    if game == "sprawlopolis":
        return teach_deck(list(photos), names=names, extras=extras)
    start = time.perf_counter()
    try:
        reader = _town_reader()
    except RuntimeError as exc:  # no territory classifier in this build: every deck is Sprawlopolis's
        if game == "wagons":
            raise DeckGameError(f"a Circle the Wagons deck cannot be taught here: {exc}") from None
        return teach_deck(list(photos), names=names, extras=extras)
    from vision.towns.deck import read_deck_photo, teaching_of, wagons_share

    found = [read_deck_photo(p, n, reader) for p, n in zip(photos, names, strict=True)]
    cards = sum(len(f.places) for f in found)
    share = sum(wagons_share(f) * len(f.places) for f in found) / max(1, cards)
    if share < WAGONS_SHARE:
        if game == "wagons":
            fit = round(share * cards)
            label = ", ".join(dict.fromkeys(names))
            raise DeckError(
                f"{label}: the cards found do not look like Circle the Wagons cards ({fit} of {cards} fit "
                "one; for a Sprawlopolis deck leave out the game)"
            )
        return teach_deck(list(photos), names=names, extras=extras)
    if extras:
        raise DeckGameError(
            "expansion cards (--extra) belong to a Sprawlopolis deck, but the photo shows Circle the Wagons "
            "cards: leave them out"
        )
    return teaching_of(found, list(names), start)


def load_any_deck(data: bytes, name: str) -> Any:
    """The taught deck in a ``.deck`` file of either game (:class:`vision.deck.TaughtDeck` or
    :class:`vision.towns.deck.TownDeck`); :class:`~vision.deck.DeckFileError` says what is wrong."""
    from vision.deck import deck_game, load_deck

    if deck_game(data, name) == "wagons":
        from vision.towns.deck import load_town_deck

        return load_town_deck(data, name)
    return load_deck(data, name)


def _decks(decks: Any) -> list[Any]:
    """The taught decks given: none, one deck, or several (one per game)."""
    if decks is None:
        return []
    return list(decks) if isinstance(decks, list | tuple) else [decks]


def deck_games(decks: Sequence[Any], names: Sequence[str]) -> dict[str, Any]:
    """The taught ``decks`` (loaded from the files ``names``) by game; two of one game are refused, naming
    both files (a scan uses one deck a game)."""
    out: dict[str, Any] = {}
    where: dict[str, str] = {}
    for deck, name in zip(decks, names, strict=True):
        game = getattr(deck, "game", "sprawlopolis")
        if game in out:
            raise DeckGameError(
                f"{where[game]} and {name} are both {_NAMES[game]} decks: give one deck a game"
            )
        out[game], where[game] = deck, name
    return out


def deck_for(decks: Any, game: str) -> Any:
    """The taught deck of ``game`` among ``decks`` (none, one, or one per game), else ``None`` (a deck is
    never used for the other game)."""
    return next((d for d in _decks(decks) if getattr(d, "game", "sprawlopolis") == game), None)


def deck_not_used(decks: Any, game: str) -> str | None:
    """The warning for a photo of ``game`` read without a taught deck while one of the other game was
    given, or None (no deck at all, or one of ``game``)."""
    given = _decks(decks)
    if not given or deck_for(given, game) is not None:
        return None
    held, shown = _NAMES[getattr(given[0], "game", "sprawlopolis")], _NAMES[game]
    what = "city" if game == "sprawlopolis" else "town"
    return f"the taught deck holds {held} cards; this {shown} {what} was read without it"
