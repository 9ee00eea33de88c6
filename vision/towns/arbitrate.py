"""The reading behind a town scan: one lattice read and decoded, and which period hypothesis to keep.

The rectification ranks the cell periods by the cards' edges (:mod:`vision.lattice.rectify`); a town of
many aligned cards also shows half and double periods, and the territories' textures (stacked waves,
strokes) make the edges less decisive than a city's: the right pair was fifth on some rendered towns. So
the first :data:`MAX_HYPOTHESES` pairs are all fitted (each uniform and following the boundaries found,
:func:`vision.towns.geometry.town_geometry`) and read, and the lattice kept is the one the known
cards explain: at least :data:`CARDS_EXPLAIN` of its card region if any is, then the most territories
shown by cards (a lattice of cells too tall can still be explained, but shows fewer territories), then
the largest fraction explained. Lattices are ranked on a decoding whose cards cost
:data:`~vision.towns.program.SELECT_PLACEMENT_COST` (cheaper cards explain a lattice of half cells too);
the lattice kept is decoded again at the usual cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.lattice import (
    MIN_PERIOD_STRENGTH,
    Lattice,
    NoCityFound,
    plausible_aspect,
    project_points,
)
from vision.towns.decode import TownDecoding, decode_town
from vision.towns.evidence import TownEvidenceError
from vision.towns.geometry import RING, FoundCards, TownGeometry, town_geometry
from vision.towns.program import PLACEMENT_COST, SELECT_PLACEMENT_COST

__all__ = [
    "CARDS_EXPLAIN",
    "MAX_HYPOTHESES",
    "Reader",
    "Reading",
    "best_lattice",
    "explained",
    "read_and_decode",
]

MAX_HYPOTHESES = 6
# Cells each way of the card region's extent that the fallback hypotheses divide it into, at most.
MAX_EXTENT_CELLS = 8
# A first lattice whose card region the cards show at least this completely is kept without trying others.
CARDS_EXPLAIN = 0.9

#: What reads the territories: (top-down view, lattice) → per lattice cell, row by row, a distribution
#: over :data:`vision.towns.LABELS` (token → probability).
Reader = Callable[[np.ndarray, Lattice], list[list[dict[str, float]]]]


@dataclass(frozen=True)
class Reading:
    """A lattice (``geometry``), the reader's distributions per cell and their decoding."""

    geometry: TownGeometry
    readings: list[list[dict[str, float]]]
    decoding: TownDecoding

    @property
    def explained(self) -> float:
        return explained(self.decoding, self.geometry.occupied)

    @property
    def net(self) -> int:
        """Cells of the card region that a decoded card shows less those it leaves unexplained."""
        shown = np.array([[cell.source == "card" for cell in row] for row in self.decoding.cells], bool)
        region = self.geometry.occupied
        return int((shown & region).sum()) - int((region & ~shown).sum())

    @property
    def rank(self) -> tuple[bool, int, float]:
        """Higher is better (see the module note)."""
        shown = sum(cell.source == "card" for row in self.decoding.cells for cell in row)
        return self.explained >= CARDS_EXPLAIN, shown, self.explained


def explained(decoding: TownDecoding, occupied: np.ndarray) -> float:
    """The fraction of the card region's cells (``occupied``) that a decoded card shows (0 when none)."""
    shown = np.array([[cell.source == "card" for cell in row] for row in decoding.cells], bool)
    return float((shown & occupied).sum()) / max(1, int(occupied.sum()))


def read_and_decode(
    geometry: TownGeometry, reader: Reader, *, margins: bool = True, placement_cost: float = PLACEMENT_COST
) -> Reading:
    """Read every cell of ``geometry.lattice`` with ``reader`` and decode the town (each card placed
    costing ``placement_cost``).

    Raises :class:`ValueError` naming the reader's fault when its answer does not fit the lattice."""
    readings = reader(geometry.view, geometry.lattice)
    shape = (geometry.lattice.rows, geometry.lattice.cols)
    if len(readings) != shape[0] or any(len(row) != shape[1] for row in readings):
        got = f"{len(readings)} rows of {sorted({len(row) for row in readings})} cells"
        raise ValueError(f"the territory reader gave {got} for a lattice of {shape[0]} × {shape[1]} cells")
    try:
        decoding = decode_town(readings, margins=margins, placement_cost=placement_cost)
    except TownEvidenceError as exc:
        raise ValueError(f"the territory reader's answer cannot be decoded: {exc}") from None
    return Reading(geometry, readings, decoding)


def _best_of(
    photo: np.ndarray,
    found: FoundCards,
    hypotheses: Sequence[tuple[tuple[float, float], bool]],
    reader: Reader,
    ring: int = RING,
) -> tuple[Reading | None, NoCityFound | None]:
    """The best-ranked reading of the (pitches, follow) ``hypotheses`` (None when every one was refused)
    and the first refusal met."""
    best: Reading | None = None
    refusal: NoCityFound | None = None
    for pitches, follow in hypotheses:
        try:
            geometry = town_geometry(photo, found, pitches, follow=follow, remeasure=True, ring=ring)
        except NoCityFound as exc:
            refusal = refusal or exc
            continue
        reading = read_and_decode(geometry, reader, margins=False, placement_cost=SELECT_PLACEMENT_COST)
        if best is None or reading.rank > best.rank:
            best = reading
    return best, refusal


def extent_pitches(found: FoundCards) -> list[tuple[float, float]]:
    """Pairs of periods (px, py) along the frame's axes that divide the card region's extent into whole
    numbers of cells (up to :data:`MAX_EXTENT_CELLS` each way) in a plausible aspect, fewest cells first:
    a town of a few cards shows too few edges for its periods to be measured, but its outline is a
    whole number of cells each way, and :func:`vision.towns.geometry.town_geometry` measures the periods
    again in the view."""
    _, located, periods = found
    pts = np.argwhere(located.mask[::4, ::4] > 0)[:, ::-1].astype(np.float64) * 4
    if len(pts) == 0:
        return []
    corners = project_points(periods.frame, pts)
    ex, ey = corners.max(axis=0) - corners.min(axis=0)
    pairs = [
        (ex / nx, ey / ny)
        for n in range(2, 2 * MAX_EXTENT_CELLS + 1)
        for nx in range(1, n)
        if (ny := n - nx) <= MAX_EXTENT_CELLS
        and nx <= MAX_EXTENT_CELLS
        and plausible_aspect(ex * ny / (ey * nx))
    ]
    return pairs


def best_lattice(
    photo: np.ndarray,
    found: FoundCards,
    reader: Reader,
    *,
    margins: bool = True,
    ring: int = RING,
) -> Reading:
    """The reading of the best-explained lattice among the period hypotheses (see the module note),
    decoded with every cell's margin unless not ``margins``. When none is explained by the cards (at least
    :data:`CARDS_EXPLAIN`), the measured pairs are tried again however weakly the edges repeat, and so are
    the pairs that divide the card region into whole cells (:func:`extent_pitches`); one of those is kept
    only when the cards explain it and it nets at least as many territories (:attr:`Reading.net`). Raises
    :class:`NoCityFound` when no hypothesis gives a town. Each lattice covers the card region grown by
    ``ring`` cells."""
    periods = found.periods
    tried = periods.hypotheses(MAX_HYPOTHESES)
    best, refusal = _best_of(photo, found, [(p, f) for p in tried for f in (False, True)], reader, ring)
    if best is None or not best.rank[0]:
        loose = found._replace(periods=replace(periods, strength=(1.0, 1.0)))
        more = [p for p in extent_pitches(found) if all(_apart(p, q) for q in tried)]
        weak = tried if min(periods.strength) < MIN_PERIOD_STRENGTH else []
        other, _ = _best_of(photo, loose, [(p, False) for p in [*weak, *more]], reader, ring)
        # Kept only where it nets more territories (shown less left unexplained) than the best before: a
        # lattice of cells too large (two territories each) is explained by fewer cards more easily.
        if other is not None and other.rank[0] and (best is None or other.net >= best.net):
            best = other
    if best is None:
        raise refusal or NoCityFound("no town found: no lattice of cards fits the photo")
    return Reading(best.geometry, best.readings, decode_town(best.readings)) if margins else best


def _apart(p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether two period pairs differ by more than 10 % along some axis (else the fit makes them one)."""
    if not np.isfinite([*p, *q]).all():  # a measured pair may be unmeasured (nan)
        return True
    return bool(abs(np.log(p[0] / q[0])) > 0.1 or abs(np.log(p[1] / q[1])) > 0.1)
