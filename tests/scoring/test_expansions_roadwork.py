"""Roadwork: −1 per Roadwork card that could not be played (a number the user gives)."""

from __future__ import annotations

import pytest

from scoring.city_text import parse_city
from scoring.expansions import ExpansionOptionError
from scoring.expansions.roadwork import roadwork_item

CITY = parse_city("R:EW  C:EW\n")


def test_minus_one_per_unplayed_card() -> None:
    [item], notes = roadwork_item(CITY, {"roadwork-unplayed": "2"})
    assert (item.key, item.points, notes) == ("roadwork", -2, [])
    assert "2 Roadwork cards" in item.detail


def test_zero_unplayed_costs_nothing() -> None:
    [item], notes = roadwork_item(CITY, {"roadwork-unplayed": "0"})
    assert item.points == 0 and notes == []


def test_missing_count_scores_zero_and_says_which_option_to_pass() -> None:
    [item], notes = roadwork_item(CITY, {})
    assert item.points == 0
    assert "roadwork-unplayed" in notes[0]


def test_header_gives_the_count() -> None:
    [item], _ = roadwork_item(parse_city("roadwork-unplayed: 1\nR  C\n"), None)
    assert item.points == -1


@pytest.mark.parametrize("bad", ["-1", "one", "1.5"])
def test_bad_counts_are_input_errors(bad: str) -> None:
    with pytest.raises(ExpansionOptionError, match="roadwork-unplayed"):
        roadwork_item(CITY, {"roadwork-unplayed": bad})
