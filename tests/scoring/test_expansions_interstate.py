"""Interstate: sides never touch, roads join the interstate, and every mode and interstate card.

The main city (cards 3 Go Green and 6 Master Planned), worked by hand:

    R:EW  R:EW  P     I        north: R 3 (A1 B1 B2), C 1, I 1, P 2 (C1 C2);
    C     R:NS  P     C               roads: A1-B1, and the interstate joined by B2 → 2
    ==================
    P     R:NS  C:EW  C:EW     south: R 2 (B3 B4), C 2 (C3 D3), I 1, P 1;
    I     R     P     R               roads: C3-D3, and the interstate joined by B3 → 2

North standard: 3+1+1+2 −2, Go Green 2 parks − 3×1 industrial = −1, Master Planned 3−1 = 2 → 6.
South standard: 2+2+1+1 −2, Go Green 2 − 3 = −1, Master Planned 2−1 = 1 → 4.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.breakdown import Breakdown
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions.interstate import InterstateError, road_groups, score_interstate
from tests.conftest import points_by_key

# Two base cards are a competitive game's; the tests choose the mode, so the cards are given, not headed.
CARDS = (3, 6)
CITY = """expansions: interstate
R:EW  R:EW  P     I
C     R:NS  P     C
==================
P     R:NS  C:EW  C:EW
I     R     P     R
"""


def _score(text: str, cards: tuple[int, ...] | None = None, **options: str) -> Breakdown:
    opts = {k.replace("_", "-"): v for k, v in options.items()}
    return score_interstate(parse_city(text), CARDS if cards is None else cards, ["interstate"], None, opts)


def _info(bd: Breakdown) -> dict[str, Any]:
    info = dict(bd.extra)["interstate"]
    assert isinstance(info, dict)
    return info


def _totals(bd: Breakdown) -> dict[str, int]:
    return {p["side"]: p["total"] for p in _info(bd)["players"]}


def test_blocks_on_opposite_sides_are_never_neighbours() -> None:
    city = parse_city("P  R\n====\nP  C\n")
    bd = score_city(city, [], ["interstate"])
    assert bd.item("largest:P").points == 1  # A1 and A2 face each other across the interstate
    assert score_city(parse_city("P  R\nP  C\n"), [], []).item("largest:P").points == 2


def test_roads_reaching_the_interstate_join_it() -> None:
    city = parse_city("R:NS  C:EW  C:EW\n================\nI:NS  .     R:NS\n")
    groups = road_groups(city)
    assert [(g.side, sorted(g.cells)) for g in groups] == [
        ("north", [(0, 0)]),
        ("south", [(1, 0), (1, 2)]),
        (None, [(0, 1), (0, 2)]),
    ]
    bd = score_city(city, [], ["interstate"], options={"interstate-mode": "cooperative"})
    roads = bd.item("roads")
    assert roads.points == -3
    assert "the interstate's south part (joined by A2; C2)" in roads.detail


def test_cooperative_scores_the_whole_city_against_the_sum_of_the_cards() -> None:
    bd = _score(CITY, interstate_mode="cooperative")
    # R 3, C 2, I 1, P 2; roads A1-B1, C3-D3 and two interstate parts; Go Green 4 − 3×2; Master Planned 3 − 1.
    assert points_by_key(bd) == {
        "largest:R": 3,
        "largest:C": 2,
        "largest:I": 1,
        "largest:P": 2,
        "roads": -4,
        "card:3": -2,
        "card:6": 2,
    }
    assert (bd.total, bd.target, bd.won) == (4, 9, False)
    assert _info(bd)["mode"] == "cooperative"


def test_no_mode_means_cooperative_with_a_note() -> None:
    bd = _score(CITY)
    assert bd.total == 4
    assert any("no mode given" in n for n in bd.notes)


def test_solo_scores_like_cooperative() -> None:
    bd = _score(CITY, interstate_mode="solo")
    assert bd.total == 4 and _info(bd)["mode"] == "solo"


@pytest.mark.parametrize("card", ["mountainside-drive", "Great Valley Road"])
def test_standard_cards_score_each_side_alone(card: str) -> None:
    bd = _score(CITY, interstate_card=card)
    assert _totals(bd) == {"north": 6, "south": 4}
    points = points_by_key(bd)
    assert points["north:roads"] == -2 and points["south:roads"] == -2
    assert points["north:card:3"] == -1 and points["south:card:6"] == 1
    assert (_info(bd)["winner"], _info(bd)["decided_by"]) == ("north", "score")
    assert bd.target is None and bd.won is None


def test_main_boulevard_takes_each_players_best_two_zones_and_best_card() -> None:
    bd = _score(CITY, interstate_mode="competitive", interstate_card="main-boulevard")
    points = points_by_key(bd)
    # North: R 3 + P 2, Master Planned 2, roads −2 = 5. South: R 2 + C 2, Master Planned 1, roads −2 = 3.
    assert _totals(bd) == {"north": 5, "south": 3}
    assert points["north:largest:C"] == 0 and points["north:largest:P"] == 2
    assert points["north:card:3"] == 0 and points["north:card:6"] == 2
    assert "not chosen" in bd.item("north:card:3").detail


def test_central_highway_gives_one_point_per_majority() -> None:
    bd = _score(CITY, interstate_card="central-highway")
    points = points_by_key(bd)
    # R 3-2 north, C 1-2 south, I 1-1 nobody, P 2-1 north, Go Green −1/−1 nobody, Master Planned 2-1 north,
    # roads 2-2 nobody.
    assert points["north:majority:largest:R"] == 1 and points["south:majority:largest:R"] == 0
    assert points["south:majority:largest:C"] == 1
    assert points["north:majority:largest:I"] == 0 and points["south:majority:largest:I"] == 0
    assert points["north:majority:card:3"] == 0 and points["south:majority:card:3"] == 0
    assert points["north:majority:roads"] == 0
    assert _totals(bd) == {"north": 3, "south": 1}


def test_central_highway_more_roads_lose_two() -> None:
    # North: only its interstate part (1 road). South: A2-B2 and its interstate part (2 roads).
    bd = _score("R     P     P\n=============\nR:EW  C:EW  P\n", (), interstate_card="central-highway")
    assert points_by_key(bd)["south:majority:roads"] == -2 and points_by_key(bd)["north:majority:roads"] == 0
    assert "south 2 roads vs north 1: more roads, loses 2" in bd.item("south:majority:roads").detail


def test_central_highway_equal_roads_cost_nobody() -> None:
    # North: A1-B1 and the interstate; south: the interstate joined by A2, and B2. 2 each.
    bd = _score("R:EW  R:EW  P\n=============\nR:NS  C:EW  P\n", (), interstate_card="central-highway")
    assert points_by_key(bd)["north:majority:roads"] == 0 and points_by_key(bd)["south:majority:roads"] == 0


def test_central_highway_tiebreaker_is_the_longest_road() -> None:
    # North: R 2 (+1), roads A1-B1 + interstate. South: C 1 (+1), roads A2 + interstate.
    # 1-1; the longest road is 2 sections against 1.
    bd = _score("R:EW  R:EW  P\n=============\nR:EW  C     P\n", (), interstate_card="central-highway")
    assert _totals(bd) == {"north": 1, "south": 1}
    info = _info(bd)
    assert (info["winner"], info["decided_by"], info["tiebreaker"]) == ("north", "tiebreaker", "longest road")
    assert [p["tiebreaker"] for p in info["players"]] == [2, 1]
    assert any("longest road: north 2, south 1" in n for n in bd.notes)


def test_main_boulevard_tiebreaker_is_most_blocks() -> None:
    # North R 2 + P 1 − 1 road = 2 (3 blocks); south C 2 + P 1 − 1 = 2 (4 blocks).
    bd = _score("R  R  P  .\n==========\nC  C  P  R\n", (), interstate_card="main-boulevard")
    assert _totals(bd) == {"north": 2, "south": 2}
    assert (_info(bd)["winner"], _info(bd)["decided_by"]) == ("south", "tiebreaker")


def test_great_valley_road_tiebreaker_is_most_roads() -> None:
    # North R 2 − 2 roads (A1-B1 and the interstate) = 0; south R 1 − 1 (the interstate) = 0.
    bd = _score("R:EW  R:EW\n==========\nR     .\n", (), interstate_card="great-valley-road")
    assert _totals(bd) == {"north": 0, "south": 0}
    assert (_info(bd)["winner"], _info(bd)["decided_by"]) == ("north", "tiebreaker")


def test_mountainside_drive_tiebreaker_is_most_park_and_industrial_blocks() -> None:
    # North P 1 + I 1 + R 1 − 1 = 2 with 2 park/industrial blocks; south R 2 + C 1 − 1 = 2 with none.
    bd = _score("P  I  R\n=======\nR  R  C\n", (), interstate_card="mountainside-drive")
    assert _totals(bd) == {"north": 2, "south": 2}
    assert (_info(bd)["winner"], _info(bd)["decided_by"]) == ("north", "tiebreaker")


def test_equal_tiebreaker_is_a_shared_win() -> None:
    bd = _score("R  R  P\n=======\nR  R  P\n", (), interstate_card="main-boulevard")
    assert (_info(bd)["winner"], _info(bd)["decided_by"]) == (None, "tie")
    assert any("share the win" in n for n in bd.notes)


def test_mode_and_card_can_be_given_as_expansion_names() -> None:
    city = parse_city(CITY)
    bd = score_interstate(city, CARDS, ["interstate", "interstate:central-highway"], None, {})
    assert _info(bd)["card"] == "central-highway" and _info(bd)["mode"] == "competitive"


def test_other_expansions_are_scored_per_side_in_competitive_games() -> None:
    text = "roadwork-unplayed: 1\n" + CITY
    bd = score_interstate(
        parse_city(text), CARDS, ["interstate", "roadwork"], None, {"interstate-card": "valley"}
    )
    assert points_by_key(bd)["north:roadwork"] == -1 and points_by_key(bd)["south:roadwork"] == -1
    assert _totals(bd) == {"north": 5, "south": 3}


@pytest.mark.parametrize(
    ("text", "options", "match"),
    [
        ("R  C\nP  I\n", {}, "interstate line"),
        (CITY, {"interstate-mode": "competitive"}, "interstate-card"),
        (CITY, {"interstate-mode": "solo", "interstate-card": "central-highway"}, "only in competitive"),
        (CITY, {"interstate-card": "ring road"}, "unknown interstate card"),
        (CITY, {"interstate-mode": "battle"}, "unknown mode"),
    ],
)
def test_bad_interstate_setups_are_input_errors(text: str, options: dict[str, str], match: str) -> None:
    with pytest.raises(InterstateError, match=match):
        score_interstate(parse_city(text), CARDS, ["interstate"], None, options)


def test_engine_hands_interstate_games_to_score_interstate() -> None:
    bd = score_city(parse_city(CITY), CARDS, options={"interstate-card": "mountainside"})
    assert _totals(bd) == {"north": 6, "south": 4}
