"""Which goal card a title's OCR text names, and how surely.

The text is compared with every goal card's printed name (:data:`scoring.wagons.goals.GOALS`, the Lone
Cowboy card included, and the misprint "Prarie Life" for Prairie Life) by difflib's ratio, letters only,
spaces dropped (the OCR splits and joins words freely). Runs of the text's words as long as the name (one
word more or less) are tried, so a stray mark read as a word beside the title, or a name split over two
lines, costs nothing. A name is read *surely* when it matches well (:data:`SURE`) and clearly better than
any other card (:data:`MARGIN`): names share words ("The Herd", "The Clearing"; "Wagon Train", "Circle the
Wagons"), and a title read half must not be taken for the wrong card. A title that matches some card
fairly (:data:`ASK_FLOOR`) but not surely is a goal card the player is asked to name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from scoring.wagons.goals import GOAL_ALIASES, GOALS

__all__ = ["ASK_FLOOR", "MARGIN", "SURE", "TitleMatch", "match_title"]

#: A name matched at least this well (0-1) ...
SURE = 0.8
#: ... and by this much better than any other card's name is read surely.
MARGIN = 0.1
#: Below this, the text is no goal card's title at all (the card's bottom, a town card, a smudge).
ASK_FLOOR = 0.6

_SPELLINGS: tuple[tuple[str, str], ...] = (
    *((goal, name) for goal, name in GOALS.items()),
    *((GOAL_ALIASES[alias], alias.replace("-", " ")) for alias in GOAL_ALIASES),
)


@dataclass(frozen=True)
class TitleMatch:
    """The card a title's ``text`` names best (``goal``, an id of :data:`GOALS`, at ``ratio``) and the
    best other card (``runner_up`` at ``runner_ratio``)."""

    text: str
    goal: str
    ratio: float
    runner_up: str
    runner_ratio: float

    @property
    def sure(self) -> bool:
        return self.ratio >= SURE and self.ratio - self.runner_ratio >= MARGIN

    @property
    def asks(self) -> bool:
        """Whether the text looks like a goal card's title read unsurely (to be named by the player)."""
        return not self.sure and self.ratio >= ASK_FLOOR


def _letters(text: str) -> list[str]:
    return re.sub("[^A-Z]+", " ", text.upper()).split()


def match_title(text: str) -> TitleMatch | None:
    """How well ``text`` names each goal card (see the module note); None when it holds no letters."""
    words = _letters(text)
    if not words:
        return None
    best: dict[str, float] = {}
    for goal, name in _SPELLINGS:
        target = "".join(_letters(name))
        k = len(_letters(name))
        score = 0.0
        for n in {max(1, k - 1), k, k + 1}:
            for start in range(max(1, len(words) - n + 1)):
                run = "".join(words[start : start + n])
                score = max(score, SequenceMatcher(None, run, target).ratio())
        best[goal] = max(best.get(goal, 0.0), score)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    (goal, ratio), (runner_up, runner_ratio) = ranked[0], ranked[1]
    return TitleMatch(text, goal, ratio, runner_up, runner_ratio)
