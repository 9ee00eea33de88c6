"""The games sprawlscan knows, each registered once (:func:`register`); everything outside a game's own
package learns about games here.

>>> from games import registered
>>> [game.name for game in registered()]
['sprawlopolis', 'wagons']
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.interface import Game, GameOptionError, OptionSpec

__all__ = [
    "game_named",
    "game_names",
    "option_owners",
    "options_for",
    "register",
    "registered",
    "registering",
]

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the games every interface offers, after those registered before it (the order in
    which a photo's game is told: the cheaper to tell first). A name taken already is refused."""
    if game.name in _GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


@contextmanager
def registering(game: Game) -> Iterator[Game]:
    """``game`` registered for the ``with`` block only (a test's own game)."""
    register(game)
    try:
        yield game
    finally:
        del _GAMES[game.name]


def registered() -> tuple[Game, ...]:
    """Every registered game, in the order registered."""
    return tuple(_GAMES.values())


def game_names() -> tuple[str, ...]:
    """The registered games' names, as ``--game`` and the requests' ``game`` take them."""
    return tuple(_GAMES)


def game_named(name: str) -> Game:
    """The game called ``name`` (its name or one of its aliases, any case); :class:`GameOptionError`
    naming the games there are otherwise."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game in _GAMES.values():
        if key == game.name or key in game.aliases:
            return game
    raise GameOptionError(f"unknown game {name[:40]!r}: {' or '.join(_GAMES)}")


def option_owners(key: str) -> tuple[Game, ...]:
    """The games that take the choice ``key``."""
    return tuple(g for g in _GAMES.values() if g.owns(key))


def options_for(command: str) -> tuple[tuple[tuple[Game, OptionSpec], ...], ...]:
    """Each choice the command line's ``command`` offers, one per flag however many games take it: the
    games that take it, each with its own spelling of it (the first game's makes the flag)."""
    out: dict[str, list[tuple[Game, OptionSpec]]] = {}
    for game in _GAMES.values():
        for spec in game.options:
            if command in spec.commands:
                out.setdefault(spec.flag, []).append((game, spec))
    return tuple(tuple(takers) for takers in out.values())
