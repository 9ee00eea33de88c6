"""A photo of a Circle the Wagons town, read end to end by ``sprawlscan scan`` and ``POST /api/v1/scans``:
the scanner tells the game on its own, the town is scored with the goal cards given (or without, saying
so), and options of the other game are refused. The photo is rendered here (models.synth.wagons, seed
501, 1000 px: a town the shipped territory classifier reads right), so the truth is the renderer's."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from tests.conftest import Cli, assert_error

SEED = 501


@cache
def town_photo() -> Any:
    from models.synth.wagons.photo import render_town_photo

    return render_town_photo(SEED, long_side=1000)


def grid_rows(town_text: str) -> list[str]:
    """The grid lines of a town text (its header lines left out), spaces evened."""
    return [" ".join(line.split()) for line in town_text.splitlines() if line.strip() and ":" not in line]


@pytest.fixture(scope="module")
def photo_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("town") / "town.jpg"
    path.write_bytes(town_photo().jpeg)
    return str(path)


def truth_rows() -> list[str]:
    return grid_rows(town_photo().truth.to_json()["city"])


def test_scan_tells_a_town_photo_on_its_own_and_prints_the_town_its_goals_and_its_total(
    cli: Cli, photo_path: str
) -> None:
    code, out, err = cli("scan", photo_path, "--goals", "cool-water", "badlands")
    assert code == 0, err
    printed = [" ".join(line.split()) for line in out.splitlines()]
    assert all(row in printed for row in truth_rows()), out
    assert "goal cards Cool Water, Badlands" in out
    assert "Cool Water" in out and "Badlands" in out
    total = next(line for line in printed if line.startswith("Total "))
    assert int(total.split()[-1]) > 0


def test_scan_json_of_a_town_says_wagons_gives_the_town_and_scores_it_without_goal_cards_when_none_given(
    cli: Cli, photo_path: str
) -> None:
    code, out, err = cli("scan", photo_path, "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["game"] == "wagons"
    assert grid_rows(result["city"]) == truth_rows()
    assert result["goals"] == [] and not any(i["key"].startswith("goal:") for i in result["items"])
    assert any("No goal cards were given" in note for note in result["notes"])
    assert result["total"] == sum(i["points"] for i in result["items"])
    for d in result["doubt"]:  # each doubt names its cell by row and column too, as the page takes it
        assert {"cell", "row", "col", "reading", "alternatives"} <= set(d)


def test_scan_overlay_of_a_town_writes_the_picture_of_the_town_read_on_the_photo(
    cli: Cli, photo_path: str, tmp_path: Path
) -> None:
    out = tmp_path / "seen.png"
    code, _, err = cli("scan", photo_path, "--overlay", str(out))
    assert code == 0, err
    assert "--overlay" not in err  # no warning that nothing was drawn
    picture = Image.open(out)
    assert picture.format == "PNG" and picture.mode == "RGB"
    h, w = town_photo().image.shape[:2]
    assert max(picture.size) == min(1400, max(w, h))
    assert picture.size[0] / picture.size[1] == pytest.approx(w / h, rel=0.01)
    # The photo with the town drawn on it, not the photo alone.
    photo = np.asarray(Image.open(photo_path).convert("RGB").resize(picture.size, Image.Resampling.LANCZOS))
    assert np.abs(np.asarray(picture, np.int16) - photo).max(axis=2).mean() > 5


def test_sprawlopolis_options_with_a_town_are_refused_before_the_photo_is_read(
    cli: Cli, photo_path: str
) -> None:
    code, out, err = cli("scan", photo_path, "--game", "wagons", "--cards", "1", "2", "3")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--cards is a Sprawlopolis option" in err


def test_an_unknown_goal_card_is_refused_in_one_line(cli: Cli, photo_path: str) -> None:
    code, _, err = cli("scan", photo_path, "--goals", "cool-waters")
    assert code == 2 and err.count("\n") == 1
    assert "unknown goal card 'cool-waters'" in err and "cool-water" in err


def test_goal_cards_with_a_sprawlopolis_photo_are_refused_and_the_city_scan_is_unchanged(cli: Cli) -> None:
    demo = str(Path(__file__).parents[2] / "samples" / "demo.jpg")
    code, _, err = cli("scan", demo, "--game", "sprawlopolis", "--goals", "badlands")
    assert code == 2 and "--goals is a Circle the Wagons option, but this is a Sprawlopolis city" in err
    code, out, err = cli("scan", demo, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["game"] == "sprawlopolis"


def test_the_service_answers_a_town_photo_with_the_town_and_its_goal_cards(client: Any) -> None:
    files = {"image": ("town.jpg", town_photo().jpeg, "image/jpeg")}
    resp = client.post("/api/v1/scans", files=files, data={"goals": "cool-water, badlands"})
    assert resp.status_code == 200, resp.text
    result = resp.json()
    assert result["game"] == "wagons" and result["goals"] == ["cool-water", "badlands"]
    assert grid_rows(result["city"]) == truth_rows()
    assert {"goal:cool-water", "goal:badlands"} <= {i["key"] for i in result["items"]}
    assert result["scan_id"] and result["overlay"] == f"/api/v1/scans/{result['scan_id']}/overlay"
    again = client.get(f"/api/v1/scans/{result['scan_id']}").json()
    assert again["city"] == result["city"]
    # The picture of the town read, on the photo: a JPEG of the photo's aspect.
    overlay = client.get(result["overlay"])
    assert overlay.status_code == 200 and overlay.headers["content-type"] == "image/jpeg"
    picture = Image.open(io.BytesIO(overlay.content))
    assert picture.format == "JPEG" and max(picture.size) > 100
    h, w = town_photo().image.shape[:2]
    assert picture.size[0] / picture.size[1] == pytest.approx(w / h, rel=0.01)


def test_the_service_refuses_a_town_with_scoring_cards_and_unknown_goals_as_json_errors(client: Any) -> None:
    files = {"image": ("town.jpg", town_photo().jpeg, "image/jpeg")}
    resp = client.post("/api/v1/scans", files=files, data={"game": "wagons", "cards": "1 2 3"})
    assert_error(resp, 400, "wrong_game_option", "cards is a Sprawlopolis option")
    resp = client.post("/api/v1/scans", files=files, data={"goals": "nope"})
    assert 400 <= resp.status_code < 500 and "unknown goal card 'nope'" in resp.json()["error"]["message"]
    resp = client.post("/api/v1/scans", files=files, data={"game": "monopoly"})
    assert_error(resp, 400, "wrong_game_option", "unknown game")


def test_a_town_in_which_the_city_scan_finds_a_small_city_its_cards_explain_is_still_read_as_a_town(
    cli: Cli, tmp_path: Path
) -> None:
    # Town seed 9 500 017: the Sprawlopolis scan reads a 4 × 3 corner of it as a city whose ten blocks its
    # cards explain wholly, but that is a third of the card region; the game is told on the card region.
    from models.synth.wagons.photo import render_town_photo

    photo = render_town_photo(9_500_017, long_side=1000)
    path = tmp_path / "town.jpg"
    path.write_bytes(photo.jpeg)
    code, out, err = cli("scan", str(path), "--format", "json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["game"] == "wagons"
    assert grid_rows(answer["city"]) == grid_rows(photo.truth.to_json()["city"])
