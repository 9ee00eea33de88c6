"""The page's live camera in the real browser: Chromium's fake camera plays a video made from a rendered
photo (the city sliding into view, a lamp's glare crossing it, then a steady shot); the page shows the
hints and the city's outline, takes the photo by itself once the frame has been ready and steady, and
scans it as an uploaded file. Without a camera allowed, the page says so and keeps the file picker."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from models.synth.scene import render_photo
from tests.api.page_session import Session
from tests.conftest import CHROMIUM, CHROMIUM_FLAGS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from perturb import glare_spot  # noqa: E402

pytestmark = pytest.mark.browser

FPS = 5
SCAN_S = 90_000  # a real scan on the 2-core machine, with other sessions on it


def table_scene() -> np.ndarray:
    """A whole city from nearly straight above, in the middle of a wide table (1920 × 1440): the camera's
    frame is a 960 × 720 window of it."""
    return render_photo(
        5, long_side=1920, orientation="landscape", partial=False, fill=0.42, glare=0.0, tilt=6.0
    ).image


def video_frames(scene: np.ndarray) -> Iterator[np.ndarray]:
    """The camera moving over the table until the city is in the middle of the frame (first cut by the
    frame's edge), a glare spot crossing the city, then the steady shot for five seconds (with a camera's
    noise)."""
    window = (slice(360, 1080), slice(480, 1440))
    for i in range(12):
        dx = round(480 * (1 - i / 12))
        yield np.ascontiguousarray(scene[360:1080, 480 + dx : 1440 + dx])
    shot = np.ascontiguousarray(scene[window])
    for i in range(12):
        yield glare_spot(shot, centre=(0.3 + 0.4 * i / 11, 0.4), radius=0.06)
    rng = np.random.default_rng(0)
    for _ in range(5 * FPS):
        noise = rng.integers(-2, 3, shot.shape)
        yield np.clip(shot.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def write_y4m(path: Path, frames: Iterator[np.ndarray]) -> None:
    """A Y4M video (a header, then each frame's raw I420 planes), as Chromium's fake camera plays it."""
    with path.open("wb") as out:
        for i, rgb in enumerate(frames):
            h, w = rgb.shape[:2]
            if i == 0:
                out.write(f"YUV4MPEG2 W{w} H{h} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
            out.write(b"FRAME\n" + cv2.cvtColor(rgb, cv2.COLOR_RGB2YUV_I420).tobytes())


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def camera_browser(playwright: Playwright, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Chromium whose camera is the video above, allowed without asking."""
    video = tmp_path_factory.mktemp("camera") / "table.y4m"
    write_y4m(video, video_frames(table_scene()))
    flags = [
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_FLAGS, *flags])
    yield b
    b.close()


@pytest.fixture()
def plain_browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Chromium as it comes: a page asking for the camera is refused (nobody answers the prompt)."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
    yield b
    b.close()


def watch_hints(page: Page, until_s: float, shots: Path) -> tuple[set[str], str | None]:
    """The hint codes the page shows until the camera closes (or ``until_s`` passes), and the outline drawn
    while it said "ready"; a screenshot of the page at each hint's first showing goes to ``shots``."""
    seen: set[str] = set()
    ready_outline = None
    end = time.monotonic() + until_s
    while time.monotonic() < end:
        state = page.evaluate(
            "() => [document.querySelector('#camera').hidden, "
            "document.querySelector('#camera-hint').dataset.code || '', "
            "document.querySelector('#camera-poly').getAttribute('points')]"
        )
        hidden, code, points = state
        if hidden:
            break
        if code and code not in seen:
            page.screenshot(path=str(shots / f"camera-{code}.png"))
        seen.add(code)
        if code == "ready" and ready_outline is None:
            ready_outline = points
        time.sleep(0.05)
    return seen, ready_outline


def test_the_live_camera_shows_hints_and_the_outline_and_takes_and_scans_the_photo_once_steady(
    camera_browser: Browser, server: str, tmp_path: Path
) -> None:
    session = Session(camera_browser, server, 390)
    try:
        page = session.open()
        page.locator("#camera-open").click()
        expect(page.locator("#camera")).to_be_visible()
        seen, outline = watch_hints(page, until_s=60, shots=tmp_path)
        assert "step_back" in seen, seen  # the city sliding in, cut by the frame's edge
        assert "glare" in seen, seen  # the lamp's spot crossing it
        assert "ready" in seen, seen
        corners = [tuple(map(float, p.split(","))) for p in (outline or "").split()]
        assert len(corners) == 4 and all(0 <= v <= 1 for c in corners for v in c), outline
        xs = [x for x, _ in corners]
        assert max(xs) - min(xs) > 0.4  # the whole city, outlined
        expect(page.locator("#camera")).to_be_hidden()
        assert page.locator("#camera").get_attribute("data-taken") == "auto"
        expect(page.locator("#total")).to_be_visible(timeout=SCAN_S)  # scanned as an uploaded photo is
        expect(page.locator("#overlay")).to_be_visible()
        session.check_origin()
    finally:
        session.context.close()


def test_a_camera_the_player_declines_leaves_the_file_picker(plain_browser: Browser, server: str) -> None:
    session = Session(plain_browser, server, 390)
    try:
        page = session.open()
        page.locator("#camera-open").click()
        expect(page.locator("#camera-none")).to_be_visible()
        expect(page.locator("#camera-none")).to_contain_text("Take the photo with the button below instead")
        expect(page.locator("#camera")).to_be_hidden()
        expect(page.locator("label.pick")).to_be_visible()
        session.check_origin()
    finally:
        session.context.close()
