"""Simulated play obeys the placement rules and its visible city is what the cards leave on top."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.city import format_city
from scoring.city_text import parse_city
from scoring.layouts import card_blocks
from scoring.placement import (
    Placement,
    legal,
    placement_problems,
    simulate_play,
    visible_city,
)


def _paint(placements: tuple[Placement, ...]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """Independent re-derivation: (card index, block row, block col) on top at every covered cell."""
    top: dict[tuple[int, int], tuple[int, int, int]] = {}
    for i, p in enumerate(placements):
        for dr in (0, 1):
            for dc in (0, 1):
                top[(p.row + dr, p.col + dc)] = (i, dr, dc)
    return top


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 15),
    wrecktar=st.booleans(),
    poi=st.booleans(),
    construction=st.integers(0, 3),
)
def test_every_simulated_play_is_legal_and_its_city_is_what_lies_on_top(
    seed: int, n: int, wrecktar: bool, poi: bool, construction: int
) -> None:
    play = simulate_play(random.Random(seed), n, wrecktar=wrecktar, poi=poi, construction=construction)
    assert placement_problems(play.placements) == []
    city_cards = [p.number for p in play.placements if p.kind == "city"]
    assert len(city_cards) == n == len(set(city_cards))
    assert len(set(play.scoring_cards)) == 3 and not set(play.scoring_cards) & set(city_cards)
    assert play.city.cards == play.scoring_cards
    # Normalised: the city starts at row 0 and column 0.
    assert min(p.row for p in play.placements) == 0 and min(p.col for p in play.placements) == 0
    top = _paint(play.placements)
    for r, c, cell in play.city.cells():
        if (r, c) not in top:
            assert cell.kind == "empty" and play.top_card_at(r, c) is None
            continue
        i, dr, dc = top[(r, c)]
        p = play.placements[i]
        assert play.top_card_at(r, c) == p
        if p.kind == "wrecktar":
            assert cell.kind == "wrecktar"
        elif p.kind == "city":
            expected = card_blocks(p.number, p.rotated)[dr][dc]
            assert (cell.zone, cell.road) == (expected.zone, expected.road)
            assert cell.construction == ((i, (r, c)) in play.construction)
        else:
            assert cell.is_block and cell.road is None and cell.poi == ((r, c) == play.poi_block)
    assert ("wrecktar" in play.city.expansions) == (wrecktar and n > 1)
    # The city survives the text format.
    assert parse_city(format_city(play.city)) == play.city


def test_same_seed_same_play_and_different_seeds_differ() -> None:
    a = simulate_play(random.Random(7))
    b = simulate_play(random.Random(7))
    c = simulate_play(random.Random(8))
    assert a == b
    assert a.city != c.city


def test_finished_base_game_has_a_realistic_size() -> None:
    sizes = [sum(1 for _ in simulate_play(random.Random(s)).city.blocks()) for s in range(40)]
    assert all(30 <= n <= 60 for n in sizes), sizes
    assert max(sizes) > min(sizes)  # the simulator varies how much is covered


def test_overlap_zero_never_covers_when_it_can_avoid_it() -> None:
    play = simulate_play(random.Random(3), overlap=0.0)
    assert sum(1 for _ in play.city.blocks()) == 60


def test_wrecktar_covers_the_previous_card_and_stays_on_top() -> None:
    for seed in range(20):
        play = simulate_play(random.Random(seed), wrecktar=True)
        i = next(k for k, p in enumerate(play.placements) if p.kind == "wrecktar")
        assert play.placements[i].cells() == play.placements[i - 1].cells()
        assert [play.city.cell(r, c).kind for r, c in play.placements[i].cells()] == ["wrecktar"] * 4


def test_poi_start_card_covers_half_of_the_poi_card() -> None:
    play = simulate_play(random.Random(5), poi=True)
    first, start = play.placements[:2]
    assert first.kind == "poi"
    assert len(set(first.cells()) & set(start.cells())) == 2
    assert play.poi_block in set(first.cells()) - set(start.cells())


def test_legal_accepts_side_contact_and_overlap() -> None:
    assert legal([Placement(1, False, 0, 0), Placement(2, True, 0, 2)])  # side by side
    assert legal([Placement(1, False, 0, 0), Placement(2, False, 1, 1)])  # covers one block
    assert legal([Placement(1, False, 0, 0), Placement(2, False, 2, 1)])  # shares one block side


@pytest.mark.parametrize(
    ("placements", "problem"),
    [
        ([Placement(1, False, 0, 0), Placement(2, False, 2, 2)], "neither overlaps nor shares a side"),
        ([Placement(1, False, 0, 0), Placement(2, False, 0, 5)], "neither overlaps nor shares a side"),
        ([Placement(1, False, 0, 0), Placement(1, False, 0, 2)], "played twice"),
        ([Placement(19, False, 0, 0)], "no city card has number 19"),
        (
            [Placement(1, False, 0, 0), Placement(0, False, 0, 1, "wrecktar")],
            "Wrecktar must cover exactly the last city card",
        ),
        (
            [Placement(1, False, 0, 0), Placement(0, False, 0, 0, "wrecktar"), Placement(2, False, 1, 1)],
            "covers Wrecktar",
        ),
        ([Placement(0, False, 0, 0, "poi"), Placement(2, False, 0, 2)], "half of the Point of Interest"),
    ],
)
def test_illegal_plays_are_named(placements: list[Placement], problem: str) -> None:
    problems = placement_problems(placements)
    assert not legal(placements)
    assert any(problem in p for p in problems), problems


def test_visible_city_shows_the_later_card_on_top() -> None:
    city = visible_city([Placement(1, False, 0, 0), Placement(5, True, 1, 1)])
    assert city.n_rows == 3 and city.n_cols == 3
    # Card 5 turned by 180°: its TL block is the unrotated BR block (I:EW) turned, still EW.
    assert city.cell(1, 1).zone == "I" and city.cell(1, 1).road == "EW"
    assert city.cell(0, 0).zone == "C" and city.cell(2, 0).kind == "empty"
