"""Doubt a player needs: a doubt line only where the other reading changes what is scored, and no scoring
card taken from a city whose reading is in doubt (vision.city.doubt_matters, through the scan's settle step
and the CLI's lines)."""

from __future__ import annotations

from games.doubt_text import doubt_text
from games.sprawlopolis import ScoreOptions, score_scan
from scoring.city import parse_cell
from scoring.city_text import parse_city
from scoring.engine import score_city
from vision.backs import BackNumber, ScoringCards
from vision.cards import CardReading, CardStacking
from vision.cells import CellReading
from vision.city.assemble import assemble_city
from vision.city.doubt import CellDoubt
from vision.city.doubt_matters import doubts_that_matter, scored_lines, unsure_city_cards
from vision.city.read_cards import CityCards
from vision.city.result import ScanResult, settle_doubts

# B2 read as R:NS. As R:SW it would score the same on every line with cards 1, 2 and 3 (its road ends
# still end the same roads, and no card counts it otherwise); as a commercial block, or as R:EW (the same
# total, by other lines), the breakdown changes.
CITY = parse_city("cards: 1 2 3\nR:EW  C:EW  I:EW\nP     R:NS  P\nR:NS  C:NS  I:NS\n")


def _doubt(*alternatives: str, row: int = 1, col: int = 1) -> CellDoubt:
    return CellDoubt(
        row, col, CITY.cell(row, col).token(), alternatives, "read with 40% confidence", ("classifier",)
    )


def test_an_alternative_that_scores_every_line_the_same_is_dropped_and_its_cell_with_it() -> None:
    changed = CITY.with_cell(1, 1, parse_cell("R:SW"))
    assert score_city(changed).total == score_city(CITY).total
    assert scored_lines(changed, (1, 2, 3)) == scored_lines(CITY, (1, 2, 3))
    assert doubts_that_matter(CITY, (_doubt("R:SW"),), (1, 2, 3)) == ()


def test_a_same_total_alternative_gives_no_doubt_line_under_the_score() -> None:
    scan = ScanResult(CITY, [], [], {}, None, doubts=(_doubt("R:SW"),))
    kept = doubts_that_matter(CITY, scan.doubts, (1, 2, 3))
    assert doubt_text(score_scan(ScanResult(CITY, [], [], {}, None, doubts=kept), ScoreOptions()).doubt) == ""
    # The same cell with an alternative that changes the total keeps its line, and only that alternative.
    (doubt,) = doubts_that_matter(CITY, (_doubt("R:SW", "C:NS"),), (1, 2, 3))
    assert doubt.alternatives == ("C:NS",)
    line = doubt_text(score_scan(ScanResult(CITY, [], [], {}, None, doubts=(doubt,)), ScoreOptions()).doubt)
    total = score_city(CITY.with_cell(1, 1, parse_cell("C:NS"))).total
    assert f"B2 read as R:NS: if it is C:NS the total is {total} (" in line and "R:SW" not in line


def test_an_alternative_with_the_same_total_on_other_lines_is_kept() -> None:
    changed = CITY.with_cell(1, 1, parse_cell("R:EW"))
    assert score_city(changed).total == score_city(CITY).total
    assert scored_lines(changed, (1, 2, 3)) != scored_lines(CITY, (1, 2, 3))
    (doubt,) = doubts_that_matter(CITY, (_doubt("R:EW"),), (1, 2, 3))
    assert doubt.alternatives == ("R:EW",)
    # Its line says that the total stays and which lines move, not a bare "the total is" the same.
    scored = score_scan(ScanResult(CITY, [], [], {}, None, doubts=(doubt,)), ScoreOptions())
    ((alt,),) = [d["alternatives"] for d in scored.doubt]
    assert alt["total"] == scored.breakdown.total and alt["changes"]
    moved = {c["line"]: (c["from"], c["to"]) for c in alt["changes"]}
    for item in score_city(changed).items:
        before = score_city(CITY).item(item.key)
        assert (item.label in moved) == (before is not None and before.points != item.points)
    line = doubt_text(scored.doubt, scored.breakdown.total)
    assert f"if it is R:EW the total is {scored.breakdown.total} too, by other lines (" in line


def test_with_the_scoring_cards_unknown_an_alternative_matters_when_any_card_would_score_it_otherwise() -> (
    None
):
    # A hole at B2 leaves cards 1, 2 and 3 as they are, but not every one of the 18.
    hole = CITY.with_cell(1, 1, parse_cell("."))
    assert scored_lines(hole, (1, 2, 3)) == scored_lines(CITY, (1, 2, 3))
    assert scored_lines(hole, None) != scored_lines(CITY, None)
    assert doubts_that_matter(CITY, (_doubt("."),), (1, 2, 3)) == ()
    (doubt,) = doubts_that_matter(CITY, (_doubt("."),), None)
    assert doubt.alternatives == (".",)


def _from_city(backs: tuple[BackNumber, ...] = ()) -> ScoringCards:
    warning = (
        "scoring cards not read from their backs; taken as the three cards missing from the city: 1, 7, 17"
    )
    source = "city" if not backs else "both"
    return ScoringCards((1, 7, 17), source, backs, (1, 7, 17), (), (warning,))


def test_no_card_is_suggested_when_the_city_that_names_them_has_a_cell_in_doubt() -> None:
    unsure = unsure_city_cards(_from_city(), (_doubt("C:NS"),))
    assert unsure is not None and unsure.cards is None and unsure.source is None
    (warning,) = unsure.warnings
    assert "B2" in warning and "give the scoring cards" in warning
    assert not any(str(n) in warning.replace("B2", "") for n in (1, 7, 17))  # no card suggested


def test_the_city_s_cards_stand_when_nothing_is_in_doubt_or_the_backs_read_them_all() -> None:
    assert unsure_city_cards(_from_city(), ()) is None
    backs = tuple(BackNumber(n, 0.95) for n in (1, 7, 17))
    assert unsure_city_cards(_from_city(backs), (_doubt("C:NS"),)) is None
    given = ScoringCards((1, 7, 17), "given", (), (1, 7, 17))
    assert unsure_city_cards(given, (_doubt("C:NS"),)) is None


def test_two_backs_read_and_the_third_card_from_a_city_in_doubt_give_no_cards_and_name_the_backs() -> None:
    backs = (BackNumber(1, 0.95), BackNumber(7, 0.9))
    unsure = unsure_city_cards(_from_city(backs), (_doubt("C:NS"),))
    assert unsure is not None and unsure.cards is None
    assert unsure.warnings[0].startswith(
        "scoring cards read 1, 7 on their backs, and the city that would tell the third"
    )


def test_a_cell_doubted_only_for_an_order_of_cards_that_changes_nothing_scored_is_not_in_doubt() -> None:
    order = "cards 4 and 9 overlap here: with 9 on top it is R:SW"
    only = CellDoubt(1, 1, "R:NS", ("R:SW", "C:NS"), order, ("order",), (("order", order, "R:SW"),))
    assert doubts_that_matter(CITY, (only,), (1, 2, 3)) == ()
    # Named by the classifier too, the cell stays, for the classifier's reason alone.
    why = f"read with 40% confidence; {order}"
    both = CellDoubt(
        1, 1, "R:NS", ("R:SW", "C:NS"), why, ("classifier", "order"), (("order", order, "R:SW"),)
    )
    (kept,) = doubts_that_matter(CITY, (both,), (1, 2, 3))
    assert (kept.alternatives, kept.why, kept.sources) == (
        ("C:NS",),
        "read with 40% confidence",
        ("classifier",),
    )
    # Where the order's other card on top does change the score, the reason stands.
    swap = CellDoubt(1, 1, "R:NS", ("C:NS",), order, ("order",), (("order", order, "C:NS"),))
    assert doubts_that_matter(CITY, (swap,), (1, 2, 3)) == (swap,)


def test_a_reason_with_words_of_its_own_between_semicolons_is_still_taken_out_whole_when_moot() -> None:
    # A reason resting on one alternative that changes nothing scored goes, whatever its words: a "; "
    # inside it once left its halves behind, and the cell in doubt with no source (devset comp022, turned).
    backs = "the backs settled it; the photo alone reads R:SW"
    only = CellDoubt(1, 1, "R:NS", ("R:SW", "C:NS"), backs, ("backs",), (("backs", backs, "R:SW"),))
    assert doubts_that_matter(CITY, (only,), (1, 2, 3)) == ()
    both = CellDoubt(
        1,
        1,
        "R:NS",
        ("R:SW", "C:NS"),
        f"read with 40% confidence; {backs}",
        ("classifier", "backs"),
        (("backs", backs, "R:SW"),),
    )
    (kept,) = doubts_that_matter(CITY, (both,), (1, 2, 3))
    assert (kept.why, kept.sources) == ("read with 40% confidence", ("classifier",))


def test_a_scan_whose_cards_come_from_a_city_in_doubt_keeps_no_cards_and_lists_what_matters_to_any_card() -> (
    None
):
    readings = [[CellReading.certain(c.zone, c.road, 0.97) for c in row] for row in CITY.grid]
    assembled = assemble_city(readings, cards=[1, 7, 17])
    as_cards = CardReading(
        readings, [[None] * 3 for _ in range(3)], CardStacking((), {}, 0.0, 0.0), False, readings
    )
    scoring = _from_city()
    cards = CityCards(as_cards, scoring, (1, 7, 17), 0.9, scoring.warnings)
    # B2 could be a hole: that changes nothing cards 1, 7 and 17 score, but it does for some of the 18.
    found = (_doubt(".", "R:SW"),)
    assert doubts_that_matter(assembled.city, found, (1, 7, 17)) == ()
    settled, chosen, doubts = settle_doubts(assembled, cards, found)
    assert settled.city.cards == () and chosen.scoring.cards is None and chosen.scoring.source is None
    assert chosen.warnings == chosen.scoring.warnings and "B2" in chosen.warnings[0]
    assert [(d.name, d.alternatives) for d in doubts] == [("B2", (".",))]
    # Nothing in doubt: the city's cards stand.
    kept, same, none = settle_doubts(assembled, cards, ())
    assert kept.city.cards == (1, 7, 17) and same.scoring is scoring and none == ()


# A2 and B2 both read as table. A2 as C:NE changes no line alone (its road ends at the table either way);
# with B2 an industrial straight, the same C:NE carries a road on through it, and the roads line moves.
TWO_HOLES = parse_city("cards: 1 2 3\nR:SE  R:EW  I:EW\n.     .     C:SE\nP     R:NS  I:EW\n")


def _hole(row: int, col: int, *alternatives: str) -> CellDoubt:
    return CellDoubt(
        row, col, ".", alternatives, "table read beside the city with 70% confidence", ("table",)
    )


def test_an_alternative_that_changes_nothing_alone_is_kept_beside_a_doubt_it_would_change_with() -> None:
    alone = doubts_that_matter(TWO_HOLES, (_hole(1, 0, "C:NE"),), (1, 2, 3))
    assert alone == ()
    kept = doubts_that_matter(TWO_HOLES, (_hole(1, 0, "C:NE"), _hole(1, 1, "I:EW")), (1, 2, 3))
    assert [(d.row, d.col, d.alternatives) for d in kept] == [(1, 0, ("C:NE",)), (1, 1, ("I:EW",))]
