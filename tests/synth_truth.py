"""The ground-truth stand-in for the cell classifier, for synthetic photos (tests and benchmarks).

It maps every lattice centre the pipeline asks about back into the photo and answers with the true cell
whose centre lies nearest there, so a scan comes out right only if the geometry is right.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from models.synth.scene import SynthPhoto
from scoring.city import EMPTY, City
from scoring.city_text import parse_city
from vision.cells.reading import CellReading
from vision.cells.topdown import TopDown
from vision.city.assemble import assemble_city
from vision.lattice.rectify import project_points
from vision.pipeline import WORK_LONG_SIDE


def visible_truth(p: SynthPhoto) -> City:
    """The truth city as the scanner can read it: blocks only (Wrecktar and marks are not geometry)."""
    truth = parse_city(p.truth.city)
    grid = [[CellReading.certain(c.zone, c.road) if c.is_block else None for c in row] for row in truth.grid]
    return assemble_city(grid).city


class TruthClassifier:
    """Answers each cell centre with the true cell whose centre lies nearest in the photo (within a third
    of a block), turned by 180° when the view runs the other way round (the
    :class:`vision.cells.reading.Classifier` interface)."""

    def __init__(self, p: SynthPhoto, long_side: int = WORK_LONG_SIDE) -> None:
        self.photo = p
        # The scan works on the photo decoded at most ``long_side`` px: truth pixels → working pixels.
        self.scale = (
            round(p.truth.width * min(1.0, long_side / max(p.truth.width, p.truth.height))) / p.truth.width
        )
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

    def _nearest(self, view: TopDown, points: np.ndarray) -> list[tuple[int, int] | None]:
        xy = project_points(np.linalg.inv(view.to_rectified), points) / self.scale
        d = np.hypot(*(self.points[None, :, :] - xy[:, None, :]).transpose(2, 0, 1))
        i = np.argmin(d, axis=1)
        return [self.keys[k] if d[n, k] < self.tolerance else None for n, k in enumerate(i)]

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        centres = np.asarray(centres, float).reshape(-1, 2)
        found = self._nearest(view, centres)
        # One block to the right in the view is one column to the left in the truth when it is turned.
        right = self._nearest(view, centres + (pitch[0], 0.0))
        steps = [b[1] - a[1] for a, b in zip(found, right, strict=True) if a and b and a[0] == b[0]]
        turned = sum(steps) < 0
        out = []
        for key in found:
            cell = parse_city(self.tokens[key] + "\n").grid[0][0] if key else EMPTY
            cell = replace(cell, poi=False, construction=False) if cell.is_block else EMPTY
            cell = cell.rotated() if turned else cell
            out.append(CellReading.certain(cell.zone, cell.road, 0.99))
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
