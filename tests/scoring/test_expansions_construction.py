"""Construction Zones: the user's penalty per unfinished zone; never an invented number."""

from __future__ import annotations

import pytest

from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions import ExpansionOptionError
from scoring.expansions.construction import construction_item

CITY = "R:EW!  C:EW  I\nP      R!    C!\n"


def test_penalty_per_unfinished_zone() -> None:
    [item], notes = construction_item(parse_city(CITY), {"construction-penalty": "2"})
    assert item.key == "construction"
    assert item.points == -6  # 3 zones × 2
    assert item.cells == ("A1", "B2", "C2")
    assert "A1, B2, C2" in item.detail
    assert notes == []


@pytest.mark.parametrize("given", ["-3", "3", "−3"])
def test_penalty_sign_does_not_matter(given: str) -> None:
    [item], _ = construction_item(parse_city(CITY), {"construction-penalty": given})
    assert item.points == -9


def test_without_penalty_scores_zero_and_says_which_option_to_pass() -> None:
    [item], notes = construction_item(parse_city(CITY), {})
    assert item.points == 0
    assert "3 unfinished construction zones" in item.detail
    assert "construction-penalty" in item.detail
    assert notes and "Set option construction-penalty=N" in notes[0] and "--" not in notes[0]


def test_penalty_and_card_from_the_city_header() -> None:
    city = parse_city("construction-penalty: 1\nconstruction-card: noisy neighbors\n" + CITY)
    [item], _ = construction_item(city, None)
    assert item.points == -3
    assert "Noisy Neighbours" in item.detail


def test_command_line_option_overrides_the_header() -> None:
    city = parse_city("construction-penalty: 1\n" + CITY)
    [item], _ = construction_item(city, {"construction-penalty": "4"})
    assert item.points == -12


def test_no_unfinished_zone_costs_nothing_even_without_penalty() -> None:
    [item], notes = construction_item(parse_city("R  C\n"), {})
    assert item.points == 0 and notes == []


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"construction-penalty": "two"}, "whole number"),
        ({"construction-card": "Earthquake"}, "unknown card"),
    ],
)
def test_bad_options_are_input_errors(options: dict[str, str], match: str) -> None:
    with pytest.raises(ExpansionOptionError, match=match):
        construction_item(parse_city(CITY), options)


def test_engine_total_includes_the_penalty() -> None:
    city = parse_city(CITY)
    plain = score_city(city, expansions=[])
    scored = score_city(city, expansions=["construction-zones"], options={"construction-penalty": "2"})
    assert scored.total == plain.total - 6
