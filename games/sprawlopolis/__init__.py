"""Sprawlopolis, the game: :class:`Sprawlopolis` (registered by :mod:`games`), the player's choices
(:class:`ScoreOptions`) and a city read from a photo and scored (:class:`ScoredScan`)."""

from games.sprawlopolis.game import EXPANSION_NAMES, Sprawlopolis
from games.sprawlopolis.options import BadFormField, ScoreOptions
from games.sprawlopolis.scored import PHOTO_WRECKTAR_NOTE, ScoredScan, photo_notes, score_scan

__all__ = [
    "EXPANSION_NAMES",
    "PHOTO_WRECKTAR_NOTE",
    "BadFormField",
    "ScoreOptions",
    "ScoredScan",
    "Sprawlopolis",
    "photo_notes",
    "score_scan",
]
