"""Colours of the look-alike card art, tuned against the measured CIELAB colours in ``models/MODEL_CARD.md``.

Every colour is an sRGB base that :func:`vary` jitters per render, so no two blocks share exact colours.
The bases were set by rendering blocks and measuring their whole-block CIELAB percentiles (the bench
``tests/bench/bench_synth.py`` prints them beside the table).
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

Color = tuple[int, int, int]

OUTLINE: Color = (66, 58, 56)

#: Flat ground of each zone (the colour that shows between drawings) and its rim, a little lighter.
GROUND: dict[str, Color] = {
    "R": (188, 144, 118),
    "C": (110, 147, 168),
    "I": (162, 157, 160),
    "P": (160, 194, 150),
}
RIM_LIFT = 18  # how much lighter the rim is, per channel

# Residential: pitched roofs (brown, tan, pale yellow, brick) and red-brown hedge dots.
ROOFS: tuple[Color, ...] = ((176, 124, 92), (206, 168, 128), (232, 212, 160), (236, 204, 136), (186, 116, 90))
HEDGE: Color = (168, 94, 66)
# Commercial: flat roofs light grey and lilac, pale blue-grey trees, parking lots.
FLAT_ROOFS: tuple[Color, ...] = (
    (186, 190, 198),
    (156, 146, 180),
    (170, 178, 192),
    (196, 200, 206),
    (140, 132, 170),
)
C_TREE: Color = (100, 146, 166)
# Industrial: dark warehouses, silos and chimneys, white smoke.
WAREHOUSE: tuple[Color, ...] = ((132, 130, 134), (144, 140, 142), (120, 120, 126))
SILO: Color = (110, 108, 114)
SMOKE: Color = (240, 240, 236)
# Parks: dark-green trees, sports fields, pale teal ponds, light paths.
P_TREE: tuple[Color, ...] = ((104, 178, 100), (92, 170, 104), (118, 186, 108))
FIELD: Color = (130, 196, 110)
COURT: Color = (196, 120, 84)
POND: Color = (150, 210, 204)
PATH: Color = (226, 220, 184)
# Shared: parking asphalt, road asphalt (grey-brown), its edge lines and dashes, little cars.
LOT: Color = (128, 130, 134)
ASPHALT: Color = (124, 117, 111)
EDGE_LINE: Color = (214, 208, 192)
DASH: Color = (246, 244, 236)
ROAD_CARS: tuple[Color, ...] = ((242, 240, 232), (240, 202, 64))
LOT_CARS: tuple[Color, ...] = ((204, 60, 52), (60, 92, 170), (240, 240, 236), (70, 70, 76), (236, 196, 60))
POI_FRAME: Color = (236, 196, 40)
HAZARD: Color = (236, 120, 30)


def vary(rng: np.random.Generator, base: Color, spread: float = 8.0, tint: float = 4.0) -> Color:
    """``base`` with a shared brightness shift (σ = ``spread``) and a per-channel tint (σ = ``tint``)."""
    shift = rng.normal(0.0, spread) + rng.normal(0.0, tint, 3)
    return tuple(_byte(b + d) for b, d in zip(base, shift.tolist(), strict=True))  # type: ignore[return-value]


def _byte(v: float) -> int:
    """Clip to 0..255 and truncate (plain Python: np.clip costs ~50 µs on a scalar, and this runs often)."""
    return int(min(255.0, max(0.0, v)))


def lighter(color: Color, amount: float) -> Color:
    return tuple(int(min(255, v + amount)) for v in color)  # type: ignore[return-value]


def scaled(color: Color, factor: float) -> Color:
    return tuple(_byte(v * factor) for v in color)  # type: ignore[return-value]


def mix(a: Color, b: Color, t: float) -> Color:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def lab(rgb: Color) -> np.ndarray:
    """CIELAB (L* 0–100, a*, b*) of an sRGB colour."""
    px = np.asarray(rgb, np.float32).reshape(1, 1, 3) / 255
    return cv2.cvtColor(px, cv2.COLOR_RGB2Lab).reshape(3).astype(np.float64)


def from_lab(lab_: np.ndarray) -> Color:
    """The sRGB colour of a CIELAB one, clipped into the gamut."""
    px = cv2.cvtColor(np.asarray(lab_, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2RGB).reshape(3)
    return tuple(int(round(min(1.0, max(0.0, float(v))) * 255)) for v in px)  # type: ignore[return-value]


def min_delta_e(colours: list[Color]) -> float:
    """The least CIE76 distance between two of ``colours`` (infinite for fewer than two): how close the
    two nearest of a printing's colours come, 2.3 being just noticeable and 25 or more apart at a glance."""
    labs = [lab(c) for c in colours]
    return min((float(np.linalg.norm(a - b)) for a, b in itertools.combinations(labs, 2)), default=np.inf)


def random_colour(rng: np.random.Generator, light: tuple[float, float] = (18.0, 92.0)) -> Color:
    """A printable colour drawn evenly in CIELAB (L* in ``light``, chroma up to 75) inside sRGB."""
    while True:
        l_, chroma, hue = rng.uniform(*light), rng.uniform(0, 75), rng.uniform(0, 2 * np.pi)
        px = np.array([[[l_, chroma * np.cos(hue), chroma * np.sin(hue)]]], np.float32)
        rgb = cv2.cvtColor(px, cv2.COLOR_Lab2RGB).reshape(3)
        if rgb.min() >= 0.0 and rgb.max() <= 1.0:
            return tuple(int(round(float(v) * 255)) for v in rgb)  # type: ignore[return-value]


def as_colour(value: object) -> Color:
    """``value`` (a list or tuple of three whole numbers 0–255, as JSON gives it) as a colour;
    ``ValueError`` naming it otherwise."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError(f"a colour is three whole numbers 0..255, got {value!r}")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value):
        raise ValueError(f"a colour is three whole numbers 0..255, got {value!r}")
    return (int(value[0]), int(value[1]), int(value[2]))
