"""Photo bytes → a scored, doubted reading, for every game: :func:`scan_photo`, the one path the command
line (``scan``, ``score PHOTO``, ``check PHOTO``), the web service and the page take.

The photo is decoded once; the game is the player's (``GameRequest.game``) or told from the photo by the
games' own cards (:mod:`games.telling`); the game that wins reads it, reusing what it read to be told, and
scores it with the player's choices. A choice that belongs to another game than the photo's is refused,
never dropped; a taught deck of another game than the photo's is left unused, and the answer says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from games.interface import Game, Photo, ScoredPhoto
from games.registry import game_named, registered
from games.request import GameRequest, refuse_others
from games.telling import tell_game
from vision.photo import WORK_LONG_SIDE, decode_image
from vision.runtime import Stages, StageTimer, Stop

__all__ = ["scan_photo"]


def deck_not_used(game: Game, decks: Sequence[Any]) -> str | None:
    """The warning for a photo of ``game`` read without a taught deck while another game's was given."""
    if not decks or game.deck_of(decks) is not None:
        return None
    held = next((g.title for g in registered() if g.deck_of(decks) is not None), "another game's")
    return f"the taught deck holds {held} cards; this {game.title} {game.grid_word} was read without it"


def scan_photo(
    data: bytes,
    request: GameRequest,
    *,
    decks: Sequence[Any] = (),
    overlay: bool = False,
    classifier: Any = None,
    stop: Stop | None = None,
    timings: dict[str, float] | None = None,
) -> ScoredPhoto:
    """The game in photo ``data`` read and scored as ``request`` asks (see the module note). ``decks`` are
    the taught decks given (at most one a game), ``overlay`` asks for a picture of what was read,
    ``classifier`` stands in for the shipped cell classifier, ``stop`` stops the scan at a stage's end
    and ``timings`` receives each stage's seconds. Raises the scanner's and the games'
    :class:`~scoring.errors.InputError` subclasses."""
    choices = request.check()
    stages = Stages(StageTimer(timings), stop or Stop())
    stages.stop.check()
    start = time.perf_counter()
    rgb = stages.run("decode", partial(decode_image, long_side=WORK_LONG_SIDE), data).rgb
    photo = Photo(rgb, stages, overlay, classifier)
    if request.game:
        game, evidence = game_named(request.game), None
    else:
        game, evidence = tell_game(photo, choices, decks)
        refuse_others(game, request.given, command_line=request.command_line)
    scored = game.read(photo, evidence, choices[game.name], game.deck_of(decks))
    unused = deck_not_used(game, decks)
    if unused is not None:
        scored = replace(scored, warnings=(*scored.warnings, unused))  # type: ignore[type-var]
    stages.timer.timings["total"] = time.perf_counter() - start
    return replace(scored, timings=stages.timer.timings)  # type: ignore[type-var]
