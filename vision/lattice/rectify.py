"""From the two line families of a located city to a homography onto the top-down view.

No markers lie on a real table, so the view is recovered from the cards themselves, in three steps:

1. **Affine rectification.** The two vanishing points span the image of the table's line at infinity;
   sending that line back to infinity removes perspective up to an affine map, and a linear map then
   turns the two families onto the x and y axes (orientation kept, never mirrored).
2. **Metric scale.** What remains is a different scale along each axis. The block lattice's period is
   measured along both axes: candidates come from the autocorrelation of line positions (card edges,
   rims, road edges), which confuses the pitch with half or twice of it, so each candidate is scored by
   the colour change at its boundaries against its block middles (:func:`comb_score`). Blocks are
   1.4 : 1 and a tilt of at most ~35° distorts that by less than 1 / cos 35° ≈ 1.22, so the pair of
   periods is chosen among pairs with a plausible ratio, the longer one being the blocks' width; each
   axis is then scaled to :data:`~vision.lattice.fit.PX_PER_MM`. The comb still errs on some photos (small
   cities, steep tilts), so :meth:`Periods.hypotheses` also offers the distinct runners-up, and
   :func:`vision.city.arbitrate.read_geometry` lets the cell classifier judge between them when the first
   lattice reads doubtfully.
3. **Quarter turn.** Of the two turns that keep blocks wider than tall (or, given a portrait cell size
   such as a Circle the Wagons territory's, taller than wide), the one closest to the photo's own up
   direction is used (a city is the same city turned by 180°).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.lattice.bounds import check_region
from vision.lattice.fit import BLOCK_H_MM, BLOCK_W_MM, PX_PER_MM
from vision.lattice.frame import axis_frame, positions_along, project_points
from vision.lattice.locate import Located, NoCityFound
from vision.lattice.periods import (
    ColourJumps,
    estimate_period,
    folded_peak,
    lab_within,
    period_candidates,
    position_profile,
)

# Rectified images larger than this (pixels per side, i.e. 2 m of table) mean the fit went wrong.
MAX_RECTIFIED_SIDE = 4000
# Table kept around the city: room for the ring of cells read just outside the card region.
MARGIN_MM = 50.0
MIN_PERIOD_STRENGTH = 0.08
# Score lost per unit of |log(measured aspect / 1.4)| when choosing the pair of periods.
ASPECT_PENALTY = 1.0
# Blocks along the card region's longest side, at most: 16 rows of a city laid in a line, plus the table
# seen between cards and scoring cards laid beside it, and the stretch a tilt adds before metric scaling.
MAX_BLOCKS_ALONG = 30
# A city spans at least three blocks each way (a period is looked for up to 1/2.5 of the extent).
MIN_CELLS_ACROSS = 2.5
# Photo converted to Lab around the card region's box: a bilinear sample reads 1 px beyond the nearest
# one, and 3 px leaves room for the rounding of warped coordinates.
LAB_MARGIN = 3


@dataclass(frozen=True)
class Rectification:
    """``homography`` maps pixels of the located (small) photo to the rectified top-down view of
    ``size`` (width, height) at ``PX_PER_MM``. ``aspect`` is the measured ratio of the block periods
    (about 1.4 when the fit is right) and ``strength`` the weaker axis's periodicity (0..1)."""

    homography: np.ndarray
    size: tuple[int, int]
    aspect: float
    strength: float
    turned: bool  # the lattice rows run along the photo's vertical direction

    def for_scale(self, scale: float) -> np.ndarray:
        """The homography for a copy of the photo ``scale`` times the located one's size."""
        return self.homography @ np.diag([1.0 / scale, 1.0 / scale, 1.0])


def comb_score(jumps: np.ndarray, period: float, min_reps: float = MIN_CELLS_ACROSS) -> float:
    """How well ``period`` explains a colour-jump profile as block boundaries, 0..1.

    The profile is folded by the period; at its strongest phase lie the boundaries, half a period away
    the blocks' middles, where the ground colour does not change (roads run symmetrically through the
    middle). The score is the contrast between the two. Twice the pitch puts boundaries at both places
    (contrast near 0) and half the pitch mixes boundaries with middles (contrast about halved); odd
    multiples score like the pitch itself, which is why the smallest good period is chosen. A profile
    shorter than ``min_reps`` periods scores 0.
    """
    valid = np.nonzero(jumps > 0)[0]
    if len(valid) == 0 or valid[-1] - valid[0] < min_reps * period:
        return 0.0
    peak = folded_peak(jumps, period, width=max(1, int(round(period / 8))))
    start, stop = valid[0], valid[-1] + 1

    def at(phase: float) -> float:
        first = start + (phase - start) % period
        idx = np.arange(first, stop, period).round().astype(int)
        return float(jumps[idx].mean()) if len(idx) else 0.0

    top = at(peak)
    return max(0.0, (top - at(peak + period / 2)) / max(top, 1e-6))


def scored_periods(
    jumps: ColourJumps, candidates: list[float], lo: float, hi: float, min_reps: float = MIN_CELLS_ACROSS
) -> list[tuple[float, float]]:
    """``candidates`` (from line positions), their halves and doubles within [lo, hi], each with its
    :func:`comb_score` on the colour jumps along the axis, smallest period first."""
    pool = sorted({round(t, 2) for c in candidates for t in (c / 2, c, 2 * c) if lo <= t <= hi})
    return [(t, comb_score(jumps.profile(max(2, int(round(t / 4)))), t, min_reps)) for t in pool]


def plausible_aspect(ratio: float) -> bool:
    """Blocks are 1.4 : 1; a tilt up to ~35° scales one axis by up to 1 / cos 35° either way."""
    return 1.12 <= ratio <= 1.8 or 1 / 1.8 <= ratio <= 1 / 1.12


def ranked_pitches(
    x: list[tuple[float, float]], y: list[tuple[float, float]]
) -> list[tuple[float, float, float]]:
    """Every pair of periods (one per axis) whose ratio is a plausible block aspect, as
    ``(score, px, py)``, best first.

    The score is the summed comb score less a small penalty for an aspect far from 1.4 (most photos are
    taken nearly from above). Near ties (within 3% of the best) are ordered smallest periods first, since
    odd multiples of the pitch score like the pitch.
    """
    pairs = [
        (sx + sy - ASPECT_PENALTY * abs(np.log(max(px / py, py / px) / 1.4)), px, py)
        for px, sx in x
        for py, sy in y
        if sx > 0 and sy > 0 and plausible_aspect(px / py)
    ]
    if not pairs:
        return []
    best = max(p[0] for p in pairs)
    return sorted(pairs, key=lambda p: (p[0] < 0.97 * best, p[1] * p[2] if p[0] >= 0.97 * best else -p[0]))


def choose_pitches(x: list[tuple[float, float]], y: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The best pair of :func:`ranked_pitches`, or None when no pair has a plausible aspect."""
    ranked = ranked_pitches(x, y)
    return (ranked[0][1], ranked[0][2]) if ranked else None


@dataclass(frozen=True)
class Periods:
    """The block periods measured along the axes of ``frame`` (see :func:`axis_frame`).

    ``ranked`` holds the plausible ``(score, px, py)`` pairs of :func:`ranked_pitches`, best first;
    ``fallback`` the plain line-period estimate, used when no pair is plausible; ``strength`` how periodic
    the lines are along x and y (0..1).
    """

    frame: np.ndarray
    centre: tuple[float, float]
    ranked: list[tuple[float, float, float]]
    fallback: tuple[float, float]
    strength: tuple[float, float]

    @property
    def best(self) -> tuple[float, float]:
        return (self.ranked[0][1], self.ranked[0][2]) if self.ranked else self.fallback

    def hypotheses(self, count: int) -> list[tuple[float, float]]:
        """Up to ``count`` pairs (px, py) from ``ranked``, best first, that differ from every better one
        by more than 10% along some axis (the lattice fit refines the pitch by up to 8%, so closer pairs
        end up as the same lattice). Starts with :attr:`best`."""
        out = [self.best]
        for _, px, py in self.ranked[1:]:
            if len(out) >= count:
                break
            if all(abs(np.log(px / a)) > 0.1 or abs(np.log(py / b)) > 0.1 for a, b in out):
                out.append((px, py))
        return out


def _lab_around(rgb: np.ndarray, bbox: tuple[int, int, int, int]) -> np.ndarray:
    """The photo in Lab (float32), converted only within :data:`LAB_MARGIN` px of ``bbox`` and 0 beyond.

    The colour jumps only count pixels that the city mask covers once warped (nearest neighbour), and a
    bilinear sample of such a pixel reads the photo within 1 px of a mask pixel, so what lies beyond the
    margin never reaches them.
    """
    x, y, w, h = bbox
    rows = slice(max(0, y - LAB_MARGIN), min(rgb.shape[0], y + h + LAB_MARGIN))
    cols = slice(max(0, x - LAB_MARGIN), min(rgb.shape[1], x + w + LAB_MARGIN))
    return lab_within(rgb, rows, cols)


def measure_periods(located: Located, small: np.ndarray, *, min_across: float = MIN_CELLS_ACROSS) -> Periods:
    """Block periods of the located city in the small RGB photo (see the module note, step 2).

    ``min_across`` is the fewest cells the card region may span along either axis (a period is looked
    for up to its extent divided by this)."""
    x, y, w, h = located.bbox
    centre = (x + w / 2, y + h / 2)
    frame = axis_frame(located.families, centre)
    pts = np.argwhere(located.mask[::4, ::4] > 0)[:, ::-1].astype(np.float64) * 4
    corners = project_points(frame, pts)
    lo_corner, hi_corner = corners.min(axis=0), corners.max(axis=0)
    extent = hi_corner - lo_corner
    to_frame = np.array([[1.0, 0.0, -lo_corner[0]], [0.0, 1.0, -lo_corner[1]], [0.0, 0.0, 1.0]]) @ frame
    size = (int(extent[0]) + 2, int(extent[1]) + 2)
    lab = _lab_around(small, located.bbox)
    lab_frame = cv2.warpPerspective(lab, to_frame, size, flags=cv2.INTER_LINEAR)
    mask_frame = cv2.warpPerspective(located.mask, to_frame, size, flags=cv2.INTER_NEAREST)
    jumps = ColourJumps.both_axes(lab_frame, mask_frame)
    found = []
    # Family 1 is vertical in the frame: its x positions carry the period along x; family 0 the y one.
    for axis, fam in ((0, located.families[1]), (1, located.families[0])):
        pos, length = positions_along(to_frame, fam.segments, axis)
        keep = (pos >= 0) & (pos < extent[axis])
        pos, weight = pos[keep], length[keep] ** 1.5  # long lines (card edges, rims) matter most
        profile = position_profile(pos, weight, max(8, int(np.ceil(extent[axis])) + 1), sigma=1.0)
        # At least min_across cells each way, and at most MAX_BLOCKS_ALONG along the card region.
        lo, hi = max(6.0, extent[axis] / MAX_BLOCKS_ALONG), extent[axis] / min_across
        period, strength = estimate_period(profile, lo, hi)
        # Line positions alone confuse the pitch with half of it (road edges) or a multiple (cards).
        scored = scored_periods(jumps[axis], period_candidates(profile, lo, hi, count=6), lo, hi, min_across)
        found.append((period, strength, scored))
    (px, sx, x_scored), (py, sy, y_scored) = found
    return Periods(frame, centre, ranked_pitches(x_scored, y_scored), (px, py), (sx, sy))


def rectify_city(
    located: Located,
    small: np.ndarray,
    *,
    periods: Periods | None = None,
    pitches: tuple[float, float] | None = None,
    cell_mm: tuple[float, float] = (BLOCK_W_MM, BLOCK_H_MM),
) -> Rectification:
    """The homography from the located photo ``small`` (RGB) to the top-down view (see the module note).

    ``periods`` are the measured :class:`Periods` (measured here when not given); ``pitches`` the pair of
    block periods (px, py) along the frame's axes to use instead of the best measured pair; ``cell_mm`` the
    cell's (width, height) in the top-down view (by default a Sprawlopolis block, landscape).
    Raises :class:`NoCityFound` when the lines show no block lattice (no clear period along an axis), and
    its :class:`~vision.lattice.bounds.TooManyCards` when the card region holds more cells than any
    game's lattice can, or shows more colours than a game's cards (:mod:`vision.lattice.bounds`).
    """
    periods = measure_periods(located, small) if periods is None else periods
    frame, centre = periods.frame, periods.centre
    px, py = periods.best if pitches is None else pitches
    sx, sy = periods.strength
    if not (np.isfinite(px) and np.isfinite(py)) or min(sx, sy) < MIN_PERIOD_STRENGTH:
        raise NoCityFound("no city found: the cards' edges do not repeat like a lattice of blocks")
    aspect = px / py
    turned = (aspect < 1.0) != (cell_mm[0] < cell_mm[1])
    if turned:
        # Quarter turn: the frame's y axis becomes the cell-width axis (x' = -y keeps orientation).
        quarter = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
        frame = quarter @ frame
        px, py = py, px
    scale = np.diag([PX_PER_MM * cell_mm[0] / px, PX_PER_MM * cell_mm[1] / py, 1.0])
    metric = scale @ frame
    # Of the two half-turns, keep the one whose x axis points most to the photo's right / down.
    inv = np.linalg.inv(metric)
    c = project_points(metric, np.array([centre]))[0]
    ex = project_points(inv, np.array([c, c + [10.0, 0.0], c + [0.0, 10.0]]))
    photo_x = ex[1] - ex[0]
    photo_y = ex[2] - ex[0]
    # Upright cities keep the photo's axes; for a quarter-turned one the tie-break reads the photo
    # turned clockwise (the photo's top becomes the rectified right).
    score = photo_x[0] + photo_y[1] + 0.5 * (photo_y[0] - photo_x[1])
    if score < 0:
        metric = np.diag([-1.0, -1.0, 1.0]) @ metric
    check_region(located.mask, metric, cell_mm, located.colours)  # a patterned surface, before any warp
    # Translate the city's bounding box to the margin.
    pts = np.argwhere(located.mask[::4, ::4] > 0)[:, ::-1].astype(np.float64) * 4
    mapped = project_points(metric, pts)
    lo, hi = mapped.min(axis=0), mapped.max(axis=0)
    margin = MARGIN_MM * PX_PER_MM
    size = (int(np.ceil(hi[0] - lo[0] + 2 * margin)), int(np.ceil(hi[1] - lo[1] + 2 * margin)))
    if max(size) > MAX_RECTIFIED_SIDE:
        raise NoCityFound("no city found: the lattice fitted to the photo is implausibly large")
    shift = np.array([[1.0, 0.0, margin - lo[0]], [0.0, 1.0, margin - lo[1]], [0.0, 0.0, 1.0]])
    return Rectification(shift @ metric, size, float(max(aspect, 1 / aspect)), float(min(sx, sy)), turned)


def warp(
    image: np.ndarray, homography: np.ndarray, size: tuple[int, int], *, nearest: bool = False
) -> np.ndarray:
    """Warp ``image`` with ``homography`` into an image of ``size`` (width, height)."""
    flags = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
    return cv2.warpPerspective(image, homography, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
