"""Ground truth of a simulated photo and its JSON file (``photo-NNNN.json`` beside ``photo-NNNN.jpg``).

All points are in pixels of the displayed image (after the EXIF orientation is applied), x to the right,
y down, pixel centres at integer coordinates. Card corners are listed TL, TR, BR, BL as the card lies in
the city's lattice frame (for a scoring card: as it lies, number side up). Points may fall outside the
image when the framing is partial.

JSON layout::

    {"seed": 7, "width": 4032, "height": 3024,
     "city": "cards: 2 9 14\\nR:EW  P ...\\n",          # the visible city in the city format
     "cards": [{"kind": "city", "number": 5, "rotated": false, "row": 0, "col": 2,
                "corners": [[x, y], [x, y], [x, y], [x, y]]}, ...],   # play order, bottom first
     "scoring_cards": [{"number": 2, "corners": [...], "in_photo": true}, ...],
     "cells": [[row, col, x, y, "R:EW"], ...],          # every grid cell, "." for an empty one
     "objects": [{"kind": "cup", "corners": [...]}, ...],  # other things on the table
     "homography": [[...], [...], [...]],  # table mm -> image px; lattice cell (r, c) nominally spans
     "pitch_mm": [px, py],                 # [c * px, (c + 1) * px] x [r * py, (r + 1) * py] in table mm
     "conditions": {...}, "notes": [...]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.city import City
from scoring.city_text import parse_city

Pts = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class CardTruth:
    """One card of the city: ``kind`` ("city", "poi", "wrecktar"), card ``number`` (0 for the last two),
    turned by 180° or not, its lattice ``row``/``col`` (top-left block) and its image ``corners``."""

    kind: str
    number: int
    rotated: bool
    row: int
    col: int
    corners: Pts


@dataclass(frozen=True)
class ScoringCardTruth:
    """A scoring card lying scoring side up beside the city; ``in_photo`` is false when the photo was
    rendered without the scoring cards (its corners then say where it would have been)."""

    number: int
    corners: Pts
    in_photo: bool


@dataclass(frozen=True)
class ObjectTruth:
    """Something else on the table (``kind``: "box", "cup", "phone", "hand") by its bounding corners."""

    kind: str
    corners: Pts


@dataclass(frozen=True)
class PhotoTruth:
    """Everything known about a simulated photo; see the module docstring for the JSON form."""

    seed: int
    width: int
    height: int
    city: str
    cards: tuple[CardTruth, ...]
    scoring_cards: tuple[ScoringCardTruth, ...]
    cells: tuple[tuple[int, int, float, float, str], ...]
    conditions: dict[str, Any]
    notes: tuple[str, ...] = ()
    objects: tuple[ObjectTruth, ...] = ()
    homography: tuple[tuple[float, float, float], ...] = ()
    pitch_mm: tuple[float, float] = (0.0, 0.0)

    def parsed_city(self) -> City:
        return parse_city(self.city)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "width": self.width,
            "height": self.height,
            "city": self.city,
            "cards": [
                {
                    "kind": c.kind,
                    "number": c.number,
                    "rotated": c.rotated,
                    "row": c.row,
                    "col": c.col,
                    "corners": [list(p) for p in c.corners],
                }
                for c in self.cards
            ],
            "scoring_cards": [
                {"number": s.number, "corners": [list(p) for p in s.corners], "in_photo": s.in_photo}
                for s in self.scoring_cards
            ],
            "cells": [list(c) for c in self.cells],
            "objects": [{"kind": o.kind, "corners": [list(p) for p in o.corners]} for o in self.objects],
            "homography": [list(r) for r in self.homography],
            "pitch_mm": list(self.pitch_mm),
            "conditions": self.conditions,
            "notes": list(self.notes),
        }

    def dumps(self) -> str:
        """The JSON text, stable byte for byte (sorted keys are not used: the order above is the order)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PhotoTruth:
        """Read the JSON form back; raises ``KeyError``/``TypeError`` on a malformed document."""
        return cls(
            seed=int(data["seed"]),
            width=int(data["width"]),
            height=int(data["height"]),
            city=str(data["city"]),
            cards=tuple(
                CardTruth(
                    c["kind"],
                    int(c["number"]),
                    bool(c["rotated"]),
                    int(c["row"]),
                    int(c["col"]),
                    tuple((float(x), float(y)) for x, y in c["corners"]),
                )
                for c in data["cards"]
            ),
            scoring_cards=tuple(
                ScoringCardTruth(
                    int(s["number"]),
                    tuple((float(x), float(y)) for x, y in s["corners"]),
                    bool(s["in_photo"]),
                )
                for s in data["scoring_cards"]
            ),
            cells=tuple((int(r), int(c), float(x), float(y), str(t)) for r, c, x, y, t in data["cells"]),
            conditions=dict(data["conditions"]),
            notes=tuple(data.get("notes", ())),
            objects=tuple(
                ObjectTruth(o["kind"], tuple((float(x), float(y)) for x, y in o["corners"]))
                for o in data.get("objects", ())
            ),
            homography=tuple(tuple(float(v) for v in r) for r in data.get("homography", ())),  # type: ignore[misc]
            pitch_mm=tuple(float(v) for v in data.get("pitch_mm", (0.0, 0.0))),  # type: ignore[arg-type]
        )


def rounded_points(arr: np.ndarray) -> tuple[tuple[float, float], ...]:
    """Image points as the truth keeps them: pairs rounded to a hundredth of a pixel."""
    return tuple((round(float(x), 2), round(float(y), 2)) for x, y in arr)
