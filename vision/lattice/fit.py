"""The block lattice in a rectified (top-down) image, and how to fit it.

Rectified images are top-down views at :data:`PX_PER_MM` pixels per millimetre, turned so that blocks
are wider than tall (1.4 : 1), i.e. lattice rows run along the image x axis. The cell size is a parameter
(``cell_mm``): Circle the Wagons territories are the same rectangle stood upright (31.75 × 44.45 mm).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.lattice.offsets import drift_offsets, segment_axis
from vision.lattice.periods import ColourJumps, folded_peak, lab_within, position_profile, strong_periods

PX_PER_MM = 2.0
BLOCK_W_MM = 44.45
BLOCK_H_MM = 31.75
# How far the drift rounds look for card edges: a quarter block, short of the road edges 13 mm away.
DRIFT_SEARCH_MM = 8.0
# What perspective the rectification leaves changes the pitch from one cell to the next by a fraction of a
# percent (0.6 % on a rendered photo tilted 15°, the most seen); a boundary fit bending more than 2 × this
# (a pitch change of 0.8 % per cell) is bent by noise, and is bent only this much.
MAX_CURVATURE = 0.02
# Two peaks of the line positions' autocorrelation within the ±8 % window can nearly tie, a few percent
# apart (84 and 89 px on a rendered city whose blocks are 88.9 px, where 84 was wrong; 87 and 91 px on
# a real photo, where 87 was right): the lines alone cannot tell which is the city's, so a strong peak
# further than this share of the pitch from the one taken is kept as a rival for the reader to judge
# (:mod:`vision.city.arbitrate`).
RIVAL_APART = 0.02


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

    def centres(self) -> np.ndarray:
        """Every cell's centre (rows, cols, 2: x, y), offsets included, as :meth:`center` gives each.

        >>> Lattice((10.0, 20.0), 89.0, 63.5, 1, 2).centres()[0].tolist()
        [[54.5, 51.75], [143.5, 51.75]]
        """
        out = np.empty((self.rows, self.cols, 2))
        out[..., 0] = self.origin[0] + (np.arange(self.cols) + 0.5) * self.pitch_x
        out[..., 1] = (self.origin[1] + (np.arange(self.rows) + 0.5) * self.pitch_y)[:, None]
        if self.offsets is not None:
            out += self.offsets
        return out

    def core_box(
        self, row: int, col: int, share: float, shape: tuple[int, ...]
    ) -> tuple[int, int, int, int] | None:
        """Cell (row, col)'s central box (x0, y0, x1, y1), ``share`` of the pitch across, clipped to an image
        of ``shape``; None when none of it lies on the image.

        >>> Lattice((0.0, 0.0), 40.0, 30.0, 2, 2).core_box(0, 1, 0.5, (60, 80))
        (50, 7, 70, 22)
        """
        x, y = self.center(row, col)
        hx, hy = share * self.pitch_x / 2, share * self.pitch_y / 2
        h, w = shape[:2]
        box = (
            min(w, max(0, int(x - hx))), min(h, max(0, int(y - hy))),
            min(w, max(0, int(x + hx))), min(h, max(0, int(y + hy))),
        )  # fmt: skip
        return box if box[2] > box[0] and box[3] > box[1] else None

    def padded(self, top: int = 0, bottom: int = 0, left: int = 0, right: int = 0) -> Lattice:
        """The lattice with extra rows and columns on the given sides; a new cell takes the offset of the
        nearest old one (hand-placement shifts are shared by the blocks of a card).

        >>> Lattice((10.0, 20.0), 89.0, 63.5, 2, 3).padded(top=1, left=2).origin
        (-168.0, -43.5)
        """
        offsets = None
        if self.offsets is not None:
            offsets = np.pad(self.offsets, ((top, bottom), (left, right), (0, 0)), mode="edge")
        origin = (self.origin[0] - left * self.pitch_x, self.origin[1] - top * self.pitch_y)
        return Lattice(
            origin, self.pitch_x, self.pitch_y, self.rows + top + bottom, self.cols + left + right, offsets
        )


# --- Fitting ------------------------------------------------------------------------------------------
#
# Two kinds of evidence along each axis. Straight line positions (where card edges, block rims and road
# edges cross it, weighted by length) give the period precisely, but road edges sit 3 mm either side of a
# block's middle, so lines alone cannot tell boundaries from middles. Colour changes can: the four blocks
# of a card are four different zones, so the ground colour changes at block boundaries and not in a
# block's middle, whatever road runs there. The phase comes from colour, refined by nearby lines.


def occupied_cells(mask: np.ndarray, lattice: Lattice, threshold: float = 0.5) -> np.ndarray:
    """Boolean (rows, cols): cells whose central part is mostly inside the card mask."""
    out = np.zeros((lattice.rows, lattice.cols), bool)
    h, w = mask.shape
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            cx, cy = lattice.center(r, c)
            x0, x1 = int(cx - 0.35 * lattice.pitch_x), int(cx + 0.35 * lattice.pitch_x)
            y0, y1 = int(cy - 0.35 * lattice.pitch_y), int(cy + 0.35 * lattice.pitch_y)
            if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
                continue
            patch = mask[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
            full = (y1 - y0) * (x1 - x0)
            out[r, c] = full > 0 and np.count_nonzero(patch) >= threshold * full
    return out


@dataclass(frozen=True)
class LatticeFit:
    """A fitted lattice, which of its cells the card region covers, and how periodic the lines were.

    ``rivals`` are pitch pairs (x, y) in the view the lattice was fitted in that the lines support
    nearly as well as the lattice's own: its pitch with one axis's rival in place, an axis at a time.
    """

    lattice: Lattice
    occupied: np.ndarray  # bool (rows, cols)
    strength: tuple[float, float]  # periodicity along x and y, 0..1
    rivals: tuple[tuple[float, float], ...] = ()


def _axis_pitch(
    positions: np.ndarray, weights: np.ndarray, nominal: float, length: int
) -> tuple[float, float, float | None]:
    """(pitch, strength, rival) along one axis from the line positions, within ±8 % of ``nominal``: the
    shortest strong period (:func:`~vision.lattice.periods.strong_periods`), and the strongest other one
    at least :data:`RIVAL_APART` away from it (None when there is none)."""
    profile = position_profile(positions, weights, length, sigma=1.0)
    periods = strong_periods(profile, lo=0.92 * nominal, hi=1.08 * nominal)
    if not periods or periods[0][1] < 0.05:
        return nominal, max(periods[0][1], 0.0) if periods else 0.0, None
    pitch, strength = periods[0]
    others = [(lag, s) for lag, s in periods[1:] if abs(lag - pitch) > RIVAL_APART * pitch]
    return pitch, strength, max(others, key=lambda o: o[1])[0] if others else None


def _rival_pairs(
    pitch: tuple[float, float], rivals: tuple[float | None, float | None]
) -> tuple[tuple[float, float], ...]:
    """The pitch pair with one axis's rival in place of its own, for each axis that has one.

    >>> _rival_pairs((84.0, 63.5), (89.0, None))
    ((89.0, 63.5),)
    """
    pairs = []
    if rivals[0] is not None:
        pairs.append((rivals[0], pitch[1]))
    if rivals[1] is not None:
        pairs.append((pitch[0], rivals[1]))
    return tuple(pairs)


def _axis_phase(positions: np.ndarray, weights: np.ndarray, pitch: float, jumps: np.ndarray) -> float:
    """The lattice's phase along one axis of the rectified image at ``pitch``.

    It comes from the colour jumps (block boundaries change zone colour, block middles do not, whatever
    roads run there), then is refined to the mean position of the lines within 4 px of it: card edges
    and block rims.
    """
    # The jump profile is flat-topped over ``reach`` (a quarter pitch) around each boundary.
    phase = folded_peak(jumps, pitch, width=max(1, int(round(pitch / 4))))
    offset = (positions - phase + pitch / 2) % pitch - pitch / 2
    near = np.abs(offset) < 2.0 * PX_PER_MM
    if weights[near].sum() > 2 * pitch:  # enough edge length to trust: two blocks' worth
        phase = float((phase + np.average(offset[near], weights=weights[near])) % pitch)
    return phase


def _span(lo: float, hi: float, phase: float, pitch: float) -> tuple[float, int]:
    """The first boundary at or before ``lo`` (allowing a third of a cell of slack) and the cell count
    needed to reach ``hi`` likewise."""
    first = phase + np.floor((lo + 0.33 * pitch - phase) / pitch) * pitch
    count = int(np.ceil((hi - 0.33 * pitch - first) / pitch))
    return float(first), max(count, 0)


def _shrunk_quadratic(k: np.ndarray, found: np.ndarray, weights: np.ndarray, pitch: float) -> np.ndarray:
    """Coefficients (highest first) of a weighted quadratic through (k, found) whose curvature is shrunk
    towards none by ``c² / (c² + var c)``: kept where the points determine it, about none where it is
    within its own noise, and never more than :data:`MAX_CURVATURE` of the pitch. Ten boundaries or so
    often do not determine a curvature: unshrunk it came out with opposite signs for a devset photo and
    the photo turned by 180°. The shrinkage is smooth, so a photo moved by a pixel moves the boundaries
    by a fraction of one; the line is then refitted under the curvature kept."""
    w = np.sqrt(weights)
    if len(k) < 5:  # a curvature from fewer points has no variance to judge it by
        return np.r_[0.0, np.polyfit(k, found, 1, w=w)]
    coef, cov = np.polyfit(k, found, 2, w=w, cov="unscaled")
    residual = found - np.polyval(coef, k)
    var = float(cov[0, 0]) * float((weights * residual**2).sum()) / (len(k) - 3)
    c = float(coef[0]) * coef[0] ** 2 / (coef[0] ** 2 + var + 1e-12)
    c = float(np.clip(c, -MAX_CURVATURE * pitch, MAX_CURVATURE * pitch))
    return np.r_[c, np.polyfit(k, found - c * k**2, 1, w=w)]


def boundary_positions(jumps: np.ndarray, first: float, pitch: float, count: int) -> np.ndarray:
    """Where the ``count + 1`` boundaries ``first + k * pitch`` really lie along one axis.

    Each inner boundary is found as the centre of the colour-jump peak within a quarter pitch of where
    the uniform lattice puts it (the outer two lie on the city's outline, where the jumps compare a
    block with the masked table; they pulled the fit and moved whole outer rows by up to 9 mm between a
    devset photo and the photo turned). A weighted quadratic in ``k`` through those centres absorbs a
    slightly wrong pitch and what perspective the rectification left, its curvature shrunk by how well
    the boundaries determine it (:func:`_shrunk_quadratic`). Falls back to the uniform positions when
    fewer than three
    inner boundaries are found or the fit changes the spacing by more than 10%.
    """
    uniform = first + pitch * np.arange(count + 1)
    ks, found, weights = [], [], []
    for k, b in enumerate(uniform):
        lo, hi = int(b - 0.25 * pitch), int(b + 0.25 * pitch) + 1
        if lo < 0 or hi > len(jumps) or k in (0, count):
            continue
        seg = jumps[lo:hi]
        top = seg - seg.min()
        if top.max() <= 0:
            continue
        top = np.where(top >= 0.5 * top.max(), top, 0.0)  # the flat top of the peak
        ks.append(k)
        found.append(lo + float((np.arange(len(seg)) * top).sum() / top.sum()))
        weights.append(float(seg.max()))
    if len(ks) < 3:
        return uniform
    k_arr, f_arr, w_arr = np.array(ks, float), np.array(found), np.array(weights)
    keep = np.ones(len(ks), bool)
    for _ in range(2):  # one round of dropping boundaries that disagree with the rest
        coef = _shrunk_quadratic(k_arr[keep], f_arr[keep], w_arr[keep], pitch)
        keep = np.abs(np.polyval(coef, k_arr) - f_arr) < 0.12 * pitch
        if keep.sum() < 3:
            return uniform
    fitted = np.polyval(coef, np.arange(count + 1))
    spacing = np.diff(fitted)
    if len(spacing) and (spacing.min() < 0.9 * pitch or spacing.max() > 1.1 * pitch):
        return uniform
    return fitted


def fit_lattice(
    rectified: np.ndarray,
    vertical: np.ndarray,
    horizontal: np.ndarray,
    mask: np.ndarray,
    *,
    refine_offsets: bool = True,
    cell_mm: tuple[float, float] = (BLOCK_W_MM, BLOCK_H_MM),
    boundaries: bool = True,
    pitch: tuple[float, float] | None = None,
) -> LatticeFit:
    """Fit the block lattice to a rectified city.

    ``rectified`` is the top-down RGB view; ``vertical`` and ``horizontal`` are line segments (N × 4:
    x1, y1, x2, y2) in it, running along its y and x axes; ``mask`` is the card region there (uint8,
    0/255). Pitch is refined within ±8% of the nominal cell size ``cell_mm`` (width, height; by default
    a Sprawlopolis block) at :data:`PX_PER_MM` (:func:`_axis_pitch`), the phase comes from colour
    changes and edges (:func:`_axis_phase`), the extent from the mask; per-cell offsets follow a smooth
    drift across the city and absorb hand placement of up to 4 mm
    (:func:`vision.lattice.offsets.drift_offsets`). Without ``boundaries`` the rows and columns are not
    moved to the colour-jump boundaries found (:func:`boundary_positions`): on art whose cells hold
    strong colour edges of their own (the pale ovals under Circle the Wagons icons) those pull the rows
    apart. A ``pitch`` (x, y) given is taken instead of the one measured (one of a fit's ``rivals``), and
    the fit then has none.
    """
    h, w = mask.shape
    # The mask's extent from its row and column projections (the pixels' coordinates are not needed).
    xs, ys = np.flatnonzero(mask.any(axis=0)), np.flatnonzero(mask.any(axis=1))
    if len(xs) == 0:
        raise ValueError("empty card mask")
    pos_x, _, wx = segment_axis(vertical, 0) if len(vertical) else (np.zeros(0),) * 3
    pos_y, _, wy = segment_axis(horizontal, 1) if len(horizontal) else (np.zeros(0),) * 3
    # Lab only where the card region is (the colour jumps read nothing else): its bounding box.
    lab = lab_within(rectified, slice(int(ys[0]), int(ys[-1]) + 1), slice(int(xs[0]), int(xs[-1]) + 1))
    nominal_x, nominal_y = PX_PER_MM * cell_mm[0], PX_PER_MM * cell_mm[1]
    along_x, along_y = ColourJumps.both_axes(lab, mask)
    jumps_x = along_x.profile(int(round(nominal_x / 4)))
    jumps_y = along_y.profile(int(round(nominal_y / 4)))
    pitch_x, strength_x, rival_x = _axis_pitch(pos_x, wx**1.5, nominal_x, w)
    pitch_y, strength_y, rival_y = _axis_pitch(pos_y, wy**1.5, nominal_y, h)
    rivals = _rival_pairs((pitch_x, pitch_y), (rival_x, rival_y))
    if pitch is not None:
        (pitch_x, pitch_y), rivals = pitch, ()
    phase_x = _axis_phase(pos_x, wx**1.5, pitch_x, jumps_x)
    phase_y = _axis_phase(pos_y, wy**1.5, pitch_y, jumps_y)
    x0, cols = _span(float(xs.min()), float(xs.max()) + 1, phase_x, pitch_x)
    y0, rows = _span(float(ys.min()), float(ys.max()) + 1, phase_y, pitch_y)
    lattice, occupied = _trimmed(Lattice((x0, y0), pitch_x, pitch_y, max(rows, 1), max(cols, 1)), mask)
    if boundaries:
        lattice = _with_boundaries(lattice, jumps_x, jumps_y)
    if refine_offsets:
        offsets = drift_offsets(
            lattice, vertical, horizontal, max_shift=4.0 * PX_PER_MM, search=DRIFT_SEARCH_MM * PX_PER_MM
        )
        lattice = Lattice(lattice.origin, pitch_x, pitch_y, lattice.rows, lattice.cols, offsets)
    return LatticeFit(lattice, occupied, (strength_x, strength_y), rivals)


def _trimmed(lattice: Lattice, mask: np.ndarray) -> tuple[Lattice, np.ndarray]:
    """The lattice cut down to the rows and columns the card region occupies, and which cells it does."""
    occupied = occupied_cells(mask, lattice)
    if not occupied.any():
        return lattice, occupied
    rr, cc = np.nonzero(occupied)
    r0, c0 = rr.min(), cc.min()
    (x0, y0), pitch_x, pitch_y = lattice.origin, lattice.pitch_x, lattice.pitch_y
    trimmed = Lattice(
        (x0 + c0 * pitch_x, y0 + r0 * pitch_y),
        pitch_x,
        pitch_y,
        int(rr.max() - r0 + 1),
        int(cc.max() - c0 + 1),
    )
    return trimmed, occupied[r0 : rr.max() + 1, c0 : cc.max() + 1]


def _with_boundaries(lattice: Lattice, jumps_x: np.ndarray, jumps_y: np.ndarray) -> Lattice:
    """Column and row centres from the boundaries actually found, as offsets from the uniform lattice."""
    pitch_x, pitch_y = lattice.pitch_x, lattice.pitch_y
    bx = boundary_positions(jumps_x, lattice.origin[0], pitch_x, lattice.cols)
    by = boundary_positions(jumps_y, lattice.origin[1], pitch_y, lattice.rows)
    offsets = np.zeros((lattice.rows, lattice.cols, 2))
    centre_x = lattice.origin[0] + (np.arange(lattice.cols) + 0.5) * pitch_x
    centre_y = lattice.origin[1] + (np.arange(lattice.rows) + 0.5) * pitch_y
    offsets[:, :, 0] = ((bx[:-1] + bx[1:]) / 2 - centre_x)[None, :]
    offsets[:, :, 1] = ((by[:-1] + by[1:]) / 2 - centre_y)[:, None]
    return Lattice(lattice.origin, pitch_x, pitch_y, lattice.rows, lattice.cols, offsets)
