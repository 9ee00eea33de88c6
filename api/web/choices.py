"""The choices the page offers (``GET /api/v1/meta``): each registered game's
(:meth:`games.Game.page_choices`: Sprawlopolis's scoring cards, expansions and variants, Circle the Wagons'
goals and scenarios…), the games themselves, and the size the scanner works at."""

from __future__ import annotations

from typing import Any

from games import registered
from vision.photo import WORK_LONG_SIDE

__all__ = ["metadata"]


def metadata() -> dict[str, Any]:
    """The choices the page offers, every game's, with the games (name, title) and the long side (pixels)
    the scanner works at, to which the page shrinks photos."""
    out: dict[str, Any] = {
        "games": [{"name": g.name, "title": g.title} for g in registered()],
        "photo_long_side": WORK_LONG_SIDE,
    }
    for game in registered():
        out.update(game.page_choices())
    return out
