"""``sprawlscan cards``: list a game's cards, as its game lists them (:meth:`games.Game.card_listing`):
Sprawlopolis's 18 scoring cards with what each one counts (the numbers ``--cards`` takes), or with ``--game
wagons`` the Circle the Wagons goal cards (the ids ``--goals`` takes) and the 18 town cards.

``--format json`` prints the same list as JSON, the form the web page's ``/api/v1/meta`` uses.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from games import game_named, game_names


def run_cards(args: argparse.Namespace) -> int:
    """Print the card list as a table (``text``) or JSON; always exit status 0."""
    sys.stdout.write(game_named(args.game).card_listing(args.format == "json"))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``cards`` subcommand to the ``sprawlscan`` dispatcher."""
    cards = subparsers.add_parser(
        "cards",
        help="list a game's cards (the numbers and ids its choices take)",
        description="List a game's cards: for Sprawlopolis (the default) the 18 scoring cards, with number "
        "(also its target value), name and what it counts, to give to score, scan or check with --cards; "
        "for another game its own (--game).",
    )
    names = game_names()
    cards.add_argument("--game", choices=names, default=names[0], help="which game's cards")
    cards.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    cards.set_defaults(func=run_cards)
