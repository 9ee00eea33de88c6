"""Taught decks of any game, as ``sprawlscan teach``/``scan --deck`` and the service's deck and scans share
them: taught from a photo of a game's 18 cards, read from a file, corrected, used for their game only.

Unless the player names the game, the deck photo tells it: each game that can tell its own cards by their
structure (:meth:`Game.deck_fit`) says how many of the cards found fit one of its 18; a game whose cards
fit at least :data:`DECK_SHARE` of them is the deck's. Otherwise the deck is taught as the game that reads
what it is unsure of (:attr:`Game.reads_when_unsure`), whose own refusals then name what is wrong. A deck
file records its game, and a deck is used only for a photo of its game: a player of several games keeps
one deck of each.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from games.interface import Game, GameOptionError
from games.registry import game_named, registered
from scoring.errors import InputError
from vision.deck import DeckFileError, deck_game

__all__ = ["DECK_SHARE", "check_deck_extras", "deck_games", "load_any_deck", "teach_photos"]

#: A deck photo is of a game's cards when they fit at least this share of the cards found.
DECK_SHARE = 0.6


def teach_photos(
    photos: Sequence[bytes], *, names: Sequence[str], game: str | None = None, extras: Sequence[Any] = ()
) -> Any:
    """The teaching (its ``deck.game`` says which game) from deck ``photos`` of the game named, or of the
    game they show (see the module note). ``extras`` are the other cards the player names in the photos,
    (where, what) pairs, for the game to read (Sprawlopolis's expansion cards). Raises the decks' own
    errors naming the cards, and :class:`GameOptionError` for an unknown game."""
    start = time.perf_counter()
    if game is not None:
        return game_named(game).teach(photos, names, extras, None, start)
    fallback: Game | None = None
    for candidate in registered():
        if candidate.reads_when_unsure:
            fallback = fallback or candidate
            continue
        fit = candidate.deck_fit(photos, names)
        if fit is not None and fit.share >= DECK_SHARE:
            return candidate.teach(photos, names, extras, fit, start)
    if fallback is None:
        raise GameOptionError("name the game of the deck photographed (--game)")
    return fallback.teach(photos, names, extras, None, start)


def check_deck_extras(game: str | None, extras: Sequence[tuple[str, object]]) -> None:
    """Refuse, before any photo is read, other cards named in a deck photo that the game named (without
    one: any game) cannot hold (:meth:`Game.deck_extras`)."""
    if game is not None:
        game_named(game).deck_extras(extras)
        return
    errors = []
    for candidate in registered():
        try:
            candidate.deck_extras(extras)
            return
        except InputError as exc:
            errors.append(exc)
    raise errors[0]


def load_any_deck(data: bytes, name: str) -> Any:
    """The taught deck in a ``.deck`` file of any game, read by its game; the file's own errors say what
    is wrong with it."""
    written = deck_game(data, name)
    try:
        game = game_named(written)
    except GameOptionError:
        raise DeckFileError(
            f"{name}: a taught deck of a game this sprawlscan does not know ({written[:40]!r})"
        ) from None
    return game.load_deck(data, name)


def deck_games(decks: Sequence[Any], names: Sequence[str]) -> dict[str, Any]:
    """The taught ``decks`` (loaded from the files ``names``) by game; two of one game are refused, naming
    both files (a scan uses one deck a game)."""
    out: dict[str, Any] = {}
    where: dict[str, str] = {}
    for deck, name in zip(decks, names, strict=True):
        if deck.game in out:
            title = game_named(deck.game).title
            raise GameOptionError(
                f"{where[deck.game]} and {name} are both {title} decks: give one deck a game"
            )
        out[deck.game], where[deck.game] = deck, name
    return out
