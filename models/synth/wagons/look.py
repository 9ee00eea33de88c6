"""One print of the Circle the Wagons deck: the colours, texture scale, strokes and icon style it shows.

The facts (``shared/reference/wagons-cards.md``) come from the rulebook's printed key, not from the cards,
so every render draws a :class:`Look` around them: the six territory colours turned in hue, their chroma
and lightness changed, one texture scale and stroke width, one icon size and style. ``spread`` widens all
of it (1 for training, more for a harder evaluation set). A look is drawn once per print: all cards of one
photo share it, as a real deck does.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.synth.draw import Color

TERRAINS = "DFMPSW"

#: Per territory type: the pale ground and the texture's ink (sRGB), set so that a rendered territory's
#: median comes near the rulebook key's median (desert (233, 184, 157), forest (177, 196, 157), snow
#: (168, 207, 208), mountains (182, 174, 167), plains (236, 206, 125), water (137, 193, 206)).
GROUND: dict[str, Color] = {
    "D": (240, 196, 170),
    "F": (204, 220, 186),
    "M": (190, 182, 175),
    "P": (240, 212, 132),
    "S": (164, 204, 206),
    "W": (140, 196, 210),
}
INK: dict[str, Color] = {
    "D": (214, 128, 94),
    "F": (136, 162, 116),
    "M": (88, 82, 80),
    "P": (196, 150, 62),
    "S": (244, 250, 250),
    "W": (232, 244, 246),
}
#: Secondary ink: forest hatching, mountain faces, water's darker wave lines.
SHADE: dict[str, Color] = {
    "D": (226, 160, 126),
    "F": (186, 206, 162),
    "M": (166, 158, 152),
    "P": (222, 184, 96),
    "S": (196, 228, 230),
    "W": (92, 152, 178),
}
CREAM: Color = (240, 232, 212)


def _lab(rgb: Color) -> np.ndarray:
    px = np.asarray(rgb, np.float32).reshape(1, 1, 3) / 255
    return cv2.cvtColor(px, cv2.COLOR_RGB2Lab).reshape(3).astype(np.float64)


def _rgb(lab: np.ndarray) -> Color:
    px = cv2.cvtColor(lab.astype(np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2RGB).reshape(3)
    return tuple(int(round(min(1.0, max(0.0, float(v))) * 255)) for v in px)  # type: ignore[return-value]


def shifted(rgb: Color, hue_deg: float, chroma: float, d_light: float) -> Color:
    """``rgb`` with its CIELAB hue turned by ``hue_deg``, chroma times ``chroma`` and L* moved by
    ``d_light``."""
    lab = _lab(rgb)
    t = np.radians(hue_deg)
    a, b = lab[1], lab[2]
    lab[1] = chroma * (a * np.cos(t) - b * np.sin(t))
    lab[2] = chroma * (a * np.sin(t) + b * np.cos(t))
    lab[0] = min(100.0, max(0.0, lab[0] + d_light))
    return _rgb(lab)


@dataclass(frozen=True)
class Look:
    """One print's art. ``tint[t]`` is (hue turn in degrees, chroma gain, L* shift) of territory type ``t``;
    ``scale`` multiplies the textures' spacing, ``stroke`` their line widths; ``icon_size`` is an icon's
    height as a share of the territory's, ``outline`` its dark outline width (mm), ``oval`` the share of
    icons on a pale oval, ``style`` picks one of two drawings per icon; ``border`` is the cream outline
    (mm) round each territory, ``corner`` the territory's corner radius (mm)."""

    seed: int
    spread: float
    tint: dict[str, tuple[float, float, float]]
    scale: float
    stroke: float
    icon_size: float
    outline: float
    oval: float
    style: dict[str, int]
    border: float
    corner: float
    cream: Color
    dark: Color

    def colours(self, terrain: str) -> tuple[Color, Color, Color]:
        """(ground, ink, shade) of ``terrain`` in this print."""
        hue, chroma, light = self.tint[terrain]
        return tuple(  # type: ignore[return-value]
            shifted(base[terrain], hue, chroma, light) for base in (GROUND, INK, SHADE)
        )

    def to_json(self) -> dict[str, object]:
        """What this print varies, rounded, for the photo's truth."""
        return {
            "seed": self.seed,
            "spread": round(self.spread, 3),
            "tint": {t: [round(v, 3) for v in self.tint[t]] for t in TERRAINS},
            "scale": round(self.scale, 3),
            "stroke": round(self.stroke, 3),
            "icon_size": round(self.icon_size, 3),
            "outline": round(self.outline, 3),
            "oval": round(self.oval, 3),
            "style": dict(self.style),
            "border": round(self.border, 3),
            "corner": round(self.corner, 3),
        }


def sample_look(seed: int, spread: float = 1.0) -> Look:
    """The print of ``seed`` (the same seed, the same look). ``spread`` (0–3) scales every variation:
    hue turns σ 7° × spread per type, chroma gain σ 10 %, L* σ 3, texture scale and stroke ×/÷ up to
    1.35^spread, icon height 0.42–0.58 of the territory's (widened with the spread)."""
    if not 0 <= spread <= 3:
        raise ValueError(f"art spread must be 0..3, got {spread}")
    rng = np.random.default_rng([seed, 29])

    def log_uniform(limit: float) -> float:
        return float(np.exp(rng.uniform(-1, 1) * np.log(limit) * spread))

    tint = {
        t: (
            float(rng.normal(0, 7 * spread)),
            float(np.exp(rng.normal(0, 0.1 * spread))),
            float(rng.normal(0, 3 * spread)),
        )
        for t in TERRAINS
    }
    half = 0.08 * spread
    return Look(
        seed=seed,
        spread=spread,
        tint=tint,
        scale=log_uniform(1.35),
        stroke=log_uniform(1.35),
        icon_size=float(np.clip(rng.uniform(0.5 - half, 0.5 + half), 0.25, 0.75)),
        outline=float(rng.uniform(0.25, 0.55)),
        oval=float(rng.uniform(0.0, 0.7)),
        style={icon: int(rng.integers(2)) for icon in "bcfgmw"},
        border=float(rng.uniform(0.6, 1.4)),
        corner=float(rng.uniform(0.0, 2.5)),
        cream=shifted(CREAM, float(rng.normal(0, 6 * spread)), 1.0, float(rng.normal(0, 2 * spread))),
        dark=tuple(int(v) for v in rng.integers(36, 72, 3)),  # type: ignore[arg-type]
    )
