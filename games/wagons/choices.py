"""How the player asked a Circle the Wagons town to be scored: the goal cards, the Lone Cowboy scenario,
the opponent's pile or town and the rule options, from a form, a JSON request (where they may sit in
``options``) or the command line alike, checked before any work."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.numbers import JSONError, load_json
from scoring.wagons.errors import OptionError, UnknownNameError
from scoring.wagons.names import split_names
from scoring.wagons.score import OPTIONS, resolve_goals
from scoring.wagons.town import Town, town_from_rows
from scoring.wagons.town_text import parse_town

__all__ = ["KEYS", "TownChoices"]

#: The choices a town takes (in a request's ``options`` too), besides the rule options of ``OPTIONS``.
KEYS = ("goals", "scenario", "opponent-pile", "opponent-town")


@dataclass(frozen=True)
class TownChoices:
    """``goals`` (names; ``None``: the town's header, else the scenario's), ``scenario``, the opponent's
    ``pile`` (numbers or ``name=count`` words) or ``town``, and the rule ``options``."""

    goals: tuple[str, ...] | None = None
    scenario: str | None = None
    pile: tuple[str, ...] | None = None
    town: Town | None = None
    options: dict[str, object] = field(default_factory=dict)

    @classmethod
    def from_given(cls, given: Mapping[str, Any]) -> TownChoices:
        """The choices in ``given`` (see the module note); an unknown one is an :class:`UnknownNameError`."""
        merged = {**_keyed(_options(given.get("options"))), **_keyed(given, skip="options")}
        unknown = sorted(set(merged) - {*KEYS, *OPTIONS})
        if unknown:
            raise UnknownNameError(
                f"unknown option {unknown[0][:40]!r} for Circle the Wagons; expected one of: "
                f"{', '.join((*KEYS, *OPTIONS))}"
            )
        goals = merged.get("goals")
        pile = merged.get("opponent-pile")
        other = merged.get("opponent-town")
        choices = cls(
            tuple(_words(goals, "goals")) if goals is not None else None,
            str(merged["scenario"]) if merged.get("scenario") else None,
            tuple(_words(pile, "opponent-pile")) if pile is not None else None,
            _town(other) if other is not None else None,
            {k: v for k, v in merged.items() if k in OPTIONS},
        )
        resolve_goals(choices.goals or ())
        return choices


def _keyed(values: Mapping[str, Any], skip: str = "") -> dict[str, Any]:
    """``values`` keyed as the scorer spells its options (lower case, dashes), empty ones left out."""
    return {
        str(k).strip().lower().replace("_", "-"): v
        for k, v in values.items()
        if k != skip and v is not None and v != "" and v != []
    }


def _options(value: Any) -> Mapping[str, Any]:
    if value is None or isinstance(value, Mapping):
        return value or {}
    try:
        options = load_json(str(value))
    except (ValueError, JSONError) as exc:
        raise OptionError(f"options: not a JSON object ({exc})") from None
    if not isinstance(options, dict):
        raise OptionError("options: expected a JSON object")
    return options


def _town(value: Any) -> Town:
    """A town given as text (or the bytes of a file) or as rows of cell tokens."""
    return parse_town(value) if isinstance(value, str | bytes) else town_from_rows(value)


def _words(value: object, key: str) -> list[str]:
    """A choice given as text (split at commas or spaces) or as a list of names or numbers."""
    if isinstance(value, str):
        return split_names(value) if key == "goals" else value.split()
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return [str(v) for v in value]
    raise OptionError(f"option {key}: expected text or a list of names or numbers, got {str(value)[:40]!r}")
