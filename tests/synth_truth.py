"""The ground-truth stand-in for the cell classifier, for synthetic photos (tests and benchmarks).

It maps every lattice centre the pipeline asks about back into the photo and answers with the true cell
whose centre lies nearest there, so a scan comes out right only if the geometry is right.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np

import vision.pipeline as pipeline
from models.synth.scene import SynthPhoto
from scoring.city import EMPTY, City, parse_city
from vision.assemble import Reading, assemble_city
from vision.lattice import Lattice
from vision.pipeline import Geometry

ORIGINAL_READ_GEOMETRY = pipeline.read_geometry
ORIGINAL_WITH_LATTICE = pipeline.geometry_with_lattice


def visible_truth(p: SynthPhoto) -> City:
    """The truth city as the scanner can read it: blocks only (Wrecktar and marks are not geometry)."""
    truth = parse_city(p.truth.city)
    grid = [[Reading(((c.zone, c.road, 1.0),)) if c.is_block else None for c in row] for row in truth.grid]
    return assemble_city(grid).city


class TruthClassifier:
    """Answers each lattice cell with the true cell whose centre lies nearest in the photo (within a
    third of a block), turned by 180° when the lattice runs the other way round."""

    def __init__(self, p: SynthPhoto) -> None:
        self.photo = p
        self.geometry: Geometry | None = None
        self.keys = [(r, c) for r, c, *_ in p.truth.cells]
        self.points = np.array([(x, y) for _, _, x, y, _ in p.truth.cells])
        self.tokens = {(r, c): tok for r, c, _, _, tok in p.truth.cells}
        step = [
            np.hypot(*(self.points[i] - self.points[j]))
            for i, a in enumerate(self.keys)
            for j, b in enumerate(self.keys)
            if b == (a[0], a[1] + 1)
        ]
        self.tolerance = float(np.median(step)) / 1.4 / 3  # a third of a block's height

    def install(self, monkeypatch: Any) -> None:
        """Follow the pipeline's geometry (its first fit and every regrown lattice) to answer for it."""
        monkeypatch.setattr(pipeline, "read_geometry", self.read_geometry)
        monkeypatch.setattr(pipeline, "geometry_with_lattice", self.geometry_with_lattice)

    def read_geometry(self, image: np.ndarray, timings: dict[str, float] | None = None) -> Geometry:
        self.geometry = ORIGINAL_READ_GEOMETRY(image, timings)
        return self.geometry

    def geometry_with_lattice(self, geometry: Geometry, lattice: Lattice, occupied: np.ndarray) -> Geometry:
        self.geometry = ORIGINAL_WITH_LATTICE(geometry, lattice, occupied)
        return self.geometry

    def __call__(self, rectified: np.ndarray, lattice: Lattice, **_: object) -> list[list[SimpleNamespace]]:
        assert self.geometry is not None
        scale = self.geometry.photo.shape[1] / self.photo.truth.width
        to_photo = np.linalg.inv(self.geometry.to_rectified)
        found: dict[tuple[int, int], tuple[int, int] | None] = {}
        for r in range(lattice.rows):
            for c in range(lattice.cols):
                p = to_photo @ np.array([*lattice.center(r, c), 1.0])
                xy = p[:2] / p[2] / scale
                d = np.hypot(*(self.points - xy).T)
                i = int(np.argmin(d))
                found[r, c] = self.keys[i] if d[i] < self.tolerance else None
        steps = [
            b[1] - a[1]
            for (r, c), a in found.items()
            if a is not None and (b := found.get((r, c + 1))) is not None and a[0] == b[0]
        ]
        turned = sum(steps) < 0
        out = []
        for r in range(lattice.rows):
            row = []
            for c in range(lattice.cols):
                key = found[r, c]
                cell = parse_city(self.tokens[key] + "\n").grid[0][0] if key else EMPTY
                cell = replace(cell, poi=False, construction=False) if cell.is_block else EMPTY
                cell = cell.rotated() if turned else cell
                row.append(
                    SimpleNamespace(zone=cell.zone, road=cell.road, confidence=0.99, label=cell.token())
                )
            out.append(row)
        return out


def same_city(a: City, b: City) -> bool:
    return a.grid == b.grid or a.grid == b.rotated().grid


def is_part_of(part: City, whole: City) -> bool:
    """True when ``part`` is a rectangular window of ``whole`` (a city cut by the photo's frame)."""
    for r0 in range(whole.n_rows - part.n_rows + 1):
        for c0 in range(whole.n_cols - part.n_cols + 1):
            window = tuple(row[c0 : c0 + part.n_cols] for row in whole.grid[r0 : r0 + part.n_rows])
            if window == part.grid:
                return True
    return False


def is_visible_part(part: City, whole: City) -> bool:
    """True when every block of ``part`` equals the block at the same place of ``whole`` for one
    placement of ``part`` inside ``whole`` (cells the photo cut off are read as empty, so a diagonal
    cut leaves holes that a rectangular window cannot describe)."""
    blocks = [(r, c, cell) for r, c, cell in part.blocks()]
    for r0 in range(whole.n_rows - part.n_rows + 1):
        for c0 in range(whole.n_cols - part.n_cols + 1):
            if all(whole.cell(r + r0, c + c0) == cell for r, c, cell in blocks):
                return True
    return False
