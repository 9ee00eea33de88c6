"""The cells of a scanned town a person should look at (vision.towns.doubt), on hand-made readings."""

from __future__ import annotations

from scoring.wagons import Territory, Town, score_town
from vision.towns import decode_town
from vision.towns.doubt import town_doubt
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
