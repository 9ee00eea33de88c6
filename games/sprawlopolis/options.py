"""How the player asked a city to be scored: scoring cards, expansions, variant and options, read from a
form, a JSON request or the command line and checked before any work (no photo is scanned for a request
that is refused).

The command line and the requests differ in one rule: on the command line the expansions named are added
to those in the city file's header (``--expansion`` adds to ``expansions:``) and ``--cards`` must be a whole
set; in a request they replace the header's, and fewer cards pass (the page scores a set as it is picked).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.base import check_variant
from scoring.card_set import cards_expected, check_game_cards
from scoring.city import City
from scoring.engine import check_options
from scoring.errors import InputError
from scoring.expansions import select
from scoring.numbers import JSONError, NumberError, load_json, whole_number

__all__ = ["BadFormField", "ScoreOptions", "option_strings"]


class BadFormField(InputError):
    """A scan form field (cards, expansions, options) that cannot be read."""

    code = "bad_form_field"


@dataclass(frozen=True)
class ScoreOptions:
    """How to score: scoring cards and expansions (``None`` = take them from the city), variant, options."""

    cards: tuple[int, ...] | None = None
    expansions: tuple[str, ...] | None = None
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    #: Read from the command line (see the module note).
    command_line: bool = False

    @classmethod
    def from_given(cls, given: Mapping[str, Any], *, command_line: bool = False) -> ScoreOptions:
        """The choices in ``given``: ``cards`` (numbers, or text such as "8 7 17" or "8,7,17"),
        ``expansions`` (names, or text such as "wrecktar beaches"), ``variant`` and ``options`` (a mapping,
        or a JSON object as text). Empty values count as absent."""
        return cls(
            _cards(given.get("cards")),
            _words(given.get("expansions")),
            str(given.get("variant") or "").strip() or None,
            option_strings(_options(given.get("options"))),
            command_line,
        )

    def check(self, city: City | None = None) -> None:
        """Refuse unknown card numbers, more cards than the game holds (on the command line: other than a
        whole set), unknown expansions, variants and option names (before any photo is scanned: cheap),
        with the engine's own checks."""
        expansions = self.expansions_for(city)
        select(expansions)
        if self.cards:
            expected = cards_expected(expansions, self.options, city)
            try:
                check_game_cards(self.cards, expected, partial=not self.command_line)
            except InputError as exc:
                if not self.command_line:
                    raise
                error = InputError(f"--cards: {exc}")
                error.code = exc.code
                raise error from None
        if self.variant is not None:
            check_variant(self.variant)
        check_options(self.options)

    def expansions_for(self, city: City | None) -> tuple[str, ...] | None:
        """The expansions to score ``city`` with: a request's replace the city's header, the command
        line's add to it (``None``: the header's)."""
        if self.expansions is None:
            return None if city is None else city.expansions
        named = tuple(dict.fromkeys(e.lower() for e in self.expansions))
        if not self.command_line or city is None:
            return named
        return tuple(dict.fromkeys([*city.expansions, *named]))


def _cards(value: Any) -> tuple[int, ...] | None:
    if value is None or value == "" or value == []:
        return None
    if not isinstance(value, str):
        return tuple(value)
    words = [w for w in re.split(r"[\s,]+", value.strip().strip("[]")) if w]
    try:
        return tuple(whole_number(w) for w in words) or None
    except NumberError as exc:
        raise BadFormField(f"cards: scoring card numbers such as '8 7 17', {exc}") from None


def _words(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    words = tuple(value.replace(",", " ").split()) if isinstance(value, str) else tuple(value)
    return words or None


def _options(value: Any) -> Mapping[str, Any]:
    if value is None or isinstance(value, Mapping):
        return value or {}
    raw = str(value).strip()
    if not raw:
        return {}
    try:
        options = load_json(raw)
    except json.JSONDecodeError as exc:
        raise BadFormField(f"options: not valid JSON ({exc.msg} at character {exc.pos + 1})") from None
    except JSONError as exc:
        raise BadFormField(f"options: {exc}") from None
    if not isinstance(options, dict):
        raise BadFormField('options: expected a JSON object such as {"construction-penalty": 2}')
    return options


def option_strings(options: Mapping[str, Any]) -> dict[str, str]:
    """Options as the engine reads them (text values); raise :class:`BadFormField` for nested values."""
    out: dict[str, str] = {}
    for key, value in options.items():
        if isinstance(value, dict | list) or value is None:
            raise BadFormField(f"option {key!r}: expected a number or text, got {json.dumps(value)}")
        out[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)
    return out
