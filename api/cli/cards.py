"""``sprawlscan cards``: list the 18 Sprawlopolis scoring cards with what each one counts, or with
``--game wagons`` the Circle the Wagons goal cards (the ids ``goals:`` and ``--goals`` take) and the 18 town
cards with their territories (the numbers ``opponent-pile:`` and ``--opponent-pile`` take).

``--format json`` prints the same list as JSON (``number``, ``name``, ``counts``), the form the web page's
``/api/v1/meta`` uses.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any


def wagons_cards() -> dict[str, Any]:
    """The Circle the Wagons goal cards (id, name, provenance) and town cards (number, four territories)."""
    from scoring.wagons import CARDS, GOAL_CARDS, GOALS, WILDEST_WEST
    from scoring.wagons.town import ICON_NAMES, TERRAIN_NAMES

    known = {**GOAL_CARDS, WILDEST_WEST.id: WILDEST_WEST}
    return {
        "goals": [{"id": g, "name": n, "provenance": known[g].provenance} for g, n in GOALS.items()],
        "cards": [
            {"number": n, "territories": [f"{TERRAIN_NAMES[t.terrain]} {ICON_NAMES[t.icon]}" for t in four]}
            for n, four in CARDS.items()
        ],
    }


def _run_wagons(args: argparse.Namespace) -> int:
    listing = wagons_cards()
    if args.format == "json":
        sys.stdout.write(json.dumps(listing, indent=2, ensure_ascii=False) + "\n")
        return 0
    out = [
        "Goal cards (id, name; [printed]: scored from the card's printed text, which the publisher's "
        "print-and-play sheets confirm for every card):"
    ]
    width = max(len(g["id"]) for g in listing["goals"])
    out += [f"  {g['id']:<{width}}  {g['name']} [{g['provenance']}]" for g in listing["goals"]]
    out += [
        "",
        "Town cards (this project's numbers 0-17; territories top-left, top-right, bottom-left, "
        "bottom-right):",
    ]
    out += [f"  {c['number']:>2}  " + ", ".join(c["territories"]) for c in listing["cards"]]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def run_cards(args: argparse.Namespace) -> int:
    """Print the card list as a table (``text``) or JSON; always exit status 0."""
    from scoring.card_rules import card_list

    if args.game == "wagons":
        return _run_wagons(args)
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
        help="list the scoring cards (Sprawlopolis) or goal and town cards (--game wagons)",
        description="List the 18 Sprawlopolis scoring cards: number (also its target value), name and what "
        "it counts. Give the ones in play to score, scan or check with --cards. With --game wagons: the "
        "Circle the Wagons goal cards (ids for --goals) and the 18 town cards with their territories "
        "(numbers for --opponent-pile).",
    )
    cards.add_argument(
        "--game", choices=("sprawlopolis", "wagons"), default="sprawlopolis", help="which game's cards"
    )
    cards.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    cards.set_defaults(func=run_cards)
