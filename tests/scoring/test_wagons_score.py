"""score_town end to end: the rulebook example, header lines, name lookup, errors and the JSON form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.core import score_request as score_town_request
from api.core.schemas import ScoreRequest
from games import GameOptionError
from scoring.errors import InputError
from scoring.wagons import (
    GOAL_CARDS,
    GOALS,
    ConflictError,
    OptionError,
    PileError,
    Territory,
    Town,
    TownFormatError,
    UnknownNameError,
    parse_town,
    resolve_goals,
    resolve_scenario,
    score_town,
)
from scoring.wagons.town import ICONS, TERRAINS

RULEBOOK_EXAMPLE = """\
.    .    .    .    P/c  P/f
D/w  D/g  D/f  P/b  P/m  F/b
D/c  M/f  M/c  M/c  P/g  .
W/m  W/b  M/f  M/m  .    .
S/w  W/g  D/b  M/w  .    .
"""


def test_rulebook_example_town_scores_20() -> None:
    b = score_town(parse_town(RULEBOOK_EXAMPLE))
    points = {i.key: i.points for i in b.items}
    assert points == {
        "largest:D": 4,
        "largest:F": 1,
        "largest:M": 6,
        "largest:P": 5,
        "largest:S": 1,
        "largest:W": 3,
    }
    assert b.total == 20
    assert b.game == "wagons"
    assert [i.label for i in b.items] == ["Desert", "Forest", "Mountains", "Plains", "Snow", "Water"]
    assert b.item("largest:D").cells == ("A2", "B2", "C2", "A3")


def test_rulebook_example_with_goal_cards() -> None:
    # Cool Water: Wagon A5 beside the Water group A4-B4-B5 → 3. Badlands: Gun B2 between Deserts A2, C2 → 4.
    # The Clearing: Forts F1, C2, B3, C4 (+8), Forest F2 (−1) → 7.
    b = score_town(parse_town(RULEBOOK_EXAMPLE), goals=["Cool Water", "BADLANDS", "the_clearing"])
    assert [(i.key, i.points) for i in b.items[6:]] == [
        ("goal:cool-water", 3),
        ("goal:badlands", 4),
        ("goal:the-clearing", 7),
    ]
    assert b.total == 34


def test_a_territory_type_with_no_territory_scores_zero() -> None:
    b = score_town(parse_town("D/w  D/c\n"))
    assert b.item("largest:D").points == 2
    assert b.item("largest:S").points == 0 and b.item("largest:S").detail == "no snow territory"


def test_ties_for_largest_group_are_reported() -> None:
    b = score_town(parse_town("D/w  P/c  D/c\n"))
    assert b.item("largest:D").points == 1
    assert "2 groups tie" in b.item("largest:D").detail


@pytest.mark.parametrize(
    ("name", "ident"),
    [
        ("cool-water", "cool-water"),
        ("Cool Water", "cool-water"),
        ("COOL_WATER", "cool-water"),
        ("  cool   water ", "cool-water"),
        ("The Herd", "the-herd"),
        ("herd", "the-herd"),
        ("Prarie Life", "prairie-life"),  # the Cattle Drive card's own spelling
        ("wildest-west", "wildest-west"),
    ],
)
def test_goal_names_ignore_case_spaces_and_dashes(name: str, ident: str) -> None:
    assert resolve_goals([name]) == (ident,)


@pytest.mark.parametrize(
    ("name", "ident"),
    [
        ("Trouble's Comin'", "troubles-comin"),
        ("troubles comin", "troubles-comin"),
        ("OUT-DRINK THE COMPETITION", "out-drink-the-competition"),
        ("last stand", "the-last-stand"),
        ("Water the Herd", "water-the-herd"),
    ],
)
def test_scenario_names_ignore_case_spaces_and_dashes(name: str, ident: str) -> None:
    assert resolve_scenario(name) == ident


def test_unknown_goal_lists_the_valid_names() -> None:
    with pytest.raises(UnknownNameError) as err:
        score_town(parse_town("D/w\n"), goals=["cool-water", "hot-water"])
    message = str(err.value)
    assert message.startswith(
        "unknown goal card 'hot-water' (did you mean 'cool-water'?); expected one of: cool-water, badlands"
    )
    assert all(goal in message for goal in GOALS)
    assert err.value.code == "unknown_name" and isinstance(err.value, InputError)


def test_unknown_scenario_lists_the_valid_names() -> None:
    with pytest.raises(
        UnknownNameError, match="unknown scenario 'high noon'; expected one of: boomtown, gold-rush"
    ):
        score_town(parse_town("D/w\n"), scenario="high noon", opponent_pile=[1])


def test_repeated_goal_is_refused() -> None:
    with pytest.raises(ConflictError, match="'Cool Water' is named twice"):
        resolve_goals(["cool water", "Cool-Water"])


def test_headers_give_goals_scenario_pile_and_options() -> None:
    town = parse_town(
        "goals: happy-cows, prairie life\nscenario: cattle-drive\nopponent-pile: cow=5 plains=4\nP/c  P/c\n"
    )
    b = score_town(town)
    assert dict(b.extra)["scenario"] == "cattle-drive"
    assert dict(b.extra)["opponent"]["total"] == 10 + 9 + 4
    # Arguments override the header: another scenario brings its own goal cards, another pile its counts.
    b = score_town(town, scenario="water-the-herd", opponent_pile=["wagon=1"])
    assert dict(b.extra)["goals"] == ["the-herd", "cool-water"]
    assert dict(b.extra)["opponent"]["total"] == 3


def test_header_goals_without_scenario_and_option_headers() -> None:
    town = parse_town("goals: cool-water badlands\nD/w  W/c\n")
    assert [i.key for i in score_town(town).items][6:] == ["goal:cool-water", "goal:badlands"]
    town = parse_town("scenario: defensible-position\nopponent-pile: 1 2\nopponent-undiscovered: 1\nD/w\n")
    assert {i["key"]: i["points"] for i in dict(score_town(town).extra)["opponent"]["items"]}[
        "goal:undiscovered"
    ] == 10


def test_bad_headers_are_refused() -> None:
    with pytest.raises(PileError, match="no card 21"):
        score_town(parse_town("cards: 3 21\nD/w\n"))
    with pytest.raises(PileError, match="opponent pile is empty"):
        score_town(parse_town("opponent-pile:\nD/w\n"), goals=["smalltown-charm"])
    with pytest.raises(TownFormatError, match="line 1, column 11: unknown scenario 'nowhere'"):
        parse_town("scenario: nowhere\nD/w\n")


def test_options_are_checked() -> None:
    with pytest.raises(UnknownNameError, match="unknown option 'undiscovered'.*opponent-undiscovered"):
        score_town(parse_town("D/w\n"), options={"undiscovered": "2"})
    with pytest.raises(OptionError, match="expected a whole number"):
        score_town(parse_town("D/w\n"), options={"opponent-undiscovered": "-1"})


def test_town_and_pile_together_are_refused() -> None:
    town = parse_town("D/w\n")
    with pytest.raises(ConflictError, match="not both"):
        score_town(town, goals=["one-too-many"], opponent_town=town, opponent_pile=[1])


def test_json_breakdown_carries_provenance_opponent_and_outcome() -> None:
    b = score_town(parse_town(RULEBOOK_EXAMPLE), opponent_pile=[3, 5, 6], scenario="water-the-herd")
    data = json.loads(json.dumps(b.to_json()))
    assert data["game"] == "wagons"
    assert data["scenario"] == "water-the-herd"
    assert data["goals"] == ["the-herd", "cool-water"]
    goal_lines = [i for i in data["items"] if i["key"].startswith("goal:")]
    assert [i["provenance"] for i in goal_lines] == ["printed", "printed"]
    assert data["opponent"]["kind"] == "pile"
    assert data["opponent"]["pile"]["cards"] == [3, 5, 6]
    assert data["opponent"]["total"] == sum(i["points"] for i in data["opponent"]["items"])
    assert data["beat_opponent"] == (data["total"] > data["opponent"]["total"])
    assert data["city"].startswith(".    .    .    .    P/c  P/f")
    # Water the Herd's pile lines are counts the scenario card prints: no line, so no note, says 'reading'.
    assert not any("'reading'" in n for n in data["notes"])


def test_web_request_entry_reads_options() -> None:
    body = ScoreRequest(
        game="wagons",
        rows=[["P/c", "P/c"]],
        options={"scenario": "Cattle Drive", "opponent_pile": "cow=5 plains=4"},
    )
    data = score_town_request(body)
    assert data["opponent"]["total"] == 23
    body = ScoreRequest(
        game="wagons", city="W/w\n", options={"goals": ["cool-water"], "opponent-town": "D/w\n"}
    )
    assert score_town_request(body)["opponent"]["total"] == 1
    body = ScoreRequest(game="wagons", city="W/w\n", cards=[1, 2, 3])
    with pytest.raises(GameOptionError, match="cards is a Sprawlopolis option"):
        score_town_request(body)
    body = ScoreRequest(game="wagons", city="W/w\n", options={"expansions": "x"})
    with pytest.raises(UnknownNameError, match="unknown option 'expansions'"):
        score_town_request(body)


# ---- the rules know no direction: turning or mirroring a town never changes a line -------------------

territories = st.builds(Territory, st.sampled_from(TERRAINS), st.sampled_from(ICONS))
cells = st.one_of(st.none(), territories, territories)
grids = (
    st.integers(1, 6)
    .flatmap(lambda w: st.lists(st.lists(cells, min_size=w, max_size=w), min_size=1, max_size=6))
    .filter(lambda g: any(c is not None for row in g for c in row))
)
GRID_GOALS = [g for g in GOALS if g not in GOAL_CARDS or not GOAL_CARDS[g].two_town]


def _points(town: Town) -> dict[str, int]:
    return {i.key: i.points for i in score_town(town, goals=GRID_GOALS).items}


@settings(max_examples=60, deadline=None)
@given(grids)
def test_scores_do_not_depend_on_orientation(grid: list[list[Territory | None]]) -> None:
    town = Town(tuple(tuple(row) for row in grid))
    expected = _points(town)
    turned = Town(tuple(tuple(reversed(row)) for row in reversed(town.grid)))
    mirrored = Town(tuple(tuple(reversed(row)) for row in town.grid))
    transposed = Town(tuple(zip(*town.grid, strict=True)))
    for other in (turned, mirrored, transposed):
        assert _points(other) == expected


@settings(max_examples=60, deadline=None)
@given(grids)
def test_base_score_is_bounded_by_the_territories(grid: list[list[Territory | None]]) -> None:
    town = Town(tuple(tuple(row) for row in grid))
    b = score_town(town, goals=["wildest-west"])
    base = sum(i.points for i in b.items if i.key.startswith("largest:"))
    counts = town.terrain_counts()
    assert all(b.item(f"largest:{t}").points <= counts[t] for t in TERRAINS)
    # Every territory either lies in a counted largest group or scores for Wildest West.
    assert base + b.item("goal:wildest-west").points == town.n_territories


def test_equal_scores_are_a_tie_not_a_win() -> None:
    town = parse_town("W/w  D/b\n")
    b = score_town(town, goals=["one-too-many"], opponent_town=town)
    extra = dict(b.extra)
    assert b.total == extra["opponent"]["total"] == 2
    assert extra["beat_opponent"] is False and extra["result"] == "tie"
