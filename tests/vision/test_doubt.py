"""Doubt that is honest: a cell that could be otherwise is named with its alternatives and the total the city
would score under each, and the CLI and the service score a scan along one path."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from games import GameRequest
from games.doubt_text import doubt_text
from games.sprawlopolis import ScoreOptions, score_scan
from scoring.city import parse_cell
from scoring.city_text import parse_city
from scoring.engine import score_city
from vision.cards import CardReading, CardStacking, StackedCell
from vision.cards.pieces import Placement
from vision.cells import CellReading
from vision.city.assemble import assemble_city
from vision.city.doubt import Evidence, find_doubts
from vision.city.result import ScanResult
from vision.deck import LOOK_DOUBT_MARGIN

ROOT = Path(__file__).resolve().parents[2]
# A finished-looking city with a hole in its middle (B2): blocks on all four sides of it.
HOLED = """\
R:EW  C:EW  I:EW
P     .     P
R:NS  C:NS  I:NS
"""


def _readings(text: str, sure: float = 0.97) -> list[list[CellReading]]:
    city = parse_city(text)
    return [[CellReading.certain(cell.zone, cell.road, sure) for cell in row] for row in city.grid]


def _no_cards(readings: list[list[CellReading]]) -> CardReading:
    decoding = CardStacking((), {}, 0.0, 0.0)
    return CardReading(readings, [[None] * len(r) for r in readings], decoding, False, readings)


def test_a_table_cell_enclosed_by_blocks_is_doubted_even_when_read_surely() -> None:
    readings = _readings(HOLED)
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert (doubt.name, doubt.reading, doubt.sources) == ("B2", ".", ("enclosed",))
    assert doubt.alternatives[0] == "P"  # a pale park is what reads as table


def test_a_surely_read_city_without_holes_has_no_doubt() -> None:
    readings = _readings("R:EW  C:EW\nP     I:NS\n")
    assert find_doubts(assemble_city(readings), _no_cards(readings)) == ()


def test_a_low_confidence_cell_offers_the_classifiers_other_readings() -> None:
    readings = _readings("R:EW  C:EW\nP     I:NS\n")
    readings[1][1] = CellReading.from_options((("I", "NS", 0.45), ("C", "NS", 0.4), ("I", "EW", 0.15)))
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert doubt.name == "B2" and doubt.sources == ("classifier",)
    assert doubt.alternatives[:2] == ("C:NS", "I:EW")


def test_a_cell_the_cards_overruled_with_little_margin_is_doubted() -> None:
    before = _readings("R:EW  C:EW\nP     I:NS\n")
    after = [list(row) for row in before]
    after[0][1] = CellReading.certain("I", "EW", 0.9)
    cells = {(0, 1): StackedCell(("I", "EW"), "card", 4, margin=1.0)}
    as_cards = CardReading(after, [[None, 4], [None, None]], CardStacking((), cells, 0.0, 1.0), True, before)
    (doubt,) = find_doubts(assemble_city(after), as_cards)
    assert doubt.name == "B1" and doubt.reading == "I:EW" and "C:EW" in doubt.alternatives
    assert "cards" in doubt.sources


def _scan_of(text: str, cards: tuple[int, ...]) -> ScanResult:
    readings = _readings(text)
    assembled = assemble_city(readings, cards=list(cards))
    doubts = find_doubts(assembled, _no_cards(readings))
    return ScanResult(assembled.city, [], [], {}, None, assembled=assembled, doubts=doubts)


def test_each_alternative_total_is_the_score_of_the_city_with_that_cell_changed() -> None:
    scan = _scan_of(HOLED, (1, 2, 3))
    scored = score_scan(scan, ScoreOptions((7, 12, 13)))
    (doubt,) = scored.doubt
    assert doubt["alternatives"]
    for alt in doubt["alternatives"]:
        changed = scan.city.with_cell(doubt["row"], doubt["col"], parse_cell(alt["label"]))
        assert alt["total"] == score_city(changed, (7, 12, 13)).total
    assert scored.breakdown.total == score_city(scan.city, (7, 12, 13)).total


def test_marks_of_an_expansion_the_player_did_not_name_are_reported_not_scored() -> None:
    scan = ScanResult(parse_city("R:EW  C:EW*\nP     I:NS\n"), [], [], {}, None)
    scored = score_scan(scan, ScoreOptions((1, 2, 3)))
    assert any("poi marks at B1" in w for w in scored.warnings)
    named = score_scan(scan, ScoreOptions((1, 2, 3), ("points-of-interest",)))
    assert not any("poi marks" in w for w in named.warnings)
    assert any(item.key == "poi" for item in named.breakdown.items)


@pytest.mark.slow
def test_the_cli_and_the_service_give_the_same_json_for_one_photo_and_one_set_of_choices(cli) -> None:
    from api.web.scanning import scan_and_score

    photo = ROOT / "samples" / "demo.jpg"
    code, out, _ = cli(
        "scan", str(photo), "--cards", "7", "12", "13", "--expansion", "poi", "--format", "json"
    )
    assert code == 0
    served = scan_and_score(
        photo.read_bytes(), GameRequest(given={"cards": [7, 12, 13], "expansions": ["poi"]}), 800
    ).result
    for key in ("timings", "taught_deck"):
        served.pop(key)
    for cell in served["cells"]:
        cell.pop("outline", None)
    assert json.loads(out) == json.loads(json.dumps(served))


def test_doubt_in_the_scan_json_lists_cell_reading_alternatives_and_why() -> None:
    scan = _scan_of(HOLED, (1, 2, 3))
    entry = score_scan(scan, ScoreOptions((1, 2, 3))).to_json()["doubt"][0]
    assert set(entry) >= {"cell", "reading", "alternatives", "why"}
    assert all(set(a) == {"label", "total", "changes"} for a in entry["alternatives"])
    assert np.isfinite([a["total"] for a in entry["alternatives"]]).all()


def test_a_cell_beside_the_city_whose_reading_did_not_count_is_doubted_by_the_classifiers_own_doubt() -> None:
    # B1 lies off the card region: its reading (a park at 55 %) did not count, and the decoding took it as
    # table for sure; the classifier's own doubt still names it, with the park as the alternative.
    readings = _readings("R:EW  .\nP     I:NS\n")
    seen = [list(row) for row in readings]
    seen[0][1] = CellReading.from_options(((None, None, 0.45), ("P", None, 0.55)), kind="empty")
    settled = [list(row) for row in readings]
    settled[0][1] = CellReading.certain(None, None, 1.0)
    decoding = CardStacking((), {(0, 1): StackedCell((None, None), "empty", None)}, 0.0, 1.0)
    counted = CardReading(settled, [[None, None], [None, None]], decoding, True, seen)
    (doubt,) = find_doubts(assemble_city(settled), counted)
    assert (doubt.name, doubt.reading, doubt.sources) == ("B1", ".", ("table",))
    assert doubt.alternatives[0] == "P"
    sure = CardReading(settled, [[None, None], [None, None]], decoding, True, settled)
    assert find_doubts(assemble_city(settled), sure) == ()  # taken as read, table for sure: no doubt


def test_a_block_at_the_edge_that_could_be_the_table_and_that_the_cards_hardly_back_is_doubted() -> None:
    # B1 is at the city's edge: read as a residential block at 0.6, table at 0.04 (a check cloth's square),
    # and the card that shows it there explains it by 1.7 nats only.
    readings = _readings("R:EW  R:NS\nP     I:NS\n")
    options = (("R", "NS", 0.6), ("R", None, 0.3), ("R", "SE", 0.06), (None, None, 0.04))
    read = CellReading.from_options(options)
    readings[0][1] = replace(read, empty_probability=0.04)
    cells = {(0, 1): StackedCell(("R", "NS"), "card", 12, margin=1.7)}
    cards = [[None, 12], [None, None]]
    as_cards = CardReading(readings, cards, CardStacking((), cells, 0.0, 1.0), True, readings)
    (doubt,) = find_doubts(assemble_city(readings), as_cards)
    assert (doubt.name, doubt.sources, doubt.alternatives[0]) == ("B1", ("rim",), ".")
    backed = {(0, 1): StackedCell(("R", "NS"), "card", 12, margin=4.0)}  # the cards back it well
    sure = CardReading(readings, cards, CardStacking((), backed, 0.0, 1.0), True, readings)
    assert find_doubts(assemble_city(readings), sure) == ()


def test_a_hole_the_cards_explain_with_a_clear_margin_is_taken_as_read() -> None:
    readings = _readings(HOLED)
    cards = [[1, 1, 2], [1, None, 2], [3, 3, 2]]

    def with_hole(margin: float) -> CardReading:
        cells = {(1, 1): StackedCell((None, None), "empty", None, margin=margin)}
        return CardReading(readings, cards, CardStacking((), cells, 0.0, 1.0), True, readings)

    assert find_doubts(assemble_city(readings), with_hole(2.0)) == ()
    # Left bare by little, the hole is in doubt as before, named by the cards and as enclosed.
    (doubt,) = find_doubts(assemble_city(readings), with_hole(0.3))
    assert doubt.name == "B2" and set(doubt.sources) == {"cards", "enclosed"} and doubt.alternatives[0] == "P"


# A park (B2) in the middle of the city, every side a block.
PARKED = """\
R:EW  C:EW  I:EW
P     P     P
R:NS  C:NS  I:NS
"""


def test_a_park_in_the_middle_of_the_city_that_a_card_shows_is_not_offered_as_a_hole() -> None:
    readings = _readings(PARKED)
    readings[1][1] = CellReading.from_options((("P", None, 0.45), (None, None, 0.35), ("C", "NS", 0.2)))
    cards = [[1, 1, 2], [1, 1, 2], [3, 3, 2]]

    def shown(margin: float) -> CardReading:
        cells = {(1, 1): StackedCell(("P", None), "card", 1, margin=margin)}
        return CardReading(readings, cards, CardStacking((), cells, 0.0, 1.0), True, readings)

    (doubt,) = find_doubts(assemble_city(readings), shown(3.0))
    assert doubt.name == "B2" and doubt.alternatives == ("C:NS",)  # no "." among them
    # Where the cards hardly hold the park there, the table stays among the alternatives.
    (unsure,) = find_doubts(assemble_city(readings), shown(0.5))
    assert "." in unsure.alternatives


def test_a_block_without_a_road_is_offered_with_a_note_naming_the_points_of_interest_card() -> None:
    # A Point of Interest city's roadless residential block, read so by the classifier and made R:NS by a
    # card that explains it narrowly (bench_rooms, shadow seed 80004000): the scan cannot know the expansion
    # is played (its frame may lie under a card), so the roadless block is offered, its note naming the card.
    readings = _readings("R:EW  C:NS\nP     R:NS\n")
    before = [list(row) for row in readings]
    before[1][1] = CellReading.from_options((("R", None, 0.65), ("R", "NS", 0.25), ("C", "NS", 0.1)))
    cells = {(1, 1): StackedCell(("R", "NS"), "card", 12, margin=0.7)}
    decoding = CardStacking((), cells, 0.0, 1.0)
    as_cards = CardReading(readings, [[None, None], [None, 12]], decoding, True, before)
    (doubt,) = find_doubts(assemble_city(readings), as_cards)
    assert doubt.alternatives == ("R", "C:NS")
    roadless, base = doubt.to_json()["alternatives"]
    assert "Points of Interest" in roadless["note"] and "note" not in base
    scored = score_scan(
        ScanResult(assemble_city(readings).city, [], [], {}, None, doubts=(doubt,)), ScoreOptions()
    )
    line = doubt_text(scored.doubt, scored.breakdown.total)
    assert (
        "if it is R (residential without a road: only the Points of Interest card shows one) the total"
        in line
    )


def test_a_table_cell_beside_the_city_is_not_offered_a_block_without_a_road() -> None:
    # A red check's square beside the city reads as a roadless residential block: a Point of Interest lies
    # among the cards, so the table cell offers only what the base cards show.
    readings = _readings("R:EW  .\nP     I:NS\n")
    readings[0][1] = CellReading.from_options(
        ((None, None, 0.5), ("R", None, 0.3), ("R", "NS", 0.2)), kind="empty"
    )
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert doubt.name == "B1" and doubt.alternatives == ("R:NS",)


def test_a_roadless_runner_up_of_a_block_is_not_offered_unless_a_point_of_interest_is_seen() -> None:
    # A crop that missed the road reads a block without one: only the Point of Interest's frame seen
    # elsewhere makes that a block to offer.
    readings = _readings("R:EW  C:NS\nP     I:NS\n")
    options = (("I", "NS", 0.45), ("I", None, 0.3), ("C", "NS", 0.15), ("I", "EW", 0.1))
    readings[1][1] = CellReading.from_options(options)
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert doubt.alternatives == ("C:NS", "I:EW")
    readings[0][0] = replace(readings[0][0], poi=True)  # the Point of Interest's frame, seen at A1
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert doubt.alternatives == ("I", "C:NS", "I:EW")


def test_wrecktars_cells_are_not_offered_a_block_without_a_road() -> None:
    readings = _readings("R:EW  C:NS\nP     I:NS\n")
    options = (("W", None, 0.45), ("I", None, 0.35), ("P", None, 0.2))
    readings[1][1] = CellReading.from_options(options, kind="wrecktar")
    (doubt,) = find_doubts(assemble_city(readings), _no_cards(readings))
    assert doubt.reading == "W" and doubt.alternatives == ("P",)


def _overruled_by(placement: Placement) -> CardReading:
    """B1 read C:EW surely (0.99) and turned to I:EW by ``placement``'s card, 6 nats surely."""
    before = _readings("R:EW  C:EW\nP     I:NS\n", sure=0.99)
    after = [list(row) for row in before]
    after[0][1] = CellReading.certain("I", "EW", 0.99)
    cells = {(r, c): StackedCell(("I", "EW"), "card", 4, margin=6.0) for r in (0, 1) for c in (0, 1)}
    stacking = CardStacking((placement,), cells, 0.0, 1.0)
    return CardReading(after, [[None, 4], [None, None]], stacking, True, before)


def test_a_sure_reading_overruled_by_a_card_hanging_beyond_the_cells_read_is_doubted() -> None:
    as_cards = _overruled_by(Placement(4, False, 1, 0))  # its lower two cells lie on row 3, not read
    (doubt,) = find_doubts(assemble_city(as_cards.readings), as_cards)
    assert doubt.name == "B1" and "C:EW" in doubt.alternatives and "beyond the cells read" in doubt.why


def test_a_sure_reading_overruled_surely_by_a_card_wholly_read_is_taken_as_the_cards_say() -> None:
    as_cards = _overruled_by(Placement(4, False, 0, 0))
    assert find_doubts(assemble_city(as_cards.readings), as_cards) == ()


def test_a_taught_looks_reading_the_cards_explain_by_under_its_own_margin_is_doubted() -> None:
    # B2 read I:NS at 0.78 and explained by the cards 1.3 nats surely: taken as read by the shipped
    # classifier's margin (1 nat), in doubt by a taught look's (2 nats), which is less surely calibrated.
    readings = _readings("R:EW  C:EW\nP     I:NS\n")
    readings[1][1] = CellReading.from_options((("I", "NS", 0.78), ("R", "NS", 0.22)))
    cells = {(1, 1): StackedCell(("I", "NS"), "card", 4, margin=1.3)}
    as_cards = CardReading(
        readings, [[None, None], [None, 4]], CardStacking((), cells, 0.0, 1.0), True, readings
    )
    assert find_doubts(assemble_city(readings), as_cards) == ()
    (doubt,) = find_doubts(assemble_city(readings), as_cards, Evidence(cards_margin=LOOK_DOUBT_MARGIN))
    assert doubt.name == "B2" and "R:NS" in doubt.alternatives and doubt.sources == ("cards",)


def test_a_block_read_otherwise_without_a_scoring_card_the_city_seems_to_hold_is_doubted() -> None:
    # B2 read C:NS surely; the cards explain the city only with scoring card 4, which lies beside it, and
    # without card 4 they read B2 as R:NS: either the back or this block is misread (edition 37 078).
    readings = _readings("R:EW  C:EW\nP     C:NS\n", sure=0.96)
    as_cards = _no_cards(readings)
    assert find_doubts(assemble_city(readings), as_cards) == ()
    (doubt,) = find_doubts(assemble_city(readings), as_cards, Evidence(held={(1, 1): (4, "R:NS")}))
    assert (doubt.name, doubt.reading, doubt.sources) == ("B2", "C:NS", ("held",))
    assert doubt.alternatives[0] == "R:NS" and "scoring card 4" in doubt.why
    assert doubt.named == (("held", doubt.why, "R:NS"),)
