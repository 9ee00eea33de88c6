"""Scoring a grid typed or sent as rows, as the service's ``/score`` and ``/check`` and a saved game do,
free of HTTP, for whichever game the request names (:mod:`games`). Every bad input raises an
:class:`~scoring.errors.InputError` subclass, which the service turns into a 4xx JSON error.
"""

from __future__ import annotations

import json
from typing import Any

from api.core.schemas import CheckRequest, CityRequest
from games import GameRequest, game_named
from scoring.breakdown import Breakdown
from scoring.tally import parse_tally

__all__ = ["breakdown_of", "check_request", "given_choices", "score_request"]

# The request's own fields that carry a game's choices (the rest of them travel in ``options``).
CHOICE_FIELDS = ("cards", "expansions", "variant", "options")


def given_choices(body: CityRequest) -> dict[str, Any]:
    """The choices a request gives, by key, as the games read them (empty ones left out)."""
    given = {name: getattr(body, name) for name in CHOICE_FIELDS}
    return {k: v for k, v in given.items() if v is not None and v != {} and v != []}


def breakdown_of(body: CityRequest, text: str | None = None) -> Breakdown:
    """The breakdown of the request's grid (``text`` when given: a stored scan's), scored by its game with
    its choices."""
    game = game_named(body.game)
    choices = GameRequest(game.name, given_choices(body)).check()[game.name]
    source = text if text is not None else body.city
    if source is not None:
        return game.score_text(source, choices)
    return game.score_rows(body.rows or [], choices)


def score_request(body: CityRequest) -> dict[str, Any]:
    """``POST /api/v1/score``: the JSON breakdown of the request's grid."""
    return breakdown_of(body).to_json()


def check_request(body: CheckRequest, stored_city: str | None) -> dict[str, Any]:
    """``POST /api/v1/check``: compare the tally with the breakdown of the grid (or the stored scan's)."""
    text = body.tally if isinstance(body.tally, str) else json.dumps(body.tally)
    lines = parse_tally(text)
    breakdown = breakdown_of(body, stored_city)
    verdict = game_named(body.game).check_tally(breakdown, lines)
    return {**verdict.to_json(), "breakdown": breakdown.to_json()}
