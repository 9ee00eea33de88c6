"""Pure scoring engine for Sprawlopolis and Circle the Wagons: no OpenCV, no I/O beyond parsing."""

from scoring.breakdown import Breakdown, LineItem
from scoring.city import Cell, City, CityFormatError, format_city
from scoring.city_text import parse_city
from scoring.engine import score_city

__all__ = [
    "Breakdown",
    "Cell",
    "City",
    "CityFormatError",
    "LineItem",
    "format_city",
    "parse_city",
    "score_city",
]
