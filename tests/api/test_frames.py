"""The live camera's frame check against a real server: ``POST /api/v1/frames`` finds a city or a town in
a small preview frame, names what to change (glare, the frame's edge) and refuses frames that are not
small previews; it never stores a frame."""

from __future__ import annotations

import io
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from PIL import Image

from models.synth.scene import render_photo
from models.synth.wagons.photo import render_town_photo
from tests.live_server import serving

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from perturb import glare_spot  # noqa: E402

FRAMES = "/api/v1/frames"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of its own, with its database in a folder of its own: (URL, that folder)."""
    folder = tmp_path_factory.mktemp("frames")
    env = {"SPRAWLSCAN_DATABASE_PATH": str(folder / "db.sqlite")}
    with serving(folder / "server.log", env=env) as (url, _):
        yield url, folder


def jpeg(rgb: np.ndarray, quality: int = 85) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def post(url: str, data: bytes, game: str | None = None, name: str = "frame.jpg") -> httpx.Response:
    fields = {"game": game} if game else None
    return httpx.post(url + FRAMES, files={"image": (name, data)}, data=fields, timeout=60)


def city_frame(**conditions: object) -> np.ndarray:
    """A whole city on the table, as the page sends a frame (960 × 720)."""
    return render_photo(5, long_side=960, partial=False, fill=0.8, glare=0.0, tilt=6.0, **conditions).image


def test_a_city_in_the_frame_is_found_with_its_outline_and_nothing_to_change(
    served: tuple[str, Path],
) -> None:
    resp = post(served[0], jpeg(city_frame()))
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["found"] is True and body["game"] == "sprawlopolis"
    assert len(body["outline"]) == 4
    assert all(0.0 <= v <= 1.0 for corner in body["outline"] for v in corner)
    xs = [x for x, _ in body["outline"]]
    assert max(xs) - min(xs) > 0.3  # a city spanning most of the frame
    assert body["ready"] is True and [h["code"] for h in body["hints"]] == ["ready"]
    assert body["ms"] > 0 and resp.headers["cache-control"] == "no-store"


def test_an_empty_table_has_no_city_and_asks_for_the_cards(served: tuple[str, Path]) -> None:
    table = np.full((720, 960, 3), (120, 86, 60), np.uint8)
    table = cv2.add(table, np.random.default_rng(1).integers(0, 12, table.shape, dtype=np.uint8))
    body = post(served[0], jpeg(table)).json()
    assert body["found"] is False and body["ready"] is False and body["outline"] == []
    assert [h["code"] for h in body["hints"]] == ["find_cards"]


def test_a_town_is_found_when_the_page_checks_for_a_town(served: tuple[str, Path]) -> None:
    town = render_town_photo(1, long_side=960).image
    body = post(served[0], jpeg(town), game="wagons").json()
    assert body["found"] is True and body["game"] == "wagons" and len(body["outline"]) == 4


def test_a_lamps_glare_on_the_cards_asks_to_move_the_lamp(served: tuple[str, Path]) -> None:
    clean = city_frame()
    cx, cy = np.mean(post(served[0], jpeg(clean)).json()["outline"], axis=0)  # the city's middle
    glared = glare_spot(clean, centre=(float(cx), float(cy)), radius=0.06)
    codes = [h["code"] for h in post(served[0], jpeg(glared)).json()["hints"]]
    assert "glare" in codes and "ready" not in codes


def test_a_city_cut_by_the_frame_asks_to_step_back(served: tuple[str, Path]) -> None:
    whole = city_frame()
    _, cy = np.mean(post(served[0], jpeg(whole)).json()["outline"], axis=0)
    cut = np.ascontiguousarray(whole[int(cy * whole.shape[0]) :])  # the frame's top through the city
    codes = [h["code"] for h in post(served[0], jpeg(cut)).json()["hints"]]
    assert codes[0] == "step_back"


def test_a_frame_larger_than_a_preview_is_refused_before_it_is_read(served: tuple[str, Path]) -> None:
    big = render_photo(21, long_side=1280).image
    resp = post(served[0], jpeg(big))
    assert resp.status_code == 413 and resp.json()["error"]["code"] == "frame_too_large"
    assert "1024" in resp.json()["error"]["message"]
    huge = b"\xff\xd8\xff" + bytes(2_100_000)
    resp = post(served[0], huge)
    assert resp.status_code == 413 and resp.json()["error"]["code"] == "too_large"


def test_a_frame_repeating_its_last_scan_is_refused_before_it_is_decoded(served: tuple[str, Path]) -> None:
    buf = io.BytesIO()
    Image.fromarray(city_frame()).resize((480, 360)).save(buf, "JPEG", progressive=True)
    data = buf.getvalue()
    start = data.rfind(b"\xff\xda")
    bomb = data[:-2] + data[start:-2] * 40 + b"\xff\xd9"  # each scan another pass over the frame
    assert len(bomb) < 2_000_000  # within the frame's byte limit: refused for its scans
    resp = post(served[0], bomb)
    assert resp.status_code == 413 and resp.json()["error"]["code"] == "image_too_complex"


def test_a_frame_that_is_not_jpeg_or_png_is_refused_by_name(served: tuple[str, Path]) -> None:
    buf = io.BytesIO()
    Image.fromarray(city_frame()).save(buf, "WEBP")
    resp = post(served[0], buf.getvalue(), name="frame.webp")
    assert resp.status_code == 415 and resp.json()["error"]["code"] == "unsupported_frame"
    resp = post(served[0], b"not a picture at all")
    assert resp.status_code == 415 and resp.json()["error"]["code"] == "not_an_image"
    resp = post(served[0], jpeg(city_frame()), game="chess")
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "wrong_game_option"


def test_no_frame_is_stored(served: tuple[str, Path]) -> None:
    url, folder = served
    before = sorted(p.name for p in folder.iterdir())
    for _ in range(3):
        assert post(url, jpeg(city_frame())).status_code == 200
    assert sorted(p.name for p in folder.iterdir()) == before
    with sqlite3.connect(folder / "db.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM scans").fetchone() == (0,)
