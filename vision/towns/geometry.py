"""Where a Circle the Wagons town lies in a photo: the top-down view and its lattice of portrait cells.

The cards, their quadrants and the way they snap together are Sprawlopolis's, so the Sprawlopolis stages
do the work (:mod:`vision.lattice`: locate, measure the periods, rectify, fit) with the cell stood upright:
a territory is :data:`CELL_MM` (31.75 × 44.45 mm, taller than wide when its icon is upright). The
rectification keeps the photo's own up direction among the two portrait turns; which of those two shows
the icons upright is left to the reading (:meth:`TownGeometry.turned` gives the other one).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from vision.city import segments_in_frame, small_copy
from vision.city.geometry import inside_frame
from vision.lattice import (
    BLOCK_H_MM,
    BLOCK_W_MM,
    MIN_PERIOD_STRENGTH,
    PX_PER_MM,
    GridWords,
    Lattice,
    LatticeFit,
    Located,
    NoCityFound,
    Periods,
    TooManyCards,
    fit_lattice,
    framing_warnings,
    locate_city,
    measure_periods,
    rectify_city,
    region_cells,
    warp,
)
from vision.towns.remeasure import on_edges, view_periods

__all__ = [
    "CELL_MM",
    "MAX_TOWN_CELLS",
    "MIN_TERRITORIES",
    "RING",
    "WIDE_RING",
    "TownGeometry",
    "as_town",
    "locate_town",
    "town_geometry",
]

#: A territory in the top-down view, (width, height) mm: a Sprawlopolis block stood upright.
CELL_MM = (BLOCK_H_MM, BLOCK_W_MM)
# The lattice covers the card region grown by this many rings of cells; a reader of a taught print grows it
# by WIDE_RING: a whole card (two cells across) whose colours are the table's (blue territories on a blue
# cloth, white ones on a white table) lies outside the region found by colour, and only a reader that
# knows the print can tell it from the table.
TOWN_WORDS = GridWords("town", "territories", upright=True)  # territories stand upright: 1 : 1.4
RING = 1
WIDE_RING = 2
#: Fewer card-covered cells than one card's four cannot be a town.
MIN_TERRITORIES = 4
#: A card region of more cells than the 18 cards' 72 territories (a quarter more for its ragged edge) at a
#: pair of periods is no town at that pitch: refused before its view is warped, fitted or read (the scan
#: and game detection try several pairs; on a patterned surface each would cost a town's reading; issue 39).
MAX_TOWN_CELLS = 90
# A town may be one row of cards, two cells across, whose colour jumps the card outline's rim and the
# smoothing leave about 1.6 periods long (seen on a rendered strip of 8 cards): where a city's bounds
# (three cells across) find no clear period, the periods are measured again admitting 1.5 cells across,
# well short of a card's period (two cells). Not always: on wider towns it let a half period win.
MIN_CELLS_ACROSS = 1.5
# The pitch measured in the top-down view corrects the vanishing-point scale when they differ by more
# (as for a city, vision.city.geometry).
RESCALE_ABOVE = 0.01
# A cell period measured again in the first view (vision.towns.remeasure) that differs from the nominal
# one by less than this is left to the fit.
REMEASURE_ABOVE = 0.03


@dataclass(frozen=True)
class TownGeometry:
    """The town's geometry in one photo.

    ``view`` is the top-down RGB view at :data:`~vision.lattice.PX_PER_MM` with portrait cells,
    ``to_view`` the homography from ``photo`` pixels to it; ``lattice`` covers the card region grown by
    one ring of cells, and ``occupied`` marks its cells on the card region that the photo shows whole
    (their central 80 %, as a city's ``visible``: beyond the photo's edge the view repeats the edge's
    pixels, which no card explains); ``aspect`` is the measured
    ratio of the cell periods (about 1.4 on a right fit), ``half_turned`` whether this is the view turned
    by 180° from the one the rectification chose; ``table_lab`` the table's colours the cards were found
    against (:attr:`vision.lattice.Located.table_lab`, Lab float32 one a row; none: not known).
    """

    photo: np.ndarray
    view: np.ndarray
    to_view: np.ndarray
    lattice: Lattice
    occupied: np.ndarray
    aspect: float
    warnings: tuple[str, ...] = ()
    half_turned: bool = False
    table_lab: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))

    @property
    def pitch_mm(self) -> tuple[float, float]:
        """The pitch (x, y) in mm of the top-down view that the card region's cells follow, offsets
        included."""
        px, py = _drawn_pitch(self.lattice, self.occupied)
        return px / PX_PER_MM, py / PX_PER_MM

    def turned(self) -> TownGeometry:
        """The same geometry with the view turned by 180° (cell (r, c) becomes (rows-1-r, cols-1-c))."""
        h, w = self.view.shape[:2]
        half = np.array([[-1.0, 0.0, w - 1.0], [0.0, -1.0, h - 1.0], [0.0, 0.0, 1.0]])
        lat = self.lattice
        origin = (
            w - 1.0 - lat.origin[0] - lat.cols * lat.pitch_x,
            h - 1.0 - lat.origin[1] - lat.rows * lat.pitch_y,
        )
        offsets = None if lat.offsets is None else -lat.offsets[::-1, ::-1].copy()
        lattice = Lattice(origin, lat.pitch_x, lat.pitch_y, lat.rows, lat.cols, offsets)
        return replace(
            self,
            view=np.ascontiguousarray(cv2.rotate(self.view, cv2.ROTATE_180)),
            to_view=half @ self.to_view,
            lattice=lattice,
            occupied=self.occupied[::-1, ::-1].copy(),
            half_turned=not self.half_turned,
        )


class FoundCards(NamedTuple):
    """A group of cards found in a photo: the ``small`` copy they were found on, the card region
    (``located``) and the cells' ``periods``."""

    small: np.ndarray
    located: Located
    periods: Periods


def locate_town(photo: np.ndarray, rank: int = 0) -> FoundCards:
    """The small copy of ``photo``, the cards found on it (in its ``rank``-th largest card-like region)
    and their periods (:mod:`vision.lattice`)."""
    small, _ = small_copy(photo)
    try:
        located = locate_city(small, rank=rank)
    except NoCityFound as exc:
        raise as_town(exc) from None
    periods = measure_periods(located, small)
    if not (periods.ranked and min(periods.strength) >= MIN_PERIOD_STRENGTH):
        # The edges repeat too weakly for a region three cells across: a town may be one row of cards.
        strip = measure_periods(located, small, min_across=MIN_CELLS_ACROSS)
        better = strip.ranked and min(strip.strength) > min(periods.strength)
        periods = strip if better or not periods.ranked else periods
    _refuse_pattern(located, small, periods)
    return FoundCards(small, located, periods)


def _refuse_pattern(located: Located, small: np.ndarray, periods: Periods) -> None:
    """Raise :class:`~vision.lattice.TooManyCards` when the best periods' lattice holds more cells than
    any town can (a tiled or patterned surface): refused here, before the many lattices a town scan may
    fit (every period pair, each both ways, and the pairs that divide the region) are fitted and read."""
    try:
        rectify_city(located, small, periods=periods, cell_mm=CELL_MM)
    except TooManyCards:
        raise
    except NoCityFound:  # no lattice at the best periods: the fits that follow say so as before
        pass


def as_town(exc: NoCityFound) -> NoCityFound:
    """The Sprawlopolis stages' refusal said of a town (a :class:`~vision.lattice.TooManyCards` already
    speaks of both games and is kept as it is)."""
    if isinstance(exc, TooManyCards):
        return exc
    text = str(exc).replace("Sprawlopolis cards", "cards").replace("blocks", "territories")
    return NoCityFound(text.replace("city", "town"))


def _fit(
    photo: np.ndarray,
    located: Located,
    to_small_view: np.ndarray,
    size: tuple[int, int],
    scale: float,
    follow: bool,
) -> tuple[np.ndarray, np.ndarray, LatticeFit, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The top-down view of ``photo`` through ``to_small_view`` (from the located small copy, ``scale``
    times the photo's size), the homography from the photo to it, the lattice fitted there (with
    ``follow``, its rows and columns moved to the boundaries and edges found) and what it was fitted to
    (the card region's mask, the vertical and the horizontal segments in the view)."""
    to_view = to_small_view @ np.diag([scale, scale, 1.0])
    view = warp(photo, to_view, size)
    mask = warp(located.mask, to_small_view, size, nearest=True)
    vertical, horizontal = segments_in_frame(to_small_view, located.segments)
    fit = fit_lattice(
        view, vertical, horizontal, mask, cell_mm=CELL_MM, boundaries=follow, refine_offsets=follow
    )
    if not follow:  # the uniform lattice's phase from the card edges (vision.towns.remeasure)
        lattice, occupied = on_edges(fit.lattice, mask, vertical, horizontal)
        fit = replace(fit, lattice=lattice, occupied=occupied)
    return view, to_view, fit, (mask, vertical, horizontal)


def _drawn_pitch(lattice: Lattice, occupied: np.ndarray) -> tuple[float, float]:
    """The pitch (x, y) the card region's cell centres follow, offsets included: the fit keeps its pitch
    within 8 % of the nominal one and lets the per-cell offsets absorb the rest, which a tilted photo's
    imperfect metric scale can exceed (the offsets then drift steadily across the town)."""
    centres = lattice.centres()
    rows, cols = np.nonzero(occupied)
    px = float(np.polyfit(cols, centres[rows, cols, 0], 1)[0]) if len(set(cols)) > 1 else lattice.pitch_x
    py = float(np.polyfit(rows, centres[rows, cols, 1], 1)[0]) if len(set(rows)) > 1 else lattice.pitch_y
    return px, py


def town_geometry(
    photo: np.ndarray,
    found: FoundCards | None = None,
    pitches: tuple[float, float] | None = None,
    *,
    follow: bool = False,
    remeasure: bool = False,
    ring: int = RING,
) -> TownGeometry:
    """Rectify an upright RGB photo with portrait cells and fit the territory lattice.

    ``found`` is what :func:`locate_town` found on it (found here when not given) and ``pitches`` a pair
    of periods to use instead of the best measured one (see :meth:`vision.lattice.Periods.hypotheses`).
    Without ``follow`` the lattice is uniform; with it each row and column follows the colour-jump
    boundaries and each cell the card edges near it (as a city's does), which absorbs what perspective
    the rectification left but on some towns is pulled off by the icons' pale ovals: the scan tries both
    (:func:`vision.towns.arbitrate.best_lattice`). With ``remeasure`` the cell periods are measured
    again in the first view (:func:`vision.towns.remeasure.view_periods`) and, where they differ from
    the nominal cell by more than :data:`REMEASURE_ABOVE`, the view is warped again at the cards' size
    and the lattice fitted there. The lattice covers the card region grown by ``ring`` cells.
    Raises :class:`~vision.lattice.NoCityFound` when the photo shows no lattice of cards or fewer than
    :data:`MIN_TERRITORIES` cells of one.
    """
    small, located, periods = locate_town(photo) if found is None else found
    scale = min(1.0, small.shape[1] / photo.shape[1])
    try:
        rect = rectify_city(located, small, periods=periods, pitches=pitches, cell_mm=CELL_MM)
    except NoCityFound as exc:
        raise as_town(exc) from None
    if (cells := region_cells(located.mask, rect.homography, CELL_MM)) > MAX_TOWN_CELLS:
        raise NoCityFound(
            f"no town found: the cards' grid holds about {cells} cells, more than 18 cards show"
        )
    size = rect.size
    view, to_view, fit, seen = _fit(photo, located, rect.homography, size, scale, follow)
    stretch = _stretch(view, seen) if remeasure else None
    if stretch is not None:
        size = (int(np.ceil(size[0] * stretch[0])), int(np.ceil(size[1] * stretch[1])))
        to_small = np.diag([*stretch, 1.0]) @ rect.homography
        view, to_view, fit, _ = _fit(photo, located, to_small, size, scale, follow)
    view, to_view, lattice = _at_card_size(photo, view, to_view, size, fit)
    _refuse_count(int(fit.occupied.sum()))
    grown = lattice.padded(ring, ring, ring, ring)
    # A cell the photo's edge cuts is no card region to read: the view repeats the edge's pixels there.
    shown = inside_frame(grown, np.linalg.inv(to_view), photo.shape)
    return TownGeometry(
        photo,
        view,
        to_view,
        grown,
        np.pad(fit.occupied, ring) & shown,
        rect.aspect,
        framing_warnings(located.touches_border, rect.aspect, TOWN_WORDS),
        table_lab=np.asarray(located.table_lab, np.float32).reshape(-1, 3),
    )


def _refuse_count(cells: int) -> None:
    """Raise :class:`~vision.lattice.NoCityFound` when the fitted lattice's card region holds more cells
    than 18 cards (the periods measured again in the view may have made the cells smaller) or fewer than
    one card's."""
    if cells > MAX_TOWN_CELLS:
        raise NoCityFound(f"no town found: the cards' grid holds {cells} cells, more than 18 cards")
    if cells < MIN_TERRITORIES:
        raise NoCityFound(
            f"no town found: only {cells} territory-sized card area{'s' * (cells != 1)} in the photo "
            f"(one card shows {MIN_TERRITORIES})"
        )


def _at_card_size(
    photo: np.ndarray, view: np.ndarray, to_view: np.ndarray, size: tuple[int, int], fit: LatticeFit
) -> tuple[np.ndarray, np.ndarray, Lattice]:
    """The view, its homography and the lattice rescaled so that the card region's cells follow the
    nominal pitch (:func:`_drawn_pitch`), where they miss it by more than :data:`RESCALE_ABOVE`."""
    px, py = _drawn_pitch(fit.lattice, fit.occupied)
    sx, sy = PX_PER_MM * CELL_MM[0] / px, PX_PER_MM * CELL_MM[1] / py
    lattice = fit.lattice
    if max(abs(sx - 1), abs(sy - 1)) <= RESCALE_ABOVE:
        return view, to_view, lattice
    # The lattice's own pitch is the better scale: the view is warped again at the cards' size and the
    # lattice scaled with it (fitting it again at the new scale drifted on textured art).
    to_view = np.diag([sx, sy, 1.0]) @ to_view
    view = warp(photo, to_view, (int(np.ceil(size[0] * sx)), int(np.ceil(size[1] * sy))))
    offsets = None if lattice.offsets is None else lattice.offsets * np.array([sx, sy])
    origin = (lattice.origin[0] * sx, lattice.origin[1] * sy)
    return (
        view,
        to_view,
        Lattice(origin, lattice.pitch_x * sx, lattice.pitch_y * sy, lattice.rows, lattice.cols, offsets),
    )


def _stretch(view: np.ndarray, seen: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[float, float] | None:
    """The scale (x, y) that takes the periods measured in ``view`` to the nominal cell, or None when
    they are within :data:`REMEASURE_ABOVE` of it (or not measured)."""
    periods = view_periods(view, *seen, PX_PER_MM * np.array(CELL_MM))
    stretch = tuple(
        PX_PER_MM * CELL_MM[axis] / p if np.isfinite(p) else 1.0 for axis, p in enumerate(periods)
    )
    return None if max(abs(f - 1.0) for f in stretch) <= REMEASURE_ABOVE else (stretch[0], stretch[1])


def find_town_cards(small: np.ndarray) -> tuple[Located, Periods]:
    """The largest group of cards in the small copy ``small`` and their periods, as the town scan locates
    and measures them (for the live camera's frame check)."""
    _, located, periods = locate_town(small)
    return located, periods
