"""``sprawlscan scan PHOTO``: read the cards of a finished game from a photo and score them.

Which game the photo shows is the scanner's call (``--game`` names it); the choices each game takes (its
scoring or goal cards, its expansions…) are flags that every registered game adds (:mod:`api.cli.choices`).
``--format text`` prints the grid read, the breakdown table and under it the cells in doubt (warnings,
about what is not one cell, go to standard error), ``json`` the breakdown JSON plus ``cells``, ``doubt``
and ``warnings``, ``city`` only the grid read in its text format. ``--overlay OUT.png`` also writes a
picture of what was read; ``--deck DECK`` reads it with a taught deck (``sprawlscan teach``; one of each
game may be given, and the photo's own game's is used). Bad input (not a photo, no cards in it, unknown
card numbers) exits with status 2 and one line naming the problem.

A photo that cannot be read reliably (glare, a shadow, a lattice in doubt, a print the scanner does not
know: ``retake`` in the JSON) is not scored: the reading is printed (with a null total in the JSON), then
``sprawlscan: retake: <why and what to change>`` on standard error, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import cv2

from api.cli.choices import add_choices, add_game, request_of
from api.cli.inputs import in_file
from games import ScoredPhoto, deck_games, load_any_deck, scan_photo
from scoring.errors import InputError
from vision.cells import ModelError
from vision.deck import MAX_FILE_BYTES as MAX_DECK_BYTES
from vision.photo import MAX_FILE_BYTES


def read_photo_file(path: str) -> bytes:
    """The bytes of the photo at ``path`` (``-``: standard input), at most one byte past what the decoder
    takes (anything longer is refused by it, unread)."""
    if path == "-":
        return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    with open(path, "rb") as fh:
        return fh.read(MAX_FILE_BYTES + 1)


def _write_overlay(path: str, rgb: Any) -> None:
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if ext not in ("png", "jpg", "jpeg", "webp"):
        raise InputError(f"--overlay: cannot write {path!r}: use a .png, .jpg or .webp file name")
    if not cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)):
        raise OSError(f"could not write the overlay to {path}")


def read_decks(paths: list[str]) -> list[Any]:
    """The taught decks in ``paths`` (``sprawlscan teach``), at most one a game; a bad file, or two of one
    game, is an InputError naming them."""
    decks = []
    for path in paths:
        with open(path, "rb") as fh:
            decks.append(load_any_deck(fh.read(MAX_DECK_BYTES + 1), name=path))
    return list(deck_games(decks, paths).values())


def scan_file(args: argparse.Namespace, command: str, *, overlay: bool = False) -> ScoredPhoto:
    """The photo ``args.city`` (or ``args.photo``) read and scored as the flags of ``command`` ask, along
    the one path of every interface (:func:`games.scan_photo`)."""
    request = request_of(args, command)
    path = getattr(args, "photo", None) or args.city
    name = "standard input" if path == "-" else path
    decks = read_decks(getattr(args, "deck", None) or [])
    data = read_photo_file(path)
    try:
        return scan_photo(data, request, decks=decks, overlay=overlay, classifier=args.classifier)
    except InputError as exc:
        raise in_file(name, exc) from None


def tell_scan(scored: ScoredPhoto) -> int:
    """The warnings and the retake on standard error; the exit status (2 for a retake)."""
    for warning in scored.warnings:
        print(f"sprawlscan: warning: {warning}", file=sys.stderr)
    if scored.retake is not None:
        print(f"sprawlscan: retake: {scored.retake}", file=sys.stderr)
        return 2
    return 0


def run_scan(args: argparse.Namespace) -> int:
    try:
        scored = scan_file(args, "scan", overlay=args.overlay is not None)
    except ModelError as exc:
        print(f"sprawlscan: error: the photo scanner cannot run: {exc}", file=sys.stderr)
        return 1
    if args.overlay is not None and scored.overlay is not None:
        _write_overlay(args.overlay, scored.overlay)
    if args.format == "city":
        sys.stdout.write(scored.text)
    elif args.format == "json":
        sys.stdout.write(json.dumps(scored.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(scored.render_text())
    return tell_scan(scored)


def register(subparsers: Any) -> None:
    """Add the ``scan`` subcommand to the ``sprawlscan`` dispatcher."""
    scan = subparsers.add_parser(
        "scan",
        help="read the cards of a game from a photo and score them",
        description="Read the cards of a finished game from a photo (JPEG, PNG, WebP or HEIC) and score "
        "them. The scanner tells which game the photo shows (--game names it).",
    )
    scan.add_argument("photo", metavar="PHOTO", help="photo of the finished game, or - for standard input")
    add_game(scan, "the game photographed (default: the scanner tells from the photo)")
    add_choices(scan, "scan")
    scan.add_argument(
        "--format",
        choices=("text", "json", "city"),
        default="text",
        help="text: the grid read, the breakdown table and the cells in doubt; json: breakdown, cells, "
        "doubt and warnings; city: only the grid read, in its text format",
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
