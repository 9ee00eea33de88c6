"""Points of Interest: +1 per block of the Point of Interest's zone sharing a side with it."""

from __future__ import annotations

import pytest

from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions import ExpansionOptionError, expansion_items
from scoring.expansions.poi import poi_item


def test_counts_same_zone_side_neighbours_only() -> None:
    # POI residential at B2: R north (B1) and east (C2) count; C west (A2) does not; R diagonal (A1,
    # C3) does not; R below across no road (B3) counts.
    city = parse_city("R     R     P\nC     R:EW*  R:EW\nP     R     R\n")
    [item], notes = poi_item(city)
    assert item.key == "poi"
    assert item.points == 3
    assert item.cells == ("B2", "B1", "C2", "B3")
    assert "B2" in item.detail and "B1, C2, B3" in item.detail
    assert notes == []


def test_no_matching_neighbour_scores_zero() -> None:
    city = parse_city("C  I\nP* R\n")
    [item], _ = poi_item(city)
    assert item.points == 0
    assert "no park block" in item.detail


def test_diagonal_blocks_never_count() -> None:
    city = parse_city("I*  C\nC   I\n")
    [item], _ = poi_item(city)
    assert item.points == 0


def test_interstate_separates_the_point_of_interest_from_blocks_across_it() -> None:
    city = parse_city("P*  P\n=====\nP   P\n")
    [item], _ = poi_item(city)
    assert item.points == 1  # B1 only; A2 lies across the interstate


def test_two_points_of_interest_are_an_input_error() -> None:
    city = parse_city("R*  R*\n")
    with pytest.raises(ExpansionOptionError, match="A1, B1"):
        poi_item(city)


def test_covered_point_of_interest_scores_zero_with_a_note() -> None:
    [item], notes = poi_item(parse_city("R  R\n"))
    assert item.points == 0
    assert notes and "Point of Interest" in notes[0]


def test_engine_adds_the_poi_line_to_the_total() -> None:
    city = parse_city("expansions: poi\nR*  R  P\n")
    plain = score_city(city, expansions=[])
    with_poi = score_city(city)
    assert with_poi.item("poi") is not None
    assert with_poi.total == plain.total + 1


def test_unselected_marks_get_a_note() -> None:
    city = parse_city("R*  R  P\n")
    items, notes = expansion_items(city, ["wrecktar"], {}, [])
    assert all(i.key != "poi" for i in items)
    assert any("'*'" in n and "poi" in n for n in notes)
