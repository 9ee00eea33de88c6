"""The Circle the Wagons goal cards read from a town's photo (vision.towns.goals, issue 37 item 6): cards
drawn here (tests.vision.goal_card_pictures: white paper, the name in capitals above a rule, no publisher
art) on a table or beside a rendered town, turned any way, read by name with the real Tesseract; a title
read unsurely is asked for, never guessed; the town scan scores the goals read, and the goals the player
gives win over them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from games import GameRequest, scan_photo
from tests.conftest import Cli
from tests.vision.goal_card_pictures import beside, cards_on, goal_card, in_a_row, table
from vision.towns.goals import read_goal_cards
from vision.towns.goals.names import match_title
from vision.towns.scan import TownScan

THREE = ("Circle the Wagons", "Boom or Bust", "Target Practice")
THREE_IDS = {"circle-the-wagons", "boom-or-bust", "target-practice"}


def on_table(
    names: tuple[str, ...], turns: tuple[float, ...], *, hide: dict[str, float] | None = None
) -> np.ndarray:
    """A plain table with the cards ``names`` turned by ``turns``; ``hide``: a card's title blanked from
    that share of its width on."""
    photo = table(1200, 1600)
    hide = hide or {}
    cards_on(photo, [goal_card(n, hide_from=hide.get(n)) for n in names], turns, 500)
    return photo


@cache
def town_with_cards(names: tuple[str, ...], turns: tuple[float, ...]) -> np.ndarray:
    from models.synth.wagons.photo import render_town_photo

    town = render_town_photo(501, long_side=1000).image
    return beside(town, [goal_card(n) for n in names], turns)


@pytest.mark.parametrize(
    "turns",
    [(0.0, 0.0, 0.0), (93.0, -86.0, 178.0), (184.0, 268.0, 4.0), (-3.0, 87.0, 272.0)],
    ids=["upright", "turned-both-ways-and-over", "over-and-sideways", "sideways-both-ways"],
)
def test_three_goal_cards_on_a_table_are_read_by_name_whichever_way_each_lies(
    turns: tuple[float, ...],
) -> None:
    reading = read_goal_cards(on_table(THREE, turns))
    assert set(reading.goals) == THREE_IDS and len(reading.goals) == 3
    assert reading.scored == reading.goals
    assert reading.warnings == ()
    assert all(card.goal is not None for card in reading.cards)


def test_goal_cards_on_a_white_sheet_in_a_dim_photo_are_read_as_in_a_bright_one() -> None:
    # The paper stands only a little above the sheet; dimmed, by less than the paper's usual margin.
    photo = table(1200, 1600, colour=(226, 228, 224))
    cards_on(photo, [goal_card(n) for n in THREE], (2.0, 95.0, 183.0), 500)
    for light in (1.0, 0.45):
        shot = (photo.astype(np.float32) * light).astype(np.uint8)
        assert set(read_goal_cards(shot).goals) == THREE_IDS, light


@pytest.mark.parametrize("turn", [3.0, 92.0, 181.0])
def test_goal_cards_laid_edge_to_edge_in_a_row_are_told_apart_and_each_read(turn: float) -> None:
    photo = table(1200, 1600)
    in_a_row(photo, [goal_card(n) for n in ("Gold Country", "The Herd", "Rifles Ready")], turn, (800, 600))
    reading = read_goal_cards(photo)
    assert sorted(reading.goals) == ["gold-country", "rifles-ready", "the-herd"]
    assert reading.warnings == ()


def test_goal_cards_beside_a_rendered_town_are_read_and_a_two_town_card_is_named_but_not_scored() -> None:
    reading = read_goal_cards(town_with_cards(("Cool Water", "Badlands", "One Too Many"), (2.0, 91.0, -3.0)))
    assert set(reading.goals) == {"cool-water", "badlands", "one-too-many"}
    assert set(reading.scored) == {"cool-water", "badlands"}
    (warning,) = reading.warnings
    assert "One Too Many" in warning and "two towns" in warning


def test_a_goal_card_whose_title_is_half_hidden_is_asked_for_and_never_guessed() -> None:
    names = ("Wagon Train", "Badlands", "Fortified")
    reading = read_goal_cards(on_table(names, (2.0, 0.0, 90.0), hide={"Wagon Train": 0.5}))
    assert set(reading.goals) == {"badlands", "fortified"}  # the card that reads only "WAGON" is not taken
    unsure = [card for card in reading.cards if card.goal is None]
    assert len(unsure) == 1 and "wagon-train" in unsure[0].candidates
    asked = [w for w in reading.warnings if "could not be read surely" in w]
    assert len(asked) == 1 and "Wagon Train?" in asked[0] and "name the goal cards" in asked[0]


def test_a_town_photo_without_goal_cards_reads_none_and_asks_for_nothing() -> None:
    from models.synth.wagons.photo import render_town_photo

    reading = read_goal_cards(render_town_photo(501, long_side=1000).image)
    assert reading.goals == () and reading.warnings == ()


def test_without_tesseract_the_goal_cards_are_skipped_with_a_warning_never_a_crash(tmp_path: Path) -> None:
    reading = read_goal_cards(on_table(THREE, (0.0, 90.0, 0.0)), program=str(tmp_path / "no-tesseract"))
    assert reading.goals == () and reading.scored == ()
    (warning,) = reading.warnings
    assert "goal cards were not read" in warning and "name them" in warning


@pytest.mark.parametrize(
    ("text", "goal", "sure"),
    [
        ("BOOM OR BUST", "boom-or-bust", True),
        ("~ CIRCLE THE WAGONS |", "circle-the-wagons", True),  # stray marks beside the title cost nothing
        ("PRARIE LIFE", "prairie-life", True),  # the Cattle Drive card's spelling
        ("TARGE PRACTIC", "target-practice", True),
        ("WAGON", "wagon-train", False),  # Wagon Train? Circle the Wagons?
        ("THE", None, False),  # The Herd? The Clearing?
    ],
)
def test_a_title_names_a_card_surely_only_when_it_matches_it_well_and_clearly_better_than_any_other(
    text: str, goal: str | None, sure: bool
) -> None:
    match = match_title(text)
    assert match is not None
    assert match.sure is sure
    if goal is not None:
        assert match.goal == goal


def test_a_smudge_with_no_letters_names_no_card_and_asks_for_none() -> None:
    assert match_title("|—; 2") is None
    stray = match_title("Ss ee")
    assert stray is not None and not stray.sure and not stray.asks


@pytest.mark.slow
def test_a_town_scan_scores_the_goal_cards_read_from_the_photo_and_the_goals_given_win_over_them() -> None:
    import cv2

    photo = town_with_cards(("Cool Water", "Badlands", "Gold Country"), (0.0, 88.0, 181.0))
    ok, jpeg = cv2.imencode(".jpg", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    read = scan_photo(jpeg.tobytes(), GameRequest()).scan
    assert isinstance(read, TownScan)
    assert read.goals_source == "read"
    assert set(read.goals) == {"cool-water", "badlands", "gold-country"}
    keys = {item.key for item in read.breakdown().items}
    assert {"goal:cool-water", "goal:badlands", "goal:gold-country"} <= keys
    given = scan_photo(jpeg.tobytes(), GameRequest(given={"goals": ["the-herd"]})).scan
    assert isinstance(given, TownScan)
    assert given.goals_source == "given" and given.goals == ("the-herd",)
    assert {i.key for i in given.breakdown().items if i.key.startswith("goal:")} == {"goal:the-herd"}
    assert json.loads(json.dumps(given.to_json()))["goals_source"] == "given"


@pytest.mark.slow
def test_scan_prints_where_the_goal_cards_came_from(cli: Cli, tmp_path: Path) -> None:
    import cv2

    photo = town_with_cards(("Cool Water", "Badlands", "Gold Country"), (0.0, 88.0, 181.0))
    path = tmp_path / "town.jpg"
    cv2.imwrite(str(path), cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
    code, out, err = cli("scan", str(path))
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith("Goal cards (read from the photo): "))
    assert {n.strip() for n in line.split(":", 1)[1].split(",")} == {"Cool Water", "Badlands", "Gold Country"}
    code, out, err = cli("scan", str(path), "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["goals_source"] == "read"
    assert set(result["goals"]) == {"cool-water", "badlands", "gold-country"}
