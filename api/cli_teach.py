"""``sprawlscan teach PHOTO… --out DECK``: teach the scanner the player's own deck.

The player lays their 18 cards face up in a grid (any order, either turn, small gaps) and photographs them
(one photo, or more for a big table). The command finds every card, says which of the 18 it is and how it
lies (printed as a grid, ``7r`` for card 7 turned by 180°), and writes what it learned of each block's
look to DECK (see :mod:`vision.deck`), which ``sprawlscan scan PHOTO --deck DECK`` then uses. A photo with a
card missing, twice, or unreadable exits with status 2 and names the cards; nothing is written then.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


def run_teach(args: argparse.Namespace) -> int:
    from vision.deck_teach import teach_deck
    from vision.decode import MAX_FILE_BYTES

    photos = []
    for path in args.photos:
        with open(path, "rb") as fh:
            photos.append(fh.read(MAX_FILE_BYTES + 1))  # anything longer is refused by the decoder
    teaching = teach_deck(photos, names=args.photos)
    tmp = f"{args.out}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(teaching.deck.to_bytes())
    os.replace(tmp, args.out)  # a half-written deck file never replaces a good one
    if args.format == "json":
        out = {"deck": args.out, "cards": [c.to_json() for c in teaching.cards]}
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        print(teaching.describe())
        print(f"18 cards taught in {teaching.seconds:.1f} s; written to {args.out}")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``teach`` subcommand to the ``sprawlscan`` dispatcher."""
    teach = subparsers.add_parser(
        "teach",
        help="teach the scanner your own cards from a photo of the deck laid out",
        description="Teach the scanner your deck: photograph the 18 cards face up in a grid.",
    )
    teach.add_argument("photos", nargs="+", metavar="PHOTO", help="photo(s) of the 18 cards face up")
    teach.add_argument("--out", required=True, metavar="DECK", help="where to write the taught deck")
    teach.add_argument("--format", choices=("text", "json"), default="text", help="how to print the cards")
    teach.set_defaults(func=run_teach)
