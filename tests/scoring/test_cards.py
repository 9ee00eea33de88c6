"""The 18 scoring cards, each on small hand-worked cities (expected values worked out by hand in comments)."""

from __future__ import annotations

import pytest

from scoring.breakdown import LineItem
from scoring.cards import CARD_NAMES, CARDS, RULING_EDGE, RULING_TIES, UnknownCardError, card_item
from scoring.errors import InputError
from tests.conftest import city


def score(text: str, number: int) -> LineItem:
    return card_item(city(text), number)


def points(text: str, number: int) -> int:
    return score(text, number).points


def test_every_card_has_a_name_and_keys_its_item() -> None:
    assert sorted(CARDS) == list(range(1, 19))
    assert CARD_NAMES[1] == "The Outskirts" and CARD_NAMES[18] == "Sprawlopolis"
    one = city("R:EW  C:EW\nP     I\n")
    for n in range(1, 19):
        item = card_item(one, n)
        assert item.key == f"card:{n}" and item.label == CARD_NAMES[n] and item.detail


@pytest.mark.parametrize("bad", [0, 19, -1, True, "8", 8.0])
def test_unknown_card_number_is_an_input_error(bad: object) -> None:
    with pytest.raises(UnknownCardError, match="unknown scoring card") as err:
        card_item(city("R\n"), bad)  # type: ignore[arg-type]
    assert isinstance(err.value, InputError) and err.value.code == "unknown_card"


# --- 1 The Outskirts -------------------------------------------------------------------------------------


def test_outskirts_road_with_both_ends_at_edge_loses_one() -> None:
    item = score("R:EW  C:EW\n", 1)
    assert item.points == -1 and "A1–B1" in item.detail


def test_outskirts_road_dead_ending_at_both_ends_gains_one() -> None:
    assert points("P  R:EW  C:EW  P\n", 1) == 1


def test_outskirts_one_end_at_edge_counts_as_ending_at_edge() -> None:
    assert points("R:EW  C:EW  P\n", 1) == -1


def test_outskirts_closed_loop_does_not_end_at_edge() -> None:
    item = score(
        """\
        R:SE  C:SW
        I:NE  R:NW
        """,
        1,
    )
    assert item.points == 1 and "loop" in item.detail


def test_outskirts_mixed_city() -> None:
    # Road 1 (A1–B1) ends at the west edge: −1; road 2 (B2–C2) dead-ends against A2 and D2: +1;
    # road 3 (D1) is a single N–S section, both ends at the edge: −1.
    text = """\
    R:EW  C:EW  P     I:NS
    P     R:EW  C:EW  P
    """
    assert points(text, 1) == -1


def test_outskirts_end_facing_an_inner_gap_is_at_the_edge_by_ruling() -> None:
    # B2's road dead-ends against park A2 in the west but faces the enclosed gap C2 in the east.
    item = score(
        """\
        P  P     P  P
        P  R:EW  .  P
        P  P     P  P
        """,
        1,
    )
    assert item.points == -1 and RULING_EDGE in item.detail


# --- 2 Bloom Boom ----------------------------------------------------------------------------------------


def test_bloom_boom_rows_and_columns() -> None:
    # Row 1: 3 parks (+1); row 2: none (−1); row 3: 1 park. Columns A: 2, B: 1, C: 1, D: none (−1).
    item = score(
        """\
        P  P  P  R
        C  I  R  C
        P  .  .  I
        """,
        2,
    )
    assert item.points == -1
    assert "row 1" in item.detail and "row 2" in item.detail and "column D" in item.detail
    assert item.cells == ("A1", "B1", "C1")


def test_bloom_boom_skips_lines_without_blocks() -> None:
    # Row 2 holds no block, so its lack of parks does not cost a point.
    assert points("P  P  P\n.  .  .\nR  C  I\n", 2) == 1 - 1  # row 1: +1, row 3: −1; columns hold 1 park


def test_bloom_boom_four_parks_is_not_three() -> None:
    assert points("P  P  P  P\n", 2) == 0  # the row has 4 parks, each column 1


# --- 3 Go Green ------------------------------------------------------------------------------------------


def test_go_green_parks_minus_three_per_industrial() -> None:
    assert points("P  P  P  P\nI  C  R  C\n", 3) == 4 - 3
    assert points("I  I\nP  R\n", 3) == 1 - 6


# --- 4 Block Party ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "squares", "expected"), [(2, 1, -5), (3, 2, -2), (4, 3, 1), (5, 4, 4), (6, 5, 7), (8, 7, 7)]
)
def test_block_party_table_with_overlapping_squares(width: int, squares: int, expected: int) -> None:
    # Two rows of `width` residential blocks hold width − 1 overlapping 2×2 squares.
    row = "  ".join(["R"] * width)
    item = score(f"{row}\n{row}\n", 4)
    assert item.points == expected and f"{squares} square" in item.detail


def test_block_party_no_square_costs_eight() -> None:
    assert points("R  C\nI  P\n", 4) == -8
    assert points("R  R\nR  C\n", 4) == -8  # three of a zone is not a square
    assert points("R  R\nR  .\n", 4) == -8  # nor is a square with a gap


def test_block_party_squares_of_different_zones_and_a_shared_block() -> None:
    # 3×3 residential holds 4 overlapping squares (the centre block is in all four); plus a park square.
    text = """\
    R  R  R  P  P
    R  R  R  P  P
    R  R  R  C  I
    """
    item = score(text, 4)
    assert item.points == 7 and "park D1–E2" in item.detail and "residential B2–C3" in item.detail


# --- 5 Stacks and Scrapers -------------------------------------------------------------------------------


def test_stacks_and_scrapers() -> None:
    # B1: neighbours C, C, I → scores. A2: C above, I right, nothing below or left → scores.
    # B2: a residential block to the east → does not score.
    text = """\
    C  I  C
    I  I  R
    .  C  P
    """
    item = score(text, 5)
    assert item.points == 4 and item.cells == ("B1", "A2")


def test_stacks_and_scrapers_park_neighbour_spoils_it() -> None:
    assert points("C  I  P\n", 5) == 0


# --- 6 Master Planned ------------------------------------------------------------------------------------


def test_master_planned_card_example() -> None:
    # The card's picture: a residential group of 8 and an industrial group of 2 score 6.
    text = """\
    R  R  R  R
    R  R  R  R
    I  I  C  P
    """
    assert points(text, 6) == 6


def test_master_planned_may_be_negative_and_uses_largest_groups() -> None:
    assert points("I  I  I\nR  C  P\n", 6) == 1 - 3
    assert points("R  R  C  R\nI  P  I  P\n", 6) == 2 - 1  # groups R{A1,B1} and R{D1}; I groups of 1


# --- 7 Central Perks -------------------------------------------------------------------------------------


def test_central_perks_interior_and_edge_parks() -> None:
    text = """\
    P  R  R
    R  P  R
    R  R  R
    """
    item = score(text, 7)
    assert item.points == 1 - 2 and "B2" in item.detail and "A1" in item.detail


def test_central_perks_park_beside_an_inner_gap_is_on_the_edge() -> None:
    text = """\
    R  R  R  R
    R  P  .  R
    R  R  R  R
    """
    item = score(text, 7)
    assert item.points == -2 and RULING_EDGE in item.detail


# --- 8 The 'Burbs ----------------------------------------------------------------------------------------


def test_burbs_counts_each_neighbour_once() -> None:
    # Residential group B1, C1, B2. Beside it: parks A1 and C2 (C2 touches both C1 and B2, counted once),
    # industrial D1, commercial A2.
    text = """\
    P  R  R  I
    C  R  P  .
    """
    item = score(text, 8)
    assert item.points == 2 - 2 and item.cells == ("A1", "B1", "C1", "D1", "B2", "C2")


def test_burbs_tie_picks_the_best_group() -> None:
    # R{A1,B1} touches parks A2, C1 (+2); R{C2,D2} touches park C1 and industrial D1 (−1).
    text = """\
    R  R  P  I
    P  C  R  R
    """
    item = score(text, 8)
    assert item.points == 2 and RULING_TIES in item.detail


def test_burbs_without_residential() -> None:
    assert points("P  I\nC  P\n", 8) == 0


# --- 9 Concrete Jungle -----------------------------------------------------------------------------------


def test_concrete_jungle_diagonal_only() -> None:
    # A1, C1, A3 touch B2 corner to corner; B3 touches A3 and B2 only side by side.
    text = """\
    I  C  I
    C  I  C
    I  I  .
    """
    item = score(text, 9)
    assert item.points == 4 and item.cells == ("A1", "C1", "B2", "A3")


def test_concrete_jungle_side_by_side_alone_does_not_score() -> None:
    assert points("I  I  I\nI  I  I\n", 9) == 6  # every block also has a diagonal partner
    assert points("I  I  I\n", 9) == 0


# --- 10 The Strip ----------------------------------------------------------------------------------------


def test_the_strip_card_example_column_of_six() -> None:
    text = "C  P\nC  R\nC  I\nC  P\nC  R\nC  I\n"
    item = score(text, 10)
    assert item.points == 6 and "column A" in item.detail


def test_the_strip_picks_the_best_row_or_column() -> None:
    text = """\
    C  C  C  C
    C  R  P  I
    I  R  P  P
    """
    item = score(text, 10)
    assert item.points == 4 and "row 1" in item.detail
    assert points("R  C  R\nP  C  I\nC  C  C\nP  C  R\n", 10) == 4  # column B beats row 3's three


# --- 11 Mini Marts ---------------------------------------------------------------------------------------


def test_mini_marts_in_line() -> None:
    assert points("R:EW  C:EW  R:EW\n", 11) == 2


def test_mini_marts_stepped() -> None:
    text = """\
    R:EW  C:SW
    .     R:NS
    """
    assert points(text, 11) == 2


@pytest.mark.parametrize(
    "text",
    [
        "R:NS  C:EW  R:EW\n",  # the west residential block's road does not reach the shared side
        "R:EW  C:EW  I:EW\n",  # one end runs into industry
        "R     C:EW  R\n",  # residential blocks without roads
        "R:EW  C     R:EW\n",  # the commercial block has no road
        "P     C:EW  R:EW\n",
    ],
)
def test_mini_marts_needs_residential_road_on_both_ends(text: str) -> None:
    assert points(text, 11) == 0


# --- 12 Superhighway -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "expected"), [(6, 3), (7, 3), (1, 0), (2, 1)])
def test_superhighway_card_example(length: int, expected: int) -> None:
    zones = "RCIRCIRCI"[:length]
    item = score("  ".join(f"{z}:EW" for z in zones) + "\n", 12)
    assert item.points == expected and f"{length} section" in item.detail


def test_superhighway_uses_the_longest_road() -> None:
    text = """\
    R:EW  C:EW  I:EW  P     C:EW  R:EW
    C:EW  I:EW  R:EW  C:EW  I:EW  P
    """
    assert points(text, 12) == 2  # roads of 3, 2 and 5 sections
    assert points("R  C\n", 12) == 0


# --- 13 Park Hopping -------------------------------------------------------------------------------------


def test_park_hopping_two_different_parks() -> None:
    item = score("P  R:EW  C:EW  P\n", 13)
    assert item.points == 3 and "from park A1 to park D1" in item.detail


def test_park_hopping_same_park_at_both_ends_does_not_count() -> None:
    # The road A1–B1–B2 starts and ends against the one park A2.
    text = """\
    R:SE  C:SW
    P     I:NW
    """
    assert points(text, 13) == 0


@pytest.mark.parametrize(
    "text",
    [
        "P  R:EW  C:EW\n",  # one end at the city edge
        "P  R:EW  C:EW  I\n",  # one end against an industrial block
        "P  P\nR:SE  C:SW\nI:NE  R:NW\n",  # a loop has no ends
    ],
)
def test_park_hopping_needs_parks_at_both_ends(text: str) -> None:
    assert points(text, 13) == 0


def test_park_hopping_counts_every_road() -> None:
    text = """\
    P  R:EW  C:EW  P  I:EW  P
    P  C:EW  P     .  .     .
    """
    assert points(text, 13) == 9


# --- 14 Looping Lanes ------------------------------------------------------------------------------------


def test_looping_lanes_card_example_loop_of_twelve() -> None:
    text = """\
    R:SE  C:EW  I:EW  R:SW
    C:NS  P     P     C:NS
    I:NS  P     P     I:NS
    R:NE  C:EW  I:EW  R:NW
    """
    item = score(text, 14)
    assert item.points == 12 and "1 loop" in item.detail


def test_looping_lanes_ignores_roads_with_ends() -> None:
    text = """\
    R:SE  C:SW  I:EW  R:EW
    I:NE  R:NW  P     C:EW
    """
    assert points(text, 14) == 4


# --- 15 Skid Row -----------------------------------------------------------------------------------------


def test_skid_row() -> None:
    # B1 has industry on three sides (+2); D2 has industry on one side only.
    text = """\
    I  R  I  C
    C  I  I  R
    """
    item = score(text, 15)
    assert item.points == 2 and item.cells == ("B1",)


def test_skid_row_diagonal_industry_does_not_count() -> None:
    # A2 shares a side with industrial A3 only; B1 touches it corner to corner.
    assert points("C  I\nR  C\nI  .\n", 15) == 0


# --- 16 Morning Commute ----------------------------------------------------------------------------------


def test_morning_commute() -> None:
    # Road A1–C1 passes R, C and I (+2); road A2–B2 passes R and I only; D1–D2 passes C only.
    text = """\
    R:EW  C:EW  I:EW  C:NS
    R:EW  I:EW  P     C:NS
    """
    assert points(text, 16) == 2


# --- 17 Tourist Traps ------------------------------------------------------------------------------------


def test_tourist_traps_corners_and_interior() -> None:
    text = """\
    C  R  C
    R  C  R
    C  R  C
    """
    item = score(text, 17)
    assert item.points == 8 and "B2" not in item.detail


def test_tourist_traps_opposite_edges_are_not_a_corner() -> None:
    assert points("R  C  R\n", 17) == 1  # north and south on the edge: not perpendicular


def test_tourist_traps_inner_gaps_count_as_edge() -> None:
    text = """\
    R  R  R  R
    R  C  .  R
    R  .  R  R
    R  R  R  R
    """
    item = score(text, 17)
    assert item.points == 2 and RULING_EDGE in item.detail


# --- 18 Sprawlopolis -------------------------------------------------------------------------------------


def test_sprawlopolis_skips_gaps() -> None:
    # Row 1 holds 3 blocks around a gap; column A holds 4 blocks around a gap.
    text = """\
    R  .  C  P
    I  .  .  .
    .  .  .  .
    C  P  .  .
    P  .  .  .
    """
    item = score(text, 18)
    assert item.points == 3 + 4 and "row 1" in item.detail and "column A" in item.detail


def test_numpy_integers_name_cards() -> None:
    import numpy as np

    assert card_item(city("R\n"), np.int64(3)).key == "card:3"  # type: ignore[arg-type]
