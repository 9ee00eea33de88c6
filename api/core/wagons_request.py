"""A Circle the Wagons town sent to the web service: the request body's fields and options, checked and
handed to :func:`scoring.wagons.score.score_town`."""

from __future__ import annotations

from typing import Any

from scoring.breakdown import Breakdown
from scoring.wagons.errors import ConflictError, OptionError, UnknownNameError
from scoring.wagons.names import split_names
from scoring.wagons.score import OPTIONS, score_town
from scoring.wagons.town import Town, town_from_rows
from scoring.wagons.town_text import parse_town

#: The keys of a web request's ``options`` object that the Circle the Wagons scorer reads.
REQUEST_KEYS = ("goals", "scenario", "opponent-pile", "opponent-town", *OPTIONS)


def score_town_request(body: Any, text: str | None = None) -> dict[str, Any]:
    """The JSON breakdown of a web request's town (``POST /api/v1/score`` with ``game: "wagons"``);
    see :func:`town_request_breakdown`."""
    return town_request_breakdown(body, text).to_json()


def town_request_breakdown(body: Any, text: str | None = None) -> Breakdown:
    """Score the town of a web request and return its breakdown (with the opponent in ``extra``).

    ``body`` carries ``city`` (town text) or ``rows`` (cell tokens), and ``options`` with any of
    ``goals`` (list or text), ``scenario``, ``opponent-pile`` (numbers or ``name=count``, list or text),
    ``opponent-town`` (town text) and ``opponent-undiscovered``. ``text``, when given, replaces the town.
    Sprawlopolis-only fields (``cards``, ``expansions``, ``variant``) are refused rather than ignored.
    """
    for name in ("cards", "expansions", "variant"):
        if getattr(body, name, None):
            raise ConflictError(
                f"'{name}' is a Sprawlopolis field; a Circle the Wagons town takes options "
                f"{', '.join(REQUEST_KEYS)}"
            )
    opts = {
        str(k).strip().lower().replace("_", "-"): v for k, v in (getattr(body, "options", None) or {}).items()
    }
    unknown = sorted(set(opts) - set(REQUEST_KEYS))
    if unknown:
        raise UnknownNameError(
            f"unknown option {unknown[0]!r} for Circle the Wagons; expected one of: {', '.join(REQUEST_KEYS)}"
        )
    source = text if text is not None else body.city
    town = parse_town(source) if source is not None else town_from_rows(body.rows)
    other = opts.get("opponent-town")
    pile = opts.get("opponent-pile")
    return score_town(
        town,
        goals=_words(opts["goals"], "goals") if opts.get("goals") is not None else None,
        opponent_town=_request_town(other) if other is not None else None,
        opponent_pile=_words(pile, "opponent-pile") if pile is not None else None,
        scenario=str(opts["scenario"]) if opts.get("scenario") else None,
        options={k: v for k, v in opts.items() if k in OPTIONS},
    )


def _request_town(value: object) -> Town:
    """A town given in a request as text or as rows of cell tokens."""
    return parse_town(value) if isinstance(value, str) else town_from_rows(value)


def _words(value: object, key: str) -> list[str]:
    """A request option given as text (split at commas or spaces) or as a list of names or numbers."""
    if isinstance(value, str):
        return split_names(value) if key == "goals" else [value]
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return [str(v) for v in value]
    raise OptionError(f"option {key}: expected text or a list of names or numbers, got {value!r}")
