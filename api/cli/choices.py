"""The games' choices on the command line: every registered game's :class:`~games.OptionSpec` for a
command becomes its flag (one flag for a choice several games take), and the parsed flags become a
:class:`~games.GameRequest`. Nothing here knows which games there are."""

from __future__ import annotations

import argparse
from typing import Any

from api.cli.argtypes import whole
from api.cli.inputs import MAX_TEXT_BYTES, parse_options, read_input
from games import Game, GameRequest, OptionSpec, game_names, options_for

__all__ = ["add_choices", "add_game", "request_of"]


def add_game(parser: argparse.ArgumentParser, help: str) -> None:
    """``--game NAME``, one of the registered games."""
    parser.add_argument("--game", choices=game_names(), default=None, help=help)


def _argument(takers: tuple[tuple[Game, OptionSpec], ...]) -> dict[str, Any]:
    spec = takers[0][1]
    helps = "; ".join(f"{game.title}: {taken.help}" for game, taken in takers)
    extra: dict[str, Any] = {"dest": spec.dest, "metavar": spec.metavar, "help": helps}
    if spec.choices is not None:
        extra["choices"] = spec.choices
        del extra["metavar"]
    if spec.kind == "pairs":
        extra["action"] = "append"
    elif spec.nargs is not None:
        extra.update(nargs=spec.nargs, action="extend")
    if spec.kind == "numbers":
        extra["type"] = whole(spec.what)
    return extra


def add_choices(parser: argparse.ArgumentParser, command: str) -> None:
    """Every game's choices that ``command`` offers, as flags."""
    for takers in options_for(command):
        parser.add_argument(takers[0][1].flag, **_argument(takers))


def _value(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "pairs":
        return parse_options(value)
    if spec.kind == "file":
        return read_input(value, MAX_TEXT_BYTES)
    return value


def request_of(args: argparse.Namespace, command: str, game: str | None = None) -> GameRequest:
    """The game (``game``, else ``--game``) and the choices given as flags (checked cheaply: bad ones are
    an InputError before any file or photo is read)."""
    specs = [takers[0][1] for takers in options_for(command)]
    given = {
        spec.key: _value(spec, getattr(args, spec.dest))
        for spec in specs
        if getattr(args, spec.dest, None) not in (None, [], "")
    }
    request = GameRequest(game or args.game, given, command_line=True)
    request.check()
    return request
