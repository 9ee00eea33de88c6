"""The games sprawlscan scores, behind one interface (:class:`Game`), each registered once here; the
command line, the web service and the page get the list of games, and everything that differs between
them, from :mod:`games.registry`. :func:`scan_photo` is the one path from a photo's bytes to a scored,
doubted answer.

The games are registered in the order a photo's game is told: Sprawlopolis first, whose city scan is
its own evidence; a photo its cards explain well never pays for another game's reader. More games come
from the modules named in the environment variable ``SPRAWLSCAN_GAMES`` (comma-separated), imported
here once, after these: each registers its game (:func:`register`) when imported.
"""

import importlib
import os

from games.decks import DECK_SHARE, check_deck_extras, deck_games, load_any_deck, teach_photos
from games.flags import breakdown_in_flag_words, flag_words
from games.interface import Evidence, Game, GameOptionError, OptionSpec, Photo, ScoredPhoto
from games.photo import scan_photo
from games.registry import (
    game_named,
    game_names,
    option_owners,
    options_for,
    register,
    registered,
    registering,
)
from games.request import GameRequest
from games.sprawlopolis import Sprawlopolis
from games.telling import UnknownLook
from games.wagons import Wagons

register(Sprawlopolis())
register(Wagons())
for _module in filter(None, (m.strip() for m in os.environ.get("SPRAWLSCAN_GAMES", "").split(","))):
    importlib.import_module(_module)

__all__ = [
    "DECK_SHARE",
    "Evidence",
    "Game",
    "GameOptionError",
    "GameRequest",
    "OptionSpec",
    "Photo",
    "ScoredPhoto",
    "UnknownLook",
    "breakdown_in_flag_words",
    "check_deck_extras",
    "deck_games",
    "flag_words",
    "game_named",
    "game_names",
    "load_any_deck",
    "option_owners",
    "options_for",
    "register",
    "registered",
    "registering",
    "scan_photo",
    "teach_photos",
]
