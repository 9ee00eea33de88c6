"""The reading behind a town scan: one lattice read and decoded, and which period hypothesis to keep.

The rectification ranks the cell periods by the cards' edges (:mod:`vision.lattice.rectify`); a town of
many aligned cards also shows half and double periods, and the territories' textures (stacked waves,
strokes) make the edges less decisive than a city's: the right pair was fifth on some rendered towns. So
the first :data:`MAX_HYPOTHESES` pairs are all fitted (each uniform and following the boundaries found,
:func:`vision.towns.geometry.town_geometry`) and read, and the lattice kept is the one the known
cards explain: at least :data:`CARDS_EXPLAIN` of its card region if any is, then the most territories
shown by cards (a lattice of cells too tall can still be explained, but shows fewer territories), then
the largest fraction explained.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.lattice import Lattice, Located, NoCityFound, Periods
from vision.towns.decode import TownDecoding, decode_town
from vision.towns.evidence import TownEvidenceError
from vision.towns.geometry import TownGeometry, town_geometry

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
    def rank(self) -> tuple[bool, int, float]:
        """Higher is better (see the module note)."""
        shown = sum(cell.source == "card" for row in self.decoding.cells for cell in row)
        return self.explained >= CARDS_EXPLAIN, shown, self.explained


def explained(decoding: TownDecoding, occupied: np.ndarray) -> float:
    """The fraction of the card region's cells (``occupied``) that a decoded card shows (0 when none)."""
    shown = np.array([[cell.source == "card" for cell in row] for row in decoding.cells], bool)
    return float((shown & occupied).sum()) / max(1, int(occupied.sum()))


def read_and_decode(geometry: TownGeometry, reader: Reader, *, margins: bool = True) -> Reading:
    """Read every cell of ``geometry.lattice`` with ``reader`` and decode the town.

    Raises :class:`ValueError` naming the reader's fault when its answer does not fit the lattice."""
    readings = reader(geometry.view, geometry.lattice)
    shape = (geometry.lattice.rows, geometry.lattice.cols)
    if len(readings) != shape[0] or any(len(row) != shape[1] for row in readings):
        got = f"{len(readings)} rows of {sorted({len(row) for row in readings})} cells"
        raise ValueError(f"the territory reader gave {got} for a lattice of {shape[0]} × {shape[1]} cells")
    try:
        decoding = decode_town(readings, margins=margins)
    except TownEvidenceError as exc:
        raise ValueError(f"the territory reader's answer cannot be decoded: {exc}") from None
    return Reading(geometry, readings, decoding)


def best_lattice(
    photo: np.ndarray, found: tuple[np.ndarray, Located, Periods], reader: Reader, *, margins: bool = True
) -> Reading:
    """The reading of the best-explained lattice among the period hypotheses (see the module note),
    decoded with every cell's margin unless not ``margins``. Raises :class:`NoCityFound` when no
    hypothesis gives a town."""
    hypotheses = found[2].hypotheses(MAX_HYPOTHESES)
    best: Reading | None = None
    refusal: NoCityFound | None = None
    for pitches, follow in ((p, f) for p in hypotheses for f in (False, True)):
        try:
            geometry = town_geometry(photo, found, pitches, follow=follow, remeasure=True)
        except NoCityFound as exc:
            refusal = refusal or exc
            continue
        reading = read_and_decode(geometry, reader, margins=False)
        if best is None or reading.rank > best.rank:
            best = reading
    if best is None:
        raise refusal or NoCityFound("no town found: no lattice of cards fits the photo")
    return Reading(best.geometry, best.readings, decode_town(best.readings)) if margins else best
