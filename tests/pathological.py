"""Pathological but valid photos, drawn in code (issue 39): pictures that pass every guard (a modest JPEG
of a usual size) yet are full of what the scanner looks for, card-like rectangles and repeated edges.
Shared by tests/bench/bench_pathological.py and the tests that the scan stays bounded on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

__all__ = ["PHOTOS", "framed_tiles", "jpeg", "mosaic"]

WIDTH, HEIGHT = 4000, 3000


def jpeg(bgr: np.ndarray, quality: int = 90) -> bytes:
    """``bgr`` as JPEG bytes."""
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode the photo")
    return buf.tobytes()


def mosaic(seed: int = 0, cols: int = 38, rows: int = 20) -> np.ndarray:
    """Issue 39's mosaic: ``cols`` × ``rows`` coloured tiles with a smaller tile of another colour inside
    each, on a dark grout (760 by default: a tiled floor, a shelf of boxes)."""
    rng = np.random.default_rng(seed)
    img = np.full((HEIGHT, WIDTH, 3), 40, np.uint8)
    pw, ph = WIDTH / cols, HEIGHT / rows
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int(c * pw + 4), int(r * ph + 4)
            x1, y1 = int((c + 1) * pw - 4), int((r + 1) * ph - 4)
            img[y0:y1, x0:x1] = rng.integers(0, 256, 3)
            mx, my = (x1 - x0) // 4, (y1 - y0) // 4
            img[y0 + my : y1 - my, x0 + mx : x1 - mx] = rng.integers(0, 256, 3)
    return img


def checkerboard(square: int = 100) -> np.ndarray:
    """Black and white squares of ``square`` px."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    on = ((yy // square + xx // square) % 2).astype(np.uint8) * 255
    return cv2.merge([on, on, on])


def bricks(seed: int = 1) -> np.ndarray:
    """A brick wall: offset rows of reddish bricks with grey mortar."""
    rng = np.random.default_rng(seed)
    img = np.full((HEIGHT, WIDTH, 3), 170, np.uint8)
    bw, bh = 220, 80
    for r in range(HEIGHT // bh + 1):
        shift = (bw // 2) * (r % 2)
        for c in range(-1, WIDTH // bw + 1):
            x0, y0 = c * bw + shift + 6, r * bh + 6
            colour = (int(rng.integers(30, 70)), int(rng.integers(50, 90)), int(rng.integers(140, 200)))
            cv2.rectangle(img, (x0, y0), (x0 + bw - 12, y0 + bh - 12), colour, -1)
    return img


def noise(seed: int = 2) -> np.ndarray:
    """Uniform colour noise (compresses badly: the largest JPEG here)."""
    return np.random.default_rng(seed).integers(0, 256, (HEIGHT, WIDTH, 3), dtype=np.uint8)


def tiny_rectangles(seed: int = 3) -> np.ndarray:
    """Thousands of small coloured rectangles scattered at random (about 6 000)."""
    rng = np.random.default_rng(seed)
    img = np.full((HEIGHT, WIDTH, 3), 235, np.uint8)
    for _ in range(6000):
        x, y = int(rng.integers(0, WIDTH - 40)), int(rng.integers(0, HEIGHT - 50))
        w, h = int(rng.integers(12, 40)), int(rng.integers(16, 50))
        cv2.rectangle(img, (x, y), (x + w, y + h), tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
    return img


def two_mosaics() -> np.ndarray:
    """Two different mosaics side by side (two "cities"): a fine one on the left, a coarse one right."""
    left = mosaic(seed=5, cols=24, rows=24)[:, : WIDTH // 2]
    right = mosaic(seed=6, cols=12, rows=9)[:, WIDTH // 2 :]
    return np.ascontiguousarray(np.hstack([left, right]))


def tile_floor() -> np.ndarray:
    """A floor of 20 × 12 larger tiles (each about a card's cell in size), a tile inside each."""
    return mosaic(seed=20, cols=20, rows=12)


def framed_tiles(cols: int = 16, rows: int = 10, seed: int = 16, fraction: float = 0.75) -> np.ndarray:
    """A panel of ``cols`` × ``rows`` tiles on a plain table that shows around it (a shelf of boxes, a
    tiled tabletop), ``fraction`` of the photo's width and height: the region does not fill the photo."""
    img = np.full((HEIGHT, WIDTH, 3), 200, np.uint8)
    width, height = int(WIDTH * fraction), int(HEIGHT * fraction)
    panel = cv2.resize(mosaic(seed=seed, cols=cols, rows=rows), (width, height), cv2.INTER_AREA)
    top, left = (HEIGHT - height) // 2, (WIDTH - width) // 2
    img[top : top + height, left : left + width] = panel
    return img


def small_panel() -> np.ndarray:
    """A panel of 10 × 6 tiles on a table: fewer cells than a game has (about 61), in many colours."""
    return framed_tiles(cols=10, rows=6, seed=17, fraction=0.6)


PHOTOS: dict[str, Callable[[], np.ndarray]] = {
    "mosaic": mosaic,
    "tile floor": tile_floor,
    "framed tiles": framed_tiles,
    "small panel": small_panel,
    "checkerboard": checkerboard,
    "bricks": bricks,
    "noise": noise,
    "tiny rectangles": tiny_rectangles,
    "two cities": two_mosaics,
}


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Replace ``module.name`` by itself counting its calls (the returned list grows by one a call)."""
    calls: list[int] = []
    real: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls
