"""The cells of a scanned town a person should look at (vision.towns.doubt), on hand-made readings."""

from __future__ import annotations

import numpy as np

from scoring.wagons import Territory, Town, score_town
from vision.towns import decode_town
from vision.towns.doubt import READ_AS_LAND, read_land_doubt, town_doubt
from vision.towns.text import decoded_town


def sure(token: str) -> dict[str, float]:
    return {token: 0.99, ".": 0.005}


# Card 0 lies unturned at the top left: P/c P/f over P/m F/b; a ring of table around it.
TABLE = sure(".")


def grid(bottom_right: dict[str, float]) -> list[list[dict[str, float]]]:
    return [
        [TABLE, TABLE, TABLE, TABLE],
        [TABLE, sure("P/c"), sure("P/f"), TABLE],
        [TABLE, sure("P/m"), bottom_right, TABLE],
        [TABLE, TABLE, TABLE, TABLE],
    ]


def test_a_town_read_cleanly_has_no_cell_in_doubt() -> None:
    decoding = decode_town(grid(sure("F/b")))
    _, origin = decoded_town(decoding)
    assert origin == (1, 1)
    assert town_doubt(decoding, origin) == ((), ())


def test_a_cell_no_card_explains_is_named_with_what_else_it_could_be_and_the_total_then() -> None:
    # Read as S/w beyond doubt: no card shows S/w beside P/c, P/f and P/m, so it is kept as read.
    decoding = decode_town(grid({"S/w": 0.999999, "F/b": 1e-9}))
    _, origin = decoded_town(decoding)
    doubts, warnings = town_doubt(decoding, origin, goals=["cool-water"])
    assert warnings == () and [d.cell for d in doubts] == ["B2"]
    doubt = doubts[0]
    assert doubt.reading == "S/w" and "no card" in doubt.why
    # The next best town leaves the cell empty (the reading gave F/b, card 0's quadrant, no more than it).
    labels = dict(doubt.alternatives)
    assert list(labels) == ["."]
    empty = Town(((Territory("P", "c"), Territory("P", "f")), (Territory("P", "m"), None)))
    assert labels["."] == score_town(empty, goals=["cool-water"]).total
    assert doubt.to_json()["alternatives"][0] == {
        "label": doubt.alternatives[0][0],
        "total": doubt.alternatives[0][1],
    }


def test_a_cell_of_the_card_region_left_as_table_though_read_as_land_is_named_by_the_reader_doubt() -> None:
    readings = grid(sure("F/b"))
    readings[1][3] = {"S/w": 0.999999, ".": 1e-6}  # kept as read: the town is three cells wide
    readings[2][3] = {"W/g": 0.45, ".": 0.55}  # below it: more likely table, yet a territory at 45 %
    decoding = decode_town(readings)
    _, origin = decoded_town(decoding)
    occupied = np.zeros((4, 4), bool)
    occupied[1:3, 1:4] = True
    assert decoding.cells[2][3].territory is None
    doubts, warnings = read_land_doubt(decoding, readings, occupied, origin)
    assert [(d.cell, d.reading, d.alternatives[0][0]) for d in doubts] == [("C2", ".", "W/g")]
    assert warnings == () and "45% a territory" in doubts[0].why


def test_a_territory_read_beside_the_town_is_a_warning_and_none_off_the_card_region_or_hardly_land() -> None:
    readings = grid(sure("F/b"))
    readings[2][3] = {"W/g": 0.45, ".": 0.55}
    decoding = decode_town(readings)
    _, origin = decoded_town(decoding)
    occupied = np.zeros((4, 4), bool)
    occupied[1:3, 1:4] = True
    assert read_land_doubt(decoding, readings, occupied, origin) == (
        (),
        ("a territory (W/g) may lie right of B2, read as table",),
    )
    occupied[2, 3] = False
    assert read_land_doubt(decoding, readings, occupied, origin) == ((), ())
    occupied[2, 3] = True
    readings[2][3] = {"W/g": READ_AS_LAND / 2, ".": 1 - READ_AS_LAND / 2}
    assert read_land_doubt(decode_town(readings), readings, occupied, origin) == ((), ())
