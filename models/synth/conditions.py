"""What varies between two photos of a finished game: the table, the framing, the light, the phone's own
processing (:class:`Conditions`), drawn the way real photos vary (:func:`sample_conditions`), checked
(:func:`check_conditions`), or fixed by a caller's overrides (:func:`conditions_with`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

import numpy as np

from models.synth.tables import COMMON_TABLES, TABLE_KINDS, TableKind

__all__ = [
    "EXIF_TAGS",
    "HARDER_ROOM_OPTIONS",
    "Conditions",
    "Orientation",
    "check_conditions",
    "coerce",
    "conditions_with",
    "sample_conditions",
]

Orientation = Literal["landscape", "portrait"]
#: EXIF orientation tags a phone writes: 1 upright, 3 turned 180°, 6 and 8 turned by a quarter.
EXIF_TAGS = (1, 3, 6, 8)
#: The conditions only the harder rooms use (tests/bench/bench_rooms.py); off by default.
HARDER_ROOM_OPTIONS = ("shadow_band",)


@dataclass(frozen=True)
class Conditions:
    """Everything that varies between photos; every field can be fixed through :func:`render_photo`.

    Geometry: ``tilt`` (degrees of the camera axis from vertical, 0–35), ``azimuth`` (direction of the
    tilt), ``roll`` (turn of the city in the frame, any angle), ``fill`` (share of the frame the city and
    scoring cards span; above 1 only with ``partial``), ``partial`` (the framing cuts part of the city
    off), ``orientation`` and ``long_side`` (output size: 4:3, ``long_side`` px along the long side).
    Scene: ``table``, ``scoring_cards`` (the three scoring cards lie beside the city), ``shadow`` (0–1),
    ``n_cards``, ``wrecktar``, ``poi``, ``construction`` (expansions in the city), ``clutter`` (0–4 objects
    beside the city: the game box, cups, phones). Photo: ``blur`` (Gaussian σ in px at 12 MP), ``dof``
    (extra blur σ, growing with the distance from the focused scene centre, reaching ``dof`` at the
    farthest point in view), ``sharpen`` (the phone's unsharp-mask amount), ``exposure`` (overall gain),
    ``wb`` (R, G, B gains), ``light`` (strength of the brightness gradient, 0–0.5), ``glare`` (0 none, up
    to 0.6; strongest on the glossy cards), ``noise`` (σ in grey levels), ``jpeg_quality``,
    ``exif_orientation``. Harder rooms, off unless asked for (never drawn by :func:`sample_conditions`, so
    the shipped models never saw them): ``shadow_band`` (0 none, else how much a soft-edged band across
    the frame, an arm's or the phone's shadow, darkens what it covers, up to 0.8).
    """

    table: TableKind = "cloth"
    orientation: Orientation = "landscape"
    long_side: int = 4032
    tilt: float = 10.0
    azimuth: float = 0.0
    roll: float = 0.0
    fill: float = 0.85
    partial: bool = False
    scoring_cards: bool = True
    shadow: float = 0.35
    n_cards: int = 15
    wrecktar: bool = False
    poi: bool = False
    construction: int = 0
    clutter: int = 0
    blur: float = 0.6
    dof: float = 0.0
    sharpen: float = 0.0
    exposure: float = 1.0
    wb: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light: float = 0.15
    glare: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 90
    exif_orientation: int = 1
    shadow_band: float = 0.0

    def size(self) -> tuple[int, int]:
        """(width, height) of the displayed image."""
        short = int(round(self.long_side * 3 / 4))
        return (self.long_side, short) if self.orientation == "landscape" else (short, self.long_side)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["wb"] = [round(v, 4) for v in self.wb]
        for name in HARDER_ROOM_OPTIONS:  # off: left out, so a default photo's truth reads as it always did
            if d[name] == getattr(Conditions, name):
                del d[name]
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in d.items()}


def sample_conditions(rng: np.random.Generator) -> Conditions:
    """Conditions drawn the way real photos of finished games vary."""
    partial = bool(rng.random() < 0.1)
    aligned = rng.random() < 0.5  # half the photos are roughly square to the city, the rest at any angle
    roll = float(rng.integers(4) * 90 + rng.normal(0, 6)) if aligned else float(rng.uniform(0, 360))
    log_wb = rng.normal(0, 0.07, 2)
    tilt = float(35 * rng.beta(1.3, 2.2))
    return Conditions(
        table=COMMON_TABLES[int(rng.choice(4, p=[0.35, 0.3, 0.15, 0.2]))],
        orientation="portrait" if rng.random() < 0.5 else "landscape",
        tilt=tilt,
        azimuth=float(rng.uniform(0, 360)),
        roll=roll % 360,
        fill=float(rng.uniform(1.05, 1.35) if partial else rng.uniform(0.62, 0.95)),
        partial=partial,
        scoring_cards=bool(rng.random() < 0.8),
        shadow=float(rng.uniform(0.15, 0.5)),
        n_cards=15 if rng.random() < 0.9 else int(rng.integers(6, 15)),
        wrecktar=bool(rng.random() < 0.08),
        poi=bool(rng.random() < 0.08),
        construction=int(rng.choice(4, p=[0.9, 0.04, 0.03, 0.03])),
        clutter=int(rng.choice(5, p=[0.6, 0.25, 0.1, 0.04, 0.01])),
        blur=float(min(3.5, abs(rng.normal(0, 1.1)))),
        dof=float(rng.uniform(0, 2.5)) * tilt / 35,
        sharpen=float(rng.uniform(0.2, 1.2)) if rng.random() < 0.6 else 0.0,
        exposure=float(math.exp(rng.normal(0, 0.12))),
        wb=(float(math.exp(log_wb[0])), 1.0, float(math.exp(log_wb[1]))),
        light=float(rng.uniform(0, 0.4)),
        glare=float(rng.uniform(0.15, 0.6)) if rng.random() < 0.25 else 0.0,
        noise=float(rng.uniform(1.0, 5.0)),
        jpeg_quality=int(rng.integers(70, 96)),
        exif_orientation=int(rng.choice(EXIF_TAGS, p=[0.7, 0.1, 0.1, 0.1])),
    )


def check_conditions(c: Conditions) -> None:
    """Raise ``ValueError`` naming the first condition outside its range."""
    checks = [
        (c.table in TABLE_KINDS, f"table must be one of {', '.join(TABLE_KINDS)}, got {c.table!r}"),
        (
            c.orientation in ("landscape", "portrait"),
            f"orientation must be landscape or portrait, got {c.orientation!r}",
        ),
        (64 <= c.long_side <= 8192, f"long_side must be 64..8192 px, got {c.long_side}"),
        (0 <= c.tilt <= 60, f"tilt must be 0..60 degrees, got {c.tilt}"),
        (0.1 <= c.fill <= 2.0, f"fill must be 0.1..2, got {c.fill}"),
        (1 <= c.n_cards <= 15, f"n_cards must be 1..15, got {c.n_cards}"),
        (0 <= c.construction <= 3, f"construction must be 0..3, got {c.construction}"),
        (0 <= c.clutter <= 4, f"clutter must be 0..4 objects, got {c.clutter}"),
        (0 <= c.blur <= 20, f"blur must be 0..20 px, got {c.blur}"),
        (0 <= c.dof <= 20, f"dof must be 0..20 px, got {c.dof}"),
        (0 <= c.sharpen <= 3, f"sharpen must be 0..3, got {c.sharpen}"),
        (0.2 <= c.exposure <= 3, f"exposure must be 0.2..3, got {c.exposure}"),
        (
            len(c.wb) == 3 and all(0.3 <= g <= 3 for g in c.wb),
            f"wb must be three gains in 0.3..3, got {c.wb}",
        ),
        (0 <= c.light <= 1, f"light must be 0..1, got {c.light}"),
        (0 <= c.glare <= 1, f"glare must be 0..1, got {c.glare}"),
        (0 <= c.shadow_band <= 0.8, f"shadow_band must be 0..0.8, got {c.shadow_band}"),
        (0 <= c.noise <= 50, f"noise must be 0..50, got {c.noise}"),
        (1 <= c.jpeg_quality <= 100, f"jpeg_quality must be 1..100, got {c.jpeg_quality}"),
        (
            c.exif_orientation in EXIF_TAGS,
            f"exif_orientation must be one of {EXIF_TAGS}, got {c.exif_orientation}",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise ValueError(message)


def conditions_with(cond_rng: np.random.Generator, overrides: dict[str, Any]) -> Conditions:
    """The conditions drawn from ``cond_rng``, replaced by ``overrides``; ``ValueError`` naming an unknown
    or out-of-range one."""
    known = {f.name for f in fields(Conditions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown condition(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    base = sample_conditions(cond_rng)
    cond = replace(base, **{k: coerce(k, v, getattr(base, k)) for k, v in overrides.items()})
    check_conditions(cond)
    return cond


def coerce(name: str, value: Any, like: Any) -> Any:
    """``value`` as the type of the condition's default ``like``; ``ValueError`` naming it otherwise."""
    if isinstance(like, bool):
        if isinstance(value, bool):
            return value
        raise ValueError(f"{name} must be true or false, got {value!r}")
    if isinstance(like, int):
        if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
            return int(value)
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if isinstance(like, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(like, tuple):
        if isinstance(value, list | tuple) and all(isinstance(v, int | float) for v in value):
            return tuple(float(v) for v in value)
        raise ValueError(f"{name} must be a list of numbers, got {value!r}")
    if isinstance(value, str):
        return value
    raise ValueError(f"{name} must be text, got {value!r}")
