"""Procedural look-alike art for one city block: ground, rim, zone drawings and the road segment.

:func:`draw_block` paints a block of :data:`BLOCK_W` × :data:`BLOCK_H` mm through a :class:`Pen` whose
origin is the block's top-left corner. Everything is random per call (sizes, counts, positions, colours),
within the look described in ``models/MODEL_CARD.md`` ("The real cards the renderer imitates");
nothing is copied from the printed art.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from models.synth import looks
from models.synth import palette as pal
from models.synth.draw import Color, Pen, Point
from scoring.city import Cell
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM

BLOCK_W = BLOCK_W_MM  # the printed block, mm: one number for the renderer and the scanner
BLOCK_H = BLOCK_H_MM
ROAD_W = 0.2 * BLOCK_H  # the asphalt band, about 6 mm
_GRID = 0.5  # mm per cell of the free-space grid used to scatter drawings


def road_path(road: str, step: float = 1.0) -> list[Point]:
    """The centre line of a segment (``"NS"``, ``"SE"``…) in block mm, extended 1.5 mm past both sides."""
    w, h, e = BLOCK_W, BLOCK_H, 1.5
    if road == "NS":
        return [(w / 2, -e), (w / 2, h + e)]
    if road == "EW":
        return [(-e, h / 2), (w + e, h / 2)]
    # A curve is a quarter ellipse centred on the corner between its two sides.
    cx = w if "E" in road else 0.0
    cy = 0.0 if "N" in road else h
    sx = -1.0 if cx else 1.0
    sy = 1.0 if cy == 0 else -1.0
    a, b = w / 2, h / 2
    n = max(8, int(math.pi / 2 * max(a, b) / step))
    pts = [(cx + sx * a * math.cos(u), cy + sy * b * math.sin(u)) for u in np.linspace(0, math.pi / 2, n)]
    return [(pts[0][0], pts[0][1] - sy * e), *pts, (pts[-1][0] - sx * e, pts[-1][1])]


def _along(pts: list[Point]) -> tuple[np.ndarray, np.ndarray]:
    """Points and cumulative arc length of a polyline."""
    arr = np.asarray(pts, float)
    seg = np.hypot(*np.diff(arr, axis=0).T)
    return arr, np.concatenate([[0.0], np.cumsum(seg)])


def _at(arr: np.ndarray, cum: np.ndarray, s: float) -> tuple[Point, Point]:
    """Position and unit tangent at arc length ``s``."""
    i = int(np.clip(np.searchsorted(cum, s) - 1, 0, len(arr) - 2))
    t = (s - cum[i]) / max(cum[i + 1] - cum[i], 1e-9)
    p = arr[i] + t * (arr[i + 1] - arr[i])
    d = arr[i + 1] - arr[i]
    d = d / max(float(np.hypot(*d)), 1e-9)
    return (float(p[0]), float(p[1])), (float(d[0]), float(d[1]))


class _Space:
    """Free space inside the block, on a 0.5 mm grid, so that drawings neither overlap nor sit on the road."""

    def __init__(self, rng: np.random.Generator, road: str | None, margin: float) -> None:
        self.rng = rng
        self.free = np.ones((int(BLOCK_H / _GRID), int(BLOCK_W / _GRID)), bool)
        m = int(margin / _GRID)
        self.free[:m, :] = self.free[-m:, :] = False
        self.free[:, :m] = self.free[:, -m:] = False
        if road:
            # Keep drawings off the asphalt band and a 0.6 mm margin beside it.
            road_mask = np.zeros(self.free.shape, np.uint8)
            pts = np.round(np.asarray(road_path(road, 0.5)) / _GRID * 16).astype(np.int32)
            cv2.polylines(road_mask, [pts], False, 1, int(round((ROAD_W + 1.2) / _GRID)), cv2.LINE_8, 4)
            self.free &= road_mask == 0

    def take(self, w: float, h: float, pad: float = 0.6) -> tuple[float, float] | None:
        """Reserve a free w×h mm box (plus ``pad``) at a random place among all the places where it fits
        (found through a summed-area table of the occupied grid); return its top-left corner in mm, or
        ``None`` when it fits nowhere."""
        gw, gh = int(math.ceil((w + 2 * pad) / _GRID)), int(math.ceil((h + 2 * pad) / _GRID))
        rows, cols = self.free.shape
        if gw >= cols or gh >= rows:
            return None
        occ = np.zeros((rows + 1, cols + 1), np.int32)
        occ[1:, 1:] = (~self.free).cumsum(0).cumsum(1)
        window = occ[gh:, gw:] - occ[:-gh, gw:] - occ[gh:, :-gw] + occ[:-gh, :-gw]
        spots = np.flatnonzero(window == 0)
        if not spots.size:
            return None
        r, c = divmod(int(spots[self.rng.integers(spots.size)]), window.shape[1])
        self.free[r : r + gh, c : c + gw] = False
        return c * _GRID + pad, r * _GRID + pad

    def take_fitting(
        self, w: float, h: float, pad: float = 0.6, smallest: float = 0.5
    ) -> tuple[float, float, float, float] | None:
        """Like :meth:`take`, shrinking the box by steps of 15% (down to ``smallest`` of its size) until it
        fits; returns (x, y, w, h) in mm or ``None``."""
        scale = 1.0
        while scale >= smallest:
            spot = self.take(w * scale, h * scale, pad)
            if spot is not None:
                return spot[0], spot[1], w * scale, h * scale
            scale *= 0.85
        return None

    def fraction_free(self) -> float:
        return float(self.free.mean())


def _house(pen: Pen, rng: np.random.Generator, x: float, y: float, s: float, line: Color) -> None:
    roof = pal.vary(rng, pal.ROOFS[int(rng.integers(len(pal.ROOFS)))], 10)
    shade = pal.scaled(roof, 0.86)
    pen.rect(x, y, s, s, roof, line, 0.3)
    if rng.random() < 0.5:  # ridge east-west: the south half is in shade
        pen.rect(x, y + s / 2, s, s / 2, shade)
        pen.line((x, y + s / 2), (x + s, y + s / 2), line, 0.25)
    else:
        pen.rect(x + s / 2, y, s / 2, s, shade)
        pen.line((x + s / 2, y), (x + s / 2, y + s), line, 0.25)
    pen.rect(x, y, s, s, None, line, 0.3)


def _residential(pen: Pen, rng: np.random.Generator, space: _Space, line: Color) -> None:
    line = pal.mix(line, pal.HEDGE, 0.35)  # roofs are outlined in a dark brown rather than near-black
    s = float(rng.uniform(3.8, 6.0))
    gap = float(rng.uniform(0.7, 1.8))
    pitch = s + gap
    ox, oy = rng.uniform(1.5, 1.5 + pitch, 2)
    for y in np.arange(oy, BLOCK_H - s, pitch):
        for x in np.arange(ox, BLOCK_W - s, pitch):
            if rng.random() < 0.08:
                continue
            jx, jy = rng.normal(0, 0.3, 2)
            r, c = int((y + jy) / _GRID), int((x + jx) / _GRID)
            n = int(math.ceil(s / _GRID))
            if (
                r >= 0
                and c >= 0
                and space.free[r : r + n, c : c + n].size == n * n
                and space.free[r : r + n, c : c + n].all()
            ):
                space.free[r : r + n, c : c + n] = False
                _house(pen, rng, x + jx, y + jy, s, line)
    for _ in range(int(rng.integers(4, 14))):  # more houses wherever a plot is still free
        size = float(rng.uniform(4.0, 6.2))
        spot = space.take(size, size, gap / 2)
        if spot is not None:
            _house(pen, rng, spot[0], spot[1], size, line)
    hedge = pal.vary(rng, pal.HEDGE, 10)
    for _ in range(int(rng.integers(3, 8))):
        length = float(rng.uniform(6, 16))
        horizontal = rng.random() < 0.6
        spot = space.take(length, 1.2, 0.2) if horizontal else space.take(1.2, length, 0.2)
        if spot is None:
            continue
        x, y = spot
        for k in np.arange(0.6, length, 1.3):
            px, py = (x + k, y + 0.6) if horizontal else (x + 0.6, y + k)
            pen.circle(px, py, 0.5, hedge)


def _lot(pen: Pen, rng: np.random.Generator, space: _Space, line: Color) -> None:
    w, h = float(rng.uniform(8, 15)), float(rng.uniform(6, 9))
    fit = space.take_fitting(w, h)
    if fit is None:
        return
    x, y, w, h = fit
    pen.rect(x, y, w, h, pal.vary(rng, pal.LOT, 8), line, 0.3)
    bay = float(rng.uniform(1.9, 2.4))
    for k in np.arange(x + bay, x + w - 0.2, bay):
        pen.line((k, y + 0.3), (k, y + h * 0.38), pal.DASH, 0.22)
        pen.line((k, y + h * 0.62), (k, y + h - 0.3), pal.DASH, 0.22)
    for k in np.arange(x + bay / 2, x + w - 0.5, bay):
        for top in (True, False):
            if rng.random() < 0.5:
                cy = y + (0.5 if top else h * 0.62 + 0.2)
                color = pal.LOT_CARS[int(rng.integers(len(pal.LOT_CARS)))]
                pen.rect(k - 0.65, cy, 1.3, h * 0.38 - 0.8, color, line, 0.15)


def _trees(
    pen: Pen,
    rng: np.random.Generator,
    space: _Space,
    colors: tuple[Color, ...],
    line: Color,
    radius: tuple[float, float],
    count: int,
) -> None:
    for _ in range(count):
        r = float(rng.uniform(*radius))
        spot = space.take(2 * r, 2 * r, 0.2)
        if spot is None:
            continue
        color = pal.vary(rng, colors[int(rng.integers(len(colors)))], 8)
        cx, cy = spot[0] + r, spot[1] + r
        pen.circle(cx, cy, r, color, line, 0.25)
        pen.circle(cx - r * 0.3, cy - r * 0.3, r * 0.35, pal.lighter(color, 22))


def _commercial(pen: Pen, rng: np.random.Generator, space: _Space, line: Color) -> None:
    for _ in range(int(rng.integers(5, 10))):
        w, h = float(rng.uniform(5, 15)), float(rng.uniform(4.5, 10))
        fit = space.take_fitting(w, h)
        if fit is None:
            continue
        x, y, w, h = fit
        roof = pal.vary(rng, pal.FLAT_ROOFS[int(rng.integers(len(pal.FLAT_ROOFS)))], 8)
        pen.rect(x, y, w, h, roof, line, 0.35)
        pen.rect(x + 0.8, y + 0.8, w - 1.6, h - 1.6, None, pal.scaled(roof, 0.85), 0.25)
        for _ in range(int(rng.integers(1, 4))):  # rooftop units
            u = float(rng.uniform(1.0, 2.2))
            pen.rect(
                x + rng.uniform(1, max(1.1, w - u - 1)),
                y + rng.uniform(1, max(1.1, h - u - 1)),
                u,
                u,
                pal.scaled(roof, 0.78),
                line,
                0.15,
            )
    for _ in range(int(rng.integers(1, 4))):
        _lot(pen, rng, space, line)
    _trees(pen, rng, space, (pal.C_TREE,), line, (1.1, 2.0), int(rng.integers(6, 18)))


def _industrial(pen: Pen, rng: np.random.Generator, space: _Space, line: Color) -> None:
    for _ in range(int(rng.integers(2, 5))):
        w, h = float(rng.uniform(8, 17)), float(rng.uniform(5, 11))
        fit = space.take_fitting(w, h)
        if fit is None:
            continue
        x, y, w, h = fit
        roof = pal.vary(rng, pal.WAREHOUSE[int(rng.integers(len(pal.WAREHOUSE)))], 8)
        pen.rect(x, y, w, h, roof, line, 0.35)
        ridge = pal.lighter(roof, 24)
        for k in np.arange(x + 1.5, x + w - 0.5, float(rng.uniform(1.8, 3.0))):
            pen.line((k, y + 0.4), (k, y + h - 0.4), ridge, 0.2)
    for _ in range(int(rng.integers(3, 8))):
        r = float(rng.uniform(1.6, 3.4))
        spot = space.take(2 * r, 2 * r, 0.4)
        if spot is None:
            continue
        cx, cy = spot[0] + r, spot[1] + r
        silo = pal.vary(rng, pal.SILO, 8)
        pen.circle(cx, cy, r, silo, line, 0.3)
        pen.circle(cx, cy, r * 0.6, None, pal.lighter(silo, 40), 0.25)
    for _ in range(int(rng.integers(1, 3))):  # chimneys with smoke drifting off
        spot = space.take(7, 5, 0.3)
        if spot is None:
            continue
        x, y = spot
        pen.circle(x + 1.2, y + 3.8, 1.1, pal.OUTLINE)
        for k in range(int(rng.integers(2, 5))):
            pen.circle(
                x + 2.4 + 1.3 * k,
                y + 3.0 - 0.7 * k,
                0.9 + 0.25 * k,
                pal.SMOKE,
                pal.scaled(pal.SMOKE, 0.8),
                0.15,
            )
    if rng.random() < 0.6:
        _lot(pen, rng, space, line)
    for _ in range(int(rng.integers(1, 4))):  # light-roofed sheds
        w, h = rng.uniform(4, 9, 2)
        spot = space.take(float(w), float(h), 0.4)
        if spot is not None:
            pen.rect(spot[0], spot[1], float(w), float(h), pal.vary(rng, (196, 194, 196), 8), line, 0.25)
    for _ in range(int(rng.integers(6, 16))):  # crates and small sheds
        w, h = rng.uniform(1.5, 4, 2)
        spot = space.take(float(w), float(h), 0.3)
        if spot is not None:
            pen.rect(spot[0], spot[1], float(w), float(h), pal.vary(rng, pal.WAREHOUSE[0], 14), line, 0.2)


def _park(pen: Pen, rng: np.random.Generator, space: _Space, line: Color) -> None:
    if rng.random() < 0.7:  # a light path wandering across the park
        y0, y1 = rng.uniform(4, BLOCK_H - 4, 2)
        xs = np.linspace(-1, BLOCK_W + 1, 12)
        ys = np.interp(xs, [0, BLOCK_W], [y0, y1]) + 2.0 * np.sin(xs / rng.uniform(4, 9) + rng.uniform(0, 6))
        pen.path(list(zip(xs, ys, strict=True)), pal.vary(rng, pal.PATH, 6), float(rng.uniform(0.9, 1.5)))
    kind = rng.choice(["soccer", "tennis", "baseball", "none"], p=[0.35, 0.2, 0.25, 0.2])
    white = pal.DASH
    if kind == "soccer":
        w, h = float(rng.uniform(13, 19)), float(rng.uniform(8, 11))
        fit = space.take_fitting(w, h)
        if fit:
            x, y, w, h = fit
            pen.rect(x, y, w, h, pal.vary(rng, pal.FIELD, 6), line, 0.3)
            pen.rect(x + 0.8, y + 0.8, w - 1.6, h - 1.6, None, white, 0.25)
            pen.line((x + w / 2, y + 0.8), (x + w / 2, y + h - 0.8), white, 0.25)
            pen.circle(x + w / 2, y + h / 2, h * 0.18, None, white, 0.25)
            pen.rect(x + 0.8, y + h * 0.3, 2.2, h * 0.4, None, white, 0.22)
            pen.rect(x + w - 3.0, y + h * 0.3, 2.2, h * 0.4, None, white, 0.22)
    elif kind == "tennis":
        w, h = float(rng.uniform(6, 8)), float(rng.uniform(10, 13))
        fit = space.take_fitting(w, h)
        if fit:
            x, y, w, h = fit
            court = pal.vary(rng, pal.COURT if rng.random() < 0.5 else pal.FIELD, 8)
            pen.rect(x, y, w, h, court, line, 0.3)
            pen.rect(x + 0.7, y + 0.7, w - 1.4, h - 1.4, None, white, 0.22)
            pen.line((x + 0.3, y + h / 2), (x + w - 0.3, y + h / 2), pal.OUTLINE, 0.3)
            pen.line((x + w / 2, y + h * 0.25), (x + w / 2, y + h * 0.75), white, 0.2)
    elif kind == "baseball":
        s = float(rng.uniform(10, 14))
        spot = space.take(s, s)
        if spot:
            x, y = spot
            pen.rect(x, y, s, s, pal.vary(rng, pal.FIELD, 6), line, 0.3)
            d = [
                (x + s / 2, y + s * 0.9),
                (x + s * 0.15, y + s / 2),
                (x + s / 2, y + s * 0.15),
                (x + s * 0.85, y + s / 2),
            ]
            pen.poly(d, pal.vary(rng, pal.COURT, 10), white, 0.25)
            pen.circle(x + s / 2, y + s / 2, s * 0.12, pal.vary(rng, pal.FIELD, 6))
    if rng.random() < 0.45:
        rx, ry = float(rng.uniform(3, 6)), float(rng.uniform(2, 4))
        spot = space.take(2 * rx, 2 * ry)
        if spot:
            pond = pal.vary(rng, pal.POND, 6)
            pen.ellipse(spot[0] + rx, spot[1] + ry, rx, ry, float(rng.uniform(-20, 20)), pond, line, 0.3)
    _trees(pen, rng, space, pal.P_TREE, pal.scaled(pal.P_TREE[1], 0.8), (1.3, 2.8), int(rng.integers(20, 44)))


_ZONE_ART = {"R": _residential, "C": _commercial, "I": _industrial, "P": _park}
# How often the real designs of models/synth/looks.py are drawn (pale-field parks, industrial yards): 0, off.
# A model trained with them at 0.3 / 0.45 (v12, models/MODEL_CARD.md) read the real-art devset worse, so the
# shipped renders, training data and samples stay as they were; set them to try the designs again.
PALE_PARK_SHARE = 0.0
YARD_SHARE = 0.0


def dashes(
    pen: Pen, pts: np.ndarray, colour: Color, width: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A road's centre line dashed along ``pts`` (dash and gap lengths drawn from ``rng``), and the path's
    points and cumulative lengths (:func:`_along`) for what else is drawn along it."""
    arr, cum = _along(pts)
    dash, gap = float(rng.uniform(1.8, 2.8)), float(rng.uniform(1.6, 2.4))
    s = float(rng.uniform(0, dash + gap))
    while s < cum[-1]:
        a, _ = _at(arr, cum, s)
        b, _ = _at(arr, cum, min(s + dash, cum[-1]))
        pen.line(a, b, colour, width)
        s += dash + gap
    return arr, cum


def _road(pen: Pen, rng: np.random.Generator, road: str, line: Color, asphalt: Color | None = None) -> None:
    pts = road_path(road, 0.6)
    asphalt = asphalt or pal.vary(rng, pal.ASPHALT, 7, 3)
    edge = pal.vary(rng, pal.EDGE_LINE, 6)
    inset = float(rng.uniform(0.35, 0.7))
    pen.path(pts, line, ROAD_W + 0.3)
    pen.path(pts, asphalt, ROAD_W)
    pen.path(pts, edge, ROAD_W - 2 * inset)
    pen.path(pts, asphalt, ROAD_W - 2 * inset - 0.9)
    arr, cum = dashes(pen, pts, pal.DASH, 0.45, rng)
    for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3]))):
        s = float(rng.uniform(4, cum[-1] - 4))
        (px, py), (dx, dy) = _at(arr, cum, s)
        lane = ROAD_W / 4 * (1 if rng.random() < 0.5 else -1)
        cx, cy = px - dy * lane, py + dx * lane
        angle = math.degrees(math.atan2(dy, dx))
        color = pal.ROAD_CARS[int(rng.integers(len(pal.ROAD_CARS)))]
        pen.rect(cx - 1.6, cy - 0.85, 3.2, 1.7, color, line, 0.2, angle)
        pen.rect(cx - 0.35, cy - 0.6, 0.9, 1.2, pal.scaled(color, 0.7), None, 0.1, angle)


def _hazard(pen: Pen, rng: np.random.Generator, line: Color) -> None:
    """A construction-zone mark: a striped barrier with cones (the real mark's look is not documented)."""
    x, y = float(rng.uniform(4, BLOCK_W - 22)), float(rng.uniform(3, 8))
    pen.rect(x, y, 18, 3.2, (245, 242, 230), line, 0.3)
    for k in np.arange(0.0, 18.0, 3.0):
        pen.poly([(x + k, y + 3.2), (x + k + 1.5, y), (x + k + 2.8, y), (x + k + 1.3, y + 3.2)], pal.HAZARD)
    for k in range(3):
        cx, cy = x + 3 + 6 * k, y + 6.5
        pen.poly([(cx - 1.2, cy + 1.2), (cx, cy - 1.6), (cx + 1.2, cy + 1.2)], pal.HAZARD, line, 0.2)


def draw_block(pen: Pen, cell: Cell, rng: np.random.Generator) -> None:
    """Paint ``cell`` (a block) with ``pen`` at its origin: ground, lighter rim, drawings, road, marks."""
    zone = cell.zone or "R"
    line = pal.vary(rng, pal.OUTLINE, 6, 2)
    ground = pal.vary(rng, pal.GROUND[zone], 7, 3)
    rim_w = float(rng.uniform(1.0, 2.2))
    pen.rect(0, 0, BLOCK_W, BLOCK_H, pal.lighter(ground, pal.RIM_LIFT + rng.normal(0, 4)))
    pen.rect(rim_w, rim_w, BLOCK_W - 2 * rim_w, BLOCK_H - 2 * rim_w, ground)
    space = _Space(rng, cell.road, rim_w + 0.3)
    asphalt = None
    if zone == "P" and PALE_PARK_SHARE and rng.random() < PALE_PARK_SHARE:
        looks.pale_park(pen, rng, space, line)  # then a few trees only, drawn below
        _trees(
            pen, rng, space, pal.P_TREE, pal.scaled(pal.P_TREE[1], 0.8), (1.3, 2.6), int(rng.integers(0, 7))
        )
    else:
        if zone == "I" and cell.road and YARD_SHARE and rng.random() < YARD_SHARE:
            asphalt = looks.industrial_yard(pen, rng, space, line, cell.road)
        _ZONE_ART[zone](pen, rng, space, line)
    if cell.road:
        _road(pen, rng, cell.road, line, asphalt)
    if cell.construction:
        _hazard(pen, rng, line)
    if cell.poi:
        pen.rect(0.9, 0.9, BLOCK_W - 1.8, BLOCK_H - 1.8, None, pal.POI_FRAME, 1.6)
