"""The city text format: reading, writing, round trips and every kind of malformed input."""

from __future__ import annotations

import pytest

from scoring.city import Cell, CityFormatError, block, canonical_road, cell_name, city_from_rows, format_city
from scoring.city_text import parse_city
from scoring.errors import InputError

FULL = """\
# a city using every kind of cell
cards: 8 7 17
expansions: wrecktar beaches
construction-penalty: 3
R:EW   I:WE  R:EW*  C:EW!
P      W     I:SW   .
=====
~      C:NS  P      R:ES*!
"""


def test_parse_every_kind_of_cell() -> None:
    c = parse_city(FULL)
    assert c.cards == (8, 7, 17) and c.expansions == ("wrecktar", "beaches")
    assert c.header("construction-penalty") == "3"
    assert (c.n_rows, c.n_cols, c.interstate) == (3, 4, 2)
    assert c.cell(0, 1) == block("I", "EW")  # "WE" is read as "EW"
    assert c.cell(0, 2).poi and not c.cell(0, 2).construction
    assert c.cell(0, 3).construction and c.cell(0, 3).zone == "C"
    assert c.cell(1, 1) == Cell("wrecktar") and c.cell(2, 0) == Cell("beach") and c.cell(1, 3) == Cell()
    assert c.cell(2, 3) == Cell("block", "R", "SE", poi=True, construction=True)
    assert c.cell(5, 5) == Cell()  # outside the grid everything is empty


def test_format_writes_canonical_text() -> None:
    text = format_city(parse_city(FULL))
    head = ["cards: 8 7 17", "expansions: wrecktar beaches", "construction-penalty: 3"]
    assert text.splitlines()[:3] == head
    assert "I:EW" in text and "R:SE*!" in text and "=" * 10 in text
    assert format_city(parse_city(text)) == text


def test_round_trip() -> None:
    c = parse_city(FULL)
    assert parse_city(format_city(c)) == c


def test_whitespace_and_comments_do_not_change_the_city() -> None:
    a = parse_city("R:EW C:NS\nP .\n")
    b = parse_city("\n# comment\n   R:EW\t\tC:SN   # trailing\n\nP      .\r\n")
    assert a == b


def test_bom_and_bytes_are_accepted() -> None:
    assert parse_city("\ufeffR  C\n".encode()) == parse_city("R  C\n")


def test_road_spellings() -> None:
    spelled = [canonical_road(s) for s in ("SN", "EN", "WN", "ES", "WS", "WE")]
    assert spelled == ["NS", "NE", "NW", "SE", "SW", "EW"]
    with pytest.raises(ValueError):
        canonical_road("NN")


def test_cell_names() -> None:
    names = [cell_name(0, 0), cell_name(9, 2), cell_name(0, 25), cell_name(0, 27)]
    assert names == ["A1", "C10", "Z1", "AB1"]


def test_rows_form_matches_text_form() -> None:
    rows = [["R:EW", "C:EW"], ["P", "."]]
    assert city_from_rows(rows) == parse_city("R:EW  C:EW\nP  .\n")
    with pytest.raises(CityFormatError) as err:
        city_from_rows([["R", "C"], ["P"]])
    assert (err.value.line, err.value.column) == (2, 2)
    with pytest.raises(CityFormatError):
        city_from_rows([["R", 3]])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("R  C\nR  X\n", 2, 4, "unknown zone 'X'"),
        ("R  C\nr  x\n", 2, 4, "unknown zone 'X'"),
        ("R:NX  C\n", 1, 4, "bad road side 'X'"),
        ("P  R  C:QS\n", 1, 9, "bad road side 'Q'"),
        ("R  C:NN\n", 1, 6, "two different sides"),
        ("R  C:NSE\n", 1, 6, "two different sides"),
        ("R:  C\n", 1, 3, "two different sides"),
        ("R  C  I\nR  C\n", 2, 5, "row has 2 cells but the rows above have 3"),
        ("R  C\nR  C  I\n", 2, 7, "row has 3 cells but the rows above have 2"),
        ("# c\nR  P:EW\n", 2, 4, "park block never holds a road"),
        ("", 1, 1, "no city grid"),
        ("# only a comment\n\n", 2, 1, "no city grid"),
        ("cards: 8 seven\nR\n", 1, 10, "expected a whole number from 1 to 18"),
        ("  cards :   x\nR\n", 1, 13, "expected a whole number"),
        ("R  C  ?\n", 1, 7, "cannot read cell '?'"),
        ("R  C\x00\n", 1, 5, "control character"),
        ("R  C\n\x0cP  P\n", 2, 1, "control character"),
        ("=====\nR  C\n", 1, 1, "interstate line must lie between two rows"),
        ("R  C\n====\n", 2, 1, "interstate line must lie between two rows"),
        ("R  C\n===\nR  C\n===\nR  C\n", 4, 1, "only one interstate"),
        ("R  C**\n", 1, 4, "repeated mark"),
    ],
)
def test_malformed_text_names_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(CityFormatError) as err:
        parse_city(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert words in err.value.message
    assert str(err.value).startswith(f"line {line}, column {column}: ")
    assert isinstance(err.value, InputError) and err.value.code == "malformed_city"
    assert "\n" not in str(err.value)  # one line, as the command line prints it


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, 1),  # a PNG file
        (b"R  C\nP  \xff\xfe\n", 2, 4),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", 1, 1),  # a JPEG file
        (b"R  C\n\x1b[31m\n", 2, 1),  # valid UTF-8 but a terminal escape
    ],
)
def test_binary_junk_is_rejected_with_position(data: bytes, line: int, column: int) -> None:
    with pytest.raises(CityFormatError) as err:
        parse_city(data)
    assert (err.value.line, err.value.column) == (line, column)


def test_lowercase_cells_mean_the_same_as_upper_case() -> None:
    lower = parse_city("r:ew  c:sn*  w  w\np     i:es!  w  w\n")
    assert lower == parse_city("R:EW  C:NS*  W  W\nP     I:SE!  W  W\n")
    assert format_city(lower).splitlines()[0] == "R:EW  C:NS*  W  W"  # written back in upper case


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("card: 5 9 11\nR\n", 1, 1, "unknown header 'card' (did you mean 'cards'?)"),
        ("# game\n  expansion: wrecktar\nR\n", 2, 3, "header 'expansion' (did you mean 'expansions'?)"),
        ("expansions: wreckter\nR\n", 1, 13, "unknown expansion 'wreckter' (did you mean 'wrecktar'?)"),
        ("expansions: poi, beach:peninsla\nR\n", 1, 18, "(did you mean 'beach:peninsula'?)"),
        ("construction_penalty: 2\nR\n", 1, 1, "(did you mean 'construction-penalty'?)"),
        ("variant: easyer\nR\n", 1, 10, "unknown variant 'easyer' (did you mean 'easier'?)"),
        ("game: sprawlopolys\nR\n", 1, 7, "(did you mean 'sprawlopolis'?)"),
        ("penalty: 3\nR\n", 1, 1, "unknown header 'penalty' (known: cards, expansions, variant, game,"),
        ("cards: 1 2 3\ncards: 4 5 6\nR\n", 2, 1, "header 'cards' given twice (first on line 1)"),
    ],
)
def test_unknown_header_words_name_the_line_and_the_nearest_valid_word(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(CityFormatError) as err:
        parse_city(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert words in err.value.message and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "column", "code", "words"),
    [
        ("cards: 5 9\nR\n", 11, "wrong_card_count", "exactly 3 scoring cards; 2 given (5 9)"),
        ("cards: 1 2 3 4\nR\n", 14, "wrong_card_count", "exactly 3 scoring cards; 4 given (1 2 3 4)"),
        ("cards: 1, 2, 2\nR\n", 14, "unknown_card", "scoring card 2 (Bloom Boom) is given twice"),
        ("cards: 19 2 3\nR\n", 8, "unknown_card", "from 1 to 18"),
        (
            "expansions: interstate:central-highway\ncards: 5 9 11\nR\n==\nC\n",
            12,
            "wrong_card_count",
            "a competitive Interstate game has exactly 2 scoring cards; 3 given",
        ),
    ],
)
def test_a_cards_header_names_one_games_scoring_cards(text: str, column: int, code: str, words: str) -> None:
    with pytest.raises(CityFormatError) as err:
        parse_city(text)
    assert (err.value.column, err.value.code) == (column, code) and words in err.value.message


def test_a_competitive_interstate_city_names_two_cards_and_a_cooperative_one_three() -> None:
    grid = "R\n==\nC\n"
    competitive = "expansions: interstate\ninterstate-card: central-highway\n"
    assert parse_city("cards: 5 9\n" + competitive + grid).cards == (5, 9)
    assert parse_city("cards: 5 9 11\nexpansions: interstate\n" + grid).cards == (5, 9, 11)
    assert parse_city("cards:\nR\n").cards == ()  # an empty header gives no cards, as no header does
