"""The choice among tied readings (scoring/wagons/fewest.py) against the enumeration it replaced.

The old engine tried every combination of the goal cards' tied readings; it is kept here, word for word, as
the reference, and both must pick the same readings, groups and scoring territories on 3 000 random towns
small enough to enumerate, and give the same breakdown through :func:`score_town`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import product
from math import prod

import pytest

import scoring.wagons.fewest as fewest_module
import scoring.wagons.score as score_module
from scoring.wagons.fewest import fewest_scoring
from scoring.wagons.goals import GRID_SCORERS, GoalScore, largest_groups
from scoring.wagons.town import TERRAINS, Pos, Territory, Town, format_town
from scoring.wagons.town_text import parse_town

N_TOWNS = 3000
MAX_COMBINATIONS = 400  # the enumeration's work: small enough to run 3 000 times in a few seconds


def enumerated_fewest(
    goal_scores: Mapping[str, GoalScore], largest: Mapping[str, list[frozenset[Pos]]]
) -> tuple[dict[str, GoalScore], dict[str, frozenset[Pos]], frozenset[Pos]]:
    """The old ``_fewest_scoring`` of scoring/wagons/score.py: every combination of tied readings."""
    ids = list(goal_scores)
    best: tuple[dict[str, GoalScore], dict[str, frozenset[Pos]], frozenset[Pos]] | None = None
    for combo in product(*(goal_scores[g].readings() for g in ids)):
        scored = frozenset[Pos]().union(*(r.scoring for r in combo))
        groups = {t: max(tied, key=lambda g: len(g & scored)) for t, tied in largest.items() if tied}
        total = scored.union(*groups.values())
        if best is None or len(total) < len(best[2]):
            best = (dict(zip(ids, combo, strict=True)), groups, total)
    assert best is not None
    return best


def random_town(rng: random.Random) -> Town:
    """A small town with few territory types and many Wagons and Cows, so that groups and herds tie; Water
    is often kept to single cells (a checkerboard-like town), where ties are most numerous."""
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    others = rng.sample([t for t in TERRAINS if t != "W"], rng.randint(1, 2))
    icons = rng.choice(["wc", "wcg", "wcb", "bcfgmw", "wwc", "wcc"])
    empty, water = rng.choice([0.0, 0.2, 0.4]), rng.choice([0.2, 0.4, 0.6])
    dotted = rng.random() < 0.5  # Water only where no Water lies above or to the left

    def cell(r: int, c: int, grid: list[list[Territory | None]]) -> Territory | None:
        if rng.random() < empty:
            return None
        above = grid[r - 1][c] if r else None
        left = grid[r][c - 1] if c else None
        beside_water = any(t is not None and t.terrain == "W" for t in (above, left))
        wet = rng.random() < water and not (dotted and beside_water)
        return Territory("W" if wet else rng.choice(others), rng.choice(icons))

    grid: list[list[Territory | None]] = []
    for r in range(rows):
        grid.append([])
        for c in range(cols):
            grid[r].append(cell(r, c, grid))
    return Town(tuple(tuple(row) for row in grid))


def random_goals(rng: random.Random) -> list[str]:
    """Goal cards with Cool Water and The Herd (the two with tied readings) in either order, usually."""
    goals = rng.sample(sorted(GRID_SCORERS), rng.randint(0, 3))
    for tied in ("cool-water", "the-herd"):
        if tied not in goals and rng.random() < 0.8:
            goals.insert(rng.randint(0, len(goals)), tied)
    return goals


def inputs(town: Town, goals: list[str]) -> tuple[dict[str, GoalScore], dict[str, list[frozenset[Pos]]]]:
    """What the engine hands the chooser (as ``_score_side`` does)."""
    scores = {g: GRID_SCORERS[g](town) for g in goals}
    largest = {t: largest_groups(town, lambda x, t=t: x.terrain == t) for t in TERRAINS}
    return scores, largest


def test_the_choice_is_the_enumerations_on_3000_random_towns() -> None:
    rng = random.Random(27)
    compared = chosen_later = 0
    for _ in range(N_TOWNS):
        town, goals = random_town(rng), random_goals(rng)
        scores, largest = inputs(town, goals)
        combinations = prod(len(s.readings()) for s in scores.values())
        if combinations > MAX_COMBINATIONS:
            continue
        expected = enumerated_fewest(scores, largest)
        assert fewest_scoring(scores, largest) == expected, (format_town(town), goals)
        compared += 1
        first = {g: s.readings()[0] for g, s in scores.items()}
        chosen_later += expected[0] != first
    # The towns must exercise the choice: most are compared, and many take a reading other than the first.
    assert compared >= 0.95 * N_TOWNS
    assert chosen_later >= 150


def test_score_town_gives_the_same_breakdown_as_with_the_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2027)
    for _ in range(300):
        town, goals = random_town(rng), [*random_goals(rng), "wildest-west"]
        new = score_town_json(town, goals)
        with monkeypatch.context() as m:
            m.setattr(score_module, "fewest_scoring", enumerated_fewest)
            old = score_town_json(town, goals)
        assert new == old, (format_town(town), goals)


def score_town_json(town: Town, goals: list[str]) -> dict:
    return score_module.score_town(town, goals=goals, opponent_town=town).to_json()


SHARING_TOWN = """\
.    .    .    .    .
.    .    M/w  .    P/w
P/c  W/w  M/w  P/c  M/c
.    P/w  .    W/w  M/c
W/w  M/c  M/c  .    M/w
P/w  M/c  W/w  M/w  W/w
"""


def test_pairs_sharing_a_tied_group_are_counted_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    # Here the first best choice is a herd and a Water group whose Wagons lie in the same tied Mountains
    # group: the split sum overcounts that pair, and only the exact count of sharing pairs finds it first.
    scores, largest = inputs(parse_town(SHARING_TOWN), ["the-herd", "gold-country", "cool-water"])
    expected = enumerated_fewest(scores, largest)
    assert fewest_scoring(scores, largest) == expected
    monkeypatch.setattr(fewest_module, "_sharing_best", lambda *args: None)
    assert fewest_scoring(scores, largest) != expected  # the sharing pass is what makes it right
