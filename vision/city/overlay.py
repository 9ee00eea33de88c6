"""Draw what was read on the photo: the lattice, each cell's label, the largest groups and the roads.

Everything is drawn in the photo's own perspective (the rectified lattice mapped back through the
inverse homography) on a downscaled copy, so a player can hold the overlay next to the table and see at
a glance which cell was misread. The coordinates are the page's (``api/web/static/overlay.js``): column
letters beyond the first row's outer side, row numbers beyond the first column's, each block labelled
with its name and zone (``B3 R``); its road is drawn as a line, so no compass code in the grid's frame
has to be turned into the photo's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scoring.city import STEP, ZONES, Cell, City, cell_name
from scoring.geometry import largest_groups, roads
from vision.city.labels import LOW, Label, draw_labels, draw_legend, halo_text
from vision.lattice import Lattice, project_points
from vision.photo import fit_long_side

if TYPE_CHECKING:
    from vision.city.assemble import Assembled
    from vision.city.geometry import Geometry

ZONE_BGR = {"R": (60, 120, 235), "C": (220, 150, 60), "I": (150, 150, 150), "P": (70, 190, 70)}
ZONE_RGB = {z: (b, g, r) for z, (r, g, b) in ZONE_BGR.items()}
ROAD_COLOURS = [(255, 220, 0), (255, 0, 200), (0, 230, 255), (255, 120, 0), (160, 90, 255), (0, 255, 120)]
CARD_BOX = (255, 230, 0)  # a scoring card found beside the city
# Where the labels sit in a cell's outline, as (u along the row, v down the column) of its unit square:
# the page's anchors (overlay.js), so that both name the same cells at the same places.
COLUMN_AT = (0.5, -0.45)  # a column's letter, above the first row's cell
ROW_AT = (-0.3, 0.5)  # a row's number, left of the first column's cell
CELL_AT = (0.5, 0.3)  # a block's name and zone, above its centre (clear of a road through the middle)
# Where each side's midpoint lies in a cell, in units of half a pitch from its centre.
MIDPOINT = {"N": (0.0, -1.0), "S": (0.0, 1.0), "E": (1.0, 0.0), "W": (-1.0, 0.0)}


def _road_path(road: str, steps: int = 8) -> np.ndarray:
    """A road segment as points in cell units (centre 0, sides ±1): a straight line or a quarter arc."""
    a, b = np.array(MIDPOINT[road[0]]), np.array(MIDPOINT[road[1]])
    if road in ("NS", "EW"):
        return np.linspace(a, b, 2)
    corner = a + b  # the cell corner the curve turns around
    t = np.linspace(0.0, 1.0, steps)[:, None]
    va, vb = a - corner, b - corner
    angle_a, angle_b = np.arctan2(va[1], va[0]), np.arctan2(vb[1], vb[0])
    delta = (angle_b - angle_a + np.pi) % (2 * np.pi) - np.pi
    ang = angle_a + t[:, 0] * delta
    return corner + np.c_[np.cos(ang), np.sin(ang)]


def cell_outlines(geometry: Geometry, assembled: Assembled) -> dict[tuple[int, int], list[list[float]]]:
    """Each city cell's four corners (top-left, top-right, bottom-right, bottom-left in the city's grid) as
    fractions of the photo's width and height, so a page can draw its own outlines over the same photo."""
    shape = (assembled.city.n_rows, assembled.city.n_cols)
    return lattice_outlines(
        geometry.to_rectified, geometry.photo.shape[:2], geometry.lattice, assembled.origin, shape
    )


def lattice_outlines(
    to_view: np.ndarray,
    photo_hw: tuple[int, ...],
    lattice: Lattice,
    origin: tuple[int, int],
    shape: tuple[int, int],
) -> dict[tuple[int, int], list[list[float]]]:
    """The corners (TL, TR, BR, BL) of the ``shape`` (rows, cols) cells of ``lattice`` from cell ``origin``
    on, keyed from (0, 0), as fractions of a photo of ``photo_hw`` (height, width, ...) that ``to_view``
    maps onto the lattice's view.

    >>> lattice = Lattice((10.0, 20.0), 30.0, 40.0, 2, 2)
    >>> lattice_outlines(np.eye(3), (100, 200), lattice, (1, 0), (1, 1))
    {(0, 0): [[0.05, 0.6], [0.2, 0.6], [0.2, 1.0], [0.05, 1.0]]}
    """
    h, w = photo_hw[:2]
    to_photo = np.diag([1.0 / w, 1.0 / h, 1.0]) @ np.linalg.inv(to_view)
    pen = Pen(to_photo, lattice, origin, 1)  # the photo in fractions is the canvas
    out: dict[tuple[int, int], list[list[float]]] = {}
    for r in range(shape[0]):
        for c in range(shape[1]):
            out[(r, c)] = [[round(float(x), 4), round(float(y), 4)] for x, y in pen.cell_points(r, c, SQUARE)]
    return out


def quad_point(quad: Sequence[Sequence[float]], u: float, v: float) -> tuple[float, float]:
    """The point (u, v) of a cell's unit square (corners TL, TR, BR, BL) in the photo, bilinear over its
    corners as the page computes it (``at`` in overlay.js)."""
    (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = quad
    w = ((1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v)
    return (
        w[0] * tlx + w[1] * trx + w[2] * brx + w[3] * blx,
        w[0] * tly + w[1] * try_ + w[2] * bry + w[3] * bly,
    )


def cell_text(r: int, c: int, cell: Cell) -> str:
    """A block's label on the photo: its name and what it is, without its road (drawn as a line):
    ``B3 R``, ``C1 P*`` (a Point of Interest), ``A2 I!`` (construction), ``D4 W`` (Wrecktar)."""
    token = cell.token()
    return f"{cell_name(r, c)} {token.replace(':' + cell.road, '') if cell.road else token}"


def coordinate_labels(
    n_rows: int, n_cols: int, outlines: dict[tuple[int, int], list[list[float]]]
) -> list[Label]:
    """A letter per column beside the first row and a number per row beside the first column of a grid of
    ``n_rows`` × ``n_cols`` cells (``outlines``: each cell's corners in photo fractions)."""
    labels = [
        Label(cell_name(0, c)[:-1], *quad_point(outlines[(0, c)], *COLUMN_AT), "column")
        for c in range(n_cols)
    ]
    return labels + [Label(str(r + 1), *quad_point(outlines[(r, 0)], *ROW_AT), "row") for r in range(n_rows)]


def label_layout(city: City, outlines: dict[tuple[int, int], list[list[float]]]) -> list[Label]:
    """Every label of the overlay and where it goes: a letter per column beside the first row, a number
    per row beside the first column, and each block's :func:`cell_text` (``outlines``: each cell's
    corners as :func:`cell_outlines` gives them, in photo fractions)."""
    labels = coordinate_labels(city.n_rows, city.n_cols, outlines)
    labels += [
        Label(cell_text(r, c, cell), *quad_point(outlines[(r, c)], *CELL_AT), "cell", (r, c))
        for r, c, cell in city.cells()
        if cell.kind != "empty"
    ]
    return labels


def overlay_base(photo: np.ndarray, long_side: int = 1400) -> tuple[np.ndarray, float]:
    """The photo shrunk to a long side of at most ``long_side`` (a copy to draw on) and its scale: what
    :func:`draw_overlay` draws on, which a scan may make while it reads the city (it needs only the photo)."""
    canvas, k = fit_long_side(photo, long_side)
    return (canvas.copy() if canvas is photo else canvas), k


def draw_overlay(
    geometry: Geometry,
    assembled: Assembled,
    *,
    long_side: int = 1400,
    scoring_cards: Sequence[tuple[int | None, np.ndarray]] = (),
    base: tuple[np.ndarray, float] | None = None,
    doubtful: Collection[tuple[int, int]] = (),
) -> np.ndarray:
    """An RGB picture of the photo (long side at most ``long_side``) with the reading drawn on it, and a
    box round each scoring card found (``scoring_cards``: its number, or None when unread, and its four
    corners in photo pixels). ``base`` is :func:`overlay_base` of the photo when made already (drawn on).

    The ``doubtful`` cells (row, col of the city), and only they, are outlined and labelled in red, with
    a key saying so: the red is the scan's doubt list, cell for cell, so that the picture and the list
    under the score never disagree (a cell the classifier was merely unsure of, which the list leaves
    out, is not marked either)."""
    canvas, k = base if base is not None else overlay_base(geometry.photo, long_side)
    to_canvas = np.diag([k, k, 1.0]) @ np.linalg.inv(geometry.to_rectified)
    pen = Pen(to_canvas, geometry.lattice, assembled.origin, max(1, round(max(canvas.shape[:2]) / 700)))
    city: City = assembled.city
    red = set(doubtful)
    canvas = _tint_largest_groups(canvas, city, pen)
    _draw_cells(canvas, city, red, pen)
    _draw_roads(canvas, city, pen)
    _draw_scoring_cards(canvas, scoring_cards, k, pen.line)
    # Labels last, so nothing covers them.
    outlines = cell_outlines(geometry, assembled)
    draw_labels(canvas, label_layout(city, outlines), cell_width(outlines, canvas), red, pen.line)
    draw_legend(canvas, len(red), _city_box(city, pen), pen.line)
    return canvas


def _city_box(city: City, pen: Pen) -> tuple[int, int, int, int]:
    """The city's bounding box on the canvas (x0, y0, x1, y1) and a block round it, where its column
    letters and row numbers stand: what the key keeps clear of."""
    pts = np.vstack(
        [pen.cell_points(r, c, SQUARE) for r in (0, city.n_rows - 1) for c in (0, city.n_cols - 1)]
    )
    pad = float(np.ptp(pen.cell_points(0, 0, SQUARE), axis=0).max())
    (x0, y0), (x1, y1) = pts.min(axis=0) - pad, pts.max(axis=0) + pad
    return int(x0), int(y0), int(x1), int(y1)


SQUARE = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)


@dataclass(frozen=True)
class Pen:
    """Where a cell of the grid read (a city's or a town's, from lattice cell ``origin``) lies on the canvas
    (the lattice mapped through ``to_canvas``), and the line width."""

    to_canvas: np.ndarray
    lattice: Lattice
    origin: tuple[int, int]
    line: int

    def cell_points(self, r: int, c: int, pts: np.ndarray) -> np.ndarray:
        """Cell-unit points (centre 0, sides ±1) of grid cell (r, c) → canvas pixels."""
        cx, cy = self.lattice.center(r + self.origin[0], c + self.origin[1])
        rect = np.c_[cx + pts[:, 0] * self.lattice.pitch_x / 2, cy + pts[:, 1] * self.lattice.pitch_y / 2]
        return project_points(self.to_canvas, rect)

    def cell_poly(self, r: int, c: int, pts: np.ndarray) -> np.ndarray:
        return self.cell_points(r, c, pts).round().astype(np.int32)


def _tint_largest_groups(canvas: np.ndarray, city: City, pen: Pen) -> np.ndarray:
    """Largest groups: a translucent fill in the zone's colour."""
    tint = canvas.copy()
    for zone in ZONES:
        for group in largest_groups(city, zone)[:1]:
            for r, c in group:
                cv2.fillPoly(tint, [pen.cell_poly(r, c, SQUARE * 0.92)], ZONE_RGB[zone])
    return cv2.addWeighted(tint, 0.35, canvas, 0.65, 0)


def _draw_cells(canvas: np.ndarray, city: City, red: Collection[tuple[int, int]], pen: Pen) -> None:
    """The lattice and every block's outline; the cells in doubt (``red``) in red."""
    for r, c, cell in city.cells():
        doubtful = (r, c) in red
        if cell.is_block or doubtful:
            colour = LOW if doubtful else (255, 255, 255)
            width = pen.line * (2 if doubtful else 1)
            cv2.polylines(canvas, [pen.cell_poly(r, c, SQUARE)], True, colour, width, cv2.LINE_AA)


def _draw_roads(canvas: np.ndarray, city: City, pen: Pen) -> None:
    """Roads, one colour per road, with a dot where each stops."""
    for i, road in enumerate(roads(city)):
        colour = ROAD_COLOURS[i % len(ROAD_COLOURS)]
        for r, c in road.cells:
            seg = city.cell(r, c).road
            if seg:
                pts = pen.cell_poly(r, c, _road_path(seg))
                cv2.polylines(canvas, [pts], False, colour, 2 * pen.line, cv2.LINE_AA)
        for end in road.ends:
            dr, dc = STEP[end.side]
            p = pen.cell_points(*end.cell, np.array([[dc * 0.9, dr * 0.9]]))[0]
            cv2.circle(canvas, (int(p[0]), int(p[1])), 3 * pen.line, colour, -1, cv2.LINE_AA)


def _draw_scoring_cards(
    canvas: np.ndarray, scoring_cards: Sequence[tuple[int | None, np.ndarray]], k: float, line: int
) -> None:
    """A box round each scoring card found, with its number (``?`` when unread)."""
    for number, corners in scoring_cards:
        poly = (np.asarray(corners, np.float64) * k).round().astype(np.int32)
        colour = CARD_BOX if number is not None else LOW
        cv2.polylines(canvas, [poly], True, colour, 2 * line, cv2.LINE_AA)
        text = str(number) if number is not None else "?"
        org = (int(poly[0][0]) + 4 * line, int(poly[0][1]) - 4 * line)
        halo_text(canvas, text, org, 0.7 * line, colour, 2 * line, 4 * line)


def cell_width(outlines: dict[tuple[int, int], list[list[float]]], canvas: np.ndarray) -> float:
    """The median cell's width along the canvas's x axis (the way text runs), in canvas pixels."""
    xs = np.array([[x for x, _ in quad] for quad in outlines.values()]) * canvas.shape[1]
    return float(np.median(np.ptp(xs, axis=1))) if len(xs) else 40.0
