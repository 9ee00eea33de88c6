"""How well the Circle the Wagons cards explain a photo (:func:`town_game_evidence`): the measure by which a
photo is told to be a town (:mod:`games.telling`), and the reading that measured it, which the town scan
then reads on (:func:`vision.towns.scan.scan_town`'s ``reading``) instead of finding the town again.

A reader shown another game's art still reads something, often confidently, but what it reads does not
fit the town cards quadrant by quadrant: the decoding leaves it unexplained or calls it table. The
evidence is therefore the share of the card region that the decoded town cards explain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.lattice import NoCityFound
from vision.towns.arbitrate import Reader, Reading, best_lattice
from vision.towns.geometry import RING, locate_town

__all__ = ["EXPLAINED_ENOUGH", "TownEvidence", "town_game_evidence"]

# A town explained this well in the largest group of cards is not looked for in the next (right readings
# explain 0.9 and more; the game telling asks at least 0.6).
EXPLAINED_ENOUGH = 0.6


@dataclass(frozen=True)
class TownEvidence:
    """The share of the card region's ``cells`` that the decoded town cards explain (0, with ``why``, when
    no lattice of town cards was found); ``region`` the group of cards read (0 the largest, 1 the next) and
    ``reading`` the reading itself (decoded without margins)."""

    explained: float
    cells: int
    why: str = ""
    region: int = 0
    reading: Reading | None = field(default=None, repr=False)


def town_game_evidence(photo: np.ndarray, reader: Reader, ring: int = RING) -> TownEvidence:
    """How well the Circle the Wagons cards explain ``photo`` as read by the territory ``reader`` on a
    lattice grown by ``ring`` cells (as the scan will read it): in the largest group of cards, or in the
    next largest when the largest is poorly explained (the goal cards beside a small town may be the
    larger group)."""
    best = TownEvidence(0.0, 0)
    for rank in (0, 1):
        try:
            found = locate_town(photo, rank=rank)
            reading = best_lattice(photo, found, reader, margins=False, ring=ring)
        except NoCityFound as exc:
            best = best if best.cells else TownEvidence(0.0, 0, str(exc))
            continue
        cells = int(reading.geometry.occupied.sum())
        here = TownEvidence(reading.explained, cells, region=rank, reading=reading)
        best = here if here.explained > best.explained else best
        if best.explained >= EXPLAINED_ENOUGH:
            break
    return best
