"""The scoring cards' backs beside the city: which three scoring cards a game used.

``circles`` finds the yellow number circles, ``numerals`` reads the number in one, ``read`` finds the
cards lying scoring side up and reads each, ``choose`` settles the three from those numbers and the cards
missing from the city. Other rooms use only the names below.
"""

from vision.backs.choose import BACKS_OVER_CITY, CITY_SURE, BackNumber, ScoringCards, choose_scoring_cards
from vision.backs.numerals import (
    N_CLASSES,
    NUMBERS,
    PATCH,
    REACH,
    NumberModelError,
    circle_frame,
    circle_patch,
    normalise,
)
from vision.backs.read import ScoringCardReading, find_scoring_cards

__all__ = [
    "BACKS_OVER_CITY",
    "BackNumber",
    "CITY_SURE",
    "NUMBERS",
    "N_CLASSES",
    "NumberModelError",
    "PATCH",
    "REACH",
    "ScoringCardReading",
    "ScoringCards",
    "choose_scoring_cards",
    "circle_frame",
    "circle_patch",
    "find_scoring_cards",
    "normalise",
]
