"""The strict number reader and the bounded JSON loader, and every parser that uses them: each defect of
issue 14 one by one (``²``, 5 000-digit numbers, ``1e999``/``NaN``/``-Infinity``, 2 000-deep nesting,
grids too wide, empty rows, ``cards: 99``, unknown options), then Hypothesis over arbitrary text."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.city import MAX_SIDE, CityFormatError, city_from_rows
from scoring.city_text import parse_city
from scoring.engine import UnknownOptionError, score_city
from scoring.errors import InputError, TextFormatError
from scoring.numbers import MAX_DIGITS, JSONError, NumberError, json_depth, load_json, whole_number
from scoring.tally import TallyFormatError, parse_tally
from scoring.wagons.errors import OptionError, PileError
from scoring.wagons.pile import parse_pile
from scoring.wagons.score import parse_options, score_town
from scoring.wagons.town_text import parse_town

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HUGE = "9" * 5000  # past Python's 4 300-digit int() limit


# ---- whole_number ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lo", "hi", "value"),
    [("7", 0, 9, 7), (" 18 ", 1, 18, 18), ("+3", 0, 9, 3), ("-4", -9, 9, -4), ("−4", -9, 9, -4)],
)
def test_whole_number_reads_ascii_digits(text: str, lo: int, hi: int, value: int) -> None:
    assert whole_number(text, lo=lo, hi=hi) == value


@pytest.mark.parametrize(
    "text", ["²", "٣", "１", "1.0", "1e3", "", " ", "--1", "1 2", HUGE, "0x10", "½", "-1", "19"]
)
def test_whole_number_refuses_everything_else_with_a_value_error(text: str) -> None:
    with pytest.raises(NumberError, match="expected a whole number from 0 to 18"):
        whole_number(text, lo=0, hi=18)


def test_whole_number_caps_the_length_before_int() -> None:
    assert whole_number("9" * MAX_DIGITS) == 10**MAX_DIGITS - 1
    with pytest.raises(NumberError):
        whole_number("1" + "0" * MAX_DIGITS)


@FUZZ
@given(st.text(max_size=40))
def test_whole_number_returns_an_int_in_range_or_a_number_error(text: str) -> None:
    try:
        value = whole_number(text, lo=-50, hi=50)
    except NumberError:
        return
    assert isinstance(value, int) and -50 <= value <= 50


# ---- load_json -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[1e999]", "finite, got 1e999"),
        ('{"a": NaN}', "finite, got NaN"),
        ("-Infinity", "finite, got -Infinity"),
        ("[" + HUGE + "]", "more than 18 digits"),
        ("[" * 2000 + "]" * 2000, "nested 2000 levels deep"),
        ('{"a": ' * 40 + "1" + "}" * 40, "nested 40 levels"),
    ],
)
def test_load_json_refuses_what_python_would_crash_or_bend_on(text: str, words: str) -> None:
    with pytest.raises(JSONError, match=words):
        load_json(text)


def test_load_json_keeps_ordinary_json_and_counts_depth_outside_strings() -> None:
    assert load_json('{"a": [1, 2.5, "[[[{{{"], "b": null}') == {"a": [1, 2.5, "[[[{{{"], "b": None}
    assert json_depth('["\\"[[[", [[]]]') == 3
    assert load_json("[" * 32 + "]" * 32) is not None
    with pytest.raises(json.JSONDecodeError):
        load_json("{not json")


@FUZZ
@given(st.text(alphabet='[]{}",:0123456789.eE+-naNIfinty \\', max_size=80))
def test_load_json_returns_json_or_a_value_error(text: str) -> None:
    # JSONDecodeError and JSONError are both ValueErrors; anything else fails the test.
    with contextlib.suppress(ValueError):
        load_json(text)


# ---- the parsers, defect by defect -----------------------------------------------------------------------


def test_city_cards_header_refuses_superscripts_and_huge_numbers_at_their_place() -> None:
    for bad in ("²", HUGE):
        with pytest.raises(CityFormatError) as err:
            parse_city(f"cards: 8 {bad}\nR  C\n")
        assert (err.value.line, err.value.column) == (1, 10)


def test_cards_99_in_a_file_names_the_line_and_keeps_the_unknown_card_code() -> None:
    with pytest.raises(CityFormatError) as err:
        parse_city("# a game\ncards: 8 99\nR  C\n")
    assert (err.value.line, err.value.column, err.value.code) == (2, 10, "unknown_card")


def test_grids_wider_or_taller_than_the_limit_are_refused_before_scoring() -> None:
    wide = "  ".join(["P"] * (MAX_SIDE + 1)) + "\n"
    with pytest.raises(CityFormatError, match="at most 64 cells wide") as err:
        parse_city(wide)
    assert err.value.column == 3 * MAX_SIDE + 1
    with pytest.raises(CityFormatError, match="more than 64 rows") as err:
        parse_city("P\n" * (MAX_SIDE + 1))
    assert err.value.line == MAX_SIDE + 1
    with pytest.raises(CityFormatError, match="at most 64 cells wide"):
        city_from_rows([["P"] * 2000])
    with pytest.raises(CityFormatError, match="at most 64"):
        city_from_rows([["P"]] * (MAX_SIDE + 1))
    with pytest.raises(InputError, match="at most 64"):
        parse_town("D/w  " * (MAX_SIDE + 1) + "\n")
    assert parse_city(("P  " * MAX_SIDE + "\n") * MAX_SIDE).n_cols == MAX_SIDE


def test_empty_rows_are_refused_like_an_empty_text_city() -> None:
    for rows in ([[]], [["P"], []]):
        with pytest.raises(CityFormatError, match="non-empty"):
            city_from_rows(rows)  # type: ignore[arg-type]


def test_tally_points_refuse_huge_numbers_and_json_specials() -> None:
    with pytest.raises(TallyFormatError) as err:
        parse_tally(f"parks {HUGE}\n")
    assert (err.value.line, err.value.column) == (1, 7)
    with pytest.raises(TallyFormatError, match="cannot read"):
        parse_tally("parks ²\n")
    for text, column in (('{"parks": 1e999}', 11), ('{"parks": NaN}', 11), ('{\n "parks": -Infinity}', 11)):
        with pytest.raises(TallyFormatError, match="finite") as err:
            parse_tally(text)
        assert err.value.column == column
    with pytest.raises(TallyFormatError, match="nested 2000"):
        parse_tally("[" * 2000 + "]" * 2000)
    with pytest.raises(TallyFormatError, match="between -9999 and 9999"):
        parse_tally('{"parks": 123456}')


def test_wagons_options_headers_and_piles_refuse_bad_numbers() -> None:
    for bad in ("²", HUGE, "-1", True, 2.5, None):
        with pytest.raises(OptionError):
            parse_options({"opponent-undiscovered": bad})  # type: ignore[dict-item]
    assert parse_options({"opponent-undiscovered": 3}) == {"opponent-undiscovered": 3}
    with pytest.raises(PileError, match="card numbers 0 to 17"):
        score_town(parse_town(f"cards: 3 {HUGE}\nD/w\n"))
    with pytest.raises(PileError):
        score_town(parse_town("cards: 3 ²\nD/w\n"))
    for words in (["1", HUGE], [f"snow={HUGE}"], ["snow=²"], ["²"]):
        with pytest.raises(PileError):
            parse_pile(words)


def test_unknown_sprawlopolis_options_are_refused_like_wagons_ones() -> None:
    city = parse_city("R:EW  C:EW\n")
    with pytest.raises(UnknownOptionError, match="option 'construction-penalt'.*construction-penalty"):
        score_city(city, options={"construction-penalt": "2"})
    assert score_city(city, options={"Construction_Penalty": "2"}).total == score_city(city).total


# ---- Hypothesis: every parser gives a result or its own error --------------------------------------------


@FUZZ
@given(st.text(max_size=300))
def test_text_parsers_give_a_result_or_an_input_error(text: str) -> None:
    for parse in (parse_city, parse_town, parse_tally):
        try:
            parse(text)
        except TextFormatError as exc:
            assert exc.line >= 1 and exc.column >= 1
        except InputError:
            pass


@FUZZ
@given(st.binary(max_size=200))
def test_text_parsers_take_arbitrary_bytes(data: bytes) -> None:
    for parse in (parse_city, parse_town, parse_tally):
        with contextlib.suppress(InputError):
            parse(data)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(JSON)
def test_tally_json_gives_a_result_or_an_input_error(value: object) -> None:
    with contextlib.suppress(InputError):  # floats include nan and inf: json.dumps writes NaN, Infinity
        parse_tally(json.dumps(value))


@FUZZ
@given(st.lists(st.text(max_size=12), max_size=6), st.dictionaries(st.text(max_size=20), JSON, max_size=3))
def test_piles_and_options_give_a_result_or_an_input_error(words: list[str], options: dict) -> None:
    for call in (lambda: parse_pile(words), lambda: parse_options(options)):
        with contextlib.suppress(InputError):
            call()


def test_expansion_number_options_use_the_strict_reader() -> None:
    from scoring.expansions import ExpansionOptionError

    city = parse_city("expansions: roadwork\nR:EW  C:EW\n")
    for bad in ("٣", "²", HUGE, "-1"):
        with pytest.raises(ExpansionOptionError, match="roadwork-unplayed: expected a whole number"):
            score_city(city, options={"roadwork-unplayed": bad})
    assert score_city(city, options={"roadwork-unplayed": "2"}).total < score_city(city).total + 1
