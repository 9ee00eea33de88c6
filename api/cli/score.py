"""``sprawlscan score`` and ``sprawlscan check``: score a typed grid or a photo, or compare a hand tally
with the score, for any registered game (:mod:`games`).

``score FILE`` reads a grid in its game's text format (``-`` for standard input) and prints its breakdown
as a table (``--format text``) or JSON. ``check FILE --tally TALLY`` scores the grid and reports each tally
line as agreeing or not. The game is ``--game``, else the file's ``game:`` header, else the one whose
files end as the file's name does (``.town``), else the first registered. A photo (JPEG, PNG, WebP or HEIC)
takes the one path of ``sprawlscan scan`` (:func:`games.scan_photo`): its game told from it, its doubt
printed under the table and its warnings and retake on standard error, as ``scan`` prints them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from api.cli.choices import add_choices, add_game, request_of
from api.cli.inputs import in_file, is_photo, read_input, read_tally, text_input
from api.cli.scan import scan_file, tell_scan
from games import Game, GameOptionError, ScoredPhoto, game_named, registered
from games.doubt_text import doubt_text
from scoring.breakdown import Breakdown
from scoring.errors import InputError

_HEADER_LINE = re.compile(rb"^\s*([A-Za-z][A-Za-z0-9_-]+)\s*:\s*(.*?)\s*$")


def detect_game(path: str, data: bytes) -> Game:
    """The game a grid file is for: its ``game:`` header line, else the game whose files end as ``path``
    does, else the first registered. Raises :class:`InputError` for a ``game:`` header naming no game."""
    for raw in data.splitlines():
        line = raw.split(b"#", 1)[0]
        if not line.strip():
            continue
        header = _HEADER_LINE.match(line)
        if header is None:
            break  # the grid starts: no more headers
        if header[1].lower() == b"game":
            value = header[2].decode("utf-8", "replace")
            try:
                return game_named(value)
            except GameOptionError:
                known = " or ".join(g.name for g in registered())
                raise InputError(f"unknown game {value!r} in the 'game:' header ({known})") from None
    games = registered()
    return next((g for g in games if path.lower().endswith(g.file_suffix)), games[0])


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _typed(args: argparse.Namespace, command: str, data: bytes) -> tuple[Game, Breakdown]:
    """The game of the typed grid in ``data`` and its breakdown with the flags' choices."""
    name = "standard input" if args.city == "-" else args.city
    game = game_named(args.game) if args.game else detect_game(args.city, data)
    request = request_of(args, command, game.name)
    try:
        text = text_input(data, name)
        return game, game.score_text(text, request.check()[game.name], name=name)
    except InputError as exc:
        raise in_file(name, exc) from None


def _print_scan(scored: ScoredPhoto, args: argparse.Namespace) -> int:
    if args.format == "json":
        _emit(json.dumps(scored.to_json(), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(scored.render_text())
    return tell_scan(scored)


def run_score(args: argparse.Namespace) -> int:
    """``sprawlscan score``: print the breakdown; exit status 0 (2 for a photo to take again)."""
    data = read_input(args.city)
    if is_photo(data):
        return _print_scan(scan_file(args, "score"), args)
    game, breakdown = _typed(args, "score", data)
    if args.format == "json":
        _emit(json.dumps(breakdown.to_json(), indent=2, ensure_ascii=False))
    else:
        _emit(game.render_breakdown(breakdown))
    return 0


def _check_photo(args: argparse.Namespace) -> tuple[Game, Breakdown, ScoredPhoto | None]:
    scored = scan_file(args, "check")
    if scored.retake is not None:  # no score from a photo that cannot be read reliably: what was read
        sys.stdout.write(scored.render_text())
        raise _Retake(tell_scan(scored))
    return game_named(scored.game), scored.breakdown, scored


class _Retake(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


def run_check(args: argparse.Namespace) -> int:
    """``sprawlscan check``: compare the tally with the grid's (or photo's) score and print the verdicts,
    and for a photo the cells in doubt under them and its warnings."""
    if args.city == "-" and args.tally == "-":
        raise InputError("only one of the grid and the tally can be read from standard input")
    data = read_input(args.city)
    try:
        game, breakdown, scored = (
            _check_photo(args) if is_photo(data) else (*_typed(args, "check", data), None)
        )
    except _Retake as retake:
        return retake.status
    verdict = game.check_tally(breakdown, read_tally(args.tally))
    if args.format == "json":
        out: dict[str, Any] = {**verdict.to_json(), "breakdown": breakdown.to_json()}
        if scored is not None:
            out.update(doubt=list(scored.doubt), warnings=list(scored.warnings))
        _emit(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        _emit(game.render_check(verdict))
        if scored is not None:
            sys.stdout.write(doubt_text(scored.doubt, breakdown.total))
    return tell_scan(scored) if scored is not None else 0


def _add_common(parser: argparse.ArgumentParser, command: str) -> None:
    add_game(parser, "which game (default: the file's 'game:' header, else by the file's ending, else the "
             "first game; a photo: the scanner tells)")  # fmt: skip
    add_choices(parser, command)
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    parser.add_argument(
        "--deck", action="append", metavar="DECK", help="a photo: a taught deck to read it with (as scan's)"
    )


def register(subparsers: Any) -> None:
    """Add the ``score`` and ``check`` subcommands to the ``sprawlscan`` dispatcher."""
    score = subparsers.add_parser(
        "score",
        help="score a grid file or a photo",
        description="Score a grid written in its game's text format (or a photo) and print its breakdown.",
    )
    score.add_argument("city", metavar="FILE", help="grid file or photo, or - for standard input")
    _add_common(score, "score")
    score.set_defaults(func=run_score)

    check = subparsers.add_parser(
        "check",
        help="compare a hand tally with the computed score",
        description="Score a grid file or photo and compare a hand tally with it, line by line.",
    )
    check.add_argument("city", metavar="FILE_OR_PHOTO", help="grid file or photo, or - for standard input")
    check.add_argument(
        "--tally",
        required=True,
        metavar="TALLY",
        help="hand tally: text ('parks 7' per line) or JSON; - for stdin",
    )
    _add_common(check, "check")
    check.set_defaults(func=run_check)
