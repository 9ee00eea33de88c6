"""The command line's smaller commands and conveniences: ``--version``, ``cards``, ``scan --expansion``, the
game read from a ``.town`` file or a ``game:`` header, ``synth --help``, and the shipped samples the README
points to (the demo photo and the sample tally)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from scoring.cards import CARD_NAMES
from tests.conftest import Cli

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def test_version(cli: Cli) -> None:
    import importlib.metadata

    code, out, _ = cli("--version")
    assert code == 0
    assert out.strip() == f"sprawlscan {importlib.metadata.version('sprawlscan')}"


def test_cards_lists_all_18_with_what_they_count(cli: Cli) -> None:
    code, out, _ = cli("cards", "--format", "json")
    assert code == 0
    cards = json.loads(out)
    assert [c["number"] for c in cards] == list(range(1, 19))
    assert [c["name"] for c in cards] == [CARD_NAMES[n] for n in range(1, 19)]
    assert all(len(c["counts"]) > 20 for c in cards)
    assert len({c["counts"] for c in cards}) == 18
    code, text, _ = cli("cards")
    assert code == 0
    for card in cards:
        assert f"{card['number']:>2}  {card['name']}" in text
    assert "park block" in text


def test_scan_refuses_an_unknown_expansion_before_reading(cli: Cli) -> None:
    code, out, err = cli("scan", str(SAMPLES / "demo.jpg"), "--expansion", "dragons")
    assert code == 2 and not out
    assert "unknown expansion 'dragons'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_demo_scan_matches_the_expected_file_and_takes_expansions(cli: Cli) -> None:
    code, out, _ = cli("scan", str(SAMPLES / "demo.jpg"))
    assert code == 0
    assert out == (SAMPLES / "demo.expected.txt").read_text()
    code, out, _ = cli("scan", str(SAMPLES / "demo.jpg"), "--expansion", "poi", "--format", "city")
    assert code == 0
    assert "expansions: poi" in out


def test_town_file_is_scored_as_wagons_without_game(cli: Cli) -> None:
    path = str(SAMPLES / "wagons-rulebook.town")
    code, out, err = cli("score", path, "--format", "json")
    assert code == 0, err
    detected = json.loads(out)
    code, out, _ = cli("score", path, "--game", "wagons", "--format", "json")
    assert json.loads(out) == detected
    assert detected["game"] == "wagons"


def test_game_header_chooses_the_game(cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    town = (SAMPLES / "wagons-rulebook.town").read_text()
    path = tmp_path / "town.txt"
    path.write_text("game: Circle the Wagons\n" + town)
    code, out, err = cli("score", str(path), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["game"] == "wagons"
    # From standard input too: the header is read, then the town.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"game: wagons\n" + town.encode())))
    code, out, err = cli("score", "-", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["game"] == "wagons"
    city = tmp_path / "city.town"
    city.write_text("game: sprawlopolis\n" + (SAMPLES / "example.city").read_text())
    code, out, err = cli("score", str(city))
    assert code == 0, err
    assert out == (SAMPLES / "example.expected.txt").read_text()


def test_unknown_game_header_is_exit_2(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "x.city"
    path.write_text("game: chess\nP\n")
    code, out, err = cli("score", str(path))
    assert code == 2 and not out
    assert err.strip() == (
        "sprawlscan: error: unknown game 'chess' in the 'game:' header (sprawlopolis or wagons)"
    )


def test_synth_help_is_plain_text(cli: Cli) -> None:
    code, out, _ = cli("synth", "--help")
    assert code == 0
    assert "``" not in out and ":func:" not in out
    assert "--set KEY=VALUE" in out


def test_the_sample_tally_agrees_with_its_city(cli: Cli) -> None:
    code, out, err = cli(
        "check",
        str(SAMPLES / "example.city"),
        "--tally",
        str(SAMPLES / "example.tally"),
        "--format",
        "json",
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["agree"] is True
    assert len(report["lines"]) == 8 and all(line["agree"] is True for line in report["lines"])
    assert report["total"]["stated"] == report["breakdown"]["total"]
