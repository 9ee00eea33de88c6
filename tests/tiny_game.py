"""A third game, small and made up, that only the tests play: "Tiny", a grid of ``X`` and ``.`` cells
scoring a point per ``X`` (and a ``bonus`` the player names), told from a photo by its colour (a magenta
card fills most of it). :func:`games.registering` registers it for a test's block; a server registers it
with ``SPRAWLSCAN_GAMES=tests.tiny_game_plugin``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games import Evidence, Game, OptionSpec, Photo, ScoredPhoto
from scoring.breakdown import Breakdown, LineItem
from scoring.errors import InputError

MAGENTA = np.array([230, 30, 200])


def _breakdown(grid: str, bonus: int) -> Breakdown:
    if set(grid) - set("X.\n "):
        raise InputError("a Tiny grid holds only X and . cells")
    items = (LineItem("x", "X cells", grid.count("X")), LineItem("bonus", "Bonus", bonus))
    return Breakdown("tiny", grid, (), items)


@dataclass(frozen=True)
class ScoredTiny(ScoredPhoto):
    breakdown: Breakdown
    taught: bool = False
    warnings: tuple[str, ...] = ()
    doubt: tuple[dict[str, Any], ...] = ()
    retake: str | None = None
    needs_deck: bool = False
    overlay: np.ndarray | None = None
    timings: dict[str, float] = field(default_factory=dict)
    game = "tiny"

    @property
    def text(self) -> str:
        return self.breakdown.city

    def to_json(self) -> dict[str, Any]:
        return {**self.breakdown.to_json(), "doubt": [], "warnings": [], "retake": None, "cells": []}

    def render_text(self) -> str:
        return f"Tiny: {self.breakdown.total} points\n"


class Tiny(Game):
    name = "tiny"
    title = "Tiny"
    grid_word = "grid"
    file_suffix = ".tiny"
    options = (
        OptionSpec("bonus", "--bonus", "points added to the X cells", "N", kind="numbers", what="bonus"),
        OptionSpec("options", "--option", "none", "KEY=VALUE", kind="pairs", commands=("score",)),
    )

    def choices(self, given: Mapping[str, Any], *, command_line: bool = False) -> int:
        bonus = given.get("bonus", (given.get("options") or {}).get("bonus", 0))
        bonus = bonus[0] if isinstance(bonus, list) else bonus
        if not str(bonus).isdigit():
            raise InputError(f"bonus: a whole number, not {str(bonus)[:20]!r}")
        return int(bonus)

    def score_text(self, text: str | bytes, choices: int, *, name: str = "") -> Breakdown:
        return _breakdown(text.decode() if isinstance(text, bytes) else text, choices)

    def score_rows(self, rows: Sequence[Sequence[str]], choices: int) -> Breakdown:
        return _breakdown("\n".join("".join(r) for r in rows) + "\n", choices)

    def check_tally(self, breakdown: Breakdown, lines: Sequence[Any]) -> Any:
        raise InputError("Tiny has no tally to check")

    def render_check(self, verdict: Any) -> str:
        return ""

    def render_breakdown(self, breakdown: Breakdown) -> str:
        return f"Tiny: {breakdown.total} points\n"

    def evidence(self, photo: Photo, choices: int, deck: Any) -> Evidence:
        near = np.abs(photo.rgb.astype(int) - MAGENTA).sum(axis=2) < 60
        return Evidence(self.name, float(near.mean()), int(near.sum() > 0))

    def read(self, photo: Photo, evidence: Evidence | None, choices: int, deck: Any) -> ScoredTiny:
        near = np.abs(photo.rgb.astype(int) - MAGENTA).sum(axis=2) < 60
        return ScoredTiny(_breakdown("X\n" if near.mean() > 0.5 else ".\n", choices))
