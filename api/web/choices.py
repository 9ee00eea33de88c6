"""The choices the page offers (``GET /api/v1/meta``): scoring cards, expansions with their options,
variants, Circle the Wagons goals and scenarios, and the size the scanner works at."""

from __future__ import annotations

from typing import Any

__all__ = ["metadata"]

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


def metadata() -> dict[str, Any]:
    """The choices the page offers: Sprawlopolis scoring cards (number, name, what it counts), expansions
    with their options and variants; Circle the Wagons goal cards (id, name, provenance) and Lone Cowboy
    scenarios; and the long side (pixels) the scanner works at, to which the page shrinks photos."""
    from scoring.base import VARIANTS
    from scoring.card_rules import card_list
    from scoring.wagons import GOAL_CARDS, GOALS, SCENARIO_CARDS, SCENARIOS, WILDEST_WEST
    from scoring.wagons.cards import CARDS as WAGON_CARDS

    cards = {**GOAL_CARDS, WILDEST_WEST.id: WILDEST_WEST}
    return {
        "cards": card_list(),
        "photo_long_side": _photo_long_side(),
        "expansions": list(_EXPANSIONS),
        "variants": list(VARIANTS),
        "wagons": {
            "goals": [
                {"id": gid, "name": name, "provenance": cards[gid].provenance} for gid, name in GOALS.items()
            ],
            "scenarios": [
                {"id": sid, "name": name, "goals": list(SCENARIO_CARDS[sid].goals)}
                for sid, name in SCENARIOS.items()
            ],
            # The page shows an opponent's pile as each card's four territories (TL, TR, BL, BR), which a
            # player can find on the table, not by this project's own card numbers.
            "cards": [
                {"number": n, "territories": [f"{t.terrain}/{t.icon}" for t in four]}
                for n, four in WAGON_CARDS.items()
            ],
        },
    }


def _photo_long_side() -> int:
    """The scanner's working size: it shrinks larger photos to this long side, so the page does it first."""
    from vision.pipeline import WORK_LONG_SIDE

    return WORK_LONG_SIDE
