"""Block designs the real cards have and the first look-alike art lacked (``real-cards.md``, "What the
look-alike art must cover"): on photos of the real cards, per-cell errors concentrated on them.

- parks that are mostly a **pale sports field** with white lines and few trees, or a **large pale pond**
  (read as "no card");
- **industrial** blocks with a **wide parking lot and rows of parked cars or trucks** beside the road
  (road read as missing);
- **curved roads passing a dense patch** of trees, houses or silos (read as straight).

Each function draws into the block's free space (:class:`vision.synth.blocks._Space`) in the same flat,
outlined style as the rest of the art; nothing is copied from the printed cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.synth import palette as pal
from vision.synth.draw import Color, Pen

PALE_FIELD: Color = (182, 216, 160)
PALE_POND: Color = (192, 226, 216)
TRUCKS: tuple[Color, ...] = ((236, 236, 232), (200, 200, 204), (150, 154, 160), (220, 214, 190))


def pale_field(pen: Pen, rng: np.random.Generator, space: Any, line: Color) -> bool:
    """A sports field filling most of a park block (soccer or baseball lines); True when one was drawn."""
    w, h = float(rng.uniform(26, 38)), float(rng.uniform(16, 24))
    fit = space.take_fitting(w, h, 0.4, 0.6)
    if fit is None:
        return False
    x, y, w, h = fit
    white = pal.vary(rng, pal.DASH, 4)
    pen.rect(x, y, w, h, pal.vary(rng, PALE_FIELD, 8), pal.scaled(PALE_FIELD, 0.85), 0.3)
    if rng.random() < 0.6:  # soccer: touchlines, halfway line, centre circle, boxes
        pen.rect(x + 1.0, y + 1.0, w - 2.0, h - 2.0, None, white, 0.3)
        pen.line((x + w / 2, y + 1.0), (x + w / 2, y + h - 1.0), white, 0.3)
        pen.circle(x + w / 2, y + h / 2, h * 0.16, None, white, 0.3)
        for bx in (x + 1.0, x + w - 1.0 - w * 0.14):
            pen.rect(bx, y + h * 0.28, w * 0.14, h * 0.44, None, white, 0.28)
    else:  # baseball: a diamond of paths in one corner, the outfield arc
        s = min(w, h) * 0.7
        cx, cy = x + s * 0.15, y + h - s * 0.15
        diamond = [(cx, cy), (cx + s * 0.5, cy), (cx + s * 0.5, cy - s * 0.5), (cx, cy - s * 0.5)]
        pen.poly(diamond, None, pal.vary(rng, pal.COURT, 10), 0.6)
        pen.circle(cx + s * 0.25, cy - s * 0.25, 0.9, pal.vary(rng, pal.COURT, 10))
    return True


def pale_pond(pen: Pen, rng: np.random.Generator, space: Any, line: Color) -> None:
    """A large pale pond."""
    rx, ry = float(rng.uniform(6, 11)), float(rng.uniform(4, 7.5))
    spot = space.take(2 * rx, 2 * ry)
    if spot:
        color = pal.vary(rng, PALE_POND, 6)
        pen.ellipse(spot[0] + rx, spot[1] + ry, rx, ry, float(rng.uniform(-25, 25)), color, line, 0.3)


def parking_rows(pen: Pen, rng: np.random.Generator, space: Any, line: Color) -> None:
    """A wide parking lot with two long rows of parked cars or trucks, stripes between the bays."""
    w, h = float(rng.uniform(16, 28)), float(rng.uniform(8, 13))
    if rng.random() < 0.5:
        w, h = h * 1.1, w * 0.8  # the rows may run across the block too
    fit = space.take_fitting(w, h, 0.4, 0.55)
    if fit is None:
        return
    x, y, w, h = fit
    pen.rect(x, y, w, h, pal.vary(rng, pal.LOT, 10), line, 0.3)
    across = w >= h
    length, depth = (w, h) if across else (h, w)
    bay = float(rng.uniform(1.8, 2.6))
    vehicle = depth * float(rng.uniform(0.32, 0.42))
    for k in np.arange(bay / 2, length - bay / 2, bay):
        for side in (0, 1):
            if rng.random() < 0.15:
                continue
            color = pal.vary(rng, TRUCKS[int(rng.integers(len(TRUCKS)))], 8)
            if rng.random() < 0.25:
                color = pal.LOT_CARS[int(rng.integers(len(pal.LOT_CARS)))]
            off = 0.4 if side == 0 else depth - 0.4 - vehicle
            bx, by, bw, bh = (x + k - bay * 0.38, y + off, bay * 0.76, vehicle)
            if not across:
                bx, by, bw, bh = (x + off, y + k - bay * 0.38, vehicle, bay * 0.76)
            pen.rect(bx, by, bw, bh, color, line, 0.15)
        stripe = (x + k + bay / 2, y + 0.3), (x + k + bay / 2, y + depth * 0.3)
        if not across:
            stripe = (x + 0.3, y + k + bay / 2), (x + depth * 0.3, y + k + bay / 2)
        pen.line(stripe[0], stripe[1], pal.DASH, 0.2)


def dense_patch(pen: Pen, rng: np.random.Generator, space: Any, line: Color, zone: str) -> None:
    """Fill what is left of the block with a dense patch: trees (parks, homes) or silos (industry)."""
    if zone == "I":
        colors, radius = (pal.SILO, pal.WAREHOUSE[2]), (1.4, 2.6)
    elif zone == "R":
        colors, radius = (pal.P_TREE[0], pal.HEDGE, pal.ROOFS[2]), (1.0, 1.8)
    else:
        colors, radius = pal.P_TREE, (1.2, 2.2)
    for _ in range(int(rng.integers(12, 30))):
        r = float(rng.uniform(*radius))
        spot = space.take(2 * r, 2 * r, 0.1)
        if spot is None:
            continue
        color = pal.vary(rng, colors[int(rng.integers(len(colors)))], 8)
        pen.circle(spot[0] + r, spot[1] + r, r, color, line, 0.25)
        if zone == "I":
            pen.circle(spot[0] + r, spot[1] + r, r * 0.55, None, pal.lighter(color, 40), 0.2)
