"""What Circle the Wagons offers a player to choose, listed: its goal cards (the ids ``goals:`` and
``--goals`` take), the Lone Cowboy scenarios and the 18 town cards with their territories (the numbers
``opponent-pile:`` and ``--opponent-pile`` take), for ``sprawlscan cards`` and the page."""

from __future__ import annotations

import json
from typing import Any

from scoring.wagons import CARDS, GOAL_CARDS, GOALS, SCENARIO_CARDS, SCENARIOS, WILDEST_WEST
from scoring.wagons.town import ICON_NAMES, TERRAIN_NAMES

__all__ = ["card_listing", "page_choices"]


def _goals() -> list[dict[str, Any]]:
    known = {**GOAL_CARDS, WILDEST_WEST.id: WILDEST_WEST}
    return [{"id": g, "name": n, "provenance": known[g].provenance} for g, n in GOALS.items()]


def page_choices() -> dict[str, Any]:
    """The page's choices, under ``wagons``: goal cards (id, name, provenance), scenarios and town cards."""
    return {
        "wagons": {
            "goals": _goals(),
            "scenarios": [
                {"id": sid, "name": name, "goals": list(SCENARIO_CARDS[sid].goals)}
                for sid, name in SCENARIOS.items()
            ],
            # The page shows an opponent's pile as each card's four territories (TL, TR, BL, BR), which a
            # player can find on the table, not by this project's own card numbers.
            "cards": [
                {"number": n, "territories": [f"{t.terrain}/{t.icon}" for t in four]}
                for n, four in CARDS.items()
            ],
        }
    }


def card_listing(as_json: bool) -> str:
    """The goal cards and the town cards (number, four territories), as text or JSON."""
    listing = {
        "goals": _goals(),
        "cards": [
            {"number": n, "territories": [f"{TERRAIN_NAMES[t.terrain]} {ICON_NAMES[t.icon]}" for t in four]}
            for n, four in CARDS.items()
        ],
    }
    if as_json:
        return json.dumps(listing, indent=2, ensure_ascii=False) + "\n"
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
    return "\n".join(out) + "\n"
