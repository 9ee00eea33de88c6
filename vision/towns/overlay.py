"""Draw what a town scan read on its photo, as :mod:`vision.city.overlay` draws a city's.

Each town cell is drawn in the photo's own perspective (the view's lattice mapped back through the inverse
homography) on a downscaled copy of the photo: a territory tinted and outlined in its terrain's colour (the
page's, ``.t-D`` … in ``app.css``) with its token (``D/w``) above its icon, a table cell inside the town
only faintly, a doubtful cell outlined in red, thicker, with a red token; column letters and row numbers
as a city's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from scoring.city import cell_name
from vision.city import (
    LOW,
    SQUARE,
    Label,
    Pen,
    cell_width,
    coordinate_labels,
    draw_labels,
    overlay_base,
    quad_point,
)

if TYPE_CHECKING:
    from scoring.wagons import Town
    from vision.towns.scan import TownScan

__all__ = ["TERRAIN_RGB", "draw_town_overlay", "town_labels"]

# The page's terrain colours (app.css, .t-D …), so the picture and the page's grid agree.
TERRAIN_RGB = {
    "D": (226, 192, 127),
    "F": (79, 138, 74),
    "M": (155, 132, 112),
    "P": (214, 215, 122),
    "S": (238, 243, 247),
    "W": (111, 168, 214),
}
TABLE = (255, 255, 255)  # a table cell inside the town: drawn on the tint only, so faint
TOKEN_AT = (0.5, 0.17)  # a territory's token, near its top: clear of the icon at its centre, to compare
TINT = 0.35  # how much of the tint layer shows over the photo


def town_labels(town: Town, outlines: dict[tuple[int, int], list[list[float]]]) -> list[Label]:
    """The column letters, row numbers and each territory's token (``D/w``) of ``town``, placed in its
    cells' ``outlines`` (photo fractions, as :func:`vision.city.overlay.lattice_outlines` gives them)."""
    tokens = [
        Label(territory.token(), *quad_point(outlines[(r, c)], *TOKEN_AT), "cell", (r, c))
        for r, line in enumerate(town.grid)
        for c, territory in enumerate(line)
        if territory is not None
    ]
    return coordinate_labels(town.n_rows, town.n_cols, outlines) + tokens


def _doubtful(scan: TownScan) -> set[tuple[int, int]]:
    """The town cells (row, col) the scan's doubt names."""
    names = {d.cell for d in scan.doubt}
    rows, cols = scan.town.n_rows, scan.town.n_cols
    return {(r, c) for r in range(rows) for c in range(cols) if cell_name(r, c) in names}


def _tint(canvas: np.ndarray, town: Town, pen: Pen) -> np.ndarray:
    """Each territory filled in its terrain's colour and each table cell outlined, seen through."""
    layer = canvas.copy()
    for r, line in enumerate(town.grid):
        for c, territory in enumerate(line):
            if territory is None:
                cv2.polylines(layer, [pen.cell_poly(r, c, SQUARE)], True, TABLE, pen.line, cv2.LINE_AA)
            else:
                cv2.fillPoly(layer, [pen.cell_poly(r, c, SQUARE * 0.92)], TERRAIN_RGB[territory.terrain])
    return cv2.addWeighted(layer, TINT, canvas, 1 - TINT, 0)


def _outline(canvas: np.ndarray, town: Town, doubtful: set[tuple[int, int]], pen: Pen) -> None:
    """Each territory's outline in its terrain's colour, then each doubtful cell's in red, twice as thick."""
    for r, line in enumerate(town.grid):
        for c, territory in enumerate(line):
            if territory is not None and (r, c) not in doubtful:
                colour = TERRAIN_RGB[territory.terrain]
                cv2.polylines(canvas, [pen.cell_poly(r, c, SQUARE)], True, colour, pen.line, cv2.LINE_AA)
    for r, c in sorted(doubtful):
        cv2.polylines(canvas, [pen.cell_poly(r, c, SQUARE)], True, LOW, 2 * pen.line, cv2.LINE_AA)


def draw_town_overlay(
    scan: TownScan, *, long_side: int = 1400, base: tuple[np.ndarray, float] | None = None
) -> np.ndarray:
    """An RGB picture of the scan's photo (long side at most ``long_side``) with the town read drawn on it
    (see the module note). ``base`` is :func:`vision.city.overlay.overlay_base` of the photo when made already
    (drawn on)."""
    g, town = scan.geometry, scan.town
    canvas, k = base if base is not None else overlay_base(g.photo, long_side)
    to_canvas = np.diag([k, k, 1.0]) @ np.linalg.inv(g.to_view)
    pen = Pen(to_canvas, g.lattice, scan.origin, max(1, round(max(canvas.shape[:2]) / 700)))  # as a city's
    doubtful = _doubtful(scan)
    canvas = _tint(canvas, town, pen)
    _outline(canvas, town, doubtful, pen)
    outlines = scan.outlines()
    draw_labels(canvas, town_labels(town, outlines), cell_width(outlines, canvas), doubtful, pen.line)
    return canvas
