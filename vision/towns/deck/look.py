"""What a territory looks like, measured without knowing the print: its fill colour and the shape in its
middle.

Every print of Circle the Wagons fills a territory with one ground (flat or textured) and draws its icon in
the middle, whatever the colours and the drawing. So two measures describe any print:

- the *fill*: the median CIE Lab colour of the four corners of a ring between the territory's edge
  (outline, neighbour) and its middle (the icon and any ground drawn under it), :func:`fill_colour`;
- the *icon*: the pixels of the middle that differ from the fill, as a small mask centred on their own
  centre of mass (the hand placement moves a territory a few pixels; the icon moves with it),
  :func:`icon_mask`.

The deck's structure names the fills and the icons (:mod:`vision.towns.deck.structure`); a town's cells are
then read by the same two measures (:mod:`vision.towns.deck.look_reader`).

Example:

>>> import numpy as np
>>> cell = np.full((88, 64, 3), (238, 212, 66), np.uint8)  # a yellow territory
>>> cell[34:54, 22:42] = 0  # with a black square in the middle
>>> [round(v) for v in fill_colour(to_lab(cell))]
[85, -6, 71]
>>> mask = icon_mask(to_lab(cell), fill_colour(to_lab(cell)))
>>> mask.shape, bool(mask.max() > 0.9), bool(mask[0, 0] < 0.1)
((16, 16), True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = [
    "ICON_SIZE",
    "corner_spread",
    "fill_colour",
    "icon_distance",
    "icon_mask",
    "territory_looks",
    "to_lab",
]

# The ring the fill is measured on, as fractions of the territory from its edge: clear of a ~1 mm outline
# (3 % of a 31.75 mm side) and of an icon drawn over the middle ~40–50 %.
RING = (0.08, 0.24)
# The middle searched for the icon, as fractions from each edge.
MIDDLE = 0.14
# A pixel differs from the fill by this much (CIE ΔE76) or more to be icon: a print's flat fill varies by
# under 10 in a photo, its icons differ by 40 and more (black or white on a colour, colour on a pale ground).
ICON_DELTA = 28.0
# The icon mask's side (pixels) and the window it covers round the icon's centre, as a share of the
# territory's width.
ICON_SIZE = 16
ICON_WINDOW = 0.8
# The mask is blurred by this much (pixels of the mask, sigma): the same icon drawn a few degrees turned or
# a pixel off still overlaps itself (on the print-and-play devset the 95th percentile of a territory's
# distance to its nearest example fell from 0.56 to 0.41).
ICON_BLUR = 1.2
# A crop with more than this share of its area beyond the view is not read.
OUTSIDE = 0.1
# A town cell whose four ring corners differ by this much (the largest ΔE76 of a corner's median from
# their median) may straddle two territories, or a territory and the table: its card lies off the lattice
# (30–40 on a rendered town's card placed a third of a cell off; an aligned cell's corners stayed under 15
# but where the icon's pale oval reached them: 47).
STRADDLE = 20.0
# Such a cell is read where a crop nearby has corners that agree this well (one flat fill: under 10), if
# one does: the cheapest of them, each shift costing SHIFT_COST (ΔE76 per pitch), among SEARCH_STEPS (shares
# of the pitch along each axis). An oval's reach is no straddle: no crop nearby agrees, and that cell stays.
AGREE = 8.0
SEARCH_STEPS = (-1 / 3, -1 / 6, 0.0, 1 / 6, 1 / 3)
SHIFT_COST = 20.0


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` (uint8) in CIE Lab as float32 (L 0–100, a and b about −128–127)."""
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)


def _ring(h: int, w: int) -> np.ndarray:
    """The four corner squares of the ring: clear of an icon's ground (a pale oval under it reaches far
    out along the middle of each side)."""
    ys, xs = np.mgrid[0:h, 0:w]
    from_top, from_side = np.minimum(ys / h, 1 - (ys + 1) / h), np.minimum(xs / w, 1 - (xs + 1) / w)
    inside = (RING[0] <= from_top) & (from_top <= RING[1])
    return inside & (RING[0] <= from_side) & (from_side <= RING[1])


def corner_spread(lab: np.ndarray) -> float:
    """How far the four corners of the ring of the territory crop ``lab`` disagree: the largest ΔE76 of a
    corner's median colour from their median (small on one territory, large on a crop that straddles
    two)."""
    h, w = lab.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    ring = _ring(h, w)
    medians = np.array(
        [
            np.median(lab[ring & ((ys < h / 2) == top) & ((xs < w / 2) == left)], axis=0)
            for top in (True, False)
            for left in (True, False)
        ]
    )
    return float(np.sqrt(((medians - np.median(medians, axis=0)) ** 2).sum(axis=1)).max())


def fill_colour(lab: np.ndarray) -> np.ndarray:
    """The median Lab colour (3,) of the ring of the territory crop ``lab`` (see the module note)."""
    h, w = lab.shape[:2]
    return np.median(lab[_ring(h, w)], axis=0).astype(np.float32)


def icon_mask(lab: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """The icon of the territory crop ``lab`` on a fill of colour ``fill``: the share of each pixel of a
    :data:`ICON_SIZE` square window centred on the icon's centre of mass that differs from the fill
    (float32, 0–1; all 0 when nothing in the middle differs)."""
    h, w = lab.shape[:2]
    my, mx = round(MIDDLE * h), round(MIDDLE * w)
    middle = lab[my : h - my, mx : w - mx]
    differs = (np.sqrt(((middle - fill) ** 2).sum(axis=2)) >= ICON_DELTA).astype(np.float32)
    out = np.zeros((ICON_SIZE, ICON_SIZE), np.float32)
    if differs.sum() < 4:
        return out
    ys, xs = np.nonzero(differs)
    cy, cx = ys.mean() + my, xs.mean() + mx
    half = ICON_WINDOW * w / 2
    src = np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]])
    dst = np.float32([[0, 0], [ICON_SIZE, 0], [0, ICON_SIZE]])
    full = np.zeros((h, w), np.float32)
    full[my : h - my, mx : w - mx] = differs
    size = (ICON_SIZE, ICON_SIZE)
    small = cv2.warpAffine(full, cv2.getAffineTransform(src, dst), size, flags=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), ICON_BLUR)


def icon_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How unlike icon masks ``a`` (..., S, S) and ``b`` (..., S, S) are: 1 − their soft intersection over
    union (0 the same shape, 1 nothing shared; two empty masks are alike)."""
    inter = np.minimum(a, b).sum(axis=(-2, -1))
    union = np.maximum(a, b).sum(axis=(-2, -1))
    return np.where(union > 0, 1.0 - inter / np.maximum(union, 1e-6), 0.0)


def _crop(lab: np.ndarray, x: float, y: float, pitch: tuple[float, float]) -> np.ndarray | None:
    """The crop of ``lab`` one ``pitch`` (width, height) about (``x``, ``y``); None where more than
    :data:`OUTSIDE` of it lies beyond the view."""
    w, h = round(pitch[0]), round(pitch[1])
    x0, y0 = round(x - pitch[0] / 2), round(y - pitch[1] / 2)
    crop = lab[max(0, y0) : max(0, y0 + h), max(0, x0) : max(0, x0 + w)]
    return None if crop.shape[0] * crop.shape[1] < (1 - OUTSIDE) * w * h else crop


def _on_territory(lab: np.ndarray, x: float, y: float, pitch: tuple[float, float]) -> np.ndarray | None:
    """The crop about (``x``, ``y``), or where it may straddle two territories (:data:`STRADDLE`) the
    cheapest crop nearby (:data:`SEARCH_STEPS`) whose corners agree as one territory's (:data:`AGREE`),
    each shift paying :data:`SHIFT_COST`; the crop itself where none does."""
    crop = _crop(lab, x, y, pitch)
    if crop is None or corner_spread(crop) < STRADDLE:
        return crop
    best, best_cost = crop, np.inf
    for fx in SEARCH_STEPS:
        for fy in SEARCH_STEPS:
            other = _crop(lab, x + fx * pitch[0], y + fy * pitch[1], pitch)
            if other is None or other.shape != crop.shape or (fx == 0 and fy == 0):
                continue
            spread = corner_spread(other)
            cost = spread + SHIFT_COST * float(np.hypot(fx, fy))
            if spread <= AGREE and cost < best_cost:
                best, best_cost = other, cost
    return best


def territory_looks(
    view: np.ndarray, centres: np.ndarray, pitch: tuple[float, float], *, search: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The fill colours (N, 3) and icon masks (N, S, S) of the territories of the top-down RGB ``view``
    centred at ``centres`` (N, 2), each ``pitch`` (width, height) pixels. A crop reaching past the view by
    more than :data:`OUTSIDE` of its area is black with no icon (it reads as no territory): what the view
    does not show is not there to read. With ``search`` a crop that straddles two territories is moved
    to a crop nearby that lies on one (:func:`_on_territory`): a town's card placed by hand off the
    lattice by a third of a cell is read where it lies."""
    lab = to_lab(view)
    fills = np.zeros((len(centres), 3), np.float32)
    masks = np.zeros((len(centres), ICON_SIZE, ICON_SIZE), np.float32)
    for i, (x, y) in enumerate(np.asarray(centres, float)):
        crop = _on_territory(lab, x, y, pitch) if search else _crop(lab, x, y, pitch)
        if crop is None:
            continue
        fills[i] = fill_colour(crop)
        masks[i] = icon_mask(crop, fills[i])
    return fills, masks
