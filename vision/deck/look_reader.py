"""A city's cells read by a print's look learned from the deck (:class:`~vision.deck.look.CityLook`), with
no shipped classifier: the reader of a print the scanner was never shown.

Each cell's ground and edges are measured as the deck's blocks were (:mod:`vision.deck.look`): its zone is
the one whose ground lies nearest (in units of that ground's spread), its road the piece whose two edges
are most unlike the ground (none for a park), and whether it holds a block at all (and not the table) how
near its ground lies to any zone's. It is a :class:`~vision.cells.Classifier`, so the whole city pipeline
(lattice, rereads, the card decoding) reads with it unchanged.
"""

from __future__ import annotations

import math

import numpy as np

from scoring.city import ROADS, block
from vision.cells import CellReading, TopDown
from vision.deck.look import ZONES, CityLook, apartness, block_crops, ground_colour, road_logp

__all__ = ["LookClassifier"]

# A ground this many spreads from the nearest zone's is half as likely a block's.
GROUND_HALF = 2.5
# No cue is ever certain: a cell's chance of a block stays within these.
BLOCK_BOUNDS = (0.005, 0.995)


class LookClassifier:
    """Reads cells by ``look`` alone (the :class:`~vision.cells.Classifier` interface)."""

    def __init__(self, look: CityLook) -> None:
        self.look = look

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        crops = block_crops(view.image, np.asarray(centres, float).reshape(-1, 2), pitch)
        return [self._read(c) for c in crops]

    def _read(self, crop: np.ndarray | None) -> CellReading:
        if crop is None:
            return CellReading.certain(None)
        ground = ground_colour(crop)
        zone_lp, nearest = self.look.zone_logp(ground[None])
        roads = road_logp(apartness(crop, ground)[None], self.look.road_scale)[0]
        p_block = float(np.clip(math.exp(-math.log(2) * (nearest[0] / GROUND_HALF) ** 2), *BLOCK_BOUNDS))
        dist: dict[tuple[str | None, str | None], float] = {(None, None): 1.0 - p_block}
        for k, zone in enumerate(ZONES):
            pz = p_block * math.exp(float(zone_lp[0, k]))
            if zone == "P":
                dist[("P", None)] = pz
                continue
            for j, road in enumerate(ROADS):
                dist[(zone, road)] = pz * math.exp(float(roads[j]))
        return _reading(dist)


def _reading(dist: dict[tuple[str | None, str | None], float]) -> CellReading:
    """The reading whose answer is the distribution's most probable (zone, road)."""
    ranked = sorted(dist.items(), key=lambda kv: -kv[1])
    alternatives = tuple((z, r, float(p)) for (z, r), p in ranked[:3])
    (zone, road), p = ranked[0]
    empty = float(dist[(None, None)])
    if zone is None:
        return CellReading(None, None, float(p), ".", alternatives, "empty", empty_probability=empty,
                           distribution=dist)  # fmt: skip
    return CellReading(zone, road, float(p), block(zone, road).token(), alternatives, "block",
                       empty_probability=empty, distribution=dist)  # fmt: skip
