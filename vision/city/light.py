"""The light on the city as the photo shows it: which cells a lamp's reflection washed out to white
(:func:`glare_cells`, the spots' cores and their rims by :func:`glare_spots`), how much darker a band of the
city is than the rest (:func:`shadow_depth`), the table's own pattern seen beside the city, and how much of
the photo is clipped to white (an overexposed photo). The retake (:mod:`vision.city.retake`) and the
doubts (:mod:`vision.city.doubt`) weigh them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.city.assemble import Assembled
from vision.city.doubt import GLARE_DOUBT
from vision.city.geometry import Geometry
from vision.photo import channel_max, channel_min, clipped_share

__all__ = [
    "Light",
    "cell_brightness",
    "glare_cells",
    "glare_spots",
    "read_light",
    "shadow_depth",
    "washed_out",
]

# A pixel washed out by glare: every channel at least this bright, and nearly grey (a lamp's reflection
# is white whatever the art under it).
GLARE_MIN_CHANNEL = 215
GLARE_MAX_CHROMA = 40
# The central share of a cell measured (its edges hold the neighbours' borders and the lattice's error).
CELL_CORE = 0.8
# A cell at least this washed out is the core of a glare spot (nothing of its art is left).
GLARE_SPOT = 0.75
# The table around the city is white when at least this share of its cells' cores is washed out.
TABLE_WASHED = 0.5
# The blocks' grey levels are smoothed over this many cells (sigma) before the shadow's depth is taken.
SHADOW_SMOOTH_CELLS = 1.0
# The shadow named as a cause is measured on the card region's blocks when it holds at least this many.
SHADOW_LEAST_CELLS = 8


def _cell_boxes(geometry: Geometry, assembled: Assembled) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """Each city cell's central box (x0, y0, x1, y1) in the top-down view, clipped to it."""
    lattice, (r0, c0) = geometry.lattice, assembled.origin
    out = {}
    for r in range(assembled.city.n_rows):
        for c in range(assembled.city.n_cols):
            box = lattice.core_box(r + r0, c + c0, CELL_CORE, geometry.rectified.shape)
            if box is not None:
                out[(r, c)] = box
    return out


def _shares(
    mask: np.ndarray, boxes: dict[tuple[int, int], tuple[int, int, int, int]], shape: tuple[int, int]
) -> np.ndarray:
    out = np.zeros(shape, np.float64)
    for (r, c), (x0, y0, x1, y1) in boxes.items():
        out[r, c] = float(mask[y0:y1, x0:x1].mean())
    return out


def glare_cells(geometry: Geometry, assembled: Assembled, washed: np.ndarray | None = None) -> np.ndarray:
    """The share of each city cell's core washed out to near white, (rows, cols) in the city's grid;
    ``washed``: :func:`washed_out` of the top-down view, when made already."""
    washed = washed_out(geometry.rectified) if washed is None else washed
    shape = (assembled.city.n_rows, assembled.city.n_cols)
    return _shares(washed, _cell_boxes(geometry, assembled), shape)


def cell_brightness(geometry: Geometry, assembled: Assembled) -> np.ndarray:
    """Each city cell's median grey level in the top-down view (NaN where the view has none)."""
    grey = cv2.cvtColor(geometry.rectified, cv2.COLOR_RGB2GRAY)
    out = np.full((assembled.city.n_rows, assembled.city.n_cols), np.nan)
    for (r, c), (x0, y0, x1, y1) in _cell_boxes(geometry, assembled).items():
        out[r, c] = float(np.median(grey[y0:y1, x0:x1]))
    return out


def washed_out(view: np.ndarray) -> np.ndarray:
    """The pixels of an RGB image washed out to near white, (H, W) bool."""
    lo, hi = channel_min(view), channel_max(view)
    return (lo >= GLARE_MIN_CHANNEL) & (cv2.subtract(hi, lo) <= GLARE_MAX_CHROMA)


def _table_washed(geometry: Geometry, assembled: Assembled, washed: np.ndarray) -> bool:
    """Whether the table itself is washed out (a white table): then a cell read as table is white
    because the table is, and its whiteness says nothing of glare."""
    lattice, (r0, c0) = geometry.lattice, assembled.origin
    rows, cols = assembled.city.n_rows, assembled.city.n_cols
    shares = []
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            inside = r0 <= r < r0 + rows and c0 <= c < c0 + cols
            if inside or not geometry.visible[r, c]:
                continue
            x, y = lattice.center(r, c)
            x0, y0 = int(max(0, x - 0.4 * lattice.pitch_x)), int(max(0, y - 0.4 * lattice.pitch_y))
            box = washed[y0 : int(y + 0.4 * lattice.pitch_y), x0 : int(x + 0.4 * lattice.pitch_x)]
            if box.size:
                shares.append(float(box.mean()))
    return bool(shares) and float(np.median(shares)) >= TABLE_WASHED


def shadow_depth(brightness: np.ndarray, blocks: np.ndarray) -> float:
    """How much darker the darkest part of the city is than its brightest, 0 (even light) to 1, from the
    blocks' grey levels smoothed over about a cell (so that the art's own light and dark blocks average
    out and a shadow band or a dim corner remains)."""
    known = blocks & ~np.isnan(brightness)
    if known.sum() < 2:
        return 0.0
    values = np.where(known, brightness, 0.0).astype(np.float32)
    weights = known.astype(np.float32)
    sum_v = cv2.GaussianBlur(values, (0, 0), SHADOW_SMOOTH_CELLS, borderType=cv2.BORDER_CONSTANT)
    sum_w = cv2.GaussianBlur(weights, (0, 0), SHADOW_SMOOTH_CELLS, borderType=cv2.BORDER_CONSTANT)
    smooth = (sum_v / np.maximum(sum_w, 1e-6))[known]
    return float(1.0 - smooth.min() / max(float(smooth.max()), 1.0))


@dataclass(frozen=True)
class Light:
    """The light on the city as the photo shows it: ``glare_cells``, the share of each city cell washed
    out by glare, (rows, cols) (cells read as table on a white table count none), and ``shadow``, the
    depth of the darkest part of the city (:func:`shadow_depth`); ``shadow_on_cards``, the same on the
    blocks on the card region alone (None with too few of them), which names a shadow as the cause of a
    doubtful reading: blocks read beyond the cards may be a patterned table's light and dark squares,
    while a shadow deep enough to ask for a retake by itself may hide cards from the card region."""

    glare_cells: np.ndarray
    shadow: float
    shadow_on_cards: float | None = None
    # The city's cells read as table that show the table's own pattern off the cards, (rows, cols).
    table_pattern: np.ndarray | None = None
    # The share of the photo clipped to white (vision.photo.clipped_share).
    clipped: float = 0.0


def read_light(geometry: Geometry, assembled: Assembled) -> Light:
    """The :class:`Light` on the city read in ``geometry``."""
    washed = washed_out(geometry.rectified)
    glare = glare_cells(geometry, assembled, washed)
    blocks = np.array([[cell.is_block for cell in row] for row in assembled.city.grid], bool)
    if (~blocks).any() and _table_washed(geometry, assembled, washed):
        glare = np.where(blocks, glare, 0.0)
    glare = glare_spots(glare)
    measured = blocks & (glare < GLARE_DOUBT)
    brightness = cell_brightness(geometry, assembled)
    on_cards = measured & _on_card_region(geometry, assembled)
    shadow_on_cards = shadow_depth(brightness, on_cards) if on_cards.sum() >= SHADOW_LEAST_CELLS else None
    pattern = _table_pattern(geometry, assembled)
    clipped = clipped_share(geometry.photo)
    return Light(glare, shadow_depth(brightness, measured), shadow_on_cards, pattern, clipped)


def _table_pattern(geometry: Geometry, assembled: Assembled) -> np.ndarray:
    """The city's cells read as table, off the card region, that show the table's own pattern (a check
    cloth's squares beside the city: :meth:`vision.city.geometry.Geometry.shows_table_pattern`), (rows,
    cols) bool in the city's grid: the table there is seen, not in doubt."""
    r0, c0 = assembled.origin
    out = np.zeros((assembled.city.n_rows, assembled.city.n_cols), bool)
    for r, row in enumerate(assembled.city.grid):
        for c, cell in enumerate(row):
            lr, lc = r + r0, c + c0
            inside = 0 <= lr < geometry.lattice.rows and 0 <= lc < geometry.lattice.cols
            out[r, c] = inside and not cell.is_block and geometry.shows_table_pattern(lr, lc)
    return out


def _on_card_region(geometry: Geometry, assembled: Assembled) -> np.ndarray:
    """The city's cells on the card region, (rows, cols) bool in the city's grid: a shadow is measured on
    the cards, not on blocks read beyond them, which may be a patterned table's light and dark squares."""
    r0, c0 = assembled.origin
    rows, cols = assembled.city.n_rows, assembled.city.n_cols
    out = np.zeros((rows, cols), bool)
    occupied = geometry.occupied
    for r in range(rows):
        for c in range(cols):
            lr, lc = r + r0, c + c0
            out[r, c] = 0 <= lr < occupied.shape[0] and 0 <= lc < occupied.shape[1] and bool(occupied[lr, lc])
    return out


def glare_spots(glare: np.ndarray) -> np.ndarray:
    """``glare`` kept only in and beside cells washed out whole (:data:`GLARE_SPOT`): a lamp's
    reflection has a core that hides the art, while an over-exposed photo pales the white parts of
    many cells and hides none (the classifier reads those, as it was trained to)."""
    core = (glare >= GLARE_SPOT).astype(np.uint8)
    near = cv2.dilate(core, np.ones((3, 3), np.uint8)).astype(bool)
    return np.where(near, glare, 0.0)
