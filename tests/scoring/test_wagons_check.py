"""Hand tallies for Circle the Wagons: the player's lines and the opponent's, matched by their words."""

from __future__ import annotations

import pytest

from scoring.tally import parse_tally
from scoring.wagons import MissingInputError, parse_town, score_town
from scoring.wagons.check import check_town_tally, opponent_label

TOWN = parse_town("W/w  W/c  W/c\nW/w  W/c  P/c\n")  # Water 5, Plains 1; The Herd 8; Cool Water 6


@pytest.mark.parametrize(
    ("label", "rest"),
    [
        ("opponent", "total"),
        ("Opponent", "total"),
        ("opponent top three", "top three"),
        ("opponent: cows", "cows"),
        ("Opponent's wagons", "wagons"),
        ("opp cows", "cows"),
        ("lone cowboy", "total"),
        ("desert", None),
        ("opponents", None),  # a word that only starts like "opponent" is the player's own line
        ("cool water", None),
    ],
)
def test_opponent_lines_are_recognised(label: str, rest: str | None) -> None:
    assert opponent_label(label) == rest


def test_a_correct_tally_agrees_for_both_sides() -> None:
    b = score_town(TOWN, opponent_pile=["wagon=1", "cow=1", "snow=1"], scenario="water the herd")
    tally = parse_tally(
        "water 5\nprairie 1\nthe herd 8\ncool water 6\ntotal 20\n"
        "opponent wagons 3\nopponent cows 2\nopponent top three 1\nopponent 6\n"
    )
    result = check_town_tally(b, tally)
    assert result.player.agrees and result.opponent is not None and result.opponent.agrees
    data = result.to_json()
    assert data["agree"] is True and data["opponent"]["total"]["computed"] == 6


def test_wrong_lines_are_pointed_out() -> None:
    b = score_town(TOWN, opponent_pile=["wagon=1", "cow=1", "snow=1"], scenario="water the herd")
    result = check_town_tally(b, parse_tally("herd 6\ncool water 6\nopponent cows 4\n"))
    herd = result.player.checks[0]
    assert herd.item is not None and herd.item.key == "goal:the-herd" and herd.agree is False
    assert result.player.checks[1].agree is True
    assert result.opponent is not None
    assert result.opponent.checks[0].item.key == "scenario:cows" and result.opponent.checks[0].agree is False


def test_tally_about_an_absent_opponent_is_refused() -> None:
    with pytest.raises(MissingInputError, match="tally line 2 is about the opponent"):
        check_town_tally(score_town(TOWN), parse_tally("water 5\nopponent 3\n"))


def test_web_request_model_for_a_town() -> None:
    from api.core import score_request as score_town_request
    from api.core.schemas import ScoreRequest

    body = ScoreRequest(
        game="wagons",
        city="W/w  W/c  W/c\nW/w  W/c  P/c\n",
        options={"scenario": "water-the-herd", "opponent-pile": [3, 5, 6]},
    )
    data = score_town_request(body)
    assert data["total"] == 20 and data["opponent"]["pile"]["cards"] == [3, 5, 6]


def test_web_request_breakdown_can_be_checked_with_opponent_lines() -> None:
    from api.core import breakdown_of
    from api.core.schemas import ScoreRequest

    body = ScoreRequest(
        game="wagons",
        rows=[["W/w", "W/c", "W/c"], ["W/w", "W/c", "P/c"]],
        options={"goals": "the-herd, cool-water", "opponent-town": [["D/c", "D/c"]]},
    )
    b = breakdown_of(body)
    result = check_town_tally(b, parse_tally("water 5\nplains 1\nherd 8\ncool water 6\nopponent 2\n"))
    assert result.player.agrees
    # The opponent's town: Desert 2, The Herd 4 (two Cows side by side), Cool Water 0.
    assert result.opponent is not None and result.opponent.computed_total == 6
