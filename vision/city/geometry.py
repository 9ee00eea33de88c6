"""The city's geometry in one photo: the top-down view, the lattice on it, and which cells count.

:func:`rectified_plane` rectifies the photo for one pair of block periods and :func:`geometry_on` fits the
lattice there (:mod:`vision.lattice.rectify`, :mod:`vision.lattice.fit`);
:func:`with_lattice` moves a geometry to another lattice on the same plane (warping the view again only
when the lattice reaches beyond it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np

from vision.cells import CellReading, Grid, TopDown, lattice_box
from vision.city.table_pattern import PATTERN_MATCH, pattern_match, table_patches
from vision.city.veil import lift_veil
from vision.lattice import (
    BLOCK_H_MM,
    BLOCK_W_MM,
    LOCATE_LONG_SIDE,
    PX_PER_MM,
    GridWords,
    Lattice,
    LatticeFit,
    Located,
    NoCityFound,
    Periods,
    Rectification,
    border_band,
    colour_clusters,
    fit_lattice,
    framing_warnings,
    project_points,
    rectify_city,
    warp,
)
from vision.photo import fit_long_side
from vision.runtime import Stages

__all__ = [
    "Geometry",
    "Plane",
    "TopDown",
    "geometry_on",
    "rectified_plane",
    "small_copy",
    "with_lattice",
]

CITY_WORDS = GridWords("city", "blocks")  # how the framing warnings name a city
# Fewer blocks than this cannot be a finished city worth scoring (and are likely a misdetection).
MIN_BLOCKS = 8
# Cells off the card region are read too, but there the classifier must be at least this sure that the
# cell holds a card (a block or Wrecktar), whichever block it is (the card region misses blocks on tables
# close in colour to them, and blocks there are often dim; see models/MODEL_CARD.md for how it was set).
RING_CONFIDENCE = 0.7
# ... and not be a cell of the table in disguise: one whose label the classifier is unsure of (under
# RING_UNSURE) while at least RING_TABLE_SHARE of its core has the table's own colours (within
# RING_TABLE_DISTANCE in Lab of one of them) is the table's pattern (a red check cloth's squares read as
# residential blocks), which would otherwise grow the city cell by cell to the photo's edge. Measured on
# such cells beyond the card region: a check cloth's median 0.36 sure, 0.79 table-coloured; the devset's
# blocks there at least 0.38 sure and at most 0.72 table-coloured, none both; rendered everyday tables'
# 10 of 171 both.
RING_UNSURE = 0.6
RING_TABLE_SHARE = 0.7
RING_TABLE_DISTANCE = 18.0
# The table's colours are taken from the photo's border band off the card region (widened by
# TABLE_MARGIN px of its mask) at the working copy's resolution, in up to TABLE_CLUSTERS clusters of at
# least TABLE_LEAST of the band each: on the reduced copy the card region is found on, a patterned cloth's
# purest colours (a check's full red squares) blur into its mixes.
TABLE_MARGIN = 7
TABLE_CLUSTERS = 5
TABLE_LEAST = 0.08
# The central share of a cell compared with the table's colours.
CELL_CORE = 0.8
# The pitch measured in the top-down view corrects the vanishing-point scale when they differ by more.
RESCALE_ABOVE = 0.01


@dataclass(frozen=True)
class Geometry:
    """Everything the geometric stages found in one photo.

    ``photo`` is the working copy (upright RGB); ``view`` the top-down view it maps to; ``fit.lattice``
    covers the card region and ``lattice`` is that lattice grown by one ring of cells (or more, see
    :func:`vision.city.rereads.grow_to_blocks`); ``occupied`` marks ``lattice`` cells inside the card region
    and ``visible`` those the photo shows whole (cells cut by its edge cannot be read).
    """

    photo: np.ndarray
    located: Located
    rectification: Rectification
    view: TopDown
    fit: LatticeFit
    lattice: Lattice
    occupied: np.ndarray
    visible: np.ndarray
    warnings: tuple[str, ...] = ()
    # The table's colours (Lab, K × 3) at the working copy's resolution (:func:`fine_table_colours`).
    table_lab: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    # Patches of the table far from the cards, on the view's scale (:mod:`vision.city.table_pattern`), and
    # each cell's match with them found so far, by the cell's centre in the photo (the view may move).
    table_patches: tuple[np.ndarray, ...] = ()
    matched: dict[tuple[int, int], float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def to_rectified(self) -> np.ndarray:
        return self.view.to_rectified

    @property
    def rectified(self) -> np.ndarray:
        return self.view.image

    def counts(self, readings: Grid) -> np.ndarray:
        """Which cells' readings count, (rows, cols) bool: the cell is visible, and on the card region or
        (off it) read as holding a card at least :data:`RING_CONFIDENCE` surely."""
        out = np.zeros((self.lattice.rows, self.lattice.cols), bool)
        for r, row in enumerate(readings):
            for c, reading in enumerate(row):
                out[r, c] = self._counts(reading, r, c)
        return out

    def holds_card(self, readings: Grid) -> np.ndarray:
        """Cells whose reading counts and holds a card (a block or Wrecktar)."""
        kinds = np.array([[rd.kind != "empty" for rd in row] for row in readings], bool)
        return kinds.reshape(self.lattice.rows, self.lattice.cols) & self.counts(readings)

    def outline_in_photo(self, lattice: Lattice, r: int, c: int, half: float) -> np.ndarray:
        """The box ``half`` a pitch each way round cell (r, c) of ``lattice`` (on this view's plane), as a
        (4, 2) polygon in the photo's pixels."""
        x, y = lattice.center(r, c)
        hx, hy = half * lattice.pitch_x, half * lattice.pitch_y
        corners = np.array([[x - hx, y - hy], [x + hx, y - hy], [x + hx, y + hy], [x - hx, y + hy]])
        return project_points(np.linalg.inv(self.to_rectified), corners)

    def outline_on_mask(self, lattice: Lattice, r: int, c: int, half: float) -> np.ndarray:
        """:meth:`outline_in_photo` in the pixels of the card region's mask (``located.mask``, a reduced
        copy)."""
        mask_h, mask_w = self.located.mask.shape[:2]
        scale = np.array([mask_w / self.photo.shape[1], mask_h / self.photo.shape[0]])
        return self.outline_in_photo(lattice, r, c, half) * scale

    def _counts(self, reading: CellReading, r: int, c: int) -> bool:
        if not self.visible[r, c]:
            return False
        if self.occupied[r, c]:
            return True
        if reading.kind == "empty" or reading.card_probability < RING_CONFIDENCE:
            return False
        if reading.confidence < RING_UNSURE and self.table_share(r, c) >= RING_TABLE_SHARE:
            return False
        return not self.shows_table_pattern(r, c)

    def shows_table_pattern(self, r: int, c: int) -> bool:
        """Whether cell (r, c), off the card region, shows the table's own pattern (a check cloth's
        squares, which the classifier can read as blocks surely): :mod:`vision.city.table_pattern`."""
        if self.occupied[r, c] or not self.table_patches:
            return False
        centre = project_points(np.linalg.inv(self.to_rectified), np.array([self.lattice.center(r, c)]))[0]
        key = (round(float(centre[0])), round(float(centre[1])))
        if key not in self.matched:
            self.matched[key] = pattern_match(self.table_patches, self.rectified, self.lattice, r, c)
        return self.matched[key] >= PATTERN_MATCH

    def table_share(self, r: int, c: int) -> float:
        """The share of cell (r, c)'s core (:data:`CELL_CORE` of the pitch) in the table's own colours."""
        box = self.lattice.core_box(r, c, CELL_CORE, self.rectified.shape)
        if box is None or len(self.table_lab) == 0:
            return 0.0
        x0, y0, x1, y1 = box
        crop = np.ascontiguousarray(self.rectified[y0:y1, x0:x1])
        if crop.size == 0:
            return 0.0
        lab = cv2.cvtColor(crop, cv2.COLOR_RGB2LAB).reshape(-1, 1, 3).astype(np.float32)
        nearest = np.linalg.norm(lab - self.table_lab[None], axis=2).min(axis=1)
        return float((nearest <= RING_TABLE_DISTANCE).mean())


def small_copy(photo: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo at most :data:`vision.lattice.locate.LOCATE_LONG_SIDE` px on its long side, and its scale."""
    return fit_long_side(photo, LOCATE_LONG_SIDE)


def segments_in_frame(h: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map segments (N × 4) through ``h`` and split them into (vertical, horizontal) ones within 6° of the
    axes."""
    if len(seg) == 0:
        return np.zeros((0, 4)), np.zeros((0, 4))
    mapped = project_points(h, seg.reshape(-1, 2).astype(np.float64)).reshape(-1, 4)
    angle = np.degrees(np.arctan2(mapped[:, 3] - mapped[:, 1], mapped[:, 2] - mapped[:, 0])) % 180
    vertical = np.abs(angle - 90) < 6
    horizontal = np.minimum(angle, 180 - angle) < 6
    return mapped[vertical], mapped[horizontal]


def inside_frame(lattice: Lattice, to_photo: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Cells whose central 80 % maps inside the photo, (rows, cols) bool."""
    centres = lattice.centres().reshape(-1, 2)
    half = np.array([0.4 * lattice.pitch_x, 0.4 * lattice.pitch_y])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * half
    pts = (centres[:, None, :] + corners[None]).reshape(-1, 2)
    xy, in_front = project_points(to_photo, pts, in_front=True)
    h, w = shape[:2]
    ok = in_front & (xy >= 0).all(axis=1) & (xy[:, 0] < w) & (xy[:, 1] < h)
    return ok.reshape(-1, 4).all(axis=1).reshape(lattice.rows, lattice.cols)


def _scaled(lattice: Lattice, sx: float, sy: float) -> Lattice:
    """The same lattice in an image scaled by (sx, sy)."""
    offsets = None if lattice.offsets is None else lattice.offsets * np.array([sx, sy])
    origin = (lattice.origin[0] * sx, lattice.origin[1] * sy)
    return Lattice(origin, lattice.pitch_x * sx, lattice.pitch_y * sy, lattice.rows, lattice.cols, offsets)


@dataclass(frozen=True)
class Plane:
    """A photo rectified for one pair of block periods, before a lattice is fitted there: what every
    lattice fitted on it shares (the first pitch and its rivals, :mod:`vision.city.arbitrate`).

    ``rectification`` maps the located small copy to ``rectified`` (the top-down view of ``photo``) and
    ``to_rectified`` the photo to it; ``mask`` is the card region and ``vertical`` and ``horizontal`` are
    the line segments, in the view."""

    photo: np.ndarray
    located: Located
    rectification: Rectification
    to_rectified: np.ndarray
    rectified: np.ndarray
    mask: np.ndarray
    vertical: np.ndarray
    horizontal: np.ndarray

    @cached_property
    def table_lab(self) -> np.ndarray:
        """The table's colours (:func:`fine_table_colours`), found once a lattice is fitted here."""
        return fine_table_colours(self.photo, self.located.mask)


def rectified_plane(
    photo: np.ndarray,
    small: np.ndarray,
    located: Located,
    periods: Periods,
    pitches: tuple[float, float],
    stages: Stages | None = None,
) -> Plane:
    """Rectify with one pair of block periods (``pitches``, along ``periods.frame``'s axes); ``located``
    and ``periods`` were found on ``small``, a reduced copy of ``photo``. ``stages`` times the ``rectify``
    stage (none: untimed)."""
    stages = Stages() if stages is None else stages
    scale = small.shape[1] / photo.shape[1]
    with stages("rectify"):
        rect = rectify_city(located, small, periods=periods, pitches=pitches)
        to_rectified = rect.for_scale(1.0 / scale) if scale < 1.0 else rect.homography
        rectified = warp(photo, to_rectified, rect.size)
        mask = warp(located.mask, rect.homography, rect.size, nearest=True)
        vertical, horizontal = segments_in_frame(rect.homography, located.segments)
    return Plane(photo, located, rect, to_rectified, rectified, mask, vertical, horizontal)


def geometry_on(
    plane: Plane, stages: Stages | None = None, lattice_pitch: tuple[float, float] | None = None
) -> Geometry:
    """Fit the lattice on a rectified ``plane`` (at ``lattice_pitch`` in its view when given: one of the
    ``rivals`` of a fit on the same plane, which stay in the view as fitted when the lattice is
    rescaled). Raises :class:`~vision.lattice.locate.NoCityFound` when the result is not a plausible
    city. ``stages`` times the ``lattice`` stage (none: untimed)."""
    stages = Stages() if stages is None else stages
    photo, located = plane.photo, plane.located
    rect, to_rectified, rectified = plane.rectification, plane.to_rectified, plane.rectified
    with stages("lattice"):
        fit = fit_lattice(rectified, plane.vertical, plane.horizontal, plane.mask, pitch=lattice_pitch)
        sx = PX_PER_MM * BLOCK_W_MM / fit.lattice.pitch_x
        sy = PX_PER_MM * BLOCK_H_MM / fit.lattice.pitch_y
        if max(abs(sx - 1), abs(sy - 1)) > RESCALE_ABOVE:
            rescale = np.diag([sx, sy, 1.0])
            size = (int(np.ceil(rect.size[0] * sx)), int(np.ceil(rect.size[1] * sy)))
            rect = replace(rect, homography=rescale @ rect.homography, size=size)
            to_rectified = rescale @ to_rectified
            rectified = warp(photo, to_rectified, size)
            fit = replace(fit, lattice=_scaled(fit.lattice, sx, sy))
    n_cells = int(fit.occupied.sum())
    if n_cells < MIN_BLOCKS:
        raise NoCityFound(
            f"no city found: only {n_cells} block-sized card area{'s' * (n_cells != 1)} in the photo "
            f"(a city to score has at least {MIN_BLOCKS})"
        )
    lattice = fit.lattice.padded(1, 1, 1, 1)
    view = TopDown(lift_veil(rectified, fit.lattice, fit.occupied).image, to_rectified, lattice_box(lattice))
    visible = inside_frame(lattice, np.linalg.inv(to_rectified), photo.shape)
    return Geometry(
        photo,
        located,
        rect,
        view,
        fit,
        lattice,
        np.pad(fit.occupied, 1),
        visible,
        framing_warnings(located.touches_border, rect.aspect, CITY_WORDS),
        plane.table_lab,
        # Only a table that repeats a pattern has one to match (a textured table's patches could match a
        # block washed by glare: the devset's glare perturbation).
        table_patches(photo, to_rectified, located.mask, (lattice.pitch_x, lattice.pitch_y))
        if located.patterned
        else (),
    )


def fine_table_colours(photo: np.ndarray, region: np.ndarray) -> np.ndarray:
    """The table's colours (Lab, K × 3 float32) in ``photo``'s border band off the card ``region`` (a
    reduced mask, widened by :data:`TABLE_MARGIN` px), at the photo's own resolution."""
    h, w = photo.shape[:2]
    near = cv2.dilate(region, np.ones((2 * TABLE_MARGIN + 1, 2 * TABLE_MARGIN + 1), np.uint8))
    off = (cv2.resize(near, (w, h), interpolation=cv2.INTER_NEAREST) == 0).astype(np.uint8)
    band = max(4, min(h, w) // 25)
    lab = cv2.cvtColor(photo, cv2.COLOR_RGB2LAB)
    pixels = border_band(lab, band)[border_band(off, band)[:, 0] > 0]
    return colour_clusters(pixels, TABLE_CLUSTERS, TABLE_LEAST)


def with_lattice(geometry: Geometry, lattice: Lattice, occupied: np.ndarray) -> Geometry:
    """``geometry`` with another lattice on the same plane (and its card-region cells ``occupied``); the
    top-down view is warped again, shifted and larger, when the lattice reaches beyond it."""
    h, w = geometry.rectified.shape[:2]
    x0, y0 = lattice.origin
    x1, y1 = x0 + lattice.cols * lattice.pitch_x, y0 + lattice.rows * lattice.pitch_y
    if lattice.offsets is not None and lattice.offsets.size:
        x0 += min(0.0, float(lattice.offsets[..., 0].min()))
        y0 += min(0.0, float(lattice.offsets[..., 1].min()))
        x1 += max(0.0, float(lattice.offsets[..., 0].max()))
        y1 += max(0.0, float(lattice.offsets[..., 1].max()))
    margin_x, margin_y = 0.5 * lattice.pitch_x, 0.5 * lattice.pitch_y  # room for the crops' context
    dx, dy = int(np.ceil(max(0.0, margin_x - x0))), int(np.ceil(max(0.0, margin_y - y0)))
    size = (max(w + dx, int(np.ceil(x1 + margin_x)) + dx), max(h + dy, int(np.ceil(y1 + margin_y)) + dy))
    rect, to_rectified, rectified = geometry.rectification, geometry.to_rectified, geometry.rectified
    if dx or dy or size != (w, h):
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
        rect = replace(rect, homography=shift @ rect.homography, size=size)
        to_rectified = shift @ to_rectified
        lattice = replace(lattice, origin=(lattice.origin[0] + dx, lattice.origin[1] + dy))
        rectified = lift_veil(warp(geometry.photo, to_rectified, size), lattice, occupied).image
    view = TopDown(rectified, to_rectified, lattice_box(lattice), geometry.view.zone_map)
    visible = inside_frame(lattice, np.linalg.inv(to_rectified), geometry.photo.shape)
    return replace(
        geometry, rectification=rect, view=view, lattice=lattice, occupied=occupied, visible=visible
    )


def px_per_mm(geometry: Geometry) -> float:
    """The photo's scale (px per mm) at the middle of the city, from the map to the top-down view."""
    ys, xs = np.nonzero(geometry.located.mask)
    mask_h, mask_w = geometry.located.mask.shape[:2]
    h, w = geometry.photo.shape[:2]
    centre = (
        np.array([xs.mean() * w / mask_w, ys.mean() * h / mask_h]) if len(xs) else np.array([w / 2, h / 2])
    )
    pts = np.array([centre, centre + (1.0, 0.0), centre + (0.0, 1.0)])
    mapped = project_points(geometry.to_rectified, pts)
    jacobian = np.stack([mapped[1] - mapped[0], mapped[2] - mapped[0]], axis=1)
    return PX_PER_MM / float(np.sqrt(abs(np.linalg.det(jacobian))))
