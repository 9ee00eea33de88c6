"""Each grid goal card of Circle the Wagons on a small town with hand-worked numbers.

Cells are named as a player reads them: column letter, then the 1-based row (B3 = second column, third row).
"""

from __future__ import annotations

import pytest

from scoring.city import cell_names
from scoring.wagons import GOAL_CARDS, GOALS, parse_town, score_town
from scoring.wagons.goals import GRID_SCORERS, GoalScore, boom_or_bust_points, wagon_train_points


def goal(card: str, text: str) -> GoalScore:
    return GRID_SCORERS[card](parse_town(text))


def names(score: GoalScore) -> str:
    return cell_names(score.scoring)


def test_cool_water_counts_wagons_on_or_beside_the_largest_water_group() -> None:
    # Water A1-B1 is the largest group; Wagons A1 (on), A2 and C1 (beside) count, C2 beside no water of it.
    s = goal("cool-water", "W/w  W/b  D/w\nS/w  P/c  W/w\n")
    assert s.points == 9
    assert names(s) == "A1, C1, A2"


def test_cool_water_tie_uses_the_group_worth_most() -> None:
    # Two single Waters tie: A1 has Wagons B1 and A2 beside it, D1 has none.
    assert goal("cool-water", "W/b  D/w  .  W/c\nS/w  .    .  P/m\n").points == 6
    assert goal("cool-water", "D/w  P/w\n").points == 0


def test_badlands_guns_between_two_deserts_in_a_row_or_column() -> None:
    # B1: Desert west and east. B2: Plains/Snow beside it but Desert north and south. C3: one side only.
    s = goal("badlands", "D/c  D/g  D/b\nP/m  D/g  S/c\n.    D/w  D/g\n")
    assert s.points == 8
    assert names(s) == "B1, B2"


def test_happy_cows_away_from_snow() -> None:
    # Only A1 is neither on Snow nor beside it (B1, A2, C2 touch Snow; A3 is Snow).
    s = goal("happy-cows", "P/c  P/c  S/b\nF/c  D/m  P/c\nS/c  .    .\n")
    assert s.points == 2
    assert names(s) == "A1"


def test_bootleggers_rewards_beers_beside_wagons_and_fines_the_rest() -> None:
    # A1 and C1 touch the Wagon at B1 (+2 each); A2 and C2 do not (-1 each).
    assert goal("bootleggers", "P/b  D/w  P/b\nF/b  .    S/b\n").points == 2
    assert goal("bootleggers", "P/b  D/b\n").points == -2


def test_the_clearing_forts_minus_forests() -> None:
    # Forts A1, C1, A2 (+6); Forests A1, B1, B2 (-3).
    assert goal("the-clearing", "F/f  F/c  M/f\nP/f  F/w  .\n").points == 3


def test_undiscovered_counts_fully_enclosed_empty_spaces() -> None:
    # B2 is surrounded on all 8 sides; D2 lies on the town's edge.
    s = goal("undiscovered", "P/c  P/c  P/c  P/c\nP/c  .    P/c  .\nP/c  P/c  P/c  P/c\n")
    assert s.points == 5
    assert cell_names(s.cells) == "B2"
    # Two neighbouring holes are not enclosed: each sees the other.
    assert goal("undiscovered", "P/c  P/c  P/c  P/c\nP/c  .    .    P/c\nP/c  P/c  P/c  P/c\n").points == 0


def test_undiscovered_needs_the_diagonals_too() -> None:
    assert goal("undiscovered", ".    P/c  P/c\nP/c  .    P/c\nP/c  P/c  P/c\n").points == 0


def test_gold_country_mines_on_or_beside_mountains() -> None:
    # A1 on Mountains, B1 and A2 beside Mountains, C1 not.
    s = goal("gold-country", "M/m  P/m  D/m\nS/m  M/c  .\n")
    assert s.points == 6
    assert names(s) == "A1, B1, A2"


def test_circle_the_wagons_needs_four_wagon_neighbours() -> None:
    assert goal("circle-the-wagons", ".    P/w  .\nD/w  S/c  F/w\n.    W/w  .\n").points == 6
    # The same ring with one gap scores nothing.
    assert goal("circle-the-wagons", ".    P/w  .\nD/w  S/c  .\n.    W/w  .\n").points == 0


def test_prairie_life_halves_cows_plus_plains_rounding_down() -> None:
    # Cows A1, C1, A2 and Plains A1, B1, B2: (3 + 3) / 2 = 3.
    assert goal("prairie-life", "P/c  P/b  D/c\nS/c  P/m  .\n").points == 3
    # Cows A1, C1 and Plains A1, B1, B2: 5 / 2 rounds down to 2.
    assert goal("prairie-life", "P/c  P/b  D/c\nS/b  P/m  .\n").points == 2


@pytest.mark.parametrize(
    ("mines", "points"), [(0, 0), (1, 5), (2, 10), (3, 0), (6, 0), (7, 21), (8, 64), (9, 72)]
)
def test_boom_or_bust_table(mines: int, points: int) -> None:
    assert boom_or_bust_points(mines) == points


def test_boom_or_bust_on_a_town() -> None:
    assert goal("boom-or-bust", "M/m  P/m  D/c\n").points == 10
    assert goal("boom-or-bust", "M/m  P/m  D/m\n").points == 0


@pytest.mark.parametrize(
    ("town", "explained", "points"),
    [
        ("D/c\n", "0 Mines: 0–2 → 5 per Mine", 0),
        ("M/m  D/c\n", "1 Mine (A1): 0–2 → 5 per Mine", 5),
        ("M/m  P/m  D/m\n", "3 Mines (A1, B1, C1): 3–6 → 0 per Mine", 0),
        ("M/m  P/m  D/m  S/m  W/m  F/m  M/m\n", "7 Mines (A1, B1, C1, D1, E1, F1, G1): 7 → 3 per Mine", 21),
        (
            "M/m  P/m  D/m  S/m\nW/m  F/m  M/m  P/m\n",
            "8 Mines (A1, B1, C1, D1, A2, B2, C2, D2): 8+ → 8 per Mine",
            64,
        ),
    ],
)
def test_boom_or_bust_explains_its_points_by_the_column_of_the_printed_card(
    town: str, explained: str, points: int
) -> None:
    # The card prints "Score points per Mine": 0-2 | 3-6 | 7 | 8+ → 5 | 0 | 3 | 8 (so 0 Mines score 0).
    s = goal("boom-or-bust", town)
    assert (s.detail, s.points) == (explained, points)


@pytest.mark.parametrize(("length", "points"), [(1, 0), (2, 1), (3, 2), (4, 4), (5, 7), (6, 10), (9, 10)])
def test_wagon_train_table(length: int, points: int) -> None:
    assert wagon_train_points(length) == points


def test_wagon_train_scores_every_straight_run_in_rows_and_columns() -> None:
    # Rows: A1-C1 (3) → 2, C2-D2 (2) → 1. Columns: A1-A3 (3) → 2, C1-C3 (3) → 2. B1 and A2 are in two runs.
    s = goal("wagon-train", "D/w  D/w  D/w  P/c\nP/w  .    D/w  D/w\nS/w  S/b  S/w  .\n")
    assert s.points == 7
    assert "3 (A1, B1, C1) → 2" in s.detail


def test_wagon_train_runs_break_at_gaps() -> None:
    assert goal("wagon-train", "D/w  D/w  .  D/w  D/w  D/w  D/w  D/w  D/w\n").points == 1 + 10


def test_fortified_counts_overlapping_squares_of_forts() -> None:
    # Squares A1-B2 and B1-C2 share B1 and B2; the squares reaching row 3 hold a Cow or a gap.
    s = goal("fortified", "F/f  F/f  F/f\nF/f  F/f  F/f\nF/f  P/c  .\n")
    assert s.points == 14
    assert "A1–B2, B1–C2" in s.detail


def test_the_herd_is_twice_the_largest_group_of_cows() -> None:
    # Cows A1-B1-B2-C2-C3 touch in a chain of 5; A3 stands alone.
    s = goal("the-herd", "P/c  P/c  D/b\nS/b  P/c  F/c\nF/c  .    P/c\n")
    assert s.points == 10
    assert names(s) == "A1, B1, B2, C2, C3"
    assert goal("the-herd", "P/b\n").points == 0


def test_target_practice_uses_the_nearest_gun_in_line() -> None:
    # Beer A1: Guns D1 (3 away) and A3 (2 away) → A3, with A2 between → 1.
    # Beer D3: Guns D1 (2 away, D2 between → 1) and A3 (3 away) → 1.
    text = "P/b  D/c  S/c  W/g\nM/c  .    .    D/m\nF/g  .    .    P/b\n"
    s = goal("target-practice", text)
    assert s.points == 2
    assert "A1→A3 1" in s.detail and "D3→D1 1" in s.detail


def test_target_practice_gaps_do_not_count_and_ties_take_the_better_gun() -> None:
    # Beer C1 has Guns A1 and E1 both 2 away: B1 is a territory, D1 a gap → 1.
    assert goal("target-practice", "F/g  P/c  P/b  .  F/g\n").points == 1
    # A Gun right beside the Beer: nothing between.
    assert goal("target-practice", "F/g  P/b  P/c  F/g\n").points == 0
    assert goal("target-practice", "F/b  P/c\nP/c  F/g\n").points == 0  # no Gun in the Beer's row or column


def test_open_questions_are_settled_in_the_notes() -> None:
    b = score_town(parse_town("F/g  P/c  P/b  .  F/g\n"), goals=["target-practice", "wildest-west"])
    assert any(n.startswith("Target Practice: each Beer looks along its row and column") for n in b.notes)
    assert any(n.startswith("Wildest West: a territory scores in another way") for n in b.notes)
    assert not any(n.startswith("Cool Water") for n in b.notes)


def test_rifles_ready_forts_beside_a_gun() -> None:
    # Forts A1 and C1 touch the Gun at B1; A2 and C2 do not.
    s = goal("rifles-ready", "F/f  P/g  M/f\nS/f  .    D/f\n")
    assert s.points == 4
    assert names(s) == "A1, C1"


def test_wildest_west_counts_territories_scoring_nothing_else() -> None:
    # Plains A1-B1 and Forest C1 are largest groups; Plains D1 (a smaller group) scores nothing.
    town = parse_town("P/c  P/b  F/c  P/w\n")
    b = score_town(town, goals=["wildest-west"])
    assert b.item("goal:wildest-west").points == 1
    assert b.item("goal:wildest-west").cells == ("D1",)
    # With Prairie Life scoring (2 Cows + 3 Plains) // 2 = 2, D1 now scores in another way.
    b = score_town(town, goals=["prairie-life", "wildest-west"])
    assert (b.item("goal:prairie-life").points, b.item("goal:wildest-west").points) == (2, 0)


def test_wildest_west_picks_the_tied_group_that_already_scores() -> None:
    # Deserts A1 and C1 tie for largest; C1's Cow is happy (scores), so C1 is the group counted and A1
    # is left for Wildest West.
    b = score_town(parse_town("D/w  P/b  D/c  F/m\n"), goals=["happy-cows", "wildest-west"])
    assert b.item("largest:D").cells == ("C1",)
    assert b.item("goal:wildest-west").cells == ("A1",)
    assert b.total == 1 + 1 + 1 + 2 + 1  # Desert, Forest, Plains, Happy Cows, Wildest West


def test_wildest_west_settles_tied_cool_water_groups_too() -> None:
    # Waters A1 and D1 tie, each with one Wagon beside it (B1 and E1): Cool Water is 3 either way. B1 is the
    # Desert group and scores anyway, E1 is a lone Plains outside the largest Plains group G1-H1. Counting
    # A1's group leaves D1 and E1 idle: Wildest West 2 (counting D1's would leave only D1: 1).
    text = "W/b  D/w  .  W/b  P/w  S/c  P/c  P/c\n"
    for town in (text, "  ".join(reversed(text.split())) + "\n"):
        b = score_town(parse_town(town), goals=["cool-water", "wildest-west"])
        assert b.item("goal:cool-water").points == 3
        assert b.item("goal:wildest-west").points == 2


def test_every_goal_line_is_printed_as_the_print_and_play_sheets_confirm_each_card() -> None:
    town = parse_town("W/w  D/g  P/b\nM/m  F/f  S/c\n")
    b = score_town(town, goals=list(GOALS), opponent_town=parse_town("P/b  M/m\n"))
    for goal_id in GOALS:
        line = b.item(f"goal:{goal_id}")
        assert line is not None and line.label == GOALS[goal_id]
        assert line.provenance == "printed", goal_id
    assert {c.provenance for c in GOAL_CARDS.values()} == {"printed"}
    assert all(i.provenance is None for i in b.items if i.key.startswith("largest:"))
    assert not any("'reading'" in n for n in b.notes)


def test_there_are_18_goal_cards_plus_wildest_west() -> None:
    assert len(GOAL_CARDS) == 18
    assert len(GOALS) == 19 and GOALS["wildest-west"] == "Wildest West"
    assert {g for g, c in GOAL_CARDS.items() if c.two_town} == {
        "one-too-many",
        "claim-jumpers",
        "smalltown-charm",
    }
    assert set(GRID_SCORERS) == {g for g, c in GOAL_CARDS.items() if not c.two_town}
