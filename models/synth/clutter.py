"""Things other than cards that lie on the table in real photos: the game's box, a cup, a phone, a hand.

Each object is drawn top-down as a :class:`~models.synth.art.CardArt`-like picture (RGB plus an alpha
mask) in its own millimetre frame, so that the photo simulator can paste it with the same homography code
as the cards. The drawings are generic; the box is our own design, not the publisher's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from models.synth import palette as pal
from models.synth.art import CardArt, CardPose
from models.synth.draw import Pen, rounded_rect_mask

ObjectKind = Literal["box", "cup", "phone", "hand"]
OBJECT_KINDS: tuple[ObjectKind, ...] = ("box", "cup", "phone", "hand")
_SKIN: tuple[tuple[int, int, int], ...] = ((236, 196, 170), (214, 164, 128), (170, 118, 84), (120, 80, 58))


@dataclass(frozen=True)
class TableObject:
    """An object on the table: its ``kind``, its size in mm and where it lies (``pose``, top-left corner)."""

    kind: ObjectKind
    width: float
    height: float
    pose: CardPose

    def corners_mm(self) -> np.ndarray:
        """4×2 table mm of the object's bounding rectangle: TL, TR, BR, BL."""
        local = np.array(
            [[0, 0, 1], [self.width, 0, 1], [self.width, self.height, 1], [0, self.height, 1]], float
        )
        return (local @ self.pose.matrix().T)[:, :2]


def object_size(kind: ObjectKind, rng: np.random.Generator) -> tuple[float, float]:
    if kind == "box":
        return float(rng.uniform(92, 100)), float(rng.uniform(66, 72))
    if kind == "cup":
        d = float(rng.uniform(75, 95))
        return d, d
    if kind == "hand":
        return float(rng.uniform(85, 100)), float(rng.uniform(170, 195))
    return float(rng.uniform(68, 78)), float(rng.uniform(140, 160))


def _hand(width: float, height: float, rng: np.random.Generator, ppm: float) -> CardArt:
    """A flat hand seen from above, fingers towards the top: palm, four fingers, a thumb, and a sleeve."""
    w, h = int(round(width * ppm)), int(round(height * ppm))
    rgb = np.zeros((h, w, 3), np.uint8)
    mask = np.zeros((h, w), np.uint8)
    skin = pal.vary(rng, _SKIN[int(rng.integers(len(_SKIN)))], 8)
    sleeve = pal.vary(
        rng, [(40, 50, 90), (150, 30, 40), (60, 60, 64), (220, 220, 214)][int(rng.integers(4))], 10
    )
    for img, palm, finger, cuff in ((rgb, skin, pal.scaled(skin, 0.93), sleeve), (mask, 255, 255, 255)):
        pen = Pen(img, ppm)
        pen.ellipse(width * 0.5, height * 0.55, width * 0.36, height * 0.2, 0, palm)  # type: ignore[arg-type]
        for dx, length in ((-0.27, 0.26), (-0.09, 0.31), (0.09, 0.3), (0.26, 0.24)):
            x = width * (0.5 + dx)
            y0, y1 = height * 0.45, height * (0.45 - length)
            pen.line((x, y0), (x, y1 + width * 0.07), finger, width * 0.15)  # type: ignore[arg-type]
            pen.circle(x, y1 + width * 0.07, width * 0.075, finger)  # type: ignore[arg-type]
        pen.line((width * 0.2, height * 0.62), (width * 0.04, height * 0.42), finger, width * 0.16)  # type: ignore[arg-type]
        pen.rect(width * 0.2, height * 0.72, width * 0.6, height * 0.28, cuff)  # type: ignore[arg-type]
    return CardArt(rgb, mask, ppm)


def render_object(
    kind: ObjectKind, width: float, height: float, rng: np.random.Generator, ppm: float
) -> CardArt:
    """Draw an object ``width`` × ``height`` mm at ``ppm`` px/mm."""
    if kind == "hand":
        return _hand(width, height, rng, ppm)
    w, h = int(round(width * ppm)), int(round(height * ppm))
    rgb = np.zeros((h, w, 3), np.uint8)
    pen = Pen(rgb, ppm)
    if kind == "cup":
        mask = np.zeros((h, w), np.uint8)
        Pen(mask, ppm).circle(width / 2, height / 2, width / 2, 255)  # type: ignore[arg-type]
        body = pal.vary(
            rng, [(240, 238, 232), (200, 60, 50), (60, 90, 150), (230, 200, 80)][int(rng.integers(4))], 8
        )
        pen.circle(width / 2, height / 2, width / 2, body)
        pen.circle(width / 2, height / 2, width / 2 - 4, pal.scaled(body, 0.85))
        drink = pal.vary(rng, (70, 42, 26), 8)
        pen.circle(width / 2, height / 2, width / 2 - 6, drink)
        pen.ellipse(width * 0.4, height * 0.38, width * 0.12, width * 0.05, -30, pal.lighter(drink, 60))
        return CardArt(rgb, mask, ppm)
    mask = rounded_rect_mask(w, h, (3.0 if kind == "box" else 9.0) * ppm)
    if kind == "phone":
        pen.rect(0, 0, width, height, pal.vary(rng, (30, 30, 34), 6))
        pen.rect(4, 4, width - 8, height - 8, pal.vary(rng, (14, 16, 22), 4))
        pen.ellipse(width * 0.6, height * 0.3, width * 0.3, height * 0.1, 30, (40, 44, 56))
        return CardArt(rgb, mask, ppm)
    # The box lid: a sky band over a row of stylised blocks, a title plate of capital-like bars.
    pen.rect(0, 0, width, height, pal.vary(rng, (96, 170, 214), 10))
    zones = list(pal.GROUND.values())
    x = 0.0
    while x < width:
        bw = float(rng.uniform(8, 16))
        bh = float(rng.uniform(18, 40))
        pen.rect(x, height - bh, bw, bh, pal.vary(rng, zones[int(rng.integers(4))], 12), pal.OUTLINE, 0.4)
        x += bw
    pen.rect(
        width * 0.1,
        height * 0.12,
        width * 0.8,
        height * 0.22,
        pal.vary(rng, (250, 206, 60), 6),
        pal.OUTLINE,
        0.6,
    )
    x = width * 0.14
    while x < width * 0.84:
        cw = float(rng.uniform(3.5, 5.5))
        pen.rect(x, height * 0.16, cw, height * 0.14, pal.OUTLINE)
        x += cw + 1.2
    return CardArt(rgb, mask, ppm)


def place_objects(count: int, avoid: np.ndarray, rng: np.random.Generator) -> list[TableObject]:
    """Up to ``count`` objects around the points ``avoid`` (N×2 mm: the cards' corners), each one clear
    of their bounding box by 10–60 mm on a random side."""
    (x0, y0), (x1, y1) = avoid.min(axis=0), avoid.max(axis=0)
    out: list[TableObject] = []
    sides = list(rng.permutation(4))
    for k in range(min(count, 4)):
        kind = OBJECT_KINDS[int(rng.integers(len(OBJECT_KINDS)))]
        w, h = object_size(kind, rng)
        gap = float(rng.uniform(10, 60))
        side = int(sides[k])
        turn = float(rng.uniform(-40, 40))
        reach = math.hypot(w, h) / 2  # keep clear whatever the turn
        if side == 0:
            cx, cy = float(rng.uniform(x0, x1)), y1 + gap + reach
        elif side == 1:
            cx, cy = float(rng.uniform(x0, x1)), y0 - gap - reach
        elif side == 2:
            cx, cy = x1 + gap + reach, float(rng.uniform(y0, y1))
        else:
            cx, cy = x0 - gap - reach, float(rng.uniform(y0, y1))
        t = math.radians(turn)
        c, s = math.cos(t), math.sin(t)
        pose = CardPose(cx - (c * w / 2 - s * h / 2), cy - (s * w / 2 + c * h / 2), turn)
        out.append(TableObject(kind, w, h, pose))
    return out
