"""What a player asks of a game: which game (or none: the scanner tells from a photo) and the choices
given, as a form, a JSON request or the command line sends them (:class:`GameRequest`).

A choice is a key that some game takes (:class:`~games.interface.OptionSpec`); a key no game takes, or one
another game than the player's takes, is refused with the choice named, never dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from games.interface import Game, GameOptionError
from games.registry import game_named, option_owners, registered

__all__ = ["GameRequest", "own_choices", "refuse_others"]


@dataclass(frozen=True)
class GameRequest:
    """The ``game`` (``None``: the scanner tells), the choices ``given`` (key → value as sent: text, words
    or JSON values) and whether they come from the ``command_line`` (its rules differ a little: see each
    game's choices)."""

    game: str | None = None
    given: Mapping[str, Any] = field(default_factory=dict)
    command_line: bool = False

    def check(self) -> dict[str, Any]:
        """Each game's choices read from ``given`` (by game name; only the named game's when one is),
        cheaply, before any photo is read: an unknown game or choice, a choice of a game other than the
        one named, or a bad value is an :class:`~scoring.errors.InputError` naming it. Read once: an
        interface checks early, and the photo's path then takes the same choices."""
        return self._choices

    @cached_property
    def _choices(self) -> dict[str, Any]:
        for key in self.given:
            if not option_owners(key):
                raise GameOptionError(f"unknown choice {key[:40]!r}")
        games = (game_named(self.game),) if self.game else registered()
        if self.game:
            refuse_others(games[0], self.given, command_line=self.command_line)
        return {g.name: g.choices(own_choices(g, self.given), command_line=self.command_line) for g in games}


def own_choices(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """The choices in ``given`` that ``game`` takes."""
    return {k: v for k, v in given.items() if game.owns(k)}


def refuse_others(game: Game, given: Mapping[str, Any], *, command_line: bool = False) -> None:
    """Raise :class:`GameOptionError` for a choice in ``given`` that ``game`` does not take (named by its
    flag on the ``command_line``)."""
    for key in given:
        if not game.owns(key):
            owner = option_owners(key)[0]
            name = next(o.flag for o in owner.options if o.key == key) if command_line else key
            raise GameOptionError(
                f"{name} is a {owner.title} option, but this is a {game.title} {game.grid_word}: leave it out"
            )
