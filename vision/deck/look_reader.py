"""A city's cells read by a print's look learned from the deck (:class:`~vision.deck.look.CityLook`), with
no shipped classifier: the reader of a print the scanner was never shown.

Each cell's ground and edges are measured as the deck's blocks were (:mod:`vision.deck.look`): its zone is
the one whose ground lies nearest (in units of that ground's spread), its road the piece whose two edges
are most unlike the ground (none for a park), and whether it holds a block at all (and not the table) how
near its ground lies to any zone's and whether nearer than to the table's colours (the view's border). It
is a :class:`~vision.cells.Classifier`, so the whole city pipeline (lattice, rereads, the card decoding)
reads with it unchanged.

A city photo is lit otherwise than the deck photo: its grounds are first carried into the deck photo's
colour cast (:func:`vision.deck.cast.zone_cast`: the RGB gains that put cells on every zone's ground), then
their lightness brought to the deck's (:func:`light_of`), by the offset (then gain) that carries the cells
nearest a zone onto that zone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from scoring.city import ROADS, block
from vision.cells import CellReading, TopDown
from vision.deck.cast import apply_cast, zone_cast
from vision.deck.look import (
    ZONES,
    CityLook,
    apartness,
    block_crops,
    ground_colour,
    ground_texture,
    lab_distance,
    road_logp,
    to_lab,
)
from vision.deck.road_paths import path_apartness
from vision.lattice import table_colours

__all__ = [
    "LOOK_DOUBT_MARGIN",
    "LookClassifier",
    "block_probability",
    "light_of",
    "path_shown",
    "road_seen",
    "road_shown",
    "view_table",
]

# A ground this many spreads from the nearest zone's is half as likely a block's.
GROUND_HALF = 2.5
# The light is adapted on the cells whose ground lies within ADAPT_NEAR spreads of a zone's, when there are
# this many (the offset in the first round, then a gain as well); the gain is fitted only where the zones'
# grounds spread over ADAPT_SPREAD (Lab units), and kept within GAIN.
ADAPT_MIN_CELLS = 8
ADAPT_NEAR = 1.5
ADAPT_SPREAD = 5.0
GAIN = (0.8, 1.25)
ADAPT_ROUNDS = 3
# Only the lightness is adapted: a lamp's brightness differs most between two photos, and moving a* b* too
# pulls a table's colour onto a zone's.
CHANNELS = np.array([1.0, 0.0, 0.0], np.float32)
# A table's colour spreads over this much (weighted ΔE) round its measured colours (grain, weave, light).
TABLE_SPREAD = 8.0
# A road zone's block showing this much road along one piece's path (in road scales: a third of the deck's
# usual road contrast) is half as likely as with a plain road; the chance falls by e per 1/STEEP below it.
ROAD_SEEN_HALF = 1.0
ROAD_SEEN_STEEP = 2.0
# ... on a plain ground only (its corners' texture under this, ΔE): drawings on a ground lie on every piece's
# path too, so there the paths say little about whether a road is there at all.
PLAIN = 6.0
# No cue is ever certain: a cell's chance of a block stays within these.
BLOCK_BOUNDS = (0.005, 0.995)
#: The cards' margin (nats) under which a cell this reader read is in doubt (the shipped classifier's is
#: vision.city.doubt.CARDS_DOUBT_MARGIN, 1.0, set on photos of the real cards). Measured on the scored
#: cities of rendered editions 37 000-37 059 (2 151 blocks, 7 wrong): of the blocks the cards explained by
#: 1 to 2 nats, 2 of 8 were wrong (edition 37 059: an industrial straight read residential, 0.78 sure, 1.29
#: nats; a curve at 1.57), where the shipped classifier's devset readings hold some 30 such blocks, all right.
LOOK_DOUBT_MARGIN = 2.0


class LookClassifier:
    """Reads cells by ``look`` alone (the :class:`~vision.cells.Classifier` interface)."""

    def __init__(self, look: CityLook) -> None:
        self.look = look
        self._light: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._table: dict[int, np.ndarray] = {}

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        crops = block_crops(view.balanced, np.asarray(centres, float).reshape(-1, 2), pitch)
        grounds = [None if c is None else ground_colour(c) for c in crops]
        known = [g for g in grounds if g is not None]
        if len(known) >= ADAPT_MIN_CELLS or id(view) not in self._light:
            # One view, one light: the rereads of a few cells keep what the whole lattice said.
            cells = np.array(known, np.float32).reshape(-1, 3)
            cast = zone_cast(self.look, cells)
            self._light = {id(view): (cast, *light_of(self.look, apply_cast(cells, cast)))}
        cast, gain, offset = self._light[id(view)]
        if id(view) not in self._table:
            self._table = {id(view): view_table(view.balanced)}
        table = self._table[id(view)]
        return [
            self._read(c, None if g is None else (apply_cast(g[None], cast)[0] * gain + offset, g), table)
            for c, g in zip(crops, grounds, strict=True)
        ]

    def _read(
        self, crop: np.ndarray | None, ground: tuple[np.ndarray, np.ndarray] | None, table: np.ndarray
    ) -> CellReading:
        if crop is None or ground is None:
            return CellReading.certain(None)
        lit, raw = ground
        zone_lp, nearest = self.look.zone_logp(lit[None])
        apart, paths = apartness(crop, raw), path_apartness(crop, raw)
        roads = road_logp(apart, self.look.road_scale, paths)
        p_block = block_probability(float(nearest[0]), table, raw, road_shown(apart) / self.look.road_scale)
        seen = road_seen(path_shown(paths) / self.look.road_scale) if ground_texture(crop) < PLAIN else 1.0
        dist: dict[tuple[str | None, str | None], float] = {(None, None): 1.0 - p_block}
        for k, zone in enumerate(ZONES):
            pz = p_block * math.exp(float(zone_lp[0, k]))
            if zone == "P":
                dist[("P", None)] = pz
                continue
            for j, road in enumerate(ROADS):
                dist[(zone, road)] = pz * seen * math.exp(float(roads[j]))
        total = sum(dist.values())
        return _reading({label: p / total for label, p in dist.items()})


def path_shown(paths: np.ndarray) -> float:
    """How plainly a cell shows a road piece along its whole path (``paths``:
    :func:`~vision.deck.road_paths.path_apartness`): the likeliest piece's unlikeness to the ground beyond
    the least likely one's, which crosses the road at most once (ΔE; about 0 for the table and a park,
    whose paths are all ground; a wide road's neighbouring curves can show almost as much as it)."""
    values = np.asarray(paths, np.float64)
    return max(0.0, float(values.max() - values.min()))


def road_seen(shown: float) -> float:
    """How likely a residential, commercial or industrial block (each has a road) is to show as little
    road as ``shown`` (:func:`path_shown` in units of the look's road scale), against a park or the table
    (which show none): even, 1, for a plain road; :data:`ROAD_SEEN_HALF` scales or less of road halves it
    and less: a grey cloth square or a pale one beside the city is a zone's colour with no road on it."""
    return 1.0 / (1.0 + math.exp(-ROAD_SEEN_STEEP * (shown - ROAD_SEEN_HALF)))


def view_table(image: np.ndarray) -> np.ndarray:
    """The table's Lab colours (K, 3) in a top-down view: its border band's (the city lies inside it)."""
    lab = to_lab(image)
    return table_colours(lab, max(4, min(lab.shape[:2]) // 25))


def road_shown(apart: np.ndarray) -> float:
    """How plainly a cell whose edges lie ``apart`` (N, E, S, W) from its ground shows a road piece: its two
    most unlike edges' lesser apartness beyond the other two's greater (ΔE; about 0 for the table and a park,
    a road's contrast for a road piece's two ends)."""
    ranked = np.sort(np.asarray(apart, np.float64))[::-1]
    return max(0.0, float(ranked[1] - ranked[2]))


def block_probability(nearest: float, table: np.ndarray, ground: np.ndarray, road: float = 0.0) -> float:
    """The chance that a cell of ``ground`` (``nearest`` spreads from the nearest zone's ground) holds a
    block and not the table (colours ``table``): near a zone's ground, and nearer it than the table's. A
    road piece shown (``road``: :func:`road_shown` in units of the look's road scale) makes the table e
    times less likely per unit: a zone's ground can lie as near a table's colour as a block's own spread
    (a grey zone on a grey table in a lamp's fall-off), and the table draws no road."""
    near_zone = math.exp(-math.log(2) * (nearest / GROUND_HALF) ** 2)
    if len(table):
        from_table = float(lab_distance(table, ground).min()) / TABLE_SPREAD
        logit = 0.5 * from_table**2 - 0.5 * nearest**2 + road
        near_zone /= 1.0 + math.exp(-float(np.clip(logit, -30, 30)))
    return float(np.clip(near_zone, *BLOCK_BOUNDS))


def light_of(look: CityLook, grounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gain and offset per Lab channel (3,), (3,) that carry a city photo's block grounds (N, 3) onto
    their nearest zone grounds of the deck photo (identity when too few cells lie near any): the city is
    lit otherwise than the deck was. Only cells already near a zone's ground count (the table round the
    city must not pull the light), the offset first, then a gain where the zones spread enough."""
    gain, offset = np.ones(3, np.float32), np.zeros(3, np.float32)
    for k in range(ADAPT_ROUNDS):
        moved = grounds * gain + offset
        if not len(moved):
            break
        zone_lp, nearest = look.zone_logp(moved)
        near = nearest <= ADAPT_NEAR
        if near.sum() < ADAPT_MIN_CELLS:
            break
        src, dst = grounds[near], look.grounds[zone_lp[near].argmax(axis=1)]
        if k > 0:
            gain = refit_gains(src, dst, gain, np.flatnonzero(CHANNELS), ADAPT_SPREAD, GAIN)
        offset = np.median(dst - src * gain, axis=0).astype(np.float32) * CHANNELS
    return gain, offset


def refit_gains(
    src: np.ndarray,
    dst: np.ndarray,
    gain: np.ndarray,
    channels: Iterable[int],
    spread: float,
    bounds: tuple[float, float],
) -> np.ndarray:
    """``gain`` (3,) with each of ``channels`` refitted as the least-squares slope that carries the colours
    ``src`` (N, 3) onto ``dst`` (N, 3), clipped to ``bounds``, where ``dst`` spreads by ``spread`` or more in
    that channel and ``src`` varies at all: colours closer together say nothing of a gain.

    >>> src = np.array([[10.0, 0, 0], [20, 0, 0], [30, 0, 0]])
    >>> gain = refit_gains(src, src * 1.1, np.ones(3, np.float32), [0, 1], 5.0, (0.8, 1.25))
    >>> [round(float(g), 2) for g in gain]
    [1.1, 1.0, 1.0]
    """
    out = np.array(gain, np.float32)
    for ch in channels:
        if dst[:, ch].std() >= spread and src[:, ch].std() > 1e-3:
            slope = np.cov(src[:, ch], dst[:, ch])[0, 1] / src[:, ch].var(ddof=1)
            out[ch] = np.clip(slope, *bounds)
    return out


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
