"""Scoring a city typed or sent as rows, as the service's ``/score`` and ``/check`` and a saved game do,
free of HTTP. Every bad input raises an :class:`~scoring.errors.InputError` subclass, which the service turns
into a 4xx JSON error.
"""

from __future__ import annotations

import json
from typing import Any

from api.core.flags import breakdown_in_flag_words
from api.core.schemas import CheckRequest, CityRequest
from api.core.score_options import ScoreOptions
from scoring.breakdown import Breakdown
from scoring.city import City, city_from_rows
from scoring.city_text import parse_city

__all__ = ["breakdown_of", "check_request", "city_of", "score_request"]


def city_of(body: CityRequest, text: str | None = None) -> City:
    """The Sprawlopolis city of a request: ``text`` when given (a stored scan), else ``city`` or ``rows``."""
    if text is None:
        text = body.city
    if text is not None:
        return parse_city(text)
    return city_from_rows(body.rows or [])


def breakdown_of(city: City, opts: ScoreOptions) -> Breakdown:
    """The breakdown of a Sprawlopolis ``city`` scored as ``opts`` asks, its advice in flag words."""
    from scoring.engine import score_city

    opts.check(city)
    breakdown = score_city(city, opts.cards, opts.expansions, variant=opts.variant, options=opts.options)
    return breakdown_in_flag_words(breakdown)


def score_request(body: CityRequest) -> dict[str, Any]:
    """``POST /api/v1/score``: the JSON breakdown of the request's city (or town)."""
    if body.game == "wagons":
        return _town(body).to_json()
    return breakdown_of(city_of(body), ScoreOptions.from_request(body)).to_json()


def _town(body: CityRequest, text: str | None = None) -> Breakdown:
    from api.core.wagons_request import town_request_breakdown

    return breakdown_in_flag_words(town_request_breakdown(body, text))


def check_request(body: CheckRequest, stored_city: str | None) -> dict[str, Any]:
    """``POST /api/v1/check``: compare the tally with the breakdown of the city (or the stored scan's)."""
    from scoring.tally import check_tally, parse_tally

    text = body.tally if isinstance(body.tally, str) else json.dumps(body.tally)
    lines = parse_tally(text)
    if body.game == "wagons":
        # The Wagons checker also sends "opponent …" lines to the opponent's breakdown.
        from scoring.wagons.check import check_town_tally

        town = _town(body, stored_city)
        return {**check_town_tally(town, lines).to_json(), "breakdown": town.to_json()}
    breakdown = breakdown_of(city_of(body, stored_city), ScoreOptions.from_request(body))
    return {**check_tally(breakdown, lines).to_json(), "breakdown": breakdown.to_json()}
