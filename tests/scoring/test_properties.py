"""Property-based tests over random legal cities, built by simulating card placement under the rules.

The cities come from :func:`scoring.placement.simulate_play`: 1–15 of the 18 city cards (2×2 blocks, turned
0° or 180°), each new card overlapping the city or sharing a side with it.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.cards import CARDS, card_item
from scoring.city import SIDES, City, cell_name, format_city
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.errors import InputError
from scoring.geometry import edge_sides, groups, roads
from scoring.placement import simulate_play

ALL_CARDS = tuple(CARDS)
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def legal_cities(draw: st.DrawFn, expansions: bool = False) -> City:
    """A random finished (or partly finished) city from simulated legal play."""
    seed = draw(st.integers(0, 2**32 - 1))
    n_cards = draw(st.integers(1, 15))
    overlap = draw(st.floats(0.0, 1.0))
    compact = draw(st.floats(0.0, 3.0))
    extra = {}
    if expansions:
        extra = {
            "wrecktar": draw(st.booleans()),
            "poi": draw(st.booleans()),
            "construction": draw(st.integers(0, 3)),
        }
    play = simulate_play(random.Random(seed), n_cards, overlap=overlap, compact=compact, **extra)
    return play.city


@PROPERTY_SETTINGS
@given(legal_cities(expansions=True))
def test_format_round_trip(city: City) -> None:
    text = format_city(city)
    assert parse_city(text) == city
    assert format_city(parse_city(text)) == text


@PROPERTY_SETTINGS
@given(legal_cities(expansions=True), st.sampled_from(["standard", "easier", "harder"]))
def test_every_line_unchanged_when_the_city_is_turned_180_degrees(city: City, variant: str) -> None:
    before = score_city(city, ALL_CARDS, (), variant=variant)
    after = score_city(city.rotated(), ALL_CARDS, (), variant=variant)
    assert [(i.key, i.points) for i in after.items] == [(i.key, i.points) for i in before.items]
    assert after.total == before.total


@PROPERTY_SETTINGS
@given(legal_cities(expansions=True), st.lists(st.sampled_from(ALL_CARDS), max_size=18, unique=True))
def test_engine_never_raises_on_a_legal_city(city: City, cards: list[int]) -> None:
    for variant in ("standard", "easier", "harder"):
        bd = score_city(city, cards, (), variant=variant)
        assert bd.total == sum(i.points for i in bd.items)
        assert bd.target == (sum(cards) if cards else None)
        assert all(i.detail for i in bd.items)
        bd.to_json()


@PROPERTY_SETTINGS
@given(legal_cities(expansions=True))
def test_expansions_either_score_or_refuse_with_an_input_error(city: City) -> None:
    # Construction Zones need a penalty the player supplies; without it the engine must say so plainly.
    try:
        bd = score_city(city, ALL_CARDS[:3])
    except InputError as exc:
        assert str(exc) and exc.code
    else:
        assert bd.total == sum(i.points for i in bd.items)


@PROPERTY_SETTINGS
@given(legal_cities())
def test_variants_order_the_base_score(city: City) -> None:
    standard, easier, harder = (
        score_city(city, [], (), variant=v).total for v in ("standard", "easier", "harder")
    )
    assert harder <= standard <= easier


@PROPERTY_SETTINGS
@given(legal_cities())
def test_card_scores_are_bounded_by_the_city(city: City) -> None:
    n_blocks = sum(1 for _ in city.blocks())
    n_roads = len(roads(city))
    block_names = {cell_name(r, c) for r, c, _ in city.blocks()}
    for number in ALL_CARDS:
        item = card_item(city, number)
        assert item.key == f"card:{number}"
        assert -3 * n_blocks - n_roads - 8 <= item.points <= 4 * n_blocks + 7, (number, item)
        assert set(item.cells) <= block_names


# --- the cached geometry agrees with a plain reference implementation --------------------------------------


def _reference_groups(city: City, zone: str) -> list[frozenset[tuple[int, int]]]:
    """Connected components by flood fill over ``City.block_across`` (slow and obvious)."""
    todo = {(r, c) for r, c, cell in city.blocks() if cell.zone == zone}
    found = []
    while todo:
        stack = [todo.pop()]
        group = set(stack)
        while stack:
            pos = stack.pop()
            for side in SIDES:
                other = city.block_across(*pos, side)
                if other in todo:
                    todo.discard(other)
                    group.add(other)
                    stack.append(other)
        found.append(frozenset(group))
    return found


def _reference_roads(city: City) -> set[tuple[frozenset[tuple[int, int]], bool]]:
    """Each road as (its cells, whether it is a loop), from the graph of joined segments.

    A component whose number of joins equals its number of cells is a closed loop; otherwise it is a path.
    """
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    cells = {(r, c): cell.road for r, c, cell in city.blocks() if cell.road}
    joined: dict[tuple[int, int], list[tuple[int, int]]] = {pos: [] for pos in cells}
    for (r, c), road in cells.items():
        for side in road:
            other = city.block_across(r, c, side)
            if other in cells and opposite[side] in cells[other]:
                joined[(r, c)].append(other)
    found = set()
    todo = set(cells)
    while todo:
        stack = [todo.pop()]
        component = set(stack)
        while stack:
            for other in joined[stack.pop()]:
                if other in todo:
                    todo.discard(other)
                    component.add(other)
                    stack.append(other)
        joins = sum(len(joined[p]) for p in component) // 2
        found.add((frozenset(component), joins == len(component)))
    return found


@PROPERTY_SETTINGS
@given(legal_cities(expansions=True))
def test_geometry_matches_reference(city: City) -> None:
    for zone in "RCIP":
        assert sorted(map(sorted, groups(city, zone))) == sorted(map(sorted, _reference_groups(city, zone)))
    for r, c, _ in city.blocks():
        expected = "".join(s for s in SIDES if city.block_across(r, c, s) is None)
        assert edge_sides(city, r, c) == expected
    found = roads(city)
    assert {(road.cell_set, road.loop) for road in found} == _reference_roads(city)
    assert len(found) == len(_reference_roads(city))
    for road in found:
        assert len(road.ends) == (0 if road.loop else 2)
        assert len(set(road.cells)) == road.sections
