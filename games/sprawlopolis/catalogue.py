"""What Sprawlopolis offers a player to choose, listed: its 18 scoring cards (for ``sprawlscan cards`` and
the page), the expansions with their options and the variants (for the page's ``/api/v1/meta``)."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from scoring.base import VARIANTS
from scoring.card_rules import card_list

__all__ = ["card_listing", "page_choices"]

# Expansion choices the page offers: the engine's canonical names with a label and the options each reads.
# Beach scoring cards are chosen as "beach:<card>", which the engine reads as the Beaches expansion.
_EXPANSIONS: tuple[dict[str, Any], ...] = (
    {"name": "poi", "label": "Points of Interest"},
    {
        "name": "construction",
        "label": "Construction Zones",
        "options": [
            {"name": "construction-penalty", "label": "Penalty per unfinished zone"},
            {
                "name": "construction-card",
                "label": "Card",
                "choices": ["", "Sudden Demolition", "Noisy Neighbours", "Bulldozed", "Business is Closed"],
            },
        ],
    },
    {"name": "wrecktar", "label": "Wrecktar"},
    {"name": "beach:peninsula", "label": "Beach: Peninsula"},
    {"name": "beach:lookout-point", "label": "Beach: Lookout Point"},
    {"name": "beach:scenic-route", "label": "Beach: Scenic Route"},
    {"name": "beach:waterfront", "label": "Beach: Waterfront"},
    {
        "name": "interstate",
        "label": "Interstate",
        "options": [
            {
                "name": "interstate-mode",
                "label": "Mode",
                "choices": ["", "cooperative", "solo", "competitive"],
            },
            {
                "name": "interstate-card",
                "label": "Interstate card",
                "choices": [
                    "",
                    "Main Boulevard",
                    "Central Highway",
                    "Great Valley Road",
                    "Mountainside Drive",
                ],
            },
        ],
    },
    {
        "name": "roadwork",
        "label": "Roadwork",
        "options": [{"name": "roadwork-unplayed", "label": "Unplayed cards"}],
    },
)


def page_choices() -> dict[str, Any]:
    """The page's choices: the scoring cards (number, name, what it counts), the expansions with their
    options, and the variants."""
    return {"cards": card_list(), "expansions": list(_EXPANSIONS), "variants": list(VARIANTS)}


def card_listing(as_json: bool) -> str:
    """The 18 scoring cards: number (also its target value), name and what it counts, as a table or JSON."""
    cards = card_list()
    if as_json:
        return json.dumps(cards, indent=2, ensure_ascii=False) + "\n"
    width = max(len(str(c["name"])) for c in cards)
    indent = " " * (width + 6)
    out = []
    for card in cards:
        lines = textwrap.wrap(str(card["counts"]), 100 - len(indent))
        out.append(f"{card['number']:>2}  {card['name']:<{width}}  " + lines[0])
        out += [indent + line for line in lines[1:]]
    return "\n".join(out) + "\n"
