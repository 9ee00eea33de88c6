"""Hand tallies: parsing text and JSON, and matching each line to the breakdown."""

from __future__ import annotations

import json

import pytest

from scoring.breakdown import Breakdown, LineItem
from scoring.tally import TallyFormatError, TallyLine, check_tally, parse_tally, tokens

TEXT = """# our Sunday game
parks 7
residential 6
roads -5
card 8: 4
The 'Burbs 4
wrecktar +3
total 35
"""

BREAKDOWN = Breakdown(
    game="sprawlopolis",
    city="",
    cards=(8, 3),
    items=(
        LineItem("largest:R", "Largest residential group", 6, "6 blocks at A1, B1, C1, D1, E1, F1."),
        LineItem("largest:C", "Largest commercial group", 2, "2 blocks at B2, B3."),
        LineItem("largest:P", "Largest park group", 7, "7 blocks at …"),
        LineItem("roads", "Roads", -6, "−1 for each of 6 roads."),
        LineItem("card:8", "The 'Burbs", 4, "largest residential group …"),
        LineItem("card:3", "Go Green", 1, "+1 × 7 park blocks; −3 × 2 industrial blocks."),
        LineItem("wrecktar", "Wrecktar", 3, "+3: no commercial block in Wrecktar's rows and columns."),
        LineItem("poi", "Point of Interest", 0, "no block shares a side with it."),
    ),
    target=11,
)


def _labels(lines: list[TallyLine]) -> list[tuple[str, int]]:
    return [(t.label, t.points) for t in lines]


def test_text_tally_one_item_per_line() -> None:
    lines = parse_tally(TEXT)
    assert _labels(lines) == [
        ("parks", 7),
        ("residential", 6),
        ("roads", -5),
        ("card 8", 4),
        ("The 'Burbs", 4),
        ("wrecktar", 3),
        ("total", 35),
    ]
    assert [t.line for t in lines] == [2, 3, 4, 5, 6, 7, 8]
    assert lines[-1].is_total and not lines[0].is_total


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("roads −5", ("roads", -5)),
        ("parks: 7", ("parks", 7)),
        ("parks = 7 pts", ("parks", 7)),
        ("  Central Perks   -2   # edge parks", ("Central Perks", -2)),
        ("card 12 3", ("card 12", 3)),
    ],
)
def test_text_tally_spellings(line: str, expected: tuple[str, int]) -> None:
    assert _labels(parse_tally(line)) == [expected]


@pytest.mark.parametrize(
    ("text", "line", "column", "match"),
    [
        ("parks 7\nroads seven\n", 2, 7, "seven"),
        ("parks 7\n\n  12\n", 3, 3, "points without an item"),
        ("parks\n", 1, 1, "parks"),
        ("parks 7\nroads\x07 -1\n", 2, 6, "control character"),
        ("# nothing\n", 1, 1, "empty"),
        ('{"parks": 7,\n "roads": }', 2, 11, "invalid JSON"),
        ('{"parks": 7,\n "roads": "five"}', 2, 2, "whole number"),
    ],
)
def test_malformed_tallies_name_line_and_column(text: str, line: int, column: int, match: str) -> None:
    with pytest.raises(TallyFormatError, match=match) as err:
        parse_tally(text)
    assert (err.value.line, err.value.column) == (line, column)
    assert str(err.value).startswith(f"tally line {line}, column {column}: ")


def test_binary_junk_is_a_tally_error() -> None:
    with pytest.raises(TallyFormatError, match="not a text file"):
        parse_tally(b"\x89PNG\r\n\x1a\n\xff\xfe")


def test_json_object_list_and_items_forms() -> None:
    assert _labels(parse_tally('{"parks": 7, "card:8": 4}')) == [("parks", 7), ("card:8", 4)]
    listed = parse_tally(json.dumps([{"item": "parks", "points": 7}, {"key": "roads", "points": -5}]))
    assert _labels(listed) == [("parks", 7), ("roads", -5)]
    wrapped = parse_tally(json.dumps({"items": [{"label": "parks", "points": 7}], "total": 7}))
    assert _labels(wrapped) == [("parks", 7), ("total", 7)]


def test_json_item_without_points_is_an_error() -> None:
    with pytest.raises(TallyFormatError, match="item 1"):
        parse_tally('[{"item": "parks"}]')


def test_tokens_fold_plurals_synonyms_and_filler() -> None:
    assert tokens("Largest park group") == {"park"}
    assert tokens("green") == tokens("parks") == {"park"}
    assert tokens("card 8: The 'Burbs") == {"8", "burb"}
    assert tokens("prairie") == tokens("Plains") == {"plain"}


def test_check_matches_lines_and_reports_agreement() -> None:
    report = check_tally(BREAKDOWN, parse_tally(TEXT))
    by_line = {c.tally.line: c for c in report.checks}
    assert by_line[2].item is not None and by_line[2].item.key == "largest:P" and by_line[2].agree
    assert by_line[3].item.key == "largest:R" and by_line[3].agree
    roads = by_line[4]
    assert roads.item.key == "roads" and roads.agree is False and roads.computed == -6
    assert "computed -6, tally says -5" in roads.why and "6 roads" in roads.why
    assert by_line[5].item.key == "card:8" and by_line[5].agree
    # "The 'Burbs" means card 8 too, which line 5 already took.
    assert by_line[6].item is None and "already matched by tally line 5" in by_line[6].why
    assert by_line[7].item.key == "wrecktar" and by_line[7].agree
    assert [i.key for i in report.missed] == ["largest:C", "card:3", "poi"]
    assert report.stated_total is not None and report.stated_total.points == 35
    assert report.tally_sum == 19
    assert report.computed_total == 17
    assert report.difference == 18
    assert not report.agrees


def test_go_green_does_not_steal_the_park_line() -> None:
    report = check_tally(BREAKDOWN, parse_tally("green 7\nGo Green 1\n"))
    assert [c.item.key for c in report.checks if c.item] == ["largest:P", "card:3"]


def test_letters_numbers_names_and_typos() -> None:
    text = "P 7\nR 6\n3: 1\nburbs 4\nresedential 6\nPoints of interest 0\n"
    report = check_tally(BREAKDOWN, parse_tally(text))
    keys = [c.item.key if c.item else None for c in report.checks]
    assert keys == ["largest:P", "largest:R", "card:3", "card:8", None, "poi"]


def test_unmatched_line_lists_the_breakdown_lines() -> None:
    report = check_tally(BREAKDOWN, parse_tally("volcano 2\n"))
    [check] = report.checks
    assert check.item is None and check.agree is None
    assert "Largest park group" in check.why
    assert report.unmatched == (check,)


def test_a_complete_correct_tally_agrees() -> None:
    text = "\n".join(f"{i.key} {i.points}" for i in BREAKDOWN.items) + f"\ntotal {BREAKDOWN.total}\n"
    report = check_tally(BREAKDOWN, parse_tally(text))
    assert report.agrees
    assert report.difference == 0 and report.missed == ()


def test_zero_point_lines_left_out_do_not_spoil_agreement() -> None:
    text = "\n".join(f"{i.label} {i.points}" for i in BREAKDOWN.items if i.points)
    assert check_tally(BREAKDOWN, parse_tally(text)).agrees


def test_circle_the_wagons_territories_and_goal_cards() -> None:
    wagons = Breakdown(
        game="circle-the-wagons",
        city="",
        cards=(),
        items=(
            LineItem("largest:D", "Largest desert group", 4, ""),
            LineItem("largest:P", "Largest plains group", 5, ""),
            LineItem("largest:W", "Largest water group", 3, ""),
            LineItem("largest:M", "Largest mountains group", 6, ""),
            LineItem("goal:cool-water", "Cool Water", 6, ""),
        ),
    )
    text = "prairie 5\nwater 3\nCool Water 6\ndeserts 4\nmountain 6\n"
    report = check_tally(wagons, parse_tally(text))
    keys = [c.item.key if c.item else None for c in report.checks]
    assert keys == ["largest:P", "largest:W", "goal:cool-water", "largest:D", "largest:M"]
    assert report.agrees


def test_competitive_player_lines_by_side() -> None:
    bd = Breakdown(
        game="sprawlopolis",
        city="",
        cards=(),
        items=(
            LineItem("north:largest:P", "North: Largest park group", 2, ""),
            LineItem("south:largest:P", "South: Largest park group", 1, ""),
        ),
    )
    report = check_tally(bd, parse_tally("south parks 1\nnorth parks 2\n"))
    assert [c.item.key for c in report.checks if c.item] == ["south:largest:P", "north:largest:P"]
    assert report.agrees


def test_report_json() -> None:
    data = check_tally(BREAKDOWN, parse_tally(TEXT)).to_json()
    assert data["agree"] is False
    assert data["total"] == {"tally": 35, "stated": 35, "sum_of_lines": 19, "computed": 17, "difference": 18}
    first = data["lines"][0]
    assert first == {
        "line": 2,
        "item": "parks",
        "points": 7,
        "key": "largest:P",
        "label": "Largest park group",
        "computed": 7,
        "agree": True,
        "why": "7 blocks at …",
    }
    assert data["unmatched"] == [6]
    assert [m["key"] for m in data["missed"]] == ["largest:C", "card:3", "poi"]
    json.dumps(data)


def test_the_verdicts_count_of_missing_lines_is_the_length_of_the_list_above_it() -> None:
    from scoring.report import render_check

    text = render_check(check_tally(BREAKDOWN, parse_tally(TEXT)))
    missing = text.split("Scoring lines missing from the tally (2):\n", 1)[1].split("\n\n", 1)[0]
    assert (
        "Largest commercial group" in missing and "Go Green" in missing and "Point of Interest" not in missing
    )
    zero = text.split("Lines worth 0 the tally need not mention:\n", 1)[1].split("\n\n", 1)[0]
    assert "Point of Interest" in zero
    assert "2 scoring line(s) missing from the tally" in text
