"""What the page offers (``GET /api/v1/meta``): the games registered, each with what the page needs to
offer it (its title, the word for its grid, its own page module if it has one, the choices a player gives
it), each game's own lists (:meth:`games.Game.page_choices`: Sprawlopolis's scoring cards, expansions and
variants, Circle the Wagons' goals and scenarios…), and the size the scanner works at."""

from __future__ import annotations

from typing import Any

from games import Game, registered
from vision.photo import WORK_LONG_SIDE

__all__ = ["PAGE_PREFIX", "game_entry", "metadata"]

#: Where a game's own page files are served: ``/static/games/<name>/page.js`` (under ``/static`` so the
#: page's service worker keeps them for offline use as it keeps the rest of the page).
PAGE_PREFIX = "/static/games"


def game_entry(game: Game) -> dict[str, Any]:
    """One game as the page offers it. ``page``: the URL of the game's page module, or ``None`` (the page's
    plain defaults); ``options``: its choices as a JSON request sends them (key, help, ``kind`` as
    :class:`games.OptionSpec` says, one word or several, the allowed values); a choice of ``KEY=VALUE``
    pairs is left to the game's own page."""
    options = [
        {
            "key": o.key,
            "help": o.help,
            "kind": o.kind,
            "several": o.nargs is not None,
            "choices": o.choices,
        }
        for o in game.options
        if o.kind != "pairs"
    ]
    page = f"{PAGE_PREFIX}/{game.name}/page.js" if game.page_dir is not None else None
    return {
        "name": game.name,
        "title": game.title,
        "grid_word": game.grid_word,
        "page": page,
        "options": options,
        "stats_heading": game.stats_heading or game.title,
    }


def metadata() -> dict[str, Any]:
    """The choices the page offers, every game's, with the games (:func:`game_entry`) and the long side
    (pixels) the scanner works at, to which the page shrinks photos."""
    out: dict[str, Any] = {
        "games": [game_entry(g) for g in registered()],
        "photo_long_side": WORK_LONG_SIDE,
    }
    for game in registered():
        out.update(game.page_choices())
    return out
