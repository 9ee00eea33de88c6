"""``sprawlscan score`` and ``sprawlscan check`` through the dispatcher: output, options and bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import games.sprawlopolis.game as sprawlopolis_game
from api.cli.inputs import is_photo
from scoring.city_text import parse_city
from tests.conftest import Cli
from vision.city.doubt import CellDoubt
from vision.city.result import ScanResult

CITY = """cards: 1 3 6
R:EW  R:EW  P
P     C     I
"""
# Largest R 2, C 1, I 1, P 1; one road; Outskirts: that road ends at the edge, −1; Go Green 2 parks − 3 =
# −1; Master Planned 2 − 1 = 1.
TOTAL = 2 + 1 + 1 + 1 - 1 - 1 - 1 + 1


@pytest.fixture
def city_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.city"
    path.write_text(CITY)
    return path


def test_score_prints_the_table(cli: Cli, city_file: Path) -> None:
    code, out, err = cli("score", str(city_file))
    assert code == 0 and err == ""
    assert "Largest residential group" in out
    assert "Total" in out and "LOSE" in out
    total_line = next(line for line in out.splitlines() if line.strip().startswith("Total"))
    assert total_line.split()[-1] == str(TOTAL)


def test_score_json(cli: Cli, city_file: Path) -> None:
    code, out, _ = cli("score", str(city_file), "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["total"] == TOTAL and data["target"] == 10 and data["cards"] == [1, 3, 6]
    assert {i["key"] for i in data["items"]} >= {"largest:R", "roads", "card:3", "card:6"}


def test_cards_on_the_command_line_override_the_header(cli: Cli, city_file: Path) -> None:
    _, out, _ = cli("score", str(city_file), "--cards", "6", "7", "8", "--format", "json")
    data = json.loads(out)
    assert data["cards"] == [6, 7, 8] and data["target"] == 21


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (
            ["1", "2", "3", "4", "5", "6"],
            "--cards: a Sprawlopolis game has exactly 3 scoring cards; 6 given (1 2 3 4 5 6)",
        ),
        (["5", "9"], "--cards: a Sprawlopolis game has exactly 3 scoring cards; 2 given (5 9)"),
        (["5", "9", "5"], "--cards: scoring card 5 (Stacks and Scrapers) is given twice"),
    ],
)
def test_cards_that_are_not_one_games_three_are_refused(
    cli: Cli, city_file: Path, cards: list[str], words: str
) -> None:
    for command in (["score", str(city_file)], ["check", str(city_file), "--tally", str(city_file)]):
        code, out, err = cli(*command, "--cards", *cards)
        assert (code, out) == (2, "") and err == f"sprawlscan: error: {words}\n"


def test_a_city_file_naming_two_or_four_cards_is_refused_at_its_line_and_column(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "c.city"
    for header, column, given in (("cards: 5 9", 11, "2 given (5 9)"), ("cards: 5 9 11 12", 15, "4 given")):
        path.write_text(f"# game 4\n{header}\nR:EW  C:EW\n")
        code, _, err = cli("score", str(path))
        assert code == 2 and err.count("\n") == 1
        assert (
            f"{path}: line 2, column {column}: cards: a Sprawlopolis game has exactly 3" in err
            and given in err
        )


def test_a_competitive_interstate_game_takes_two_cards(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "c.city"
    path.write_text("R:EW  C:EW\n==========\nP     I\n")
    competitive = ["--expansion", "interstate:central-highway", "--format", "json"]
    code, out, _ = cli("score", str(path), "--cards", "5", "9", *competitive)
    assert code == 0 and json.loads(out)["cards"] == [5, 9]
    code, _, err = cli("score", str(path), "--cards", "5", "9", "11", *competitive)
    assert code == 2 and "a competitive Interstate game has exactly 2 scoring cards; 3 given" in err


def test_expansion_and_options(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "c.city"
    path.write_text("R:EW!  C!  P\n")
    _, out, _ = cli(
        "score",
        str(path),
        "--expansion",
        "construction",
        "roadwork",
        "--option",
        "construction-penalty=2",
        "--option",
        "roadwork-unplayed=1",
        "--format",
        "json",
    )
    points = {i["key"]: i["points"] for i in json.loads(out)["items"]}
    assert points["construction"] == -4 and points["roadwork"] == -1


def test_missing_construction_penalty_is_explained(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "c.city"
    path.write_text("expansions: construction\nR:EW!  C!  P\n")
    code, out, _ = cli("score", str(path))
    assert code == 0
    assert "--option construction-penalty=N" in out


def test_variant(cli: Cli, city_file: Path) -> None:
    _, out, _ = cli("score", str(city_file), "--variant", "easier", "--format", "json")
    assert json.loads(out)["total"] == TOTAL + 1  # no road penalty


def test_stdin(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CITY.encode())))
    code, out, _ = cli("score", "-", "--format", "json")
    assert code == 0 and json.loads(out)["total"] == TOTAL


MALFORMED = {
    "unknown zone": (b"R  X\n", "line 1, column 4", "unknown zone"),
    "bad road letters": (b"R:EW  C:NQ\n", "line 1, column 10", "bad road side"),
    "ragged rows": (b"R  C  I\nP  R\n", "line 2", "row has 2 cells"),
    "road on a park": (b"R  P:EW\n", "line 1, column 4", "park block never holds a road"),
    "empty file": (b"", "line 1, column 1", "no city grid"),
    "binary junk": (b"\x00\x9f\x92\x96garbage\xff", "line 1, column", ""),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_cities_exit_2_with_one_line(cli: Cli, tmp_path: Path, kind: str) -> None:
    data, where, what = MALFORMED[kind]
    path = tmp_path / "bad.city"
    path.write_bytes(data)
    code, out, err = cli("score", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"sprawlscan: error: {path}: {where}")
    assert what in err


def test_missing_file_exits_2(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("score", str(tmp_path / "nope.city"))
    assert code == 2 and err.count("\n") == 1
    assert "nope.city" in err and "No such file" in err


def test_bad_option_and_expansion_exit_2(cli: Cli, city_file: Path) -> None:
    code, _, err = cli("score", str(city_file), "--option", "construction-penalty")
    assert code == 2 and "KEY=VALUE" in err
    code, _, err = cli("score", str(city_file), "--expansion", "stew")
    assert code == 2 and "not supported" in err and err.count("\n") == 1


def test_a_broken_photo_given_to_score_is_scanned_and_refused_in_one_line_naming_it(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "game.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 32)
    code, out, err = cli("score", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"sprawlscan: error: {path}")


@pytest.mark.parametrize(
    ("data", "photo"),
    [
        (b"\xff\xd8\xff\xe1....", True),
        (b"\x89PNG\r\n\x1a\n....", True),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", True),
        (b"\x00\x00\x00\x18ftypheic....", True),
        (b"\x00\x00\x00\x18ftypmp42....", False),
        (b"R:EW  C\n", False),
    ],
)
def test_photo_detection_by_magic_bytes(data: bytes, photo: bool) -> None:
    assert is_photo(data) is photo


def test_check_text_and_json(cli: Cli, city_file: Path, tmp_path: Path) -> None:
    tally = tmp_path / "t.txt"
    tally.write_text("residential 2\nroads -2\nGo Green -1\ntotal 4\n")
    code, out, _ = cli("check", str(city_file), "--tally", str(tally))
    assert code == 0
    assert "agree: [Largest residential group]" in out
    assert "DIFFERS: [Roads] computed -1, tally says -2" in out
    code, out, _ = cli("check", str(city_file), "--tally", str(tally), "--format", "json")
    data = json.loads(out)
    assert data["total"]["computed"] == TOTAL and data["total"]["difference"] == 4 - TOTAL
    assert data["breakdown"]["total"] == TOTAL


def test_check_malformed_tally_exit_2(cli: Cli, city_file: Path, tmp_path: Path) -> None:
    tally = tmp_path / "t.txt"
    tally.write_text("parks 7\nroads many\n")
    code, _, err = cli("check", str(city_file), "--tally", str(tally))
    assert code == 2 and err.count("\n") == 1
    assert f"{tally}: tally line 2, column 7" in err


def _png(tmp_path: Path) -> Path:
    ok, data = cv2.imencode(".png", np.full((480, 640, 3), 200, np.uint8))
    assert ok
    photo = tmp_path / "table.png"
    photo.write_bytes(data.tobytes())
    return photo


@pytest.fixture
def scanned_city(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The city scan stands in as one that reads ``CITY`` from any photo; what it was asked is recorded."""
    seen: dict[str, Any] = {}

    def scan_rgb(rgb: np.ndarray, *, cards: Any = None, classifier: Any = None, **_: Any) -> ScanResult:
        seen.update(shape=rgb.shape, cards=cards, classifier=classifier)
        return ScanResult(parse_city(CITY), [], [], {}, None)

    monkeypatch.setattr(sprawlopolis_game, "scan_rgb", scan_rgb)
    return seen


def test_check_reads_a_photo_along_the_scan_path(
    cli: Cli, scanned_city: dict[str, Any], tmp_path: Path
) -> None:
    tally = tmp_path / "t.json"
    tally.write_text('{"residential": 2}')
    args = ("--tally", str(tally), "--cards", "3", "6", "1", "--game", "sprawlopolis")
    code, out, _ = cli("check", str(_png(tmp_path)), *args)
    assert code == 0 and "agree: [Largest residential group]" in out
    assert scanned_city == {"shape": (480, 640, 3), "cards": (3, 6, 1), "classifier": None}


def test_a_photo_without_wrecktar_gets_advice_for_a_photo_not_for_a_typed_file(
    cli: Cli, scanned_city: dict[str, Any], tmp_path: Path
) -> None:
    tally = tmp_path / "t.txt"
    tally.write_text("residential 2\n")
    wrecktar = ["--tally", str(tally), "--expansion", "wrecktar", "--format", "json"]
    code, out, _ = cli("check", str(_png(tmp_path)), *wrecktar, "--game", "sprawlopolis")
    notes = " ".join(json.loads(out)["breakdown"]["notes"])
    assert code == 0 and "the scanner did not find Wrecktar in the photo" in notes
    assert "four 'W' cells" not in notes
    typed = tmp_path / "game.city"
    typed.write_text(CITY)
    _, out, _ = cli("check", str(typed), *wrecktar)
    assert "four 'W' cells" in " ".join(json.loads(out)["breakdown"]["notes"])  # a typed file can be marked


def test_check_of_a_photo_tells_the_same_doubt_and_warnings_as_scan(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 36: `check PHOTO` goes the one path of `scan`, so a cell in doubt and a warning are told by both
    (before, check scored the city read and said nothing of either)."""
    city = parse_city(CITY)
    doubt = CellDoubt(0, 2, "P", ("R:EW",), "read with 40% confidence", ("classifier",))

    def scan_rgb(rgb: np.ndarray, **_: Any) -> ScanResult:
        return ScanResult(city, [], ["the light is uneven"], {}, None, doubts=(doubt,))

    monkeypatch.setattr(sprawlopolis_game, "scan_rgb", scan_rgb)
    photo, tally = _png(tmp_path), tmp_path / "t.txt"
    tally.write_text("residential 2\n")
    args = ("--cards", "3", "6", "1", "--game", "sprawlopolis", "--format", "json")
    code, scanned, scan_err = cli("scan", str(photo), *args)
    assert code == 0
    code, checked, check_err = cli("check", str(photo), "--tally", str(tally), *args)
    assert code == 0 and check_err == scan_err == "sprawlscan: warning: the light is uneven\n"
    scanned_json, checked_json = json.loads(scanned), json.loads(checked)
    assert checked_json["doubt"] == scanned_json["doubt"] and [d["cell"] for d in checked_json["doubt"]] == [
        "C1"
    ]
    assert checked_json["breakdown"]["total"] == scanned_json["total"]
    code, text, _ = cli("check", str(photo), "--tally", str(tally), *args[:-2])
    assert code == 0 and "C1 read as P: if it is R:EW the total is" in text
