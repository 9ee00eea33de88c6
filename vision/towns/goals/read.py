"""The goal cards face up beside a Circle the Wagons town, read from the photo: :func:`read_goal_cards`.

Stages: card-shaped paper (:mod:`vision.towns.goals.find`), each card it may hold cut at its title when a
goal card's title rule is there (:mod:`vision.towns.goals.title`), the titles read in one Tesseract run
(:mod:`vision.towns.goals.ocr`) with their strokes thinned (bold capitals blurred by a far photo run
together; thinned, they come apart), those not read surely once more as they are, and the text
matched to the cards' names (:mod:`vision.towns.goals.names`). Nothing is learnt from photos: the
cards' names are the catalogue's, which any print of the game sets in capitals above a rule.

A card read surely is a goal; a title read unsurely is never guessed: it is named in a warning asking the
player for the goals. The work is bounded (a few regions, small crops, one OCR run, a second for
the titles not read surely).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scoring.wagons.goals import GOAL_CARDS, GOALS
from vision.towns.goals.find import card_quads, find_paper
from vision.towns.goals.names import TitleMatch, match_title
from vision.towns.goals.ocr import OcrUnavailable, read_words
from vision.towns.goals.title import title_crop

__all__ = ["GOALS_IN_A_GAME", "MAX_TITLES", "GoalCardRead", "GoalReading", "read_goal_cards"]

#: A game lays out three goal cards (a Lone Cowboy scenario two).
GOALS_IN_A_GAME = 3
#: At most this many titles go to the OCR (each hypothesis of a card whose rule was found counts).
MAX_TITLES = 12


@dataclass(frozen=True)
class GoalCardRead:
    """A goal card's title found in the photo: the ``text`` read, the card it names (``goal``, an id) when
    read surely, else None and ``candidates`` (the two names it is nearest); ``corners`` the card (TL, TR,
    BR, BL as it reads upright, photo px)."""

    text: str
    goal: str | None
    candidates: tuple[str, ...]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class GoalReading:
    """What the photo says of the goal cards: ``goals`` read surely (ids, in the order found),
    ``scored`` those that score one town (the two-town cards need the opponent), ``cards`` every title
    read (sure or not) and ``warnings`` (cards asked for, the OCR missing)."""

    goals: tuple[str, ...]
    scored: tuple[str, ...]
    cards: tuple[GoalCardRead, ...]
    warnings: tuple[str, ...]

    def to_json(self) -> list[dict[str, object]]:
        return [
            {"goal": c.goal, "text": c.text, "candidates": list(c.candidates), "corners": c.corners}
            for c in self.cards
        ]


def read_goal_cards(rgb: np.ndarray, *, program: str | None = None) -> GoalReading:
    """The goal cards in RGB photo ``rgb`` (see the module note); ``program`` is the Tesseract to run
    (default: the one on PATH). Never raises for a photo without goal cards or a machine without
    Tesseract: the reading is then empty, with a warning in the second case."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for region in find_paper(rgb):
        for quad in card_quads(region):
            crop = title_crop(gray, quad)
            if crop is not None and len(found) < MAX_TITLES:
                found.append((quad, crop))
    if not found:
        return GoalReading((), (), (), ())
    try:
        matches = _read_titles([crop for _, crop in found], program)
    except OcrUnavailable as exc:
        return GoalReading((), (), (), (f"the goal cards were not read from the photo: {exc}; name them",))
    return _reading([(quad, m) for (quad, _), m in zip(found, matches, strict=True) if m is not None])


def _read_titles(crops: list[np.ndarray], program: str | None) -> list[TitleMatch | None]:
    """Each title's match: read thinned first (bold capitals that a far photo blurs together come apart),
    and the titles not read surely so read again as they are (a second OCR run, only for those)."""
    thinned = [cv2.dilate(crop, np.ones((2, 2), np.uint8)) for crop in crops]
    matches = [match_title(text) for text in read_words(thinned, program=program)]
    again = [k for k, m in enumerate(matches) if m is None or not m.sure]
    for k, text in zip(again, read_words([crops[k] for k in again], program=program), strict=True):
        matches[k] = _surer(matches[k], match_title(text))
    return matches


def _surer(one: TitleMatch | None, other: TitleMatch | None) -> TitleMatch | None:
    """The surer of two matches of one title (a sure one, else the better ratio)."""
    found = [m for m in (one, other) if m is not None]
    return max(found, key=lambda m: (m.sure, m.ratio), default=None)


def _reading(matched: list[tuple[np.ndarray, TitleMatch]]) -> GoalReading:
    """The reading from each title's quad and match: sure goals once each, unsure titles asked for unless
    they lie on a card read surely (another hypothesis of the same card)."""
    cards: list[GoalCardRead] = []
    sure_quads: list[np.ndarray] = []
    for quad, match in matched:
        if match.sure and all(c.goal != match.goal for c in cards):
            cards.append(GoalCardRead(match.text, match.goal, (), _corners(quad)))
            sure_quads.append(quad)
    goals = tuple(c.goal for c in cards if c.goal is not None)
    for quad, match in matched:
        centre = quad.mean(axis=0)
        on_sure = any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0 for q in sure_quads)
        if match.asks and not on_sure and match.goal not in goals:
            candidates = (match.goal, match.runner_up)
            if all(c.candidates != candidates for c in cards):
                cards.append(GoalCardRead(match.text, None, candidates, _corners(quad)))
    scored = tuple(g for g in goals if g not in GOAL_CARDS or not GOAL_CARDS[g].two_town)
    return GoalReading(goals, scored, tuple(cards), _warnings(goals, tuple(cards)))


def _corners(quad: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in quad)


def _warnings(goals: tuple[str, ...], cards: tuple[GoalCardRead, ...]) -> tuple[str, ...]:
    """What the player is asked: each title read unsurely, too few cards read, the two-town cards."""
    out = []
    for card in cards:
        if card.goal is None:
            one, other = (GOALS[g] for g in card.candidates)
            out.append(
                f"a goal card could not be read surely (its title reads {card.text!r}: {one}? {other}?): "
                "it is not scored; name the goal cards to score them"
            )
    if goals and len(goals) < GOALS_IN_A_GAME and not any(c.goal is None for c in cards):
        names = ", ".join(GOALS[g] for g in goals)
        out.append(
            f"only {len(goals)} goal card{'s' * (len(goals) > 1)} read from the photo ({names}): a game has "
            f"{GOALS_IN_A_GAME}; if one was missed, name the goal cards to score them"
        )
    for goal in goals:
        if goal in GOAL_CARDS and GOAL_CARDS[goal].two_town:
            out.append(
                f"{GOALS[goal]} (read from the photo) compares two towns: it is not scored from one town's "
                "photo (score it with the opponent's town: sprawlscan score)"
            )
    return tuple(out)
