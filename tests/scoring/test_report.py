"""Text renderings: the breakdown table and the tally check."""

from __future__ import annotations

from scoring.breakdown import Breakdown, LineItem
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions.interstate import score_interstate
from scoring.report import WIDTH, render_check, render_text
from scoring.tally import check_tally, parse_tally

LONG = "a detail long enough to need wrapping, naming cells A1, B1, C1, D1, E1, F1 and more " * 3
BREAKDOWN = Breakdown(
    game="sprawlopolis",
    city="",
    cards=(8, 17),
    items=(
        LineItem("largest:P", "Largest park group", 7, "7 blocks at B3, C3."),
        LineItem("roads", "Roads", -5, LONG),
        LineItem("card:8", "The 'Burbs", 4, "4 points."),
    ),
    target=25,
    notes=("Ruling (ties): the best group is used.",),
)


def test_table_has_label_points_total_target_and_verdict() -> None:
    text = render_text(BREAKDOWN)
    lines = text.splitlines()
    assert lines[0] == "Sprawlopolis: scoring cards 8 The 'Burbs, 17"
    park = next(line for line in lines if "Largest park group" in line)
    roads = next(line for line in lines if line.lstrip().startswith("Roads"))
    # Points are right-aligned in one column and details start in one column.
    assert park.index("+7") + 2 == roads.index("-5") + 2
    assert park.index("7 blocks") == roads.index("a detail")
    assert any(line.strip().startswith("Total") and line.rstrip().endswith("6") for line in lines)
    assert any("Target" in line and "LOSE (6 < 25)" in line for line in lines)
    assert "Notes:" in text and "Ruling (ties)" in text


def test_long_details_wrap_under_their_column() -> None:
    lines = render_text(BREAKDOWN).splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Roads"))
    column = lines[start].index("a detail")
    continuation = lines[start + 1]
    assert continuation[:column].strip() == "" and continuation[column] != " "


def test_win_is_shown() -> None:
    bd = score_city(parse_city("P  P\n"), [3])  # park group 2 + Go Green 2 = 4 against 3
    assert "WIN (4 ≥ 3)" in render_text(bd)


def test_competitive_interstate_shows_one_table_per_player_and_the_result() -> None:
    city = parse_city("R:EW  R:EW  P\n=============\nR:EW  C     P\n")
    bd = score_interstate(city, (), ["interstate"], None, {"interstate-card": "central-highway"})
    text = render_text(bd)
    assert "North player" in text and "South player" in text
    assert text.index("North player") < text.index("South player")
    assert "Result: North wins on the tiebreaker (longest road)." in text
    north = text[text.index("North player") : text.index("South player")]
    assert "Largest residential group (majority)" in north and "North:" not in north


def test_check_rendering_shows_verdicts_missed_lines_and_totals() -> None:
    report = check_tally(BREAKDOWN, parse_tally("parks 7\nroads -4\nvolcano 1\ntotal 4\n"))
    text = render_check(report)
    assert "line 1: parks +7" in text and "agree: [Largest park group] matches." in text
    assert "DIFFERS: [Roads] computed -5, tally says -4" in text
    assert "NO MATCH" in text
    assert "The 'Burbs" in text.split("missing from the tally (")[1]
    assert "Tally total: 4 as written (its lines add up to 4)" in text
    assert "Computed total: 6" in text
    assert "Difference (tally − computed): -2" in text
    assert text.rstrip().endswith("totals differ by 2.")


def test_check_rendering_of_an_agreeing_tally() -> None:
    report = check_tally(BREAKDOWN, parse_tally("parks 7\nroads -5\ncard 8: 4\n"))
    text = render_check(report)
    assert "Verdict: the tally agrees with the computed score." in text
    assert "missing from the tally" not in text


def test_another_game_is_headed_as_its_own_renderer_says() -> None:
    bd = Breakdown(
        game="wagons",
        city="",
        cards=(0, 4),
        items=(
            LineItem("largest:D", "Desert", 4, "4 territories."),
            LineItem("goal:cool-water", "Cool Water", 6, "2 wagons.", provenance="printed"),
            LineItem("goal:undiscovered", "Undiscovered", 5, "1 space.", provenance="reading"),
        ),
    )
    text = render_text(bd, heading="Circle the Wagons: goal cards Cool Water, Undiscovered")
    assert text.splitlines()[0] == "Circle the Wagons: goal cards Cool Water, Undiscovered"
    assert "scoring cards" not in text and "Target" not in text
