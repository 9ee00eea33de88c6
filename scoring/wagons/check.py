"""Check a hand tally against a scored town: the player's lines, and the opponent's when the tally has them.

A tally line whose item begins with "opponent" (``opponent 14``, ``opponent top three 9``,
``opponent's cows 4``) is about the opponent: the rest of its label is matched against the opponent's
lines, and a bare ``opponent N`` is the opponent's total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.breakdown import Breakdown
from scoring.tally import TallyLine, TallyReport, check_tally
from scoring.wagons.errors import MissingInputError
from scoring.wagons.score import opponent_breakdown

_OPPONENT_WORDS = ("lone cowboy", "opponent", "cowboy", "opp")  # longest first


def opponent_label(label: str) -> str | None:
    """The rest of a tally label about the opponent (``"opponent top three"`` → ``"top three"``,
    ``"opponent"`` → ``"total"``), or ``None`` for a line about the player.

    Examples
    --------
    >>> opponent_label("Opponent top three"), opponent_label("opponent"), opponent_label("cows")
    ('top three', 'total', None)
    """
    low = label.strip().lower()
    for word in _OPPONENT_WORDS:
        if low == word or low.startswith((word + " ", word + ":", word + "'s")):
            rest = label.strip()[len(word) :].removeprefix("'s").strip(" :")
            return rest or "total"
    return None


@dataclass(frozen=True)
class TownCheck:
    """The player's tally report and, when the tally has opponent lines, the opponent's."""

    player: TallyReport
    opponent: TallyReport | None

    def to_json(self) -> dict[str, Any]:
        out = self.player.to_json()
        if self.opponent is not None:
            out["opponent"] = self.opponent.to_json()
        return out


def check_town_tally(breakdown: Breakdown, lines: Sequence[TallyLine]) -> TownCheck:
    """Split the tally into the player's and the opponent's lines and check each against its breakdown.

    Raises :class:`MissingInputError` when the tally speaks of an opponent the breakdown does not have.
    """
    mine: list[TallyLine] = []
    theirs: list[TallyLine] = []
    for line in lines:
        rest = opponent_label(line.label)
        if rest is None:
            mine.append(line)
        else:
            theirs.append(replace(line, label=rest))
    opponent = opponent_breakdown(breakdown)
    if theirs and opponent is None:
        raise MissingInputError(
            f"tally line {theirs[0].line} is about the opponent, but no opponent was given "
            "(opponent-pile or opponent-town)"
        )
    report = check_tally(breakdown, mine)
    return TownCheck(report, check_tally(opponent, theirs) if theirs and opponent is not None else None)
