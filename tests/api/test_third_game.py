"""A third game, registered by a test and by a server's environment, is served by the command line's
``scan``, ``score`` and ``check``, by the service's ``/scans`` and ``/score`` and by the page (a tab of its
own, its options as fields) with no change to ``api/``: everything they know of games comes from the
registry (issue 36)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, expect

from games import game_names, registering
from tests.api.page_session import Session
from tests.conftest import Cli
from tests.live_server import serving
from tests.tiny_game import MAGENTA, Tiny


def _answer(request: urllib.request.Request) -> dict:
    try:
        with urllib.request.urlopen(request, timeout=60) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{exc.code}: {exc.read()[:300]!r}") from None


def _magenta_png(path: Path) -> Path:
    rgb = np.full((480, 640, 3), 250, np.uint8)
    rgb[20:460, 20:620] = MAGENTA
    ok, data = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert ok
    path.write_bytes(data.tobytes())
    return path


def test_a_game_registered_for_a_block_is_offered_there_only() -> None:
    with registering(Tiny()):
        assert game_names()[-1] == "tiny"
    assert "tiny" not in game_names()


def test_the_command_line_scores_a_third_games_file_by_its_ending_with_its_own_flag(
    cli: Cli, tmp_path: Path
) -> None:
    grid = tmp_path / "game.tiny"
    grid.write_text("XX.\n.X.\n")
    with registering(Tiny()):
        code, out, err = cli("score", str(grid), "--bonus", "4")
        assert (code, out, err) == (0, "Tiny: 7 points\n", "")
        code, out, _ = cli("score", str(grid), "--format", "json")
        assert code == 0 and json.loads(out)["game"] == "tiny" and json.loads(out)["total"] == 3
        code, _, err = cli("score", str(grid), "--cards", "1", "2", "3")
        assert code == 2 and "--cards is a Sprawlopolis option, but this is a Tiny grid" in err
    code, _, err = cli("score", str(grid), "--bonus", "4")
    assert code == 2 and "--bonus" in err  # unregistered: the flag is gone with it


def test_the_command_line_tells_a_third_game_from_a_photo(cli: Cli, tmp_path: Path) -> None:
    photo = _magenta_png(tmp_path / "tiny.png")
    with registering(Tiny()):
        code, out, _ = cli("scan", str(photo), "--bonus", "2", "--format", "json")
    assert code == 0
    assert json.loads(out)["game"] == "tiny" and json.loads(out)["total"] == 3


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose environment registers the third game."""
    folder = tmp_path_factory.mktemp("tiny")
    env = {"SPRAWLSCAN_GAMES": "tests.tiny_game_plugin", "SPRAWLSCAN_DATABASE_PATH": str(folder / "t.db")}
    with serving(folder / "log", env=env) as (url, _):
        yield url


@pytest.mark.slow
def test_a_server_with_a_third_game_scores_it_typed_and_from_a_photo(
    tiny_server: str, tmp_path: Path
) -> None:
    photo = _magenta_png(tmp_path / "tiny.png").read_bytes()
    url = tiny_server
    body = json.dumps({"game": "tiny", "city": "XX\n", "options": {"bonus": 1}}).encode()
    request = urllib.request.Request(f"{url}/api/v1/score", body, {"Content-Type": "application/json"})
    assert _answer(request)["total"] == 3
    boundary = "tinyboundary"
    form = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="bonus"\r\n\r\n5\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="t.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + photo
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    request = urllib.request.Request(f"{url}/api/v1/scans", form, headers)
    scanned = _answer(request)
    assert scanned["game"] == "tiny" and scanned["total"] == 6


@pytest.mark.slow
@pytest.mark.browser
def test_the_page_offers_a_third_game_a_tab_of_its_own_and_scores_it_typed(
    browser: Browser, tiny_server: str
) -> None:
    session = Session(browser, tiny_server, 390)
    try:
        page = session.open()
        page.locator(".game-switch label", has_text="Tiny").click()
        expect(page.locator("#city-h")).to_have_text("2 · Grid")
        expect(page.locator('.game-choices[data-game="tiny"]')).to_be_visible()
        expect(page.locator('.game-choices[data-game="sprawlopolis"]')).to_be_hidden()
        bonus = page.locator('[data-option="bonus"]')
        bonus.fill("2")
        bonus.dispatch_event("change")
        page.locator("#city-text").fill("X . X\nX X .\n")
        page.locator("#score-text").click()
        expect(page.locator("#total")).to_have_text("6")
        expect(page.locator("#grid .cell")).to_have_count(6)
        session.check_origin()
    finally:
        session.context.close()
