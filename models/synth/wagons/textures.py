"""The six territory textures, each filling a territory edge to edge on its pale ground.

Desert: wavy horizontal strokes; forest: cross-hatched pines; snow: white dots; mountains: rows of peaks
outlined dark; plains: short vertical grass strokes; water: stacked wave lines (``wagons-cards.md``). Every
call draws a new pattern (positions, phases, jitter); the print's :class:`~models.synth.wagons.look.Look`
sets the colours, the spacing (``scale``) and the line width (``stroke``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from models.synth import palette as pal
from models.synth.draw import Color, Pen
from models.synth.wagons.look import Look

Texture = Callable[[Pen, float, float, Look, np.random.Generator, tuple[Color, Color, Color]], None]


def _wave(
    x0: float, x1: float, y: float, amp: float, period: float, phase: float
) -> list[tuple[float, float]]:
    xs = np.arange(x0, x1 + 0.4, 0.4)
    return [(float(x), float(y + amp * math.sin(2 * math.pi * x / period + phase))) for x in xs]


def desert(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """Rows of wavy salmon strokes, broken into dashes of a few mm, some rows doubled by a paler one."""
    ground, ink, shade = cols
    step = 2.6 * look.scale
    width = 0.45 * look.stroke
    amp, period = float(rng.uniform(0.2, 0.45)) * step, float(rng.uniform(6, 11)) * look.scale
    for y in np.arange(float(rng.uniform(0, step)), h + step, step):
        x = float(rng.uniform(-4, 0))
        phase = float(rng.uniform(0, 2 * math.pi))
        while x < w:
            length = float(rng.uniform(4, 12))
            colour = pal.vary(rng, ink, 6, 3)
            pen.path(_wave(x, x + length, float(y), amp, period, phase), colour, width)
            if rng.random() < 0.3:
                pen.path(_wave(x, x + length, float(y) + step * 0.4, amp, period, phase), shade, width * 0.7)
            x += length + float(rng.uniform(0.6, 2.5))


def forest(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """Staggered rows of pine triangles, each cross-hatched in dark green, on a lightly hatched ground."""
    ground, ink, shade = cols
    width = 0.22 * look.stroke
    hatch = 1.1 * look.scale
    for k in np.arange(-h, w + h, hatch * 1.6):  # the ground's light hatching, one way
        pen.line((float(k), 0.0), (float(k) + h, h), shade, width * 0.8)
    tree_w, tree_h = 4.4 * look.scale, 5.6 * look.scale
    for row, y in enumerate(np.arange(-tree_h * 0.4, h + tree_h, tree_h * 0.8)):
        offset = (row % 2) * tree_w / 2 + float(rng.uniform(-0.5, 0.5))
        for x in np.arange(-tree_w + offset, w + tree_w, tree_w):
            cx, top = float(x + rng.uniform(-0.4, 0.4)), float(y + rng.uniform(-0.4, 0.4))
            hw = tree_w * float(rng.uniform(0.4, 0.5))
            tri = [(cx, top), (cx + hw, top + tree_h), (cx - hw, top + tree_h)]
            pen.poly(tri, pal.vary(rng, shade, 5, 3))
            for d in np.arange(-hw, hw, hatch):  # the pine's cross-hatching, both ways
                pen.line((cx + d, top + tree_h), (cx + d + hw * 0.5, top + tree_h * 0.5), ink, width)
                pen.line((cx - d, top + tree_h), (cx - d - hw * 0.5, top + tree_h * 0.5), ink, width)
            pen.poly(tri, None, pal.vary(rng, ink, 5, 3), width * 1.2)
            pen.line((cx, top + tree_h), (cx, top + tree_h + 0.8 * look.scale), ink, width * 1.5)


def snow(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """A pale aqua ground densely dotted with white (a jittered grid of dots of a few sizes)."""
    ground, ink, shade = cols
    step = 1.35 * look.scale
    for y in np.arange(0, h + step, step):
        for x in np.arange(0, w + step, step):
            jx, jy = rng.uniform(-0.35, 0.35, 2) * step
            r = 0.32 * look.stroke * float(rng.uniform(0.6, 1.5))
            colour = ink if rng.random() < 0.75 else shade
            pen.circle(float(x + jx), float(y + jy), r, colour)


def mountains(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """Staggered rows of small peaks: a pale lit face, a shaded face and a dark grey outline."""
    ground, ink, shade = cols
    peak_w, peak_h = 6.0 * look.scale, 4.2 * look.scale
    width = 0.32 * look.stroke
    lit = pal.lighter(ground, 14)
    for row, base in enumerate(np.arange(peak_h * 0.6, h + peak_h, peak_h * 1.05)):
        offset = (row % 2) * peak_w / 2 + float(rng.uniform(-0.6, 0.6))
        for x in np.arange(-peak_w + offset, w + peak_w, peak_w):
            cx = float(x + rng.uniform(-0.5, 0.5))
            ph = peak_h * float(rng.uniform(0.8, 1.15))
            b = float(base)
            left, top, right = (cx - peak_w / 2, b), (cx, b - ph), (cx + peak_w / 2, b)
            pen.poly([left, top, (cx, b)], lit)
            pen.poly([(cx, b), top, right], pal.vary(rng, shade, 4, 2))
            if rng.random() < 0.5:  # a snow cap
                cap = [(cx - peak_w * 0.12, b - ph * 0.75), top, (cx + peak_w * 0.12, b - ph * 0.75)]
                pen.poly(cap, pal.lighter(lit, 20))
            pen.path([left, top, right], pal.vary(rng, ink, 6, 2), width)


def plains(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """Short vertical grass strokes in ochre, single or in tufts of three, on a golden ground."""
    ground, ink, shade = cols
    step_x, step_y = 1.9 * look.scale, 2.8 * look.scale
    width = 0.3 * look.stroke
    for row, y in enumerate(np.arange(0, h + step_y, step_y)):
        for x in np.arange((row % 2) * step_x / 2, w + step_x, step_x):
            bx, by = float(x + rng.uniform(-0.5, 0.5) * step_x), float(y + rng.uniform(-0.3, 0.3) * step_y)
            length = float(rng.uniform(1.2, 2.2)) * look.scale
            stroke = min(width, 0.3 * length)  # a grass stroke stays a stroke, never a blob
            colour = pal.vary(rng, ink if rng.random() < 0.7 else shade, 6, 3)
            tilts = (-0.35, 0.0, 0.35) if rng.random() < 0.3 else (float(rng.uniform(-0.12, 0.12)),)
            for tilt in tilts:
                pen.line((bx, by), (bx + tilt * length, by - length), colour, stroke)


def water(pen: Pen, w: float, h: float, look: Look, rng: np.random.Generator, cols: tuple) -> None:
    """Stacked rows of wave lines (scallops), pale and dark rows alternating."""
    ground, ink, shade = cols
    step = 2.3 * look.scale
    period = float(rng.uniform(3.5, 6.0)) * look.scale
    width = 0.35 * look.stroke
    for row, y in enumerate(np.arange(float(rng.uniform(0, step)), h + step, step)):
        colour = ink if row % 2 == 0 else shade
        phase = float(rng.uniform(0, 2 * math.pi))
        amp = step * float(rng.uniform(0.18, 0.3))
        xs = np.arange(-2.0, w + 2.4, 0.4)
        # Scallops: arcs bulging up, one per half period.
        pts = [(float(x), float(y) - amp * abs(math.sin(math.pi * x / period + phase))) for x in xs]
        pen.path(pts, pal.vary(rng, colour, 5, 2), width * (1.0 if row % 2 == 0 else 0.8))


TEXTURES: dict[str, Texture] = {
    "D": desert,
    "F": forest,
    "M": mountains,
    "P": plains,
    "S": snow,
    "W": water,
}


def draw_territory(
    pen: Pen,
    terrain: str,
    w: float,
    h: float,
    look: Look,
    rng: np.random.Generator,
    colours: tuple[Color, Color, Color] | None = None,
) -> None:
    """Fill the ``w`` × ``h`` mm territory at the pen's origin with its ground and texture, in
    ``colours`` (ground, ink, shade) or by default the look's."""
    ground, ink, shade = colours or look.colours(terrain)
    ground = pal.vary(rng, ground, 2.5, 1.5)
    pen.rect(-1, -1, w + 2, h + 2, ground)
    TEXTURES[terrain](pen, w, h, look, rng, (ground, ink, shade))
