"""Circle the Wagons scoring: towns of territories, the 18 goal cards and the Lone Cowboy solo opponent.

Public API::

    town = parse_town(text)
    breakdown = score_town(town, goals=["cool-water", "badlands"], opponent_pile=[1, 4, 7], scenario=None)

``GOALS`` and ``SCENARIOS`` map every accepted id to its printed name; names are matched ignoring case,
spaces and dashes (``"Cool Water"``, ``cool-water``).
"""

from scoring.wagons.cards import CARDS
from scoring.wagons.errors import (
    ConflictError,
    MissingInputError,
    OptionError,
    PileError,
    UnknownNameError,
)
from scoring.wagons.goals import GOAL_CARDS, GOALS, WILDEST_WEST
from scoring.wagons.pile import Pile, parse_pile, pile_from_cards, pile_from_counts
from scoring.wagons.scenarios import SCENARIO_CARDS, SCENARIOS, UNDISCOVERED_OPTION
from scoring.wagons.score import GAME, OPTIONS, resolve_goals, resolve_scenario, score_town
from scoring.wagons.town import Territory, Town, TownFormatError, format_town, town_from_rows
from scoring.wagons.town_text import parse_town

__all__ = [
    "CARDS",
    "GAME",
    "GOALS",
    "GOAL_CARDS",
    "OPTIONS",
    "SCENARIOS",
    "SCENARIO_CARDS",
    "UNDISCOVERED_OPTION",
    "WILDEST_WEST",
    "ConflictError",
    "MissingInputError",
    "OptionError",
    "Pile",
    "PileError",
    "Territory",
    "Town",
    "TownFormatError",
    "UnknownNameError",
    "format_town",
    "parse_pile",
    "parse_town",
    "pile_from_cards",
    "pile_from_counts",
    "resolve_goals",
    "resolve_scenario",
    "score_town",
    "town_from_rows",
]
