"""``sprawlscan scan PHOTO``: read a Sprawlopolis city or a Circle the Wagons town from a photo and score it.

Which game the photo shows is the scanner's call (``--game`` names it); a town is scored with the goal cards
of ``--goals`` (without them, without goal cards: the breakdown says so) and printed as a town
(:mod:`api.cli.town_scan`; ``--overlay`` draws it as a city's). What follows is about a city.

``--expansion NAME`` names expansions in play (as for ``score``). ``--format text`` prints the score
breakdown table and under it the cells in doubt (warnings, about what is not one cell, go to standard error),
``json`` the breakdown JSON plus ``cells`` and ``warnings``, ``city`` only the recognised city in the city
text format. ``--overlay OUT.png`` also writes a picture of what was read; ``--deck DECK`` reads it with a
taught deck (``sprawlscan teach``; given twice, a Sprawlopolis and a Circle the Wagons deck, the one of the
photo's game). Bad input (not a photo, no city
in it, unknown card numbers) exits with status 2 and one line naming the problem.

A photo that cannot be read reliably (glare, a shadow, a lattice in doubt: ``retake`` in the JSON) is not
scored: the reading is printed (``text`` and ``city``: the city read and its doubtful cells; ``json``: the
JSON, with a null total), then ``sprawlscan: retake: <why and what to change>`` on standard error, and the
exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from api.cli.argtypes import add_game_choices
from api.cli.doubts import doubt_text
from api.cli.inputs import check_cards_option, in_file
from api.core import GAMES, PhotoRequest, ScoreOptions, score_scan, score_town_scan
from scoring.errors import InputError
from scoring.wagons import GOALS


def _read(path: str) -> bytes:
    from vision.decode import MAX_FILE_BYTES

    if path == "-":
        return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    with open(path, "rb") as fh:
        return fh.read(MAX_FILE_BYTES + 1)  # anything longer is refused by the decoder, unread


def _write_overlay(path: str, rgb: Any) -> None:
    import cv2

    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext not in ("png", "jpg", "jpeg", "webp"):
        raise InputError(f"--overlay: cannot write {path!r}: use a .png, .jpg or .webp file name")
    if not cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)):
        raise OSError(f"could not write the overlay to {path}")


def _decks(paths: list[str]) -> list[Any]:
    """The taught decks in ``paths`` (``sprawlscan teach``), at most one a game; a bad file, or two of one
    game, is an InputError naming them."""
    from api.core import deck_games, load_any_deck
    from vision.deck import MAX_FILE_BYTES

    decks = []
    for path in paths:
        with open(path, "rb") as fh:
            decks.append(load_any_deck(fh.read(MAX_FILE_BYTES + 1), name=path))
    return list(deck_games(decks, paths).values())


def _request(args: argparse.Namespace) -> PhotoRequest:
    given = {"--cards": args.cards, "--expansion": args.expansion}
    request = PhotoRequest(args.game, tuple(args.goals or ()), tuple(k for k, v in given.items() if v))
    request.check()
    return request


def run_scan(args: argparse.Namespace) -> int:
    from api.cli.town_scan import print_town
    from api.core import read_photo
    from vision.cells import ModelError

    request = _request(args)
    name = "standard input" if args.photo == "-" else args.photo
    cards = tuple(args.cards) if args.cards else None
    expansions = tuple(dict.fromkeys(e.lower() for e in args.expansion or ()))
    if expansions:  # refuse bad expansion names and card numbers before spending time on the photo
        from scoring.expansions import select

        select(expansions)
    check_cards_option(args.cards, list(expansions), {})
    deck = _decks(args.deck or [])
    data = _read(args.photo)
    try:
        result = read_photo(
            data,
            request,
            cards=cards,
            overlay=args.overlay is not None,
            deck=deck,
            classifier=args.classifier,
        )
    except InputError as exc:
        raise in_file(name, exc) from None
    except ModelError as exc:
        print(f"sprawlscan: error: the photo scanner cannot run: {exc}", file=sys.stderr)
        return 1
    if not hasattr(result, "city"):  # a Circle the Wagons town (vision.towns.scan.TownScan)
        if args.overlay is not None and result.overlay is not None:
            _write_overlay(args.overlay, result.overlay)
        return print_town(score_town_scan(result, deck=deck), args)
    scored = score_scan(result, ScoreOptions(cards, expansions or None))
    if args.overlay is not None and result.overlay is not None:
        _write_overlay(args.overlay, result.overlay)
    city_text = scored.breakdown.city  # the city scored, in the city format (cards and expansions too)
    if args.format == "city":
        sys.stdout.write(city_text)
    elif args.format == "json":
        sys.stdout.write(json.dumps(scored.to_json(), indent=2, ensure_ascii=False) + "\n")
        if scored.retake is None:
            return 0
    elif scored.retake is not None:  # the reading, to check by hand; no total from this photo
        sys.stdout.write("The city read (not scored):\n" + city_text)
        sys.stdout.write(doubt_text(scored.doubt))
    else:
        from scoring.report import render_text

        text = render_text(scored.breakdown)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.write(doubt_text(scored.doubt, scored.breakdown.total))
    for warning in scored.warnings:
        print(f"sprawlscan: warning: {warning}", file=sys.stderr)
    if scored.retake is not None:
        print(f"sprawlscan: retake: {scored.retake}", file=sys.stderr)
        return 2
    return 0


def register(subparsers: Any) -> None:
    """Add the ``scan`` subcommand to the ``sprawlscan`` dispatcher."""
    scan = subparsers.add_parser(
        "scan",
        help="read a city or a town from a photo and score it",
        description="Read a Sprawlopolis city or a Circle the Wagons town from a photo (JPEG, PNG, WebP or "
        "HEIC) and score it. The scanner tells which game the photo shows (--game names it).",
    )
    scan.add_argument(
        "photo", metavar="PHOTO", help="photo of the finished city or town, or - for standard input"
    )
    scan.add_argument(
        "--game", choices=GAMES, help="the game photographed (default: the scanner tells from the photo)"
    )
    add_game_choices(
        scan, "Sprawlopolis: the scoring cards in play, e.g. 8 7 17", "Sprawlopolis: expansion(s) in play"
    )
    scan.add_argument(
        "--goals",
        nargs="+",
        metavar="ID",
        help="Circle the Wagons: the goal cards in play (without them a town is scored without goal cards). "
        f"Goal ids: {', '.join(GOALS)}",
    )
    scan.add_argument(
        "--format",
        choices=("text", "json", "city"),
        default="text",
        help="text: the breakdown table; json: breakdown, cells and warnings; city: only the city read",
    )
    scan.add_argument("--overlay", metavar="OUT.png", help="also write a picture of what was read")
    scan.add_argument(
        "--deck",
        action="append",
        metavar="DECK",
        help="a taught deck (sprawlscan teach) to read the cards with; give one of each game (--deck "
        "city.deck --deck town.deck) and the photo's own game's is used",
    )
    scan.set_defaults(func=run_scan)
