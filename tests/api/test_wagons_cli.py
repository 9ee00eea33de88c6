"""``sprawlscan score|check TOWN --game wagons`` through the real dispatcher, and the bundled samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
RULEBOOK = """\
.    .    .    .    P/c  P/f
D/w  D/g  D/f  P/b  P/m  F/b
D/c  M/f  M/c  M/c  P/g  .
W/m  W/b  M/f  M/m  .    .
S/w  W/g  D/b  M/w  .    .
"""


@pytest.fixture
def town(tmp_path: Path) -> Path:
    path = tmp_path / "example.town"
    path.write_text(RULEBOOK)
    return path


def test_score_text_shows_every_line_and_the_total(cli: Cli, town: Path) -> None:
    code, out, err = cli("score", str(town), "--game", "wagons")
    assert code == 0 and err == ""
    assert out.startswith("Circle the Wagons: goal cards none")
    for label, points in [
        ("Desert", 4),
        ("Forest", 1),
        ("Mountains", 6),
        ("Plains", 5),
        ("Snow", 1),
        ("Water", 3),
    ]:
        assert any(line.split()[:2] == [label, f"+{points}"] for line in out.splitlines())
    assert any(line.split() == ["Total", "20"] for line in out.splitlines())


def test_score_json_with_goals_and_a_scenario(cli: Cli, town: Path) -> None:
    code, out, _ = cli(
        *("score", str(town), "--game", "wagons", "--scenario", "Water the Herd"),
        *("--opponent-pile", "3", "5", "6", "--format", "json"),
    )
    assert code == 0
    data = json.loads(out)
    assert data["goals"] == ["the-herd", "cool-water"]
    assert data["total"] == 20 + 4 + 3
    # Cards 3, 5, 6: 1 Wagon, 2 Cows; Forest 4 + Snow 4 + Water 3.
    assert data["opponent"]["total"] == 3 + 4 + 11
    assert data["beat_opponent"] is True


def test_text_output_tags_provenance_and_names_the_winner(
    capsys: pytest.CaptureFixture[str], cli: Cli, town: Path
) -> None:
    code, out, _ = cli("score", str(town), "--game", "wagons", "--goals", "badlands", "the herd")
    assert code == 0
    assert "Badlands [printed]" in out and "The Herd [printed]" in out
    code, out, _ = cli(
        "score",
        str(town),
        "--game",
        "wagons",
        "--scenario",
        "cattle-drive",
        "--opponent-pile",
        "cow=9",
        "plains=9",
    )
    assert "Opponent's pile" in out
    # The pile cannot say which Cow is beside Snow: only that count-based line is a reading.
    assert "Happy Cows (Snow ignored) [reading]" in out and "Prairie Life (not halved) [printed]" in out
    assert "Lines marked 'reading' score a goal card that needs a grid on the opponent's pile" in out
    assert "Result: the opponent wins (" in out


def test_opponent_town_and_option(cli: Cli, town: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.town"
    other.write_text("D/b  D/b\n")
    code, out, _ = cli(
        "score",
        str(town),
        "--game",
        "wagons",
        "--goals",
        "one-too-many",
        "--opponent-town",
        str(other),
        "--format",
        "json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["items"][-1]["points"] == -2  # 4 Beers against 2
    assert data["opponent"]["kind"] == "town" and data["opponent"]["total"] == 2
    code, out, _ = cli(
        "score",
        str(town),
        "--game",
        "wagons",
        "--scenario",
        "defensible-position",
        "--opponent-pile",
        "3",
        "5",
        "--option",
        "opponent-undiscovered=1",
        "--format",
        "json",
    )
    undiscovered = next(i for i in json.loads(out)["opponent"]["items"] if i["key"] == "goal:undiscovered")
    assert undiscovered["points"] == 10


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--goals", "hot-water"],
            "unknown goal card 'hot-water' (did you mean 'cool-water'?); expected one of:",
        ),
        (
            ["--scenario", "high-noon", "--opponent-pile", "1"],
            "unknown scenario 'high-noon'; expected one of: ",
        ),
        (["--scenario", "boomtown", "--opponent-pile", "3", "18"], "no card 18 in the 18-card table"),
        (["--scenario", "boomtown", "--opponent-pile", "3", "3"], "card 3 appears more than once"),
        (["--scenario", "boomtown"], "Boomtown scores the opponent's pile: give it"),
        (["--goals", "claim-jumpers"], "Claim Jumpers compares two towns"),
        (["--option", "depth=3"], "unknown option 'depth'"),
        (["--cards", "1", "2", "3"], "--cards is a Sprawlopolis option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli: Cli, town: Path, extra: list[str], message: str) -> None:
    code, out, err = cli("score", str(town), "--game", "wagons", *extra)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sprawlscan: error: ")
    assert message in err


def test_bad_town_names_the_file_line_and_column(cli: Cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.town"
    bad.write_text("D/w  P/c\nD/w  Q/c\n")
    code, _, err = cli("score", str(bad), "--game", "wagons")
    assert code == 2
    assert (
        err == f"sprawlscan: error: {bad}: line 2, column 6: unknown territory 'Q' in 'Q/c' "
        "(expected D desert, F forest, M mountains, P plains, S snow, W water)\n"
    )
    code, _, err = cli("score", str(tmp_path / "missing.town"), "--game", "wagons")
    assert code == 2 and "No such file" in err


def test_check_tally_for_player_and_opponent(cli: Cli, town: Path, tmp_path: Path) -> None:
    tally = tmp_path / "tally.txt"
    tally.write_text(
        "desert 4\nforest 1\nmountains 6\nprairie 5\nsnow 1\nwater 3\nthe herd 4\ncool water 3\ntotal 27\n"
        "opponent top three 11\nopponent wagons 3\nopponent cows 4\nopponent 18\n"
    )
    argv = [
        "check",
        str(town),
        "--game",
        "wagons",
        "--scenario",
        "water-the-herd",
        "--opponent-pile",
        "3",
        "5",
        "6",
    ]
    code, out, _ = cli(*argv, "--tally", str(tally))
    assert code == 0
    assert out.count("Verdict: the tally agrees with the computed score.") == 2
    code, out, _ = cli(*argv, "--tally", str(tally), "--format", "json")
    data = json.loads(out)
    assert data["agree"] is True and data["opponent"]["agree"] is True
    tally.write_text("desert 4\ncool water 6\nopponent 20\n")
    code, out, _ = cli(*argv, "--tally", str(tally), "--format", "json")
    data = json.loads(out)
    lines = {line["item"]: line for line in data["lines"]}
    assert lines["cool water"]["computed"] == 3 and lines["cool water"]["agree"] is False
    assert data["opponent"]["total"]["computed"] == 18 and data["opponent"]["agree"] is False


def test_check_opponent_line_without_opponent(cli: Cli, town: Path, tmp_path: Path) -> None:
    tally = tmp_path / "tally.txt"
    tally.write_text("desert 4\nopponent 9\n")
    code, _, err = cli("check", str(town), "--game", "wagons", "--tally", str(tally))
    assert code == 2 and "tally line 2 is about the opponent, but no opponent was given" in err


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("wagons-*.town")))
def test_samples_score(cli: Cli, sample: str) -> None:
    code, out, _ = cli("score", str(SAMPLES / sample), "--game", "wagons", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "wagons" and data["total"] > 0


def test_rulebook_sample_header_goals() -> None:
    from scoring.wagons import parse_town, score_town

    b = score_town(parse_town((SAMPLES / "wagons-rulebook.town").read_text()))
    assert b.total == 20 + 3 + 4 + 7
    assert b.cards == (13, 4, 14, 0, 2, 1)


def test_cards_for_wagons_lists_every_goal_id_and_every_town_card_with_its_territories(cli: Cli) -> None:
    from scoring.wagons import CARDS, GOALS

    code, out, _ = cli("cards", "--game", "wagons")
    assert code == 0 and "[printed]: scored from the card's printed text" in out
    assert "[review]" not in out and "[reading]" not in out
    for goal in GOALS:
        assert f"  {goal} " in out
    assert "   0  plains cow, plains fort, plains mine, forest beer" in out
    code, out, _ = cli("cards", "--game", "wagons", "--format", "json")
    listing = json.loads(out)
    assert [c["number"] for c in listing["cards"]] == sorted(CARDS)
    assert [g["id"] for g in listing["goals"]] == list(GOALS)


def test_score_help_lists_the_goal_ids_as_the_format_doc_says(cli: Cli) -> None:
    from scoring.wagons import GOALS

    code, out, _ = cli("score", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "Goal ids: " + ", ".join(GOALS) in flat
    doc = (SAMPLES.parent / "docs" / "city-format.md").read_text()
    assert "`sprawlscan cards --game wagons`" in doc and "`sprawlscan score --help`" in doc


def test_samples_point_only_inside_the_repository() -> None:
    for sample in [*SAMPLES.glob("*.town"), *SAMPLES.glob("*.city")]:
        comments = " ".join(line for line in sample.read_text().splitlines() if line.startswith("#"))
        assert "shared/" not in comments and "../" not in comments and "vision.synth" not in comments, sample
    assert "sprawlscan cards --game wagons" in (SAMPLES / "wagons-lone-cowboy.town").read_text()
