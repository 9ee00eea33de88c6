"""Table surfaces seen under real cities: blue patterned cloth, wood, white and dark, and the harder rooms.

:func:`render_table` draws a tileable texture; the photo simulator warps it with wrap-around borders, so
one tile covers a table of any size. The harder rooms (:data:`HARDER_TABLES`: a red check cloth, grey felt,
marble and pale wood, each close in colour or pattern to the cards) are drawn only when asked for
(``--set table=check``), so the photos of every existing seed stay as they were;
``tests/bench/bench_rooms.py`` reads cities on them.
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np

from models.synth.camera import local_scale
from models.synth.draw import Pen

TableKind = Literal["cloth", "wood", "white", "dark", "check", "felt", "marble", "pale_wood"]
# The tables a photo's conditions are drawn from, and those drawn only when asked for.
COMMON_TABLES: tuple[TableKind, ...] = ("cloth", "wood", "white", "dark")
HARDER_TABLES: tuple[TableKind, ...] = ("check", "felt", "marble", "pale_wood")
TABLE_KINDS: tuple[TableKind, ...] = COMMON_TABLES + HARDER_TABLES
#: The side of the square table texture tiled under a photo (mm): larger than any framing repeats visibly.
TABLE_TILE_MM = 420.0


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell_h: float, cell_w: float) -> np.ndarray:
    """Tileable smooth noise, roughly in [-1, 1], with features about ``cell_h`` × ``cell_w`` px: a sum of
    plane waves whose frequencies are whole numbers of cycles per tile, so the tile wraps seamlessly."""
    ys = np.arange(h, dtype=np.float32)[:, None] / h
    xs = np.arange(w, dtype=np.float32)[None, :] / w
    out = np.zeros((h, w), np.float32)
    max_fy, max_fx = max(1, round(h / cell_h)), max(1, round(w / cell_w))
    for _ in range(10):
        fy, fx = int(rng.integers(0, max_fy + 1)), int(rng.integers(0, max_fx + 1))
        if fy == fx == 0:
            fx = 1
        sign = 1 if rng.random() < 0.5 else -1
        phase = float(rng.uniform(0, 2 * np.pi))
        # cos(a + b) as outer products of 1-D waves: cheap on big tiles.
        ay, ax = 2 * np.pi * fy * ys, 2 * np.pi * sign * fx * xs + phase
        out += np.cos(ay) * np.cos(ax) - np.sin(ay) * np.sin(ax)
    return out / 3.0


def _grain(rng: np.random.Generator, h: int, w: int, sigma: float) -> np.ndarray:
    """Per-pixel Gaussian grain (float32), drawn by OpenCV's fast generator seeded from ``rng``."""
    out = np.empty((h, w), np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(out, 0.0, sigma)
    return out


def _cloth(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    # Blue close to the commercial blocks' hue, a little darker and more saturated on average.
    base = np.array([92, 122, 164], float) + rng.normal(0, [10, 10, 12])
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(base, 0, 255).astype(np.uint8)
    pen = Pen(img, ppm)
    motif = np.clip(base + rng.uniform(30, 70), 0, 255).astype(int)
    accent = np.clip(base * rng.uniform(0.55, 0.8), 0, 255).astype(int)
    period = float(rng.uniform(14, 30))
    style = int(rng.integers(3))
    w_mm, h_mm = w / ppm, h / ppm
    # The pattern repeats an integer number of times across the tile so the tile wraps seamlessly.
    nx, ny = max(1, round(w_mm / period)), max(1, round(h_mm / period))
    px, py = w_mm / nx, h_mm / ny
    for j in range(-1, ny + 2):
        for i in range(-1, nx + 2):
            cx, cy = (i + 0.5 * (j % 2)) * px, j * py
            if style == 0:  # rosettes
                for k in range(6):
                    a = k * np.pi / 3
                    pen.ellipse(
                        cx + 0.22 * px * np.cos(a),
                        cy + 0.22 * py * np.sin(a),
                        0.12 * px,
                        0.06 * py,
                        float(np.degrees(a)),
                        tuple(motif),
                    )  # type: ignore[arg-type]
                pen.circle(cx, cy, 0.08 * px, tuple(accent))  # type: ignore[arg-type]
            elif style == 1:  # diamonds
                d = 0.3 * px
                pen.poly([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], None, tuple(motif), 0.8)  # type: ignore[arg-type]
                pen.circle(cx, cy, 0.06 * px, tuple(motif))  # type: ignore[arg-type]
            else:  # dots and small leaves
                pen.circle(cx, cy, 0.14 * px, tuple(motif))  # type: ignore[arg-type]
                pen.ellipse(cx + 0.5 * px, cy + 0.25 * py, 0.1 * px, 0.04 * py, 35.0, tuple(accent))  # type: ignore[arg-type]
    weave = _grain(rng, h, w, 6.0)
    weave += 6 * _smooth_noise(rng, h, w, 40 * ppm, 40 * ppm)  # folds and uneven dye
    return np.clip(img.astype(np.float32) + weave[..., None], 0, 255).astype(np.uint8)


def _check(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A check (gingham) cloth: red on white by default, close to the residential blocks' orange."""
    colour = np.array([196, 52, 48], float) + rng.normal(0, [14, 12, 12])
    pale = np.array([238, 232, 226], float) + rng.normal(0, 5, 3)
    period = h / max(1, round(h / (float(rng.uniform(12, 30)) * ppm)))  # whole checks per tile
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    band_x = ((xs % period) < period / 2).astype(np.float32)
    band_y = ((ys % period) < period / 2).astype(np.float32)
    share = (0.5 * (band_x + band_y))[..., None]  # 0 white, 0.5 where one band crosses, 1 where both do
    img = pale * (1 - share) + colour * share
    img += (_grain(rng, h, w, 5.0) + 4 * _smooth_noise(rng, h, w, 40 * ppm, 40 * ppm))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Grey felt: close to the industrial blocks' grey, soft and fibrous."""
    level = float(rng.uniform(95, 165))
    fibres = cv2.GaussianBlur(_grain(rng, h, w, 14.0), (0, 0), 0.6 * ppm)
    tex = fibres + _grain(rng, h, w, 3.0) + 5 * _smooth_noise(rng, h, w, 60 * ppm, 60 * ppm)
    base = level + rng.normal(0, 3, 3)
    return np.clip(cv2.merge([tex + np.float32(b) for b in base]), 0, 255).astype(np.uint8)


def _marble(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """White or pale grey marble with thin dark veins."""
    img = _plain(rng, h, w, ppm, float(rng.uniform(205, 240)), 3).astype(np.float32)
    for scale, depth in ((70.0, 45.0), (25.0, 25.0)):
        field = _smooth_noise(rng, h, w, scale * ppm, scale * ppm)
        veins = np.exp(-((field / 0.05) ** 2))  # thin where the smooth field crosses zero
        img -= (depth * float(rng.uniform(0.6, 1.4)) * veins)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _wood(rng: np.random.Generator, h: int, w: int, ppm: float, pale: bool = False) -> np.ndarray:
    base = np.array([168, 118, 74], float) * rng.uniform(0.6, 1.2) + rng.normal(0, 8, 3)
    if pale:  # pale oak, birch or pine: close to the cards' own light colours
        base = np.array([222, 192, 150], float) * rng.uniform(0.92, 1.08) + rng.normal(0, 6, 3)
    plank_mm = float(rng.uniform(70, 160))
    n_planks = max(1, round(h / ppm / plank_mm))
    plank_px = h / n_planks
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = _smooth_noise(rng, h, w, 30 * ppm, 250 * ppm) * 6 * ppm
    period = h / max(1, round(h / (float(rng.uniform(1.5, 3.5)) * ppm)))  # whole cycles per tile
    grain = np.sin(2 * np.pi * (ys + warp) / period) * 0.5 + 0.5
    grain = grain**3
    plank = np.floor(ys / plank_px).astype(int) % n_planks
    tone = rng.uniform(0.85, 1.12, n_planks)[plank]
    shade = (tone * (1 - 0.18 * grain))[..., None] * base
    img = shade + 6 * _smooth_noise(rng, h, w, 20 * ppm, 120 * ppm)[..., None]
    seams = (ys % plank_px) < max(1.0, 0.8 * ppm)
    img[seams] *= 0.55
    return np.clip(img, 0, 255).astype(np.uint8)


def _plain(rng: np.random.Generator, h: int, w: int, ppm: float, level: float, tint: float) -> np.ndarray:
    base = level + rng.normal(0, tint, 3)
    tex = _grain(rng, h, w, 2.5) + 2.5 * _smooth_noise(rng, h, w, 90 * ppm, 90 * ppm)
    out = cv2.merge([tex + np.float32(b) for b in base])
    return np.clip(out, 0, 255).astype(np.uint8)


def render_table(
    kind: TableKind, rng: np.random.Generator, width_mm: float, height_mm: float, ppm: float
) -> np.ndarray:
    """A tileable RGB ``uint8`` texture of a ``kind`` table, ``width_mm`` × ``height_mm`` at ``ppm`` px/mm."""
    w, h = max(8, int(round(width_mm * ppm))), max(8, int(round(height_mm * ppm)))
    if kind == "cloth":
        return _cloth(rng, h, w, ppm)
    if kind == "wood":
        return _wood(rng, h, w, ppm)
    if kind == "white":
        return _plain(rng, h, w, ppm, float(rng.uniform(214, 244)), 4)
    if kind == "dark":
        return _plain(rng, h, w, ppm, float(rng.uniform(26, 62)), 5)
    if kind == "check":
        return _check(rng, h, w, ppm)
    if kind == "felt":
        return _felt(rng, h, w, ppm)
    if kind == "marble":
        return _marble(rng, h, w, ppm)
    if kind == "pale_wood":
        return _wood(rng, h, w, ppm, pale=True)
    raise ValueError(f"unknown table kind {kind!r} (expected one of {', '.join(TABLE_KINDS)})")


def table_view(
    kind: TableKind, hom: np.ndarray, size: tuple[int, int], scene: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """The table seen through ``hom``: a tileable texture warped with wrap-around, so it covers any view.
    The table is soft detail: it is warped at half size, then upsampled."""
    table_ppm = min(4.0, max(1.0, 0.5 * local_scale(hom, tuple(scene.mean(axis=0)))))
    tile = render_table(kind, rng, TABLE_TILE_MM, TABLE_TILE_MM, table_ppm)
    offset = rng.uniform(0, TABLE_TILE_MM, 2)
    to_tile = np.array([[1 / table_ppm, 0, offset[0]], [0, 1 / table_ppm, offset[1]], [0, 0, 1]])
    half_size = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    half = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])
    small = cv2.warpPerspective(
        tile, half @ hom @ to_tile, half_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP
    )
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
