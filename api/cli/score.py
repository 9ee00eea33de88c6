"""``sprawlscan score`` and ``sprawlscan check``: score a city file, or compare a hand tally with the score.

``score CITY`` reads a city in the text format (``-`` for standard input) and prints its breakdown as a
table (``--format text``) or JSON. ``check CITY_OR_PHOTO --tally TALLY`` scores the city — read from a photo
by the scanner when the file is a JPEG, PNG, WebP or HEIC image — and reports each tally line as agreeing or
not. ``--game wagons`` (or a ``.town`` file, or a ``game: wagons`` header) hands both commands to
:mod:`api.cli.wagons`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from api.cli import wagons as cli_wagons
from api.cli.argtypes import add_game_choices
from api.cli.inputs import (
    check_cards_option,
    in_file,
    is_photo,
    parse_options,
    read_input,
    read_tally,
    text_input,
)
from api.core import breakdown_in_flag_words, photo_notes
from scoring.city import City
from scoring.city_text import parse_city
from scoring.errors import InputError

if TYPE_CHECKING:
    from vision.cells import Classifier

GAMES = ("sprawlopolis", "wagons")
VARIANTS = ("standard", "easier", "harder")


_GAME_NAMES = {"sprawlopolis": "sprawlopolis", "wagons": "wagons", "circle-the-wagons": "wagons"}
_HEADER_LINE = re.compile(rb"^\s*([A-Za-z][A-Za-z0-9_-]+)\s*:\s*(.*?)\s*$")


def detect_game(path: str, data: bytes) -> str:
    """The game a city or town file is for: its ``game:`` header line, else ``wagons`` for a ``.town``
    file, else ``sprawlopolis``. Raises :class:`InputError` for a ``game:`` header naming no known game."""
    for raw in data.splitlines():
        line = raw.split(b"#", 1)[0]
        if not line.strip():
            continue
        header = _HEADER_LINE.match(line)
        if header is None:
            break  # the grid starts: no more headers
        if header[1].lower() == b"game":
            value = header[2].decode("utf-8", "replace")
            game = _GAME_NAMES.get(re.sub(r"[\s_]+", "-", value.strip().lower()))
            if game is None:
                raise InputError(f"unknown game {value!r} in the 'game:' header (sprawlopolis or wagons)")
            return game
    return "wagons" if path.lower().endswith(".town") else "sprawlopolis"


def resolve_game(args: argparse.Namespace) -> None:
    """Fill ``args.game`` from the file when ``--game`` was not given (a photo is always Sprawlopolis)."""
    if args.game is not None:
        return
    data = read_input(args.city)
    args.game = "sprawlopolis" if is_photo(data) else detect_game(args.city, data)


def _city(data: bytes, name: str) -> City:
    try:
        return parse_city(text_input(data, name))
    except InputError as exc:
        raise in_file(name, exc) from None


def load_city(data: bytes, name: str, cards: list[int] | None, classifier: Classifier | None = None) -> City:
    """The city in ``data``: scanned from a photo (lazily importing the scanner; ``classifier`` replaces
    the shipped one) or parsed from text."""
    if not is_photo(data):
        return _city(data, name)
    from vision.pipeline import scan_image

    result = scan_image(data, cards=tuple(cards) if cards else None, classifier=classifier)
    if result.retake is not None:  # no score from a photo that cannot be read reliably
        raise InputError(f"{name}: retake: {result.retake} (sprawlscan scan shows what was read)")
    city: City = result.city
    return city


def _score(city: City, args: argparse.Namespace) -> Any:
    from scoring.engine import score_city

    expansions = None
    if args.expansion:
        # Expansions named on the command line add to those in the file's header.
        expansions = list(dict.fromkeys([*city.expansions, *(e.lower() for e in args.expansion)]))
    variant = None if args.variant is None else args.variant
    options = parse_options(args.option)
    check_cards_option(args.cards, city.expansions if expansions is None else expansions, options, city)
    breakdown = score_city(city, args.cards, expansions, variant=variant, options=options)
    return breakdown_in_flag_words(breakdown)


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def run_score(args: argparse.Namespace) -> int:
    """``sprawlscan score``: print the breakdown; exit status 0, bad input raises :class:`InputError`."""
    resolve_game(args)
    if args.game == "wagons":
        return cli_wagons.run_score(args)
    from scoring.report import render_text

    name = "standard input" if args.city == "-" else args.city
    data = read_input(args.city)
    if is_photo(data):
        raise InputError(
            f"{name} is a photo, not a city file; read it with 'sprawlscan scan {args.city}' "
            "(or 'sprawlscan check' to compare a tally with it)"
        )
    breakdown = _score(_city(data, name), args)
    if args.format == "json":
        _emit(json.dumps(breakdown.to_json(), indent=2, ensure_ascii=False))
    else:
        _emit(render_text(breakdown))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``sprawlscan check``: compare the tally with the city's (or photo's) score and print the verdicts."""
    resolve_game(args)
    if args.game == "wagons":
        return cli_wagons.run_check(args)
    from scoring.report import render_check

    if args.city == "-" and args.tally == "-":
        raise InputError("only one of the city and the tally can be read from standard input")
    name = "standard input" if args.city == "-" else args.city
    data = read_input(args.city)
    if is_photo(data):  # refuse bad --cards before spending time on the photo
        check_cards_option(args.cards, args.expansion, parse_options(args.option))
    city = load_city(data, name, args.cards, args.classifier)
    breakdown = photo_notes(_score(city, args)) if is_photo(data) else _score(city, args)
    tally = read_tally(args.tally)
    from scoring.tally import check_tally

    report = check_tally(breakdown, tally)
    if args.format == "json":
        _emit(
            json.dumps({**report.to_json(), "breakdown": breakdown.to_json()}, indent=2, ensure_ascii=False)
        )
    else:
        _emit(render_check(report))
    return 0


def _add_common(parser: argparse.ArgumentParser) -> None:
    add_game_choices(
        parser,
        "scoring cards in play (override the file's 'cards:')",
        "expansion(s) in play, added to the file's 'expansions:'",
    )
    parser.add_argument(
        "--variant", choices=VARIANTS, help="rulebook variant (default: the file's, else standard)"
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="expansion option, e.g. construction-penalty=2, beach-cards=peninsula, "
        "interstate-mode=competitive (see scoring/expansions/README.md)",
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    parser.add_argument(
        "--game",
        choices=GAMES,
        default=None,
        help="which game (default: the file's 'game:' header, else wagons for a .town file, "
        "else sprawlopolis)",
    )


def register(subparsers: Any) -> None:
    """Add the ``score`` and ``check`` subcommands to the ``sprawlscan`` dispatcher."""
    score = subparsers.add_parser(
        "score",
        help="score a city file",
        description="Score a city written in the city text format and print its breakdown.",
    )
    score.add_argument("city", metavar="CITY", help="city file, or - for standard input")
    _add_common(score)
    score.set_defaults(func=run_score)

    check = subparsers.add_parser(
        "check",
        help="compare a hand tally with the computed score",
        description="Score a city file or photo and compare a hand tally with it, line by line.",
    )
    check.add_argument("city", metavar="CITY_OR_PHOTO", help="city file or photo, or - for standard input")
    check.add_argument(
        "--tally",
        required=True,
        metavar="TALLY",
        help="hand tally: text ('parks 7' per line) or JSON; - for stdin",
    )
    _add_common(check)
    check.set_defaults(func=run_check)

    cli_wagons.add_arguments(score)
    cli_wagons.add_arguments(check)
