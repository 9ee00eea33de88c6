"""A Circle the Wagons breakdown as the command line prints it: the player's table with each goal line's
provenance, then the opponent's (when there is one) and who scored more; the goal cards' line; a hand
tally's verdicts for both players."""

from __future__ import annotations

from dataclasses import replace

from scoring.breakdown import Breakdown
from scoring.report import render_check, render_text
from scoring.wagons import GOALS, SCENARIO_CARDS
from scoring.wagons.check import TownCheck
from scoring.wagons.score import opponent_breakdown

__all__ = ["goals_line", "render_town", "render_town_check"]

_GOALS_FROM = {"read": "read from the photo", "given": "as given"}


def goals_line(goals: tuple[str, ...], source: str | None) -> str:
    """The line saying which goal cards scored the town and where they came from (none: no line)."""
    if not goals or source not in _GOALS_FROM:
        return ""
    return f"Goal cards ({_GOALS_FROM[source]}): {', '.join(GOALS.get(g, g) for g in goals)}\n"


def _heading(breakdown: Breakdown) -> str:
    extra = dict(breakdown.extra)
    goals = ", ".join(GOALS[g] for g in extra["goals"]) or "none"
    heading = f"Circle the Wagons: goal cards {goals}"
    if extra.get("scenario"):
        heading += f"; Lone Cowboy scenario {SCENARIO_CARDS[extra['scenario']].name}"
    return heading


def _tagged(breakdown: Breakdown) -> Breakdown:
    """The breakdown with each goal line's provenance shown in its label, for the text table."""
    items = tuple(
        replace(i, label=f"{i.label} [{i.provenance}]") if i.provenance else i for i in breakdown.items
    )
    return replace(breakdown, items=items)


def render_town(breakdown: Breakdown) -> str:
    """The player's table, then the opponent's (when there is one) and who scored more."""
    out = render_text(_tagged(breakdown), heading=_heading(breakdown))
    opponent = opponent_breakdown(breakdown)
    if opponent is None:
        return out
    kind = dict(breakdown.extra)["opponent"]["kind"]
    title = "Opponent's pile" if kind == "pile" else "Opponent's town"
    out += "\n" + title + "\n" + render_text(_tagged(opponent), heading="").split("\n", 1)[1]
    beat = dict(breakdown.extra).get("beat_opponent")
    if beat is not None:
        result = dict(breakdown.extra)["result"]
        words = {"win": "you beat the opponent", "loss": "the opponent wins", "tie": "a tie"}[result]
        total = dict(breakdown.extra)["opponent"]["total"]
        out += f"\nResult: {words} ({breakdown.total} to {total}).\n"
    return out


def render_town_check(verdict: TownCheck) -> str:
    """The player's tally verdicts, then the opponent's when the tally spoke of one."""
    text = render_check(verdict.player)
    if verdict.opponent is not None:
        text += "\nOpponent: " + render_check(verdict.opponent)
    return text
