"""Circle the Wagons, the game: :class:`Wagons` (registered by :mod:`games`), the player's choices
(:class:`TownChoices`) and a town read from a photo and scored (:class:`ScoredTown`)."""

from games.wagons.choices import TownChoices
from games.wagons.game import Wagons
from games.wagons.scan import NO_GOALS_NOTE, ScoredTown, read_town, score_town_scan
from games.wagons.text import goals_line, render_town

__all__ = [
    "NO_GOALS_NOTE",
    "ScoredTown",
    "TownChoices",
    "Wagons",
    "goals_line",
    "read_town",
    "render_town",
    "score_town_scan",
]
