"""The six icons, drawn as simple shapes in full colour with dark outlines (``wagons-cards.md``).

Beer: an upright green bottle with a pale label; cow: a longhorn head-on on a tuft of straw; fort: a wooden
watchtower with a dark pyramid roof above a log palisade on a little green; gun: a grey revolver with a
brown grip, lying diagonally; mine: a pickaxe with a long brown handle, lying diagonally; wagon: a covered
wagon, cream canvas over a brown bed on two spoked wheels, side-on. Shapes are given in units of the icon's
height about its centre; a :class:`Sketch` places, turns and mirrors them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from models.synth import palette as pal
from models.synth.draw import Color, Pen, Point
from models.synth.wagons.look import Look

UV = tuple[float, float]


class Sketch:
    """Draws in icon units (u right, v down, the icon spanning v in [-0.5, 0.5]) through a :class:`Pen`."""

    def __init__(self, pen: Pen, centre: Point, size: float, angle: float, mirror: bool, look: Look) -> None:
        self.pen, self.size, self.mirror = pen, size, mirror
        self.cx, self.cy = centre
        self.c, self.s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        self.dark = look.dark
        self.width = look.outline

    def p(self, u: float, v: float) -> Point:
        u = -u if self.mirror else u
        return (
            self.cx + self.size * (u * self.c - v * self.s),
            self.cy + self.size * (u * self.s + v * self.c),
        )

    def poly(self, pts: Sequence[UV], fill: Color | None, outlined: bool = True) -> None:
        self.pen.poly([self.p(u, v) for u, v in pts], fill, self.dark if outlined else None, self.width)

    def rect(self, u0: float, v0: float, u1: float, v1: float, fill: Color, outlined: bool = True) -> None:
        self.poly([(u0, v0), (u1, v0), (u1, v1), (u0, v1)], fill, outlined)

    def ellipse(
        self, u: float, v: float, ru: float, rv: float, fill: Color | None, outlined: bool = True
    ) -> None:
        t = np.linspace(0, 2 * math.pi, 28, endpoint=False)
        self.poly([(u + ru * math.cos(a), v + rv * math.sin(a)) for a in t], fill, outlined)

    def line(self, a: UV, b: UV, colour: Color | None = None, width: float | None = None) -> None:
        self.pen.line(self.p(*a), self.p(*b), colour or self.dark, width or self.width)


def beer(k: Sketch, rng: np.random.Generator, style: int) -> None:
    glass = pal.vary(rng, (62, 132, 66), 12, 6)
    body = 0.16 if style == 0 else 0.21
    neck_top = -0.44 if style == 0 else -0.36
    k.rect(-0.075, -0.5, 0.075, neck_top, pal.vary(rng, (196, 160, 70), 10))  # the cap
    k.poly(
        [
            (-0.06, neck_top),
            (0.06, neck_top),
            (0.06, -0.2),
            (body, -0.04),
            (body, 0.48),
            (0.0, 0.5),
            (-body, 0.48),
            (-body, -0.04),
            (-0.06, -0.2),
        ],
        glass,
    )
    k.line((-body * 0.55, 0.0), (-body * 0.55, 0.42), pal.lighter(glass, 70), 0.35)
    label = pal.vary(rng, (236, 226, 190), 8)
    if style == 0:
        k.rect(-body, 0.08, body, 0.3, label)
    else:
        k.ellipse(0.0, 0.2, body * 0.8, 0.11, label)
    k.line((-body * 0.5, 0.19), (body * 0.5, 0.19), pal.vary(rng, (170, 60, 50), 10), 0.4)


def cow(k: Sketch, rng: np.random.Generator, style: int) -> None:
    hide = pal.vary(rng, (146, 88, 52), 12, 6)
    straw = pal.vary(rng, (222, 190, 90), 10)
    for u in np.linspace(-0.32, 0.32, 9):  # the tuft of straw under it
        k.line((float(u), 0.5), (float(u) + float(rng.uniform(-0.08, 0.08)), 0.33), straw, 0.45)
    if style == 0:
        k.ellipse(0.0, 0.2, 0.3, 0.17, pal.scaled(hide, 0.8))  # shoulders behind the head
    k.poly(
        [
            (-0.5, -0.38),
            (-0.36, -0.22),
            (-0.12, -0.18),
            (0.12, -0.18),
            (0.36, -0.22),
            (0.5, -0.38),
            (0.44, -0.2),
            (0.2, -0.08),
            (-0.2, -0.08),
            (-0.44, -0.2),
        ],
        pal.vary(rng, (234, 224, 196), 8),
    )
    k.ellipse(-0.21, -0.1, 0.08, 0.04, hide)
    k.ellipse(0.21, -0.1, 0.08, 0.04, hide)
    k.poly([(-0.15, -0.22), (0.15, -0.22), (0.17, -0.02), (0.1, 0.22), (-0.1, 0.22), (-0.17, -0.02)], hide)
    if style == 1:  # a white blaze down the face
        k.poly([(-0.05, -0.2), (0.05, -0.2), (0.04, 0.1), (-0.04, 0.1)], (238, 232, 220), outlined=False)
    k.ellipse(0.0, 0.22, 0.12, 0.08, pal.vary(rng, (222, 168, 146), 8))
    for u in (-0.08, 0.08):
        k.ellipse(u, -0.05, 0.025, 0.025, k.dark, outlined=False)
        k.ellipse(u * 0.5, 0.23, 0.018, 0.018, k.dark, outlined=False)


def fort(k: Sketch, rng: np.random.Generator, style: int) -> None:
    wood = pal.vary(rng, (168, 118, 72), 12, 5)
    k.ellipse(0.0, 0.43, 0.5, 0.08, pal.vary(rng, (110, 160, 80), 10, 5))
    tower_w = 0.2 if style == 0 else 0.16
    k.rect(-tower_w, -0.2, tower_w, 0.14, wood)
    for v in (-0.1, 0.0, 0.08):
        k.line((-tower_w, v), (tower_w, v), pal.scaled(wood, 0.7), 0.2)
    k.rect(-0.06, -0.15, 0.06, -0.05, k.dark)
    roof = pal.vary(rng, (76, 60, 56), 8)
    k.poly([(-tower_w - 0.07, -0.2), (0.0, -0.5), (tower_w + 0.07, -0.2)], roof)
    k.poly([(0.0, -0.5), (tower_w + 0.07, -0.2), (0.0, -0.2)], pal.lighter(roof, 25), outlined=False)
    if style == 1:  # a little flag on the roof
        k.line((0.0, -0.5), (0.0, -0.6))
        k.poly([(0.0, -0.6), (0.14, -0.56), (0.0, -0.52)], pal.vary(rng, (190, 60, 50), 10))
    for i, u in enumerate(np.arange(-0.45, 0.46, 0.1)):  # the palisade, log by log
        log = pal.scaled(wood, 0.85 if i % 2 else 1.0)
        u = float(u)
        k.poly([(u - 0.045, 0.42), (u - 0.045, 0.12), (u, 0.05), (u + 0.045, 0.12), (u + 0.045, 0.42)], log)


def gun(k: Sketch, rng: np.random.Generator, style: int) -> None:
    steel = pal.vary(rng, (150, 152, 158), 14, 4)
    grip = pal.vary(rng, (122, 72, 42), 12, 5)
    long = 0.6 if style == 0 else 0.48
    k.rect(-long, -0.1, 0.1, -0.02, steel)
    k.rect(0.04, -0.15, 0.32, 0.06, pal.scaled(steel, 0.9))
    k.ellipse(0.15, -0.045, 0.11, 0.075, pal.scaled(steel, 0.75))
    k.poly([(0.3, -0.15), (0.38, -0.22), (0.4, -0.14)], pal.scaled(steel, 0.7))
    k.poly([(0.22, 0.02), (0.38, -0.02), (0.5, 0.32), (0.33, 0.36)], grip)
    k.ellipse(0.14, 0.1, 0.07, 0.055, None)
    k.rect(-long - 0.02, -0.13, -long + 0.04, -0.1, steel)  # the front sight


def mine(k: Sketch, rng: np.random.Generator, style: int) -> None:
    handle = pal.vary(rng, (156, 104, 62), 12, 5)
    iron = pal.vary(rng, (160, 160, 166), 12, 4)
    k.rect(-0.04, -0.4, 0.04, 0.58, handle)
    k.line((0.0, -0.3), (0.0, 0.5), pal.scaled(handle, 0.75), 0.2)
    tip = (0.56, -0.26) if style == 0 else (0.5, -0.3)
    outer = [(-0.56, -0.26), (-0.3, -0.44), (0.0, -0.5), (0.3, -0.44), tip]
    inner = [(0.3, -0.36), (0.0, -0.4), (-0.3, -0.36)]
    if style == 1:  # a flat chisel end on one side
        outer[0] = (-0.5, -0.3)
        inner.append((-0.46, -0.22))
    k.poly(outer + inner, iron)
    k.rect(-0.07, -0.5, 0.07, -0.36, pal.scaled(iron, 0.8))


def wagon(k: Sketch, rng: np.random.Generator, style: int) -> None:
    canvas = pal.vary(rng, (240, 232, 210), 6, 3)
    wood = pal.vary(rng, (140, 90, 56), 12, 5)
    k.line((0.34, 0.1), (0.58, 0.22), wood, 0.6)
    arch = [(-0.42, 0.02), (-0.4, -0.2), (-0.3, -0.32), (0.2, -0.32), (0.3, -0.2), (0.32, 0.02)]
    k.poly(arch, canvas)
    for u in (-0.22, -0.05, 0.12):
        k.line((u, -0.3), (u + 0.02, 0.0), pal.scaled(canvas, 0.82), 0.3)
    if style == 1:  # the canvas open at the front
        k.ellipse(0.27, -0.12, 0.04, 0.12, k.dark, outlined=False)
    k.rect(-0.46, 0.0, 0.36, 0.14, wood)
    for u, r in ((-0.28, 0.16), (0.2, 0.13 if style == 0 else 0.16)):
        k.ellipse(u, 0.22, r, r, None)
        for a in np.linspace(0, math.pi, 4, endpoint=False):
            k.line(
                (u - r * math.cos(a), 0.22 - r * math.sin(a)), (u + r * math.cos(a), 0.22 + r * math.sin(a))
            )
        k.ellipse(u, 0.22, r, r, None)
        k.ellipse(u, 0.22, 0.03, 0.03, wood)


ICONS: dict[str, Callable[[Sketch, np.random.Generator, int], None]] = {
    "b": beer,
    "c": cow,
    "f": fort,
    "g": gun,
    "m": mine,
    "w": wagon,
}
_TURNS = {"g": 35.0, "m": 40.0}  # icons that lie diagonally, by about this much


def draw_icon(
    pen: Pen, icon: str, centre: Point, height: float, look: Look, rng: np.random.Generator, ground: Color
) -> None:
    """Draw ``icon`` ``height`` mm tall about ``centre``, on a pale oval for a share ``look.oval`` of
    them; mirrored at random, turned a few degrees (a diagonal icon by about 35–40°)."""
    mirror = bool(rng.random() < 0.5) if icon in "gmw" else False
    angle = float(rng.normal(0, 3 * look.spread))
    if icon in _TURNS:
        angle += _TURNS[icon] * float(rng.uniform(0.75, 1.25)) * (1 if mirror else -1)
    if rng.random() < look.oval:
        oval = pal.mix(pal.lighter(ground, 40), look.cream, float(rng.uniform(0.2, 0.8)))
        outline = look.dark if rng.random() < 0.3 else None
        pen.ellipse(
            centre[0], centre[1] + 0.05 * height, 0.62 * height, 0.56 * height, 0, oval, outline, 0.25
        )
    ICONS[icon](Sketch(pen, centre, height, angle, mirror, look), rng, look.style[icon])
