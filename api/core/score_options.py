"""How the player asked a city to be scored: scoring cards, expansions, variant and options, read from a
form or a JSON request and checked before any work (no photo is scanned for a request that is refused)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from api.core.schemas import CityRequest
from scoring.city import City
from scoring.errors import InputError
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

    @classmethod
    def from_form(cls, fields: Mapping[str, str]) -> ScoreOptions:
        """Read the scan form's text fields: ``cards`` ("8 7 17" or "8,7,17"), ``expansions`` ("wrecktar
        beaches"), ``variant`` and ``options`` (a JSON object). Empty fields count as absent."""
        cards: tuple[int, ...] | None = None
        raw_cards = fields.get("cards", "").strip()
        if raw_cards:
            words = [w for w in re.split(r"[\s,]+", raw_cards.strip("[]")) if w]
            try:
                cards = tuple(whole_number(w) for w in words)
            except NumberError as exc:
                raise BadFormField(f"cards: scoring card numbers such as '8 7 17', {exc}") from None
        raw_exp = fields.get("expansions", "").strip()
        expansions = tuple(raw_exp.replace(",", " ").split()) if raw_exp else None
        variant = fields.get("variant", "").strip() or None
        options: dict[str, Any] = {}
        raw_options = fields.get("options", "").strip()
        if raw_options:
            try:
                options = load_json(raw_options)
            except json.JSONDecodeError as exc:
                raise BadFormField(
                    f"options: not valid JSON ({exc.msg} at character {exc.pos + 1})"
                ) from None
            except JSONError as exc:
                raise BadFormField(f"options: {exc}") from None
            if not isinstance(options, dict):
                raise BadFormField('options: expected a JSON object such as {"construction-penalty": 2}')
        return cls(cards, expansions, variant, option_strings(options))

    def check(self, city: City | None = None) -> None:
        """Refuse unknown card numbers, more cards than the game holds, unknown expansions, variants and
        option names (before any photo is scanned: cheap), with the engine's own checks. Fewer cards pass:
        the page scores a set as it is picked."""
        from scoring.base import check_variant
        from scoring.card_set import cards_expected, check_game_cards
        from scoring.engine import check_options
        from scoring.expansions import select

        expansions = self.expansions if self.expansions is not None or city is None else city.expansions
        select(expansions)
        if self.cards:
            check_game_cards(self.cards, cards_expected(expansions, self.options, city), partial=True)
        if self.variant is not None:
            check_variant(self.variant)
        check_options(self.options)

    @classmethod
    def from_request(cls, body: CityRequest) -> ScoreOptions:
        return cls(
            None if body.cards is None else tuple(body.cards),
            None if body.expansions is None else tuple(body.expansions),
            body.variant,
            option_strings(body.options),
        )


def option_strings(options: Mapping[str, Any]) -> dict[str, str]:
    """Options as the engine reads them (text values); raise :class:`BadFormField` for nested values."""
    out: dict[str, str] = {}
    for key, value in options.items():
        if isinstance(value, dict | list) or value is None:
            raise BadFormField(f"option {key!r}: expected a number or text, got {json.dumps(value)}")
        out[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)
    return out
