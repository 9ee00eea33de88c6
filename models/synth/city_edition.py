"""Editions of Sprawlopolis: another colouring and road style of the same 18 cards.

The scanner must learn any print of the cards from one photo of the deck (issue 37); the real-card facts
(``shared/reference/real-cards.md``) describe one colouring, and photos of another (residential blue, parks
magenta) were refused. A :class:`CityEdition` is such a printing: one ground colour per zone (R C I P),
the zone drawings kept and recoloured with the ground (``textured``) or left out (a flat block), a block
outline or none, and its own road style (asphalt colour and width, edge lines, centre dashes, an outline).
``None`` everywhere means the shipped look, drawn exactly as before editions.

:func:`random_city_edition` draws editions nobody designed for: four ground colours at least
:data:`MIN_ZONE_DELTA_E` apart (or the shipped four dealt to the wrong zones), a road that stands out from
every ground. :func:`draw_edition_block` paints one block of an edition, as
:func:`~models.synth.blocks.draw_block` paints a shipped one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

import cv2
import numpy as np

from models.synth import palette as pal
from models.synth.blocks import _ZONE_ART, BLOCK_H, BLOCK_W, ROAD_W, _hazard, _Space, dashes, road_path
from models.synth.draw import Color, Pen
from models.synth.palette import lab, min_delta_e, random_colour
from scoring.city import Cell

ZONES = "RCIP"
#: The least CIELAB distance (CIE76) between two grounds of a random edition.
MIN_ZONE_DELTA_E = 30.0
#: The least CIELAB distance between a random edition's asphalt and any of its grounds.
MIN_ROAD_DELTA_E = 25.0


@dataclass(frozen=True)
class CityEdition:
    """A Sprawlopolis printing: ``grounds`` per zone (R C I P); ``textured`` keeps the zone drawings
    (houses, roofs, trees…) shifted in CIELAB with the ground, else the block is its flat ground;
    ``outline_mm`` a ``line``-coloured outline round every block (0: none). The road: ``road`` asphalt
    ``road_mm`` wide, optional ``road_edge`` lines inside its sides, ``road_dash`` dashes down its middle
    and a ``road_outline`` along its sides (each ``None`` for none)."""

    name: str
    grounds: dict[str, Color]
    textured: bool = True
    outline_mm: float = 0.0
    line: Color = pal.OUTLINE
    road: Color = pal.ASPHALT
    road_mm: float = ROAD_W
    road_edge: Color | None = pal.EDGE_LINE
    road_dash: Color | None = pal.DASH
    road_outline: Color | None = pal.OUTLINE

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        """The edition as the photo's truth records it, exactly (:func:`city_edition_from_json` reads it
        back)."""

        def col(c: Color | None) -> list[int] | None:
            return None if c is None else [int(v) for v in c]

        return {
            "name": self.name,
            "grounds": {z: col(self.grounds[z]) for z in ZONES},
            "textured": self.textured,
            "outline_mm": self.outline_mm,
            "line": col(self.line),
            "road": col(self.road),
            "road_mm": self.road_mm,
            "road_edge": col(self.road_edge),
            "road_dash": col(self.road_dash),
            "road_outline": col(self.road_outline),
        }


#: The colouring of issue 37's refused photos: residential blue, parks magenta, the rest as shipped.
BLUE_MAGENTA = CityEdition(
    "blue-magenta", {"R": (96, 130, 196), "C": pal.GROUND["C"], "I": pal.GROUND["I"], "P": (196, 92, 176)}
)


def city_edition_from_json(data: dict[str, Any]) -> CityEdition:
    """The edition :meth:`CityEdition.to_json` wrote; ``ValueError`` naming what is missing or wrong."""
    try:
        values = {k: v for k, v in data.items() if k in {f.name for f in fields(CityEdition)}}
        values["grounds"] = {z: pal.as_colour(data["grounds"][z]) for z in ZONES}
        for key in ("line", "road", "road_edge", "road_dash", "road_outline"):
            values[key] = None if data[key] is None else pal.as_colour(data[key])
        return CityEdition(**values)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a city edition: {exc!r} is missing or malformed") from exc


def check_city_edition(edition: object) -> CityEdition | None:
    """``edition`` itself (``None``: the shipped look); ``ValueError`` for anything else."""
    if edition is not None and not isinstance(edition, CityEdition):
        raise ValueError(f"edition must be a Sprawlopolis CityEdition (or None), got {edition!r}")
    return edition


def _grounds(rng: np.random.Generator) -> dict[str, Color]:
    """Four grounds: a fifth of the time the shipped four dealt to other zones (none keeps its own),
    else four random colours at least :data:`MIN_ZONE_DELTA_E` apart."""
    if rng.random() < 0.2:
        while True:
            order = [int(k) for k in rng.permutation(4)]
            if all(k != i for i, k in enumerate(order)):
                return {z: pal.GROUND[ZONES[k]] for z, k in zip(ZONES, order, strict=True)}
    colours: list[Color] = []
    while len(colours) < len(ZONES):
        c = random_colour(rng, (30.0, 88.0))
        if min_delta_e([*colours, c]) >= MIN_ZONE_DELTA_E:
            colours.append(c)
    return dict(zip(ZONES, colours, strict=True))


def _road_colour(rng: np.random.Generator, grounds: dict[str, Color]) -> Color:
    """An asphalt at least :data:`MIN_ROAD_DELTA_E` from every ground: grey, near black or a colour."""
    while True:
        if rng.random() < 0.6:
            c: Color = tuple([int(rng.integers(20, 230))] * 3)  # type: ignore[assignment]
        else:
            c = random_colour(rng, (15.0, 95.0))
        if min(float(np.linalg.norm(lab(c) - lab(g))) for g in grounds.values()) >= MIN_ROAD_DELTA_E:
            return c


def random_city_edition(rng: np.random.Generator, name: str = "random") -> CityEdition:
    """A Sprawlopolis edition nobody designed for: random grounds, textured (60 %) or flat, an outline
    round the blocks (40 %), a road 3.5–8 mm wide in a colour apart from every ground, with or without
    edge lines, dashes and an outline."""
    grounds = _grounds(rng)
    road = _road_colour(rng, grounds)
    light = lab(road)[0] < 55
    marks: Color = (246, 244, 236) if light else (34, 32, 30)

    def maybe(share: float, colour: Color) -> Color | None:
        return colour if rng.random() < share else None

    return CityEdition(
        name,
        grounds,
        textured=bool(rng.random() < 0.6),
        outline_mm=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.4 else 0.0,
        line=tuple(int(v) for v in rng.integers(10, 80, 3)),  # type: ignore[arg-type]
        road=road,
        road_mm=float(rng.uniform(3.5, 8.0)),
        road_edge=maybe(0.5, marks),
        road_dash=maybe(0.6, marks),
        road_outline=maybe(0.4, tuple(int(v) for v in rng.integers(10, 80, 3))),  # type: ignore[arg-type]
    )


def _recolour(pen: Pen, shift: np.ndarray) -> None:
    """Move every pixel of the block at the pen's origin by ``shift`` (ΔL*, Δa*, Δb*)."""
    ppm = pen.ppm
    x0, y0 = int(round(pen.ox * ppm)), int(round(pen.oy * ppm))
    x1, y1 = int(round((pen.ox + BLOCK_W) * ppm)), int(round((pen.oy + BLOCK_H) * ppm))
    roi = pen.img[y0:y1, x0:x1]
    lab_ = cv2.cvtColor(roi.astype(np.float32) / 255, cv2.COLOR_RGB2Lab) + shift.astype(np.float32)
    lab_[..., 0] = np.clip(lab_[..., 0], 0, 100)
    rgb = cv2.cvtColor(lab_, cv2.COLOR_Lab2RGB)
    roi[:] = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def _road(pen: Pen, rng: np.random.Generator, road: str, ed: CityEdition) -> None:
    pts = road_path(road, 0.6)
    width = ed.road_mm
    asphalt = pal.vary(rng, ed.road, 4, 2)
    if ed.road_outline is not None:
        pen.path(pts, ed.road_outline, width + 0.5)
    pen.path(pts, asphalt, width)
    if ed.road_edge is not None:
        inset = float(rng.uniform(0.3, 0.6))
        pen.path(pts, ed.road_edge, width - 2 * inset)
        pen.path(pts, asphalt, width - 2 * inset - 0.7)
    if ed.road_dash is None:
        return
    dashes(pen, pts, ed.road_dash, max(0.3, 0.08 * width), rng)


def draw_edition_block(pen: Pen, cell: Cell, rng: np.random.Generator, edition: CityEdition) -> None:
    """Paint ``cell`` in ``edition`` with ``pen`` at the block's origin: the shipped ground, rim and zone
    drawings moved in CIELAB onto the edition's ground (textured) or its flat ground, the block outline,
    the edition's road, and the construction and point-of-interest marks as shipped."""
    zone = cell.zone or "R"
    target = pal.vary(rng, edition.grounds[zone], 4, 2)
    line = pal.vary(rng, pal.OUTLINE, 6, 2)
    if edition.textured:
        ground = pal.vary(rng, pal.GROUND[zone], 7, 3)
        rim_w = float(rng.uniform(1.0, 2.2))
        pen.rect(0, 0, BLOCK_W, BLOCK_H, pal.lighter(ground, pal.RIM_LIFT + rng.normal(0, 4)))
        pen.rect(rim_w, rim_w, BLOCK_W - 2 * rim_w, BLOCK_H - 2 * rim_w, ground)
        _ZONE_ART[zone](pen, rng, _Space(rng, cell.road, rim_w + 0.3), line)
        _recolour(pen, lab(target) - lab(ground))
    else:
        pen.rect(-0.5, -0.5, BLOCK_W + 1, BLOCK_H + 1, target)
    if edition.outline_mm > 0:
        w = edition.outline_mm
        pen.rect(w / 2, w / 2, BLOCK_W - w, BLOCK_H - w, None, edition.line, w)
    if cell.road:
        _road(pen, rng, cell.road, edition)
    if cell.construction:
        _hazard(pen, rng, line)
    if cell.poi:
        pen.rect(0.9, 0.9, BLOCK_W - 1.8, BLOCK_H - 1.8, None, pal.POI_FRAME, 1.6)
