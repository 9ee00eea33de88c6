"""Random Circle the Wagons towns are legal stacks of distinct cards, and a given town's stack is found
(``models.synth.wagons.town``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from models.synth.wagons.layout import cell_points, lay_out_town
from models.synth.wagons.town import simulate_town, stack_for_town, town_problems, visible_town
from scoring.placement import Placement
from scoring.wagons import parse_town, score_town
from scoring.wagons.cards import CARDS, card_grid

RULEBOOK = Path(__file__).resolve().parents[2] / "samples" / "wagons-rulebook.town"


def test_random_towns_are_legal_stacks_of_distinct_cards_each_still_showing() -> None:
    sizes = set()
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(1, len(CARDS))
        play = simulate_town(rng, n)
        numbers = [p.number for p in play.placements]
        assert len(numbers) == n == len(set(numbers)) and set(numbers) <= set(CARDS)
        assert town_problems(play.placements) == []
        assert all(play.top_index_at(*pos) is not None for pos, _ in play.town.territories())
        shown = {play.top_index_at(r, c) for r in range(play.town.n_rows) for c in range(play.town.n_cols)}
        assert set(range(n)) <= shown  # no card hidden entirely
        assert min(p.row for p in play.placements) == 0 == min(p.col for p in play.placements)
        sizes.add(play.town.n_territories)
        assert play.town.header("cards") == " ".join(map(str, numbers))
        assert score_town(play.town).total >= 1
    assert len(sizes) > 10


def test_each_visible_territory_is_the_top_card_s_turned_as_it_lies() -> None:
    play = simulate_town(random.Random(4), 9)
    assert any(p.rotated for p in play.placements) and not all(p.rotated for p in play.placements)
    for (r, c), territory in play.town.territories():
        p = play.placements[play.top_index_at(r, c)]  # type: ignore[index]
        assert card_grid(p.number, p.rotated)[r - p.row][c - p.col] == territory


def test_the_problems_of_a_bad_stack_are_named() -> None:
    twice = [Placement(3, False, 0, 0), Placement(3, True, 0, 2)]
    assert any("played twice" in p for p in town_problems(twice))
    apart = [Placement(1, False, 0, 0), Placement(2, False, 2, 2)]  # corner to corner only
    assert any("neither overlaps nor shares a side" in p for p in town_problems(apart))
    assert any("no Circle the Wagons card 18" in p for p in town_problems([Placement(18, False, 0, 0)]))


def test_the_rulebook_town_is_built_from_its_six_cards_and_kept_as_given() -> None:
    town = parse_town(RULEBOOK.read_text(encoding="utf-8"))
    play = stack_for_town(town, [13, 4, 14, 0, 2, 1])
    assert sorted(p.number for p in play.placements) == [0, 1, 2, 4, 13, 14]
    assert town_problems(play.placements) == []
    assert visible_town(play.placements).grid == town.grid and play.town == town
    assert score_town(play.town, goals=[]).total == 20


def test_cards_that_cannot_show_the_town_are_refused() -> None:
    town = parse_town(RULEBOOK.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="no stack of cards"):
        stack_for_town(town, [13, 4, 14, 0, 2, 3])
    with pytest.raises(ValueError, match="distinct"):
        stack_for_town(town, [13, 13])


def test_cards_lie_portrait_on_the_lattice_and_each_cell_point_is_inside_its_lattice_cell() -> None:
    import numpy as np

    play = simulate_town(random.Random(8), 7)
    layout = lay_out_town(play, np.random.default_rng(1))
    px, py = layout.pitch
    assert 31.75 < px < 33 and 44.45 < py < 46
    for i in range(len(play.placements)):
        corners = layout.corners_mm(i)
        assert (
            63 < np.linalg.norm(corners[1] - corners[0]) < 64
            and 88 < np.linalg.norm(corners[3] - corners[0]) < 89.5
        )
    points = cell_points(play, layout)
    assert len(points) == play.town.n_rows * play.town.n_cols
    for r, c, x, y, token in points:
        assert c * px - 4 < x < (c + 1) * px + 4 and r * py - 4 < y < (r + 1) * py + 4
        cell = play.town.cell(r, c)
        assert token == (cell.token() if cell else ".")
