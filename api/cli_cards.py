"""``sprawlscan cards``: list the 18 Sprawlopolis scoring cards with what each one counts.

``--format json`` prints the same list as JSON (``number``, ``name``, ``counts``), the form the web page's
``/api/v1/meta`` uses.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any


def run_cards(args: argparse.Namespace) -> int:
    """Print the card list as a table (``text``) or JSON; always exit status 0."""
    from scoring.card_rules import card_list

    cards = card_list()
    if args.format == "json":
        sys.stdout.write(json.dumps(cards, indent=2, ensure_ascii=False) + "\n")
        return 0
    width = max(len(str(c["name"])) for c in cards)
    indent = " " * (width + 6)
    for card in cards:
        head = f"{card['number']:>2}  {card['name']:<{width}}  "
        lines = textwrap.wrap(str(card["counts"]), 100 - len(indent))
        sys.stdout.write(head + lines[0] + "\n")
        for line in lines[1:]:
            sys.stdout.write(indent + line + "\n")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``cards`` subcommand to the ``sprawlscan`` dispatcher."""
    cards = subparsers.add_parser(
        "cards",
        help="list the 18 Sprawlopolis scoring cards and what each counts",
        description="List the 18 Sprawlopolis scoring cards: number (also its target value), name and what "
        "it counts. Give the ones in play to score, scan or check with --cards.",
    )
    cards.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    cards.set_defaults(func=run_cards)
