"""Beaches: Peninsula, Lookout Point, Scenic Route and Waterfront, each with hand-worked cities."""

from __future__ import annotations

import pytest

from scoring.base import base_items
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions import ExpansionOptionError, expansion_items
from scoring.expansions.beaches import (
    beach_items,
    lookout_point,
    peninsula,
    scenic_route,
    waterfront,
)

PENINSULA = """
~     ~     ~
R     C:EW  C:EW
P     R     I
I     .     P
~     ~     ~
"""


def test_peninsula_printed_example_three_rows_between_scores_seven() -> None:
    item = peninsula(parse_city(PENINSULA))
    assert (item.key, item.points) == ("beach:peninsula", 7)
    assert "rows 2, 3, 4" in item.detail


def test_peninsula_without_a_south_beach_scores_zero_and_says_why() -> None:
    city = parse_city("~  ~\nR  C\nP  I\n")
    item = peninsula(city)
    assert item.points == 0
    assert "no south beach" in item.detail


def test_peninsula_ignores_side_beaches() -> None:
    # A west beach column spans rows 2-3; it neither starts nor ends the peninsula.
    city = parse_city(".  ~  ~\n~  R  C\n~  P  I\n.  ~  ~\n")
    assert peninsula(city).points == 8


def test_lookout_point_largest_park_group_touches_a_beach() -> None:
    item = lookout_point(parse_city("~  ~  .\nP  P  R\nR  C  P\n"))
    assert item.points == 5
    assert "A2, B2" in item.detail


def test_lookout_point_not_touching_scores_nothing() -> None:
    # The beach touches only C2 (residential); the largest park group is A2-B2.
    item = lookout_point(parse_city(".  .  ~\nP  P  R\nR  C  P\n"))
    assert item.points == 0
    assert "does not border" in item.detail


def test_lookout_point_ties_go_to_the_player() -> None:
    # Two park groups of 1 tie for the largest; C2 touches the beach, so the player picks it.
    assert lookout_point(parse_city(".  .  ~\nP  R  P\n")).points == 5


def test_scenic_route_waives_the_road_penalty_with_a_cancelling_line() -> None:
    city = parse_city("~     ~     ~\nR:EW  C:EW  I:EW\nP     R:NS  .\n")
    base = base_items(city)
    roads = next(i for i in base if i.key == "roads")
    assert roads.points == -2  # A2-B2-C2 and B3
    item = scenic_route(city, base)
    assert item.points == 2
    assert "cancels the Roads line" in item.detail


def test_scenic_route_fails_when_a_beach_block_has_no_road() -> None:
    city = parse_city("~     ~     ~\nR:EW  C:EW  P\n")
    item = scenic_route(city, base_items(city))
    assert item.points == 0
    assert "C2 has no road" in item.detail


def test_scenic_route_fails_on_two_different_roads() -> None:
    city = parse_city("~     ~     ~\nR:EW  C:NS  I:EW\n")
    item = scenic_route(city, base_items(city))
    assert item.points == 0
    assert "3 different roads" in item.detail


def test_scenic_route_counts_roads_joined_by_the_interstate_as_one() -> None:
    # A1 and B1 both run into the north part of the interstate, so they lie on one road.
    city = parse_city("expansions: interstate\n~     ~\nR:NS  C:NS\n==========\nP     P\n")
    scored = score_city(
        city,
        options={"beach-cards": "scenic-route", "interstate-mode": "cooperative"},
        expansions=["interstate", "beaches"],
    )
    assert scored.item("roads").points == -2  # the two interstate parts
    assert scored.item("beach:scenic-route").points == 2


def test_waterfront_counts_residential_blocks_beside_a_beach() -> None:
    item = waterfront(parse_city("~  ~  ~  .\nR  C  R  R\nR  P  .  .\n"))
    assert item.points == 2
    assert item.cells == ("A2", "C2")


def test_cards_come_from_names_and_options_in_order() -> None:
    city = parse_city(PENINSULA)
    items, _ = beach_items(city, ["waterfront"], {"beach-cards": "peninsula, lookout"}, base_items(city))
    assert [i.key for i in items] == ["beach:waterfront", "beach:peninsula", "beach:lookout-point"]


def test_no_beach_card_named_scores_zero_with_a_note() -> None:
    items, notes = expansion_items(parse_city(PENINSULA), ["beaches"], {}, [])
    assert [(i.key, i.points) for i in items] == [("beach", 0)]
    assert "beach-cards" in notes[0]


def test_unknown_beach_card_is_an_input_error() -> None:
    with pytest.raises(ExpansionOptionError, match="unknown beach card"):
        expansion_items(parse_city(PENINSULA), ["beaches"], {"beach-cards": "riviera"}, [])


def test_engine_adds_beach_lines() -> None:
    city = parse_city(PENINSULA)
    scored = score_city(city, expansions=["beach:peninsula"])
    assert scored.total == score_city(city, expansions=[]).total + 7
