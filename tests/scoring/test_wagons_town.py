"""The Circle the Wagons town format: reading, writing back, and errors that name line and column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.city import CityFormatError
from scoring.errors import InputError
from scoring.wagons import Territory, TownFormatError, format_town, parse_town, town_from_rows
from scoring.wagons.cards import CARDS, card_grid
from scoring.wagons.town import ICONS, TERRAINS

EXAMPLE = """\
# the rulebook's example town
goals: cool-water badlands
.    .    .    .    P/c  P/f
D/w  D/g  D/f  P/b  P/m  F/b
D/c  M/f  M/c  M/c  P/g  .
W/m  W/b  M/f  M/m  .    .
S/w  W/g  D/b  M/w  .    .
"""


def test_parse_reads_cells_headers_and_counts() -> None:
    town = parse_town(EXAMPLE)
    assert (town.n_rows, town.n_cols) == (5, 6)
    assert town.cell(0, 0) is None
    assert town.cell(1, 0) == Territory("D", "w")
    assert town.cell(4, 3) == Territory("M", "w")
    assert town.cell(9, 9) is None  # outside the grid every cell is empty
    assert town.header("goals") == "cool-water badlands"
    assert town.n_territories == 21
    assert town.terrain_counts()["M"] == 6
    assert town.icon_counts()["w"] == 3


def test_neighbours_share_sides_only() -> None:
    town = parse_town("P/c  D/w\nS/b  F/m\n")
    assert sorted(pos for pos, _ in town.neighbours((0, 0))) == [(0, 1), (1, 0)]


def test_format_then_parse_gives_the_same_town() -> None:
    town = parse_town(EXAMPLE)
    text = format_town(town)
    assert text.splitlines()[0] == "goals: cool-water badlands"
    assert text.splitlines()[1] == ".    .    .    .    P/c  P/f"
    assert parse_town(text) == town


def test_bytes_bom_tabs_and_crlf_are_accepted() -> None:
    town = parse_town(b"\xef\xbb\xbfD/w\tP/c\r\n.  S/b\r\n")
    assert town.cell(0, 1) == Territory("P", "c") and town.cell(1, 0) is None


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("D/w  X/c\n", 1, 6, "unknown territory 'X'"),
        ("D/w  D/x\n", 1, 8, "unknown icon 'x'"),
        ("D/w\nDw\n", 2, 1, "cannot read cell 'Dw'"),
        ("D/w  P/c\nS/b\n", 2, 4, "row has 1 cells but the rows above have 2"),
        ("D/w\nS/b  P/c\n", 2, 6, "row has 2 cells but the rows above have 1"),
        ("# nothing\n\n", 2, 1, "no town grid found"),
        (".  .\n", 1, 1, "no territory"),
        ("D/w\ngoals: badlands\n", 2, 1, "after the grid"),
        ("D/w\x07\n", 1, 4, "control character"),
        ("D/w\n\nP/c\x0cS/b\n", 3, 4, "control character"),
        ("D:w\n", 1, 1, "cannot read cell 'D:w'"),
        ("x/w\n", 1, 1, "unknown territory 'X'"),
    ],
)
def test_bad_towns_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(TownFormatError) as err:
        parse_town(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert words in str(err.value)
    assert str(err.value).startswith(f"line {line}, column {column}: ")
    assert isinstance(err.value, CityFormatError) and isinstance(err.value, InputError)


def test_invalid_utf8_is_a_format_error() -> None:
    with pytest.raises(TownFormatError, match="not a text file") as err:
        parse_town(b"D/w\nP/\xff\n")
    assert err.value.line == 2


def test_rows_form_matches_the_text_form() -> None:
    assert town_from_rows([["D/w", "."], [".", "S/b"]]) == parse_town("D/w  .\n.    S/b\n")
    with pytest.raises(TownFormatError, match="row has 1 cells"):
        town_from_rows([["D/w", "."], ["S/b"]])
    with pytest.raises(TownFormatError, match="non-empty list"):
        town_from_rows([])


def test_card_table_has_18_cards_with_four_territories_each() -> None:
    assert sorted(CARDS) == list(range(18))
    for card in CARDS.values():
        assert len(card) == 4
        assert all(t.terrain in TERRAINS and t.icon in ICONS for t in card)
    # The rulebook example's first row pair uses card 0 (P/c P/f over P/m F/b).
    assert card_grid(0) == (
        (Territory("P", "c"), Territory("P", "f")),
        (Territory("P", "m"), Territory("F", "b")),
    )
    assert card_grid(0, rotated=True)[0] == (Territory("F", "b"), Territory("P", "m"))


cells = st.one_of(st.none(), st.builds(Territory, st.sampled_from(TERRAINS), st.sampled_from(ICONS)))


@given(
    st.integers(1, 5).flatmap(
        lambda w: st.lists(st.lists(cells, min_size=w, max_size=w), min_size=1, max_size=5)
    )
)
def test_round_trip_any_town(grid: list[list[Territory | None]]) -> None:
    if all(c is None for row in grid for c in row):
        grid[0][0] = Territory("D", "w")
    text = "\n".join("  ".join("." if c is None else c.token() for c in row) for row in grid)
    town = parse_town(text)
    assert parse_town(format_town(town)) == town


def test_docstring_examples_hold() -> None:
    import doctest

    import scoring.wagons.names
    import scoring.wagons.town

    for module in (scoring.wagons.town, scoring.wagons.names):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


def test_town_cells_read_the_same_in_any_case() -> None:
    assert parse_town("d/W  w/M\n.    s/c\n") == parse_town("D/w  W/m\n.    S/c\n")


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("goal: cool-water\nD/w\n", 1, 1, "unknown header 'goal' (did you mean 'goals'?)"),
        (
            "# t\n oponent-pile: 3 4\nD/w\n",
            2,
            2,
            "unknown header 'oponent-pile' (did you mean 'opponent-pile'?)",
        ),
        (
            "goals: badlands cool-watr\nD/w\n",
            1,
            17,
            "unknown goal card 'cool-watr' (did you mean 'cool-water'?)",
        ),
        ("scenario: water-the-heard\nD/w\n", 1, 11, "(did you mean 'water-the-herd'?)"),
        ("goals: badlands\ngoals: cool-water\nD/w\n", 2, 1, "header 'goals' given twice"),
    ],
)
def test_town_headers_and_goal_names_name_the_line_and_the_nearest_valid_word(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(TownFormatError) as err:
        parse_town(text)
    assert (err.value.line, err.value.column) == (line, column) and words in err.value.message
