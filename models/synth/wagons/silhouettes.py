"""One-colour icon silhouettes for the editions of :mod:`~models.synth.wagons.edition`.

Three families, all drawn in icon units (u right, v down, the icon about v in [-0.5, 0.5]) by a
:class:`Mono` sketch that paints every part in the one colour, without outlines:

- the print-and-play shapes, drawn from the words of ``wagons-cards.md`` (our own drawings, nothing
  traced): an upright bottle, a cow side-on walking right, a low fort with a flag, a revolver pointing
  right, a pickaxe lying diagonally, a covered wagon side-on;
- the boxed icons of :mod:`~models.synth.wagons.icons` in one colour (``boxed-b`` …);
- simple shapes with no meaning (disc, star, cross…), for editions whose icons look like nothing the
  scanner has seen: an edition gives each icon a distinct shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from models.synth.draw import Color, Pen, Point
from models.synth.wagons.icons import ICONS, Sketch

UV = tuple[float, float]


class Mono(Sketch):
    """A :class:`~models.synth.wagons.icons.Sketch` that draws every filled part in ``colour`` with no
    outline, and every line and ring in ``colour`` too: the icon as a silhouette."""

    def __init__(
        self, pen: Pen, centre: Point, size: float, angle: float, mirror: bool, colour: Color
    ) -> None:
        self.pen, self.size, self.mirror = pen, size, mirror
        self.cx, self.cy = centre
        self.c, self.s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        self.dark = colour
        self.width = 0.05 * size  # rings and lines: a twentieth of the icon's height

    def poly(self, pts: Sequence[UV], fill: Color | None, outlined: bool = True) -> None:
        uv = [self.p(u, v) for u, v in pts]
        if fill is None:
            self.pen.poly(uv, None, self.dark, self.width)
        else:
            self.pen.poly(uv, self.dark)

    def line(self, a: UV, b: UV, colour: Color | None = None, width: float | None = None) -> None:
        self.pen.line(self.p(*a), self.p(*b), self.dark, max(width or 0.0, self.width))


def _turned(pts: Sequence[UV], deg: float) -> list[UV]:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(u * c - v * s, u * s + v * c) for u, v in pts]


def _circle(u: float, v: float, r: float, n: int = 32) -> list[UV]:
    return [
        (u + r * math.cos(a), v + r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, n, endpoint=False)
    ]


def bottle(k: Mono) -> None:
    k.poly([(-0.075, -0.5), (0.075, -0.5), (0.075, -0.22), (0.2, -0.06), (0.2, 0.5), (-0.2, 0.5),
            (-0.2, -0.06), (-0.075, -0.22)], k.dark)  # fmt: skip


def cow_side(k: Mono) -> None:
    k.ellipse(-0.06, -0.02, 0.36, 0.2, k.dark)
    k.poly([(0.22, -0.2), (0.44, -0.26), (0.6, -0.06), (0.54, 0.06), (0.3, 0.06)], k.dark)  # the head
    k.poly([(0.4, -0.24), (0.36, -0.36), (0.46, -0.26)], k.dark)  # a horn
    for u in (-0.34, -0.2, 0.12, 0.24):
        k.rect(u - 0.04, 0.05, u + 0.04, 0.42, k.dark)
    k.line((-0.4, -0.12), (-0.5, 0.18))  # the tail


def fort_low(k: Mono) -> None:
    k.rect(-0.5, 0.02, 0.44, 0.36, k.dark)  # the palisade
    for u in np.arange(-0.5, 0.44, 0.12):
        k.rect(float(u), -0.04, float(u) + 0.07, 0.03, k.dark)
    k.rect(-0.3, -0.2, 0.08, 0.03, k.dark)  # the blockhouse
    k.line((0.3, 0.02), (0.3, -0.44))
    k.poly([(0.3, -0.44), (0.52, -0.36), (0.3, -0.28)], k.dark)  # the flag


def revolver(k: Mono) -> None:
    k.rect(0.0, -0.2, 0.6, -0.1, k.dark)  # the barrel
    k.rect(-0.22, -0.24, 0.12, 0.03, k.dark)
    k.ellipse(0.0, -0.1, 0.13, 0.11, k.dark)  # the cylinder
    k.poly([(-0.22, 0.0), (-0.02, 0.0), (-0.12, 0.38), (-0.38, 0.34)], k.dark)  # the grip
    k.poly([(-0.22, -0.24), (-0.3, -0.32), (-0.16, -0.24)], k.dark)  # the hammer
    k.ellipse(0.04, 0.08, 0.08, 0.07, None)  # the trigger guard


def pickaxe(k: Mono) -> None:
    handle = [(-0.045, -0.38), (0.045, -0.38), (0.045, 0.6), (-0.045, 0.6)]
    head = [(-0.56, -0.22), (-0.3, -0.42), (0.0, -0.48), (0.3, -0.42), (0.56, -0.22),
            (0.3, -0.34), (0.0, -0.38), (-0.3, -0.34)]  # fmt: skip
    k.poly(_turned(handle, 40), k.dark)
    k.poly(_turned(head, 40), k.dark)


def wagon_side(k: Mono) -> None:
    k.poly([(-0.44, 0.02), (-0.44, -0.22), (-0.3, -0.36), (0.22, -0.36), (0.36, -0.22), (0.36, 0.02)], k.dark)
    k.rect(-0.5, 0.02, 0.42, 0.14, k.dark)
    k.line((0.4, 0.1), (0.6, 0.22))  # the tongue
    for u in (-0.3, 0.24):
        k.ellipse(u, 0.28, 0.15, 0.15, None)
        for a in np.linspace(0, math.pi, 3, endpoint=False):
            k.line(
                (u - 0.15 * math.cos(a), 0.28 - 0.15 * math.sin(a)),
                (u + 0.15 * math.cos(a), 0.28 + 0.15 * math.sin(a)),
            )


def _star(points: int, inner: float) -> list[UV]:
    return [
        (r * math.sin(a), -r * math.cos(a))
        for i, a in enumerate(np.linspace(0, 2 * math.pi, 2 * points, endpoint=False))
        for r in ((0.5 if i % 2 == 0 else 0.5 * inner),)
    ]


def _crescent() -> list[UV]:
    outer = [(0.45 * math.cos(a), 0.45 * math.sin(a)) for a in np.radians(np.linspace(57, 303, 24))]
    inner = [(0.2 + 0.38 * math.cos(a), 0.38 * math.sin(a)) for a in np.radians(np.linspace(277, 83, 24))]
    return outer + inner


GENERIC: dict[str, Callable[[Mono], None]] = {
    "disc": lambda k: k.poly(_circle(0, 0, 0.42), k.dark),
    "ring": lambda k: k.pen.poly([k.p(u, v) for u, v in _circle(0, 0, 0.36)], None, k.dark, 0.16 * k.size),
    "triangle": lambda k: k.poly([(0.0, -0.48), (0.5, 0.4), (-0.5, 0.4)], k.dark),
    "square": lambda k: k.rect(-0.38, -0.38, 0.38, 0.38, k.dark),
    "diamond": lambda k: k.poly([(0.0, -0.5), (0.36, 0.0), (0.0, 0.5), (-0.36, 0.0)], k.dark),
    "star": lambda k: k.poly(_star(5, 0.45), k.dark),
    "cross": lambda k: k.poly(
        [
            (-0.12, -0.45),
            (0.12, -0.45),
            (0.12, -0.12),
            (0.45, -0.12),
            (0.45, 0.12),
            (0.12, 0.12),
            (0.12, 0.45),
            (-0.12, 0.45),
            (-0.12, 0.12),
            (-0.45, 0.12),
            (-0.45, -0.12),
            (-0.12, -0.12),
        ],
        k.dark,
    ),  # fmt: skip
    "crescent": lambda k: k.poly(_crescent(), k.dark),
    "arrow": lambda k: k.poly(
        [(-0.5, -0.1), (0.1, -0.1), (0.1, -0.3), (0.5, 0.0), (0.1, 0.3), (0.1, 0.1), (-0.5, 0.1)], k.dark
    ),  # fmt: skip
    "hexagon": lambda k: k.poly(_circle(0, 0, 0.46, 6), k.dark),
    "bolt": lambda k: k.poly(
        [(0.1, -0.5), (-0.3, 0.06), (-0.02, 0.06), (-0.12, 0.5), (0.3, -0.08), (0.02, -0.08)], k.dark
    ),  # fmt: skip
    "bar": lambda k: k.rect(-0.5, -0.14, 0.5, 0.14, k.dark),
}
GENERIC_SHAPES: tuple[str, ...] = tuple(GENERIC)
#: Each icon's print-and-play silhouette.
PRINT_SHAPES: dict[str, str] = {
    "b": "bottle",
    "c": "cow-side",
    "f": "fort-low",
    "g": "revolver",
    "m": "pickaxe",
    "w": "wagon-side",
}
_PRINT: dict[str, Callable[[Mono], None]] = {
    "bottle": bottle,
    "cow-side": cow_side,
    "fort-low": fort_low,
    "revolver": revolver,
    "pickaxe": pickaxe,
    "wagon-side": wagon_side,
}


def boxed_shape(icon: str) -> str:
    """The name of ``icon``'s boxed drawing in one colour."""
    return f"boxed-{icon}"


#: Every silhouette by name.
SHAPES: tuple[str, ...] = (*_PRINT, *(boxed_shape(i) for i in ICONS), *GENERIC)


def draw_silhouette(
    pen: Pen,
    shape: str,
    centre: Point,
    height: float,
    colour: Color,
    pose: tuple[float, bool],
    rng: np.random.Generator,
) -> None:
    """Draw silhouette ``shape`` ``height`` mm tall about ``centre`` in ``colour``, turned by ``pose[0]``
    degrees and mirrored when ``pose[1]``; ``ValueError`` for an unknown shape."""
    k = Mono(pen, centre, height, pose[0], pose[1], colour)
    if shape in _PRINT:
        _PRINT[shape](k)
    elif shape in GENERIC:
        GENERIC[shape](k)
    elif shape.startswith("boxed-") and shape[6:] in ICONS:
        ICONS[shape[6:]](k, rng, 0)
    else:
        raise ValueError(f"no silhouette {shape!r} (known: {', '.join(SHAPES)})")
