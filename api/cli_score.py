"""``sprawlscan score`` and ``sprawlscan check``: score a city file, or compare a hand tally with the score.

``score CITY`` reads a city in the text format (``-`` for standard input) and prints its breakdown as a
table (``--format text``) or JSON. ``check CITY_OR_PHOTO --tally TALLY`` scores the city — read from a photo
by the scanner when the file is a JPEG, PNG, WebP or HEIC image — and reports each tally line as agreeing or
not. ``--game wagons`` (or a ``.town`` file, or a ``game: wagons`` header) hands both commands to the
Circle the Wagons command module, when it is installed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from api.cli_numbers import whole
from scoring.city import City, parse_city
from scoring.errors import InputError
from scoring.tally import TallyLine, parse_tally

GAMES = ("sprawlopolis", "wagons")
VARIANTS = ("standard", "easier", "harder")
WAGONS_MODULE = "api.cli_wagons"
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif"}


def is_photo(data: bytes) -> bool:
    """True when ``data`` starts like a JPEG, PNG, WebP or HEIC/HEIF image (by magic bytes, not file name)."""
    return (
        data.startswith(b"\xff\xd8\xff")
        or data.startswith(b"\x89PNG\r\n\x1a\n")
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or (data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS)
    )


def _wagons() -> ModuleType | None:
    """The Circle the Wagons command module, or ``None`` while it does not exist."""
    try:
        return importlib.import_module(WAGONS_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != WAGONS_MODULE:
            raise
        return None


def _wagons_call(name: str) -> Callable[[argparse.Namespace], int]:
    module = _wagons()
    if module is None or not hasattr(module, name):
        raise InputError("Circle the Wagons is not available in this build (--game wagons)")
    func: Callable[[argparse.Namespace], int] = getattr(module, name)
    return func


MAX_INPUT_BYTES = 40 * 1024 * 1024  # the largest photo the scanner accepts
MAX_TEXT_BYTES = 1_000_000  # a city, town or tally file is a few kilobytes

# Standard input read once and kept: the game is detected from it before the scorer reads it again.
_stdin_read: tuple[object, bytes] | None = None


def read_input(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of file ``path`` (``-``: standard input), at most ``limit`` of them (else
    :class:`InputError`, before reading further); ``OSError`` for an unreadable file."""
    global _stdin_read
    if path == "-":
        if _stdin_read is None or _stdin_read[0] is not sys.stdin.buffer:
            _stdin_read = (sys.stdin.buffer, sys.stdin.buffer.read(MAX_INPUT_BYTES + 1))
        data = _stdin_read[1][: limit + 1]
    else:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    if len(data) > limit:
        name = "standard input" if path == "-" else path
        raise InputError(f"{name} is larger than {limit:,} bytes")
    return data


def _text(data: bytes, name: str) -> bytes:
    if len(data) > MAX_TEXT_BYTES:
        raise InputError(f"{name} is larger than {MAX_TEXT_BYTES:,} bytes; a text file here is far smaller")
    return data


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


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``--option KEY=VALUE`` pairs as a dict; raise :class:`InputError` for one without ``=``."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--option expects KEY=VALUE (e.g. construction-penalty=2), got {pair!r}")
        out[key.strip().lower()] = value.strip()
    return out


def in_file(name: str, exc: InputError) -> InputError:
    """``exc`` again, its message prefixed with the file it is about (its ``code`` and ``status`` kept)."""
    err = InputError(f"{name}: {exc}")
    err.code, err.status = exc.code, exc.status
    return err


def read_tally(path: str) -> list[TallyLine]:
    """Read and parse the tally file (``-`` = standard input); errors name the file."""
    name = "standard input" if path == "-" else path
    try:
        return parse_tally(read_input(path, MAX_TEXT_BYTES))
    except InputError as exc:
        raise in_file(name, exc) from None


def _city(data: bytes, name: str) -> City:
    try:
        return parse_city(_text(data, name))
    except InputError as exc:
        raise in_file(name, exc) from None


def load_city(data: bytes, name: str, cards: list[int] | None) -> City:
    """The city in ``data``: scanned from a photo (lazily importing the scanner) or parsed from text."""
    if not is_photo(data):
        return _city(data, name)
    try:
        from vision.pipeline import scan_image
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("vision"):
            raise
        raise InputError(f"{name} is a photo, but the photo scanner is not available in this build") from None
    result = scan_image(data, cards=tuple(cards) if cards else None)
    city: City = result.city
    return city


def _score(city: City, args: argparse.Namespace) -> Any:
    from scoring.engine import score_city

    expansions = None
    if args.expansion:
        # Expansions named on the command line add to those in the file's header.
        expansions = list(dict.fromkeys([*city.expansions, *(e.lower() for e in args.expansion)]))
    variant = None if args.variant is None else args.variant
    return score_city(city, args.cards, expansions, variant=variant, options=parse_options(args.option))


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def run_score(args: argparse.Namespace) -> int:
    """``sprawlscan score``: print the breakdown; exit status 0, bad input raises :class:`InputError`."""
    resolve_game(args)
    if args.game == "wagons":
        return int(_wagons_call("run_score")(args) or 0)
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
        return int(_wagons_call("run_check")(args) or 0)
    from scoring.report import render_check

    if args.city == "-" and args.tally == "-":
        raise InputError("only one of the city and the tally can be read from standard input")
    name = "standard input" if args.city == "-" else args.city
    city = load_city(read_input(args.city), name, args.cards)
    breakdown = _score(city, args)
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
    parser.add_argument(
        "--cards",
        nargs="+",
        type=whole("card number"),
        metavar="N",
        help="scoring cards in play (override the file's 'cards:')",
    )
    parser.add_argument(
        "--expansion",
        action="extend",
        nargs="+",
        metavar="NAME",
        help="expansion(s) in play, added to the file's 'expansions:' (poi, construction, wrecktar, beaches, "
        "beach:peninsula, interstate, roadwork)",
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

    wagons = _wagons()
    if wagons is not None and hasattr(wagons, "add_arguments"):
        wagons.add_arguments(score)
        wagons.add_arguments(check)
