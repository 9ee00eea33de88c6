"""The town decoding's edges: the readings it refuses (naming the cell), and the decoded town written in
the town text format that the scorer reads."""

from __future__ import annotations

import math

import pytest

from scoring.wagons import TownFormatError, parse_town, score_town
from tests.vision.test_towns import ROOT, clean, clean_grid, rulebook_tokens
from vision.towns import TOKENS, TownEvidenceError, decode_town, decoded_town, town_evidence, town_text


@pytest.mark.parametrize(
    ("readings", "message"),
    [
        ([], "the grid has no cells"),
        ([[clean("D/w"), clean(".")], [clean(".")]], "row 2 has 1 cells but the first row has 2"),
        ([[clean("."), {"D/x": 0.5}]], r"cell B1: unknown label 'D/x'"),
        ([[clean("."), {"D/w": "high"}]], "cell B1: probability of 'D/w' is not a number"),
        ([[clean(".")], [[0.5, 0.5]]], r"cell A2: expected 37 probabilities .* got shape \(2,\)"),
        ([[{"D/w": -0.1, ".": 1.0}]], "cell A1: probabilities must be finite and not negative"),
        ([[{"D/w": math.nan}]], "cell A1: probabilities must be finite and not negative"),
        ([[{"D/w": 0.7, ".": 0.7}]], "cell A1: probabilities sum to 1.4"),
        ([[{".": 0.0}]], "cell A1: probabilities sum to 0"),
    ],
)
def test_readings_the_decoder_cannot_take_are_refused_naming_the_cell(readings: list, message: str) -> None:
    with pytest.raises(TownEvidenceError, match=message):
        decode_town(readings)


def test_a_cell_may_be_given_as_37_probabilities_or_as_a_partial_mapping() -> None:
    as_list = [[0.0] * len(TOKENS)]
    as_list[0][TOKENS.index("S/g")] = 0.8
    as_list[0][TOKENS.index(".")] = 0.2
    assert (town_evidence([as_list]) == town_evidence([[{"S/g": 0.8, ".": 0.2}]])).all()
    floor = town_evidence([[{"S/g": 1.0}]])[0, 0, TOKENS.index("D/w")]
    assert floor == pytest.approx(math.log(1e-6))


def test_the_decoded_rulebook_town_is_written_as_the_sample_and_scores_20() -> None:
    decoding = decode_town(clean_grid(rulebook_tokens()))
    text = town_text(decoding, goals=["cool-water", "badlands", "the-clearing"])
    town = parse_town(text)
    sample = parse_town((ROOT / "samples" / "wagons-rulebook.town").read_text())
    assert town.grid == sample.grid
    assert town.header("game") == "wagons" and town.header("cards") == "0 1 2 4 13 14"
    assert town.header("goals") == "cool-water, badlands, the-clearing"
    assert score_town(town, goals=[]).total == 20
    assert decoded_town(decoding)[1] == (1, 1)  # the lattice's ring of table trimmed off


def test_a_cell_no_card_explains_is_written_as_read() -> None:
    tokens = rulebook_tokens()
    grid = clean_grid(tokens)
    grid[5][2] = {"W/w": 0.999}  # no card shows it
    town, origin = decoded_town(decode_town(grid))
    assert town.cell(5 - origin[0], 2 - origin[1]).token() == "W/w"


def test_an_unknown_goal_name_or_a_town_with_no_territory_is_refused() -> None:
    decoding = decode_town(clean_grid(rulebook_tokens()))
    with pytest.raises(TownFormatError, match="cool-waters"):
        town_text(decoding, goals=["cool-waters"])
    with pytest.raises(ValueError, match="no territory"):
        town_text(decode_town([[clean(".")] * 3] * 3))
