"""The block lattice in a rectified (top-down) image, and how to fit it.

Rectified images are top-down views at :data:`PX_PER_MM` pixels per millimetre, turned so that blocks
are wider than tall (1.4 : 1), i.e. lattice rows run along the image x axis.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

PX_PER_MM = 2.0
BLOCK_W_MM = 44.45
BLOCK_H_MM = 31.75


@dataclass(frozen=True)
class Lattice:
    """Cell (r, c) has its centre at ``origin + ((c + 0.5) * pitch_x, (r + 0.5) * pitch_y)`` plus the
    per-cell ``offsets[r, c]`` (x, y) in pixels, which absorb hand-placement shifts of a few mm."""

    origin: tuple[float, float]
    pitch_x: float
    pitch_y: float
    rows: int
    cols: int
    offsets: np.ndarray | None = field(default=None, compare=False)

    def center(self, row: int, col: int) -> tuple[float, float]:
        x = self.origin[0] + (col + 0.5) * self.pitch_x
        y = self.origin[1] + (row + 0.5) * self.pitch_y
        if self.offsets is not None:
            x += float(self.offsets[row, col, 0])
            y += float(self.offsets[row, col, 1])
        return x, y
