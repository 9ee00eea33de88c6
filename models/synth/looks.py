"""Two real block designs the first look-alike art lacked, drawn from the facts in ``real-cards.md`` and
from looking at photos of the real cards (nothing is copied from the printed art):

- **pale sports-field parks**: a pale green to whitish field filling most of the block, thin white lines
  (soccer, baseball, tennis) or a pale meadow ringed by a row of trees, or a large pale pond; few trees.
  The shipped classifier read one as bare table at 95 %.
- **industrial yards round a curve**: a low-contrast grey road curving past round silos packed into the
  curve's inside corner, a long row of parked cars along a block edge and a big dark warehouse: straight
  lines everywhere except the road, which the classifier read as straight. The same yard is drawn round
  straight roads too, so the look itself says nothing about the road's shape.

:func:`pale_park` and :func:`industrial_yard` draw into a block's free space (``blocks._Space``) with the
same pen and outline style as the rest of the art.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from models.synth import palette as pal
from models.synth.draw import Color, Pen

W, H = 44.45, 31.75  # the block, mm (blocks.BLOCK_W/H; not imported: blocks imports this module)
PALE_FIELDS: tuple[Color, ...] = (
    (186, 218, 164),
    (200, 226, 182),
    (214, 232, 198),
    (198, 214, 168),
    (222, 230, 210),
)
PALE_POND: Color = (190, 224, 214)
DARK_SHED: Color = (98, 98, 92)
# Yards with a strip of bare ground across them (:func:`_bare_strip`).
STRIP_SHARE = 0.6


def _take_at(space: Any, x: float, y: float, w: float, h: float) -> bool:
    """Reserve the box (x, y, w, h) mm if all of it is free; True when it was."""
    g = 0.5
    r0, c0, r1, c1 = int(y / g), int(x / g), int(np.ceil((y + h) / g)), int(np.ceil((x + w) / g))
    rows, cols = space.free.shape
    if r0 < 0 or c0 < 0 or r1 > rows or c1 > cols or not space.free[r0:r1, c0:c1].all():
        return False
    space.free[r0:r1, c0:c1] = False
    return True


def _field_colour(rng: np.random.Generator) -> Color:
    base = PALE_FIELDS[int(rng.integers(len(PALE_FIELDS)))]
    return pal.vary(rng, pal.mix(base, (236, 238, 228), float(rng.uniform(0.0, 0.45))), 6, 3)


def _soccer(pen: Pen, rng: np.random.Generator, box: tuple[float, float, float, float], white: Color) -> None:
    x, y, w, h = box
    m = float(rng.uniform(0.6, 1.4))
    lw = float(rng.uniform(0.18, 0.32))
    pen.rect(x + m, y + m, w - 2 * m, h - 2 * m, None, white, lw)
    if w >= h:
        pen.line((x + w / 2, y + m), (x + w / 2, y + h - m), white, lw)
        for bx in (x + m, x + w - m - w * 0.13):
            pen.rect(bx, y + h * 0.3, w * 0.13, h * 0.4, None, white, lw)
    else:
        pen.line((x + m, y + h / 2), (x + w - m, y + h / 2), white, lw)
        for by in (y + m, y + h - m - h * 0.13):
            pen.rect(x + w * 0.3, by, w * 0.4, h * 0.13, None, white, lw)
    pen.circle(x + w / 2, y + h / 2, min(w, h) * float(rng.uniform(0.12, 0.2)), None, white, lw)


def _baseball(
    pen: Pen, rng: np.random.Generator, box: tuple[float, float, float, float], white: Color
) -> None:
    x, y, w, h = box
    s = min(w, h) * float(rng.uniform(0.45, 0.7))
    cx, cy = x + w / 2 + rng.uniform(-0.15, 0.15) * w, y + h * float(rng.uniform(0.6, 0.8))
    diamond = [(cx, cy), (cx - s / 2, cy - s / 2), (cx, cy - s), (cx + s / 2, cy - s / 2)]
    infield = pal.vary(rng, pal.mix(pal.COURT, (236, 226, 200), 0.6), 8) if rng.random() < 0.5 else None
    pen.poly(diamond, infield, white, float(rng.uniform(0.2, 0.35)))
    pen.circle(cx, cy - s / 2, s * 0.08, white)
    if rng.random() < 0.6:  # the outfield fence as an arc of white
        pen.ellipse(cx, cy, s * 1.1, s * 1.1, 0, None, white, 0.22)


def _tennis(pen: Pen, rng: np.random.Generator, box: tuple[float, float, float, float], white: Color) -> None:
    x, y, w, h = box
    n = int(rng.integers(2, 5))
    cw = w / n
    for k in range(n):
        pen.rect(x + k * cw + 0.5, y + 0.6, cw - 1.0, h - 1.2, None, white, 0.22)
        pen.line((x + k * cw + 0.5, y + h / 2), (x + (k + 1) * cw - 0.5, y + h / 2), white, 0.22)


def _tree_row(pen: Pen, rng: np.random.Generator, space: Any, box: tuple[float, float, float, float]) -> None:
    """Round trees along some sides of ``box`` (a ring, a U or an L), as round the pale meadows."""
    x, y, w, h = box
    r = float(rng.uniform(1.2, 2.0))
    color, line = pal.P_TREE[int(rng.integers(len(pal.P_TREE)))], pal.scaled(pal.P_TREE[1], 0.7)
    sides = [s for s in ("top", "bottom", "left", "right") if rng.random() < 0.6] or ["left"]
    step = 2 * r * float(rng.uniform(1.0, 1.4))
    for side in sides:
        along = np.arange(r, (w if side in ("top", "bottom") else h) - r, step)
        for a in along:
            cx, cy = {
                "top": (x + a, y + r),
                "bottom": (x + a, y + h - r),
                "left": (x + r, y + a),
                "right": (x + w - r, y + a),
            }[side]
            if rng.random() < 0.1:
                continue
            pen.circle(cx, cy, r, pal.vary(rng, color, 8), line, 0.25)
            pen.circle(cx - r * 0.3, cy - r * 0.3, r * 0.35, pal.lighter(color, 22))


def pale_park(pen: Pen, rng: np.random.Generator, space: Any, line: Color) -> None:
    """A park that is mostly a pale field (soccer, baseball, tennis, an open meadow) or a large pale pond."""
    fw, fh = W * float(rng.uniform(0.7, 0.94)), H * float(rng.uniform(0.68, 0.92))
    fit = space.take_fitting(fw, fh, 0.3, 0.75)
    if fit is None:
        return
    box = fit
    kind = rng.choice(["soccer", "baseball", "tennis", "meadow", "pond"], p=[0.32, 0.22, 0.12, 0.2, 0.14])
    field = _field_colour(rng)
    outline = pal.scaled(field, float(rng.uniform(0.8, 0.95))) if rng.random() < 0.7 else None
    x, y, w, h = box
    if kind == "pond":
        pts = _blob(rng, x + w / 2, y + h / 2, w / 2, h / 2)
        pen.poly(pts, pal.vary(rng, pal.mix(PALE_POND, field, float(rng.uniform(0, 0.5))), 6), line, 0.25)
    else:
        pen.rect(x, y, w, h, field, outline, 0.3)
        if rng.random() < 0.35:  # mowing stripes, barely lighter
            band = w / int(rng.integers(5, 11))
            for k in range(0, int(w / band), 2):
                pen.rect(x + k * band, y, band, h, pal.lighter(field, float(rng.uniform(4, 10))))
        white = pal.vary(rng, pal.DASH, 4)
        if kind == "soccer":
            _soccer(pen, rng, box, white)
        elif kind == "baseball":
            _baseball(pen, rng, box, white)
        elif kind == "tennis":
            _tennis(pen, rng, box, white)
        else:  # a pale meadow with a light path
            pen.path(
                [(x + 1, y + h * rng.uniform(0.2, 0.8)), (x + w - 1, y + h * rng.uniform(0.2, 0.8))],
                pal.vary(rng, pal.PATH, 6),
                float(rng.uniform(0.8, 1.4)),
            )
    if kind == "meadow" or rng.random() < 0.3:
        _tree_row(pen, rng, space, box)


def _blob(rng: np.random.Generator, cx: float, cy: float, rx: float, ry: float) -> list[tuple[float, float]]:
    """An irregular closed outline, like a pond's."""
    t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    wobble = 1 + 0.15 * np.sin(2 * t + rng.uniform(0, 6)) + 0.08 * np.sin(3 * t + rng.uniform(0, 6))
    k = np.clip(wobble, 0.6, 1.0)
    return [(cx + rx * k[i] * np.cos(a), cy + ry * k[i] * np.sin(a)) for i, a in enumerate(t)]


def _inside_corner(road: str) -> tuple[float, float]:
    """The block corner a curve turns round (the centre of its quarter ellipse)."""
    return (W if "E" in road else 0.0), (0.0 if "N" in road else H)


def _silos(pen: Pen, rng: np.random.Generator, space: Any, line: Color, road: str) -> None:
    n = int(rng.integers(2, 6))
    if road in ("NS", "EW"):
        cx, cy = float(rng.uniform(6, W - 6)), float(rng.uniform(6, H - 6))
    else:  # packed into the curve's inside corner, where the real art puts them
        kx, ky = _inside_corner(road)
        cx, cy = kx + (W * 0.2 if kx == 0 else -W * 0.2), ky + (H * 0.22 if ky == 0 else -H * 0.22)
    silo = pal.vary(rng, pal.scaled(pal.SILO, float(rng.uniform(0.7, 1.0))), 8)
    for _ in range(n):
        r = float(rng.uniform(1.4, 2.8))
        x, y = cx + rng.normal(0, 2.5), cy + rng.normal(0, 2.0)
        if _take_at(space, x - r, y - r, 2 * r, 2 * r):
            pen.circle(x, y, r, silo, line, 0.3)
            pen.circle(x, y, r * 0.55, None, pal.lighter(silo, 36), 0.22)


def _car_row(pen: Pen, rng: np.random.Generator, space: Any, line: Color) -> None:
    """A long row of parked cars along one block edge, nose to the edge."""
    depth, car_w = float(rng.uniform(2.6, 3.6)), float(rng.uniform(1.3, 1.8))
    side = rng.choice(["top", "bottom", "left", "right"])
    length = W if side in ("top", "bottom") else H
    inset = float(rng.uniform(1.6, 3.0))
    for a in np.arange(inset, length - inset - car_w, car_w * float(rng.uniform(1.2, 1.5))):
        x, y, w, h = {
            "top": (a, inset, car_w, depth),
            "bottom": (a, H - inset - depth, car_w, depth),
            "left": (inset, a, depth, car_w),
            "right": (W - inset - depth, a, depth, car_w),
        }[side]
        if rng.random() < 0.2 or not _take_at(space, x, y, w, h):
            continue
        pen.rect(x, y, w, h, pal.LOT_CARS[int(rng.integers(len(pal.LOT_CARS)))], line, 0.15)


def _bare_strip(pen: Pen, rng: np.random.Generator, space: Any) -> None:
    """A straight strip of bare ground across the whole block between its lots, off the middle: as wide as
    a road and as straight as one, with no edge lines or dashes (the real yards show one beside a curve)."""
    width = float(rng.uniform(3.0, 6.5))
    off = float(rng.uniform(3.0, 12.0)) * (1 if rng.random() < 0.5 else -1)
    ground = pal.mix(pal.GROUND["I"], (206, 202, 192), float(rng.uniform(0.3, 0.8)))
    colour = pal.vary(rng, ground, 6, 2)
    g = 0.5  # the free-space grid's cell, mm (blocks._Space)
    if rng.random() < 0.5:  # north to south
        x = W / 2 + off - width / 2
        pen.rect(x, 0.0, width, H, colour)
        space.free[:, max(0, int(x / g)) : int(np.ceil((x + width) / g))] = False
    else:
        y = H / 2 + off * H / W - width / 2
        pen.rect(0.0, y, W, width, colour)
        space.free[max(0, int(y / g)) : int(np.ceil((y + width) / g)), :] = False


def industrial_yard(pen: Pen, rng: np.random.Generator, space: Any, line: Color, road: str) -> Color:
    """Silos (in a curve's inside corner), often a straight strip of bare ground, a row of parked cars and a
    big dark warehouse; returns the road's asphalt, often close to the grey ground so that the curve is hard
    to see against it."""
    if rng.random() < STRIP_SHARE:
        _bare_strip(pen, rng, space)
    _silos(pen, rng, space, line, road)
    if rng.random() < 0.75:
        _car_row(pen, rng, space, line)
    fit = space.take_fitting(float(rng.uniform(11, 19)), float(rng.uniform(7, 12)), 0.5, 0.6)
    if fit is not None and rng.random() < 0.8:
        x, y, w, h = fit
        roof = pal.vary(rng, DARK_SHED, 10)
        pen.rect(x, y, w, h, roof, line, 0.35)
        pen.rect(x + 1.0, y + 1.0, w - 2.0, h - 2.0, None, pal.lighter(roof, 16), 0.25)
    ground = pal.GROUND["I"]
    return pal.vary(rng, pal.mix(pal.ASPHALT, pal.lighter(ground, 6), float(rng.uniform(0.2, 0.75))), 5, 2)
