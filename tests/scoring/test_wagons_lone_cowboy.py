"""Lone Cowboy: the opponent's pile, the top-three rule, the nine scenarios and the player against them.

Every opponent total below is worked by hand from the scenario card texts in the seed document.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.breakdown import Breakdown
from scoring.wagons import (
    SCENARIO_CARDS,
    SCENARIOS,
    ConflictError,
    MissingInputError,
    PileError,
    parse_pile,
    parse_town,
    pile_from_cards,
    pile_from_counts,
    score_town,
)
from scoring.wagons.scenarios import last_stand_fort_points, top_three

# A small player town used where only the opponent's side is under test: 6 territories, no two-town card.
SMALL = parse_town("P/c  P/b  D/w\nS/m  M/g  W/f\n")


def opponent(b: Breakdown) -> dict[str, Any]:
    return dict(b.extra)["opponent"]


def lines(b: Breakdown) -> dict[str, int]:
    return {i["key"]: i["points"] for i in opponent(b)["items"]}


# ---- the pile ----------------------------------------------------------------------------------------


def test_seed_example_top_three_territories() -> None:
    # "5 prairie, 5 snow, 4 forest = 14 pts": the fourth type (2 water) does not score.
    pile = pile_from_counts({"prairie": 5, "snow": 5, "forest": 4, "water": 2})
    item = top_three(pile)
    assert item.points == 14
    assert item.detail == "5 plains + 5 snow + 4 forest"


def test_top_three_with_a_tie_for_third_scores_the_same() -> None:
    pile = pile_from_cards([0, 5, 10])  # Plains 5, Forest 5, Snow 1, Desert 1
    assert top_three(pile).points == 11
    assert top_three(pile_from_counts({"snow": 3})).points == 3
    assert top_three(pile_from_counts({"cards": 0})).points == 0


def test_pile_from_card_numbers_counts_every_territory_and_icon() -> None:
    pile = pile_from_cards([0, 5, 10])
    assert pile.terrain_counts() == {"P": 5, "F": 5, "S": 1, "D": 1}
    assert pile.icon_counts() == {"c": 5, "b": 3, "f": 1, "m": 1, "w": 1, "g": 1}
    assert (pile.n_cards, pile.n_territories) == (3, 12)
    assert parse_pile(["0", "5,10"]) == pile


def test_pile_from_counts_reads_names_in_any_case_and_plural() -> None:
    pile = parse_pile(["Prairie=5", "SNOW=5", "forests=4", "wagons=3", "Cows=2"])
    assert pile.terrain_counts() == {"P": 5, "S": 5, "F": 4}
    assert pile.icon_counts() == {"w": 3, "c": 2}
    assert pile.n_cards is None and pile.n_territories == 14  # without a card count: those counted
    assert parse_pile(["plains=4", "cow=7"]).n_cards is None  # a partial count implies no card count
    assert parse_pile(["plains=4", "cards=3"]).n_territories == 12


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (["18"], "no card 18 in the 18-card table"),
        (["1", "4", "1"], "card 1 appears more than once"),
        (["1", "snow=2"], "give only card numbers"),
        (["-3"], "give only card numbers"),
        (["gold=2"], "unknown pile count 'gold'"),
        (["snow=two"], "expected a whole number"),
        (["cow=2", "cows=3"], "count the same thing"),
        (["snow=9", "cards=2"], "9 territories counted but 2 cards hold only 8"),
        (["cards=19"], "the game has only 18"),
        ([""], "the opponent pile is empty"),
    ],
)
def test_bad_piles_are_refused(tokens: list[str], message: str) -> None:
    with pytest.raises(PileError, match=message):
        parse_pile(tokens)


# ---- the nine scenarios: opponent scoring ------------------------------------------------------------


def test_boomtown_mountains_count_as_mines() -> None:
    # 3 Mines + 4 Mountains = 7 → Boom or Bust 21. The player's 6 territories against the pile's 12:
    # the player's town is smaller, so Smalltown Charm gives the opponent nothing. Top three: 4 + 3 + 2.
    pile = ["mountains=4", "desert=3", "snow=2", "water=1", "mine=3", "cards=3"]
    b = score_town(SMALL, opponent_pile=pile, scenario="boomtown")
    assert lines(b) == {"goal:boom-or-bust": 21, "goal:smalltown-charm": 0, "top-three": 9}
    assert opponent(b)["total"] == 30
    # The player: largest groups D 1, F 0, M 1, P 2, S 1, W 1 = 6; Smalltown Charm +6; one Mine → 5.
    assert b.item("goal:smalltown-charm").points == 6
    assert b.item("goal:boom-or-bust").points == 5
    assert b.total == 6 + 6 + 5
    assert dict(b.extra)["beat_opponent"] is False


def test_boomtowns_boom_or_bust_counts_the_pile_as_the_printed_card_and_is_no_reading() -> None:
    # Boom or Bust needs only a count of Mines, so the pile scores the printed card: no grid is read into it.
    b = score_town(SMALL, opponent_pile=["mountains=4", "mine=3", "cards=2"], scenario="boomtown")
    (line,) = [i for i in opponent(b)["items"] if i["key"] == "goal:boom-or-bust"]
    assert (line["points"], line["provenance"]) == (21, "printed")
    assert line["detail"].endswith("= 7: 7 → 3 per Mine")
    assert not any("'reading'" in n for n in b.notes)


def test_gold_rush_sets_and_claim_jumpers_with_two_starting_guns() -> None:
    # Mountain & Mine sets min(3, 5) = 3 → 6. Claim Jumpers: opponent 5 Mines vs 1; Guns: player 1,
    # opponent 0 + 2 → the opponent has more Mines and at least as many Guns → 9. Top three 3 + 2 + 1.
    pile = ["mountains=3", "plains=2", "snow=1", "mines=5"]
    b = score_town(SMALL, opponent_pile=pile, scenario="Gold Rush")
    assert lines(b) == {"scenario:mountain-mine": 6, "goal:claim-jumpers": 9, "top-three": 6}
    assert opponent(b)["total"] == 21
    assert b.item("goal:claim-jumpers").points == 0
    # Gold Country for the player: the Mine at A2 is beside the Mountains at B2.
    assert b.item("goal:gold-country").points == 2


def test_gold_rush_player_outgunning_the_opponent_takes_five() -> None:
    you = parse_town("D/g  D/g  D/g  D/m\n")  # 1 Mine, 3 Guns
    b = score_town(you, opponent_pile=["mine=4", "gun=0", "desert=4"], scenario="gold-rush")
    assert b.item("goal:claim-jumpers").points == 5  # 3 Guns beat the opponent's 0 + 2
    assert lines(b)["goal:claim-jumpers"] == 4


def test_through_the_desert_first_six_wagons_then_two_each() -> None:
    # 8 Wagons: a run of six → 10, two more → 4. Gun & Desert sets min(3, 5) = 3 → 12. Top three 5+4+3.
    pile = ["desert=5", "forest=4", "water=3", "snow=1", "wagon=8", "gun=3"]
    b = score_town(SMALL, opponent_pile=pile, scenario="through the desert")
    assert lines(b) == {
        "goal:wagon-train": 10,
        "scenario:more-wagons": 4,
        "scenario:gun-desert": 12,
        "top-three": 12,
    }
    assert opponent(b)["total"] == 38
    assert [i["provenance"] for i in opponent(b)["items"]] == ["reading", "printed", "printed", "printed"]


def test_through_the_desert_few_wagons() -> None:
    b = score_town(SMALL, opponent_pile=["wagon=4", "desert=1"], scenario="through-the-desert")
    assert lines(b)["goal:wagon-train"] == 4 and lines(b)["scenario:more-wagons"] == 0
    assert lines(b)["scenario:gun-desert"] == 0


def test_out_drink_the_competition_opponent_cannot_lose_one_too_many() -> None:
    # Beer & Wagon sets min(5, 3) = 3 → 6. The opponent has more Beers (5 vs 1) but cannot lose.
    pile = ["beer=5", "wagon=3", "plains=4", "snow=2", "desert=2"]
    b = score_town(SMALL, opponent_pile=pile, scenario="Out-Drink the Competition")
    assert lines(b) == {"scenario:beer-wagon": 6, "goal:one-too-many": 0, "top-three": 8}
    assert b.item("goal:one-too-many").points == 0
    # The player with more Beers still loses 1 per opponent Beer.
    you = parse_town("P/b  P/b  P/b\n")
    b = score_town(you, opponent_pile=["beer=2", "wagon=2"], scenario="out-drink")
    assert b.item("goal:one-too-many").points == -2


def test_water_the_herd_three_per_wagon_two_per_cow() -> None:
    pile = ["wagon=4", "cow=3", "water=5", "plains=3", "forest=3", "snow=1"]
    b = score_town(SMALL, opponent_pile=pile, scenario="water-the-herd")
    assert lines(b) == {"scenario:wagons": 12, "scenario:cows": 6, "top-three": 11}
    assert opponent(b)["total"] == 29


def test_cattle_drive_prairie_life_not_halved_and_every_cow_happy() -> None:
    pile = ["cow=5", "plains=4", "snow=3", "water=2", "forest=1"]
    b = score_town(SMALL, opponent_pile=pile, scenario="cattle drive")
    assert lines(b) == {"goal:happy-cows": 10, "goal:prairie-life": 9, "top-three": 9}
    # Happy Cows needs a grid (Snow beside a Cow), so the pile's count is a reading; Prairie Life is a count.
    assert [i["provenance"] for i in opponent(b)["items"][:2]] == ["reading", "printed"]


@pytest.mark.parametrize(
    ("forts", "points"), [(0, 0), (3, 0), (4, 7), (5, 7), (6, 14), (7, 14), (8, 21), (11, 21)]
)
def test_last_stand_fort_steps(forts: int, points: int) -> None:
    assert last_stand_fort_points(forts) == points


def test_the_last_stand() -> None:
    b = score_town(SMALL, opponent_pile=["fort=6", "gun=3", "mountains=3"], scenario="The Last Stand")
    assert lines(b) == {"scenario:forts": 14, "scenario:guns": 6, "top-three": 3}
    assert opponent(b)["total"] == 23


def test_defensible_position_undiscovered_times_three_with_eight_cards() -> None:
    # Cards 0-7 hold 5 Forts (0:1, 1:1, 3:1, 4:1, 6:1); Undiscovered 2 spaces × 5 × 3 = 30.
    cards = list(range(8))
    b = score_town(
        SMALL, opponent_pile=cards, scenario="defensible position", options={"opponent-undiscovered": "2"}
    )
    assert lines(b)["goal:undiscovered"] == 30
    assert lines(b)["goal:the-clearing"] == 10  # Forests cost nothing
    top = top_three(pile_from_cards(cards)).points
    assert opponent(b)["total"] == 30 + 10 + top
    assert opponent(b)["complete"] is True


def test_defensible_position_times_two_under_eight_cards() -> None:
    b = score_town(
        SMALL,
        opponent_pile=["fort=1", "cards=7"],
        scenario="defensible-position",
        options={"opponent-undiscovered": 1},
    )
    assert lines(b)["goal:undiscovered"] == 10


def test_defensible_position_asks_for_undiscovered_instead_of_inventing_it() -> None:
    b = score_town(SMALL, opponent_pile=[1, 2, 3], scenario="defensible-position")
    assert opponent(b)["total"] is None and opponent(b)["complete"] is False
    assert "option opponent-undiscovered=N" in opponent(b)["missing"][0]
    assert "--" not in opponent(b)["missing"][0]
    assert dict(b.extra)["beat_opponent"] is None
    assert any("incomplete" in n for n in b.notes)
    assert b.item("goal:undiscovered") is not None  # the player's own card is still scored on the grid


def test_defensible_position_asks_for_the_card_count_of_a_counted_pile() -> None:
    b = score_town(
        SMALL,
        opponent_pile=["fort=3", "snow=3"],
        scenario="defensible-position",
        options={"opponent-undiscovered": 1},
    )
    assert opponent(b)["total"] is None
    assert "cards=N" in opponent(b)["missing"][0]


def test_troubles_comin_gun_beer_pairs_and_wagons_by_four() -> None:
    pile = ["gun=3", "beer=5", "wagon=9", "desert=6", "snow=2", "plains=2", "forest=1"]
    b = score_town(SMALL, opponent_pile=pile, scenario="Trouble's Comin'")
    assert lines(b) == {"scenario:gun-beer": 12, "scenario:wagons": 10, "top-three": 10}
    assert opponent(b)["total"] == 32


def test_every_scenario_names_two_goal_cards_and_the_player_scores_them() -> None:
    assert len(SCENARIOS) == 9
    for scenario in SCENARIO_CARDS.values():
        b = score_town(
            SMALL, opponent_pile=[8, 9], scenario=scenario.name, options={"opponent-undiscovered": 0}
        )
        assert dict(b.extra)["goals"] == list(scenario.goals)
        assert [i.key for i in b.items if i.key.startswith("goal:")] == [f"goal:{g}" for g in scenario.goals]
        assert lines(b)["top-three"] == 7  # cards 8 and 9: Desert 3, Mountains 2, Snow 2, Plains 1
        assert all(i.get("provenance") for i in opponent(b)["items"])
        assert dict(b.extra)["beat_opponent"] == (b.total > opponent(b)["total"])


@pytest.mark.parametrize(
    ("scenario", "reading"),
    [
        ("through-the-desert", ["goal:wagon-train"]),
        ("cattle-drive", ["goal:happy-cows"]),
        ("defensible-position", ["goal:undiscovered"]),
        ("water-the-herd", []),
        ("boomtown", []),
    ],
)
def test_only_the_piles_count_based_readings_of_grid_cards_are_marked_reading_and_the_note_says_so(
    scenario: str, reading: list[str]
) -> None:
    b = score_town(SMALL, opponent_pile=[8, 9], scenario=scenario, options={"opponent-undiscovered": 0})
    assert [i["key"] for i in opponent(b)["items"] if i["provenance"] == "reading"] == reading
    assert {i.provenance for i in b.items if i.key.startswith("goal:")} == {"printed"}
    notes = [n for n in b.notes if "'reading'" in n]
    assert len(notes) == (1 if reading else 0)
    assert all("opponent's pile" in n for n in notes)


def test_player_beating_the_opponent() -> None:
    town = parse_town("W/w  W/c  W/c\nW/w  W/c  P/c\n")
    # Player: Water 5 + Plains 1; The Herd: Cows B1 C1 B2 C2 → 8; Cool Water: both Wagons on Water → 6.
    b = score_town(town, opponent_pile=["wagon=1", "cow=1", "snow=1"], scenario="water-the-herd")
    assert b.total == 5 + 1 + 8 + 6
    assert opponent(b)["total"] == 3 + 2 + 1
    assert dict(b.extra)["beat_opponent"] is True and dict(b.extra)["result"] == "win"


def test_scenario_needs_a_pile_not_a_town() -> None:
    with pytest.raises(MissingInputError, match="scores the opponent's pile"):
        score_town(SMALL, scenario="cattle-drive")
    with pytest.raises(ConflictError, match="its opponent is a pile"):
        score_town(SMALL, scenario="cattle-drive", opponent_town=SMALL)


def test_scenario_goal_cards_must_match() -> None:
    with pytest.raises(ConflictError, match="Cattle Drive plays with Happy Cows and Prairie Life"):
        score_town(SMALL, goals=["happy-cows", "badlands"], opponent_pile=[1], scenario="cattle-drive")
    b = score_town(
        SMALL, goals=["Prarie Life", "happy cows", "wildest west"], opponent_pile=[1], scenario="cattle-drive"
    )
    assert b.item("goal:wildest-west") is not None
    assert any("Wildest West is scored for your town only" in n for n in b.notes)


def test_pile_cards_may_not_also_be_in_the_players_town() -> None:
    town = parse_town("cards: 3 4\nP/c  P/b\n")
    with pytest.raises(PileError, match="card 4 is both in your town"):
        score_town(town, opponent_pile=[4, 5], scenario="water-the-herd")
