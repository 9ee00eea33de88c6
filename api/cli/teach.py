"""``sprawlscan teach PHOTO… --out DECK`` and ``sprawlscan deck fix DECK PLACE=CARD…``: the player's deck.

The player lays their 18 cards face up in a grid (any order, either turn, small gaps) and photographs them
(one photo, or more for a big table). ``teach`` finds every card, says which of the 18 it is and how it
lies (printed as a grid, ``7r`` for card 7 turned by 180°; ``--overlay PNG`` draws it on the photo), and
writes what it learned of each block's look to DECK (see :mod:`vision.deck`), which
``sprawlscan scan PHOTO --deck DECK`` then uses. The 18 cards are Sprawlopolis's or Circle the
Wagons'; which game the photo shows is told from it (``--game`` names it), the deck file records it and
a scan uses the deck for a photo of that game only (the other game's photo is read without it, with a
warning). Expansion cards lying in the photo beside the 18 are
named with ``--extra ROW,COL=KIND`` (``wrecktar``, ``poi``, ``construction``). A photo with a card
missing, twice, or unreadable exits with status 2 and names the cards; nothing is written then.

``deck fix DECK ROW,COL=CARD…`` corrects the assignment without the photo (``2,3=9r``: the card at row 2,
card 3 of the row is card 9, turned; ``2,3=wrecktar``: it is Wrecktar; in a Circle the Wagons deck, cards
0–17, ``2,3=none``: it is not a card) and rewrites DECK; a correction that leaves a card doubled or
missing exits with status 2 naming them, and DECK is left as it was. A player of both games keeps a deck
file of each and gives both to ``scan`` (``--deck`` twice).
``deck show DECK`` prints the grid.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import cv2

from games import check_deck_extras, game_named, game_names, load_any_deck, teach_photos
from scoring.errors import InputError
from vision.city import OVERLAY_LONG_SIDE
from vision.deck import MAX_FILE_BYTES as MAX_DECK_BYTES
from vision.deck import card_from_meta, describe
from vision.photo import MAX_FILE_BYTES


def _write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)  # a half-written file never replaces a good one


def _print(
    args: argparse.Namespace,
    path: str,
    cards: list[Any],
    grid: str,
    summary: str,
    game: str,
    ask: str | None = None,
) -> None:
    if args.format == "json":
        out = {"deck": path, "game": game, "cards": [c.to_json() for c in cards]}
        if ask is not None:  # a print named by its structure, its zones' cycle still open
            out["ask"] = ask
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        print(grid)
        print(summary)
        if ask is not None:
            print(ask)


def _extras(texts: list[str]) -> list[tuple[str, str]]:
    """The ``--extra`` cards, each named in an error by its flag."""
    return [(f"--extra {text!r}", text) for text in texts]


def overlay_paths(path: str, photos: int) -> list[str]:
    """Where ``--overlay PATH`` writes each photo's overlay: PATH, then PATH-2.png, PATH-3.png…"""
    p = Path(path)
    return [path] + [str(p.with_name(f"{p.stem}-{k + 1}{p.suffix or '.png'}")) for k in range(1, photos)]


def run_teach(args: argparse.Namespace) -> int:
    extras = _extras(args.extra)
    check_deck_extras(args.game, extras)  # refused before any photo is read
    photos = []
    for path in args.photos:
        with open(path, "rb") as fh:
            photos.append(fh.read(MAX_FILE_BYTES + 1))  # anything longer is refused by the decoder
    teaching = teach_photos(photos, names=args.photos, game=args.game, extras=extras)
    _write(args.out, teaching.deck.to_bytes())
    if args.overlay:
        for k, path in enumerate(overlay_paths(args.overlay, len(photos))):
            rgb = teaching.overlay(k, OVERLAY_LONG_SIDE)
            ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
            if not ok:
                raise InputError(f"{path}: could not encode the overlay")
            _write(path, buf.tobytes())
    named = sum(c.extra is not None for c in teaching.cards)
    also = f" and {named} expansion card{'s' * (named > 1)}" if named else ""
    game = f"{game_named(teaching.deck.game).title} cards"
    summary = f"18 {game}{also} taught in {teaching.seconds:.1f} s; written to {args.out}"
    ask = teaching.ask.text if teaching.ask is not None else None
    _print(args, args.out, teaching.cards, teaching.describe(), summary, teaching.deck.game, ask)
    return 0


def _read_deck(path: str) -> Any:
    with open(path, "rb") as fh:
        return load_any_deck(fh.read(MAX_DECK_BYTES + 1), name=path)


def _relabel(deck: Any, fixes: list[str], name: str) -> Any:
    """``deck`` corrected as ``fixes`` say, by its game's rules (a Circle the Wagons deck's cards are 0–17,
    and a place may be said to hold no card: ``none``)."""
    game = game_named(deck.game)
    return game.relabel_deck(deck, [game.deck_fix(t) for t in fixes], name)


def run_deck(args: argparse.Namespace) -> int:
    deck = _read_deck(args.deck)
    if args.action == "fix":
        if not args.fixes:
            raise InputError("deck fix: give at least one correction, e.g. 2,3=9r")
        deck = _relabel(deck, args.fixes, args.deck)
        _write(args.deck, deck.to_bytes())
    elif args.fixes:
        raise InputError("deck show takes no corrections (use deck fix)")
    if not deck.seen:
        raise InputError(f"{args.deck}: taught before the cards found were kept (teach the deck again)")
    cards = [card_from_meta(m) for m in deck.seen]
    summary = f"corrected; written to {args.deck}" if args.action == "fix" else f"taught deck {args.deck}"
    _print(args, args.deck, cards, describe(cards), summary, deck.game)
    return 0


def register(subparsers: Any) -> None:
    """Add the ``teach`` and ``deck`` subcommands to the ``sprawlscan`` dispatcher."""
    teach = subparsers.add_parser(
        "teach",
        help="teach the scanner your own cards from a photo of the deck laid out",
        description="Teach the scanner your deck: photograph the 18 cards face up in a grid.",
    )
    teach.add_argument("photos", nargs="+", metavar="PHOTO", help="photo(s) of the 18 cards face up")
    teach.add_argument("--out", required=True, metavar="DECK", help="where to write the taught deck")
    teach.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="ROW,COL=KIND",
        help="an expansion card in the photo (KIND wrecktar, poi or construction; PHOTO,ROW,COL for "
        "the second photo); repeat for each",
    )
    teach.add_argument(
        "--game",
        choices=game_names(),
        default=None,
        help="the game of the cards photographed (default: told from the photo)",
    )
    teach.add_argument("--overlay", metavar="PNG", help="also draw the cards found on the photo")
    teach.add_argument("--format", choices=("text", "json"), default="text", help="how to print the cards")
    teach.set_defaults(func=run_teach)
    deck = subparsers.add_parser(
        "deck",
        help="show or correct a taught deck (which card lies where)",
        description="Show a taught deck's cards, or correct them: ROW,COL=CARD (e.g. 2,3=9r: the card "
        "at row 2, card 3 of the row, is card 9 turned round; 2,3=wrecktar: it is Wrecktar; in a Circle "
        "the Wagons deck the cards are 0 to 17 and 2,3=none says it is not a card).",
    )
    deck.add_argument("action", choices=("show", "fix"), help="show the cards, or fix them")
    deck.add_argument("deck", metavar="DECK", help="the taught deck file (rewritten by fix)")
    deck.add_argument("fixes", nargs="*", metavar="PLACE=CARD", help="corrections, e.g. 2,3=9r 1,4=3")
    deck.add_argument("--format", choices=("text", "json"), default="text", help="how to print the cards")
    deck.set_defaults(func=run_deck)
