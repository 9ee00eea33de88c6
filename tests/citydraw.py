"""A deliberately plain city painter for the geometry tests: flat coloured blocks, roads and clutter.

It knows nothing of the project's synthetic renderer, so the locator, rectifier and lattice fitter are
tested against a second, independent picture of a city. Coordinates are millimetres on the table with
lattice cell (0, 0)'s top-left corner at the origin.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from scoring.city import City
from scoring.placement import Play, card_cell, simulate_play
from vision.lattice.fit import BLOCK_H_MM, BLOCK_W_MM

ZONE_RGB = {"R": (170, 133, 106), "C": (123, 143, 158), "I": (148, 144, 147), "P": (151, 186, 135)}
MID = {"N": (0.5, 0.0), "S": (0.5, 1.0), "E": (1.0, 0.5), "W": (0.0, 0.5)}


@dataclass
class DrawnPhoto:
    photo: np.ndarray  # RGB
    city: City
    mm_to_photo: np.ndarray  # 3×3 homography from table millimetres to photo pixels
    play: Play


def _road_points(road: str) -> list[tuple[float, float]]:
    """Road centre line in block-unit coordinates (0..1, 0..1)."""
    a, b = MID[road[0]], MID[road[1]]
    if road in ("NS", "EW"):
        return [a, b]
    corner = (1.0 if "E" in road else 0.0, 1.0 if "S" in road else 0.0)
    start = math.atan2(a[1] - corner[1], a[0] - corner[0])
    end = math.atan2(b[1] - corner[1], b[0] - corner[0])
    if end - start > math.pi:
        end -= 2 * math.pi
    if start - end > math.pi:
        end += 2 * math.pi
    return [
        (corner[0] + 0.5 * math.cos(t), corner[1] + 0.5 * math.sin(t)) for t in np.linspace(start, end, 12)
    ]


def draw_city_topdown(
    play: Play, rng: random.Random, px_per_mm: float, margin_mm: float, table: tuple
) -> tuple:
    """Paint the cards of ``play`` on a plain table; returns (RGB canvas, mm→canvas 3×3 matrix)."""
    rows = 1 + max(p.row + 1 for p in play.placements)
    cols = 1 + max(p.col + 1 for p in play.placements)
    w = int((cols * BLOCK_W_MM + 2 * margin_mm) * px_per_mm)
    h = int((rows * BLOCK_H_MM + 2 * margin_mm) * px_per_mm)
    canvas = np.empty((h, w, 3), np.uint8)
    canvas[:] = table
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (h, w, 1))
    canvas = np.clip(canvas + noise, 0, 255).astype(np.uint8)
    to_canvas = np.array(
        [[px_per_mm, 0, margin_mm * px_per_mm], [0, px_per_mm, margin_mm * px_per_mm], [0, 0, 1]]
    )
    s = 16  # fixed-point shift for sub-pixel polygons

    def pts(points: list[tuple[float, float]], affine: np.ndarray) -> np.ndarray:
        arr = np.hstack([np.asarray(points, float), np.ones((len(points), 1))]) @ affine.T
        return np.round(arr[:, :2] * s).astype(np.int32).reshape(-1, 1, 2)

    for placement in play.placements:
        angle = math.radians(rng.uniform(-1.5, 1.5))
        dx, dy = rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)
        cx = (placement.col + 1) * BLOCK_W_MM + dx
        cy = (placement.row + 1) * BLOCK_H_MM + dy
        ca, sa = math.cos(angle), math.sin(angle)
        # card-local mm (origin at the card centre) → canvas pixels
        local = to_canvas @ np.array([[ca, -sa, cx], [sa, ca, cy], [0, 0, 1]])
        half_w, half_h = BLOCK_W_MM, BLOCK_H_MM
        card = [(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)]
        shadow = local.copy()
        shadow[:2, 2] += 0.8 * px_per_mm
        cv2.fillPoly(canvas, [pts(card, shadow)], (40, 40, 40), cv2.LINE_AA, shift=4)
        for r in range(2):
            for c in range(2):
                cell = card_cell(placement, placement.row + r, placement.col + c)
                x0, y0 = -half_w + c * BLOCK_W_MM, -half_h + r * BLOCK_H_MM
                block_to = local @ np.array([[BLOCK_W_MM, 0, x0], [0, BLOCK_H_MM, y0], [0, 0, 1]])
                colour = ZONE_RGB[cell.zone or "P"]
                rim = tuple(min(255, v + 25) for v in colour)
                cv2.fillPoly(
                    canvas, [pts([(0, 0), (1, 0), (1, 1), (0, 1)], block_to)], rim, cv2.LINE_AA, shift=4
                )
                inner = [(0.04, 0.05), (0.96, 0.05), (0.96, 0.95), (0.04, 0.95)]
                cv2.fillPoly(canvas, [pts(inner, block_to)], colour, cv2.LINE_AA, shift=4)
                for _ in range(7):  # small dark-outlined "buildings"
                    bx, by = rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.8)
                    bw, bh = rng.uniform(0.06, 0.14), rng.uniform(0.08, 0.18)
                    poly = pts([(bx, by), (bx + bw, by), (bx + bw, by + bh), (bx, by + bh)], block_to)
                    shade = tuple(int(v * rng.uniform(0.6, 1.2)) % 256 for v in colour)
                    cv2.fillPoly(canvas, [poly], shade, cv2.LINE_AA, shift=4)
                    cv2.polylines(canvas, [poly], True, (35, 30, 30), 1, cv2.LINE_AA, shift=4)
                if cell.road:
                    line = pts(_road_points(cell.road), block_to)
                    width = max(1, int(0.2 * BLOCK_H_MM * px_per_mm))
                    cv2.polylines(canvas, [line], False, (120, 110, 100), width, cv2.LINE_AA, shift=4)
                    cv2.polylines(canvas, [line], False, (235, 235, 225), 1, cv2.LINE_AA, shift=4)
    return canvas, to_canvas


def draw_city_photo(
    seed: int,
    *,
    size: tuple[int, int] = (2016, 1512),
    tilt_deg: float = 15.0,
    turn_deg: float | None = None,
    fill: float = 0.7,
    table: tuple[int, int, int] | None = None,
    n_cards: int = 15,
    shift: tuple[float, float] = (0.0, 0.0),
    compact: float = 1.0,
) -> DrawnPhoto:
    """A photo of a random city: top-down painting, turned by ``turn_deg`` (random when ``None``), seen
    ``tilt_deg`` away from vertical, filling about ``fill`` of the frame and moved by ``shift`` (a fraction
    of the frame) off-centre; ``compact`` is the players' wish for a compact city (0: cards laid anywhere,
    long thin cities)."""
    rng = random.Random(seed)
    play = simulate_play(rng, n_cards, compact=compact)
    if table is None:
        table = rng.choice([(92, 62, 40), (230, 228, 222), (45, 45, 50), (110, 135, 170)])
    px_per_mm = 4.0
    margin = 400.0
    canvas, to_canvas = draw_city_topdown(play, rng, px_per_mm, margin, table)
    rows, cols = play.city.n_rows, play.city.n_cols
    city_w, city_h = cols * BLOCK_W_MM, rows * BLOCK_H_MM
    centre = np.array([city_w / 2, city_h / 2])
    turn = math.radians(rng.uniform(0, 360) if turn_deg is None else turn_deg)
    # Camera: rotate the table, tilt it about a random axis, then project.
    ct, st = math.cos(turn), math.sin(turn)
    axis = rng.uniform(0, math.pi)
    tilt = math.radians(tilt_deg)
    radius = max(city_w, city_h)
    f = 1.0 / math.tan(math.radians(30))
    corners = []
    for x, y in [(0, 0), (city_w, 0), (city_w, city_h), (0, city_h)]:
        px, py = x - centre[0], y - centre[1]
        px, py = ct * px - st * py, st * px + ct * py
        # tilt: rotate about an in-plane axis through the centre, then pinhole-project from distance
        u = px * math.cos(axis) + py * math.sin(axis)
        v = -px * math.sin(axis) + py * math.cos(axis)
        z = 2.5 * radius + u * math.sin(tilt)
        u = u * math.cos(tilt)
        px, py = u * math.cos(axis) - v * math.sin(axis), u * math.sin(axis) + v * math.cos(axis)
        corners.append((f * px / z, f * py / z))
    corners_arr = np.array(corners)
    span = corners_arr.max(0) - corners_arr.min(0)
    k = fill * min(size[0] / span[0], size[1] / span[1])
    mid = (corners_arr.max(0) + corners_arr.min(0)) / 2
    target = (corners_arr - mid) * k + np.array(size) / 2 + np.array(shift) * np.array(size)
    src = np.array([[0, 0], [city_w, 0], [city_w, city_h], [0, city_h]], np.float64)
    mm_to_photo = cv2.getPerspectiveTransform(src.astype(np.float32), target.astype(np.float32))
    canvas_to_photo = mm_to_photo @ np.linalg.inv(to_canvas)
    photo = cv2.warpPerspective(
        canvas, canvas_to_photo, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=table
    )
    return DrawnPhoto(photo, play.city, mm_to_photo, play)
