"""Per-photo colour normalisation: move each zone's colour to where the classifier learned it.

The white balance (:mod:`vision.cells.white_balance`) takes out a cast that moves every colour alike. Real
photos also carry a shift that depends on the zone (inks respond differently to light and print runs): under
warm light commercial and industrial blocks sat about +9 b* above the cards' measured values, parks +6 and
residential +1, so commercial landed where the renders put industrial. Within one photo the zones stay apart,
though. So the photo's own blocks say where its zones lie: the median a*b* of every cell read as a block is
clustered into the four zones (k-means started from the classifier's first reading), the four cluster centres
are matched to the zones' reference colours, and an affine map of a*b* (lightness untouched) that takes one to
the other is fitted and applied to the whole top-down view before the cells are read again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.lattice import Lattice

__all__ = ["REFERENCE_AB", "ZoneMap", "apply_zone_map", "cell_ab", "fit_zone_map"]

ZONES = ("R", "C", "I", "P")
# Where the classifier learned each zone: the median a*, b* of the blocks of 40 rendered cities (top-down,
# random tables, white-balanced like a scan, measured by cell_ab on the true lattice; play seeds
# 90 000 000–039). tests/vision/test_zone_colour.py checks that the renderer still puts them there.
REFERENCE_AB = {"R": (11.2, 16.2), "C": (1.3, -5.7), "I": (3.2, -0.7), "P": (-22.8, 19.8)}
# Cells read at least this surely take part; a zone needs this many of them to place its cluster, and at
# least three zones must be placed (an affine map of the plane has six numbers).
SURE_BLOCK = 0.5
MIN_MEMBERS = 3
MIN_ZONES = 3
# Keeps the map near the identity when few zones are seen (weight of the identity, in cells).
RIDGE = 2.0
# A map that moves a reference colour further than this (a*b* units) is more likely a misreading than a
# photo; and one that moves none by more than NEGLIGIBLE is not worth a second reading.
MAX_SHIFT = 20.0
NEGLIGIBLE = 1.5
KMEANS_ROUNDS = 8
# The central share of a cell whose median is taken (the edges may show the neighbour or the table).
CORE = 0.7


@dataclass(frozen=True)
class ZoneMap:
    """``ab' = matrix @ ab + offset``; ``centres`` are the photo's zone centres it was fitted on."""

    matrix: np.ndarray  # (2, 2)
    offset: np.ndarray  # (2,)
    centres: dict[str, tuple[float, float]]

    def __call__(self, ab: np.ndarray) -> np.ndarray:
        return ab @ self.matrix.T + self.offset

    @property
    def largest_shift(self) -> float:
        """How far (a*b* units) the map moves the photo's zone centres, at most."""
        found = np.array(list(self.centres.values()))
        return float(np.abs(self(found) - found).max())


def _lab(image: np.ndarray) -> np.ndarray:
    """CIELAB (L* 0–100, a*, b*) of an RGB uint8 image, float32."""
    scaled = image.astype(np.float32)
    scaled /= 255.0
    return cv2.cvtColor(scaled, cv2.COLOR_RGB2LAB)


def cell_ab(image: np.ndarray, lattice: Lattice, cells: Sequence[tuple[int, int]]) -> np.ndarray:
    """Median a*, b* of the central :data:`CORE` of each cell, (n, 2) float32.

    Examples
    --------
    >>> img = np.zeros((20, 40, 3), np.uint8); img[:, 20:] = (0, 128, 255)
    >>> lat = Lattice((0.0, 0.0), 20.0, 20.0, 1, 2)
    >>> ab = cell_ab(img, lat, [(0, 0), (0, 1)])
    >>> bool(abs(ab[0]).max() < 1 and ab[1, 1] < -40)
    True
    """
    h, w = image.shape[:2]
    out = np.zeros((len(cells), 2), np.float32)
    hx, hy = 0.5 * CORE * lattice.pitch_x, 0.5 * CORE * lattice.pitch_y
    # Cores of one shape are stacked and converted in one call: a conversion is per pixel, and the rows of
    # a stack are the cores' rows as they were.
    shapes: dict[tuple[int, ...], list[tuple[int, np.ndarray]]] = {}
    for i, (r, c) in enumerate(cells):
        cx, cy = lattice.center(r, c)
        x0, x1 = int(max(0, cx - hx)), int(min(w, cx + hx))
        y0, y1 = int(max(0, cy - hy)), int(min(h, cy + hy))
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        core = image[y0:y1:2, x0:x1:2]
        shapes.setdefault(core.shape, []).append((i, core))
    for (ch, cw, _), cores in shapes.items():
        lab = _lab(np.concatenate([core for _, core in cores]))
        out[[i for i, _ in cores]] = np.median(lab[..., 1:].reshape(len(cores), ch * cw, 2), axis=1)
    return out


def fit_zone_map(ab: np.ndarray, zones: Sequence[str]) -> ZoneMap | None:
    """The affine a*b* map taking this photo's zone colours to :data:`REFERENCE_AB`, or None.

    Parameters
    ----------
    ab : (n, 2) array
        Median a*b* of the cells read surely as blocks.
    zones : sequence of str
        The zone each was read as (the start of the clustering; the clusters may move cells between zones).

    Returns
    -------
    ZoneMap or None
        None when too few zones are seen to fit a map, or when the fitted map is implausible.

    Examples
    --------
    Every zone shifted by its own amount, as a warm light does to the inks:

    >>> rng = np.random.default_rng(0)
    >>> shift = {"R": (0, 1), "C": (1, 9), "I": (0, 9), "P": (2, 6)}
    >>> zones = [z for z in ZONES for _ in range(8)]
    >>> ab = np.array([np.add(REFERENCE_AB[z], shift[z]) for z in zones]) + rng.normal(0, 1, (32, 2))
    >>> m = fit_zone_map(ab, zones)
    >>> bool(np.abs(m(np.array([np.add(REFERENCE_AB["C"], shift["C"])])) - REFERENCE_AB["C"]).max() < 2)
    True
    """
    ab = np.asarray(ab, np.float64).reshape(-1, 2)
    labels = np.array([ZONES.index(z) if z in ZONES else -1 for z in zones])
    ref = np.array([REFERENCE_AB[z] for z in ZONES])
    seen = [k for k in range(4) if (labels == k).sum() >= MIN_MEMBERS]
    if len(seen) < MIN_ZONES:
        return None
    centres, nearest = _clusters(ab, labels, ref, seen)
    counts = np.bincount(nearest, minlength=4)
    used = [k for k in range(4) if counts[k] >= MIN_MEMBERS]
    if len(used) < MIN_ZONES:
        return None
    solution = _affine_towards_identity(centres[used], ref[used], counts[used])
    zone_map = ZoneMap(
        solution[:2].T, solution[2], {ZONES[k]: (float(centres[k, 0]), float(centres[k, 1])) for k in used}
    )
    if zone_map.largest_shift > MAX_SHIFT or np.linalg.det(zone_map.matrix) <= 0.3:
        return None
    return zone_map


def _clusters(
    ab: np.ndarray, labels: np.ndarray, ref: np.ndarray, seen: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """k-means of the cells' a*b* into the four zones, started from the zones they were read as (a zone not
    seen starts at its reference moved by the seen zones' mean offset): the centres and each cell's zone."""
    centres = ref.copy()
    offset = np.mean([np.median(ab[labels == k], axis=0) - ref[k] for k in seen], axis=0)
    for k in range(4):
        centres[k] = np.median(ab[labels == k], axis=0) if k in seen else ref[k] + offset
    for _ in range(KMEANS_ROUNDS):
        nearest = np.argmin(((ab[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
        moved = centres.copy()
        for k in range(4):
            if (nearest == k).sum() >= MIN_MEMBERS:
                moved[k] = ab[nearest == k].mean(axis=0)
        if np.allclose(moved, centres, atol=0.05):
            break
        centres = moved
    return centres, nearest


def _affine_towards_identity(x_ab: np.ndarray, y_ab: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Weighted least squares for [A | t] (3, 2) taking ``x_ab`` to ``y_ab``, each row weighted by its cell
    count, with a ridge pulling it towards the identity."""
    x = np.hstack([x_ab, np.ones((len(x_ab), 1))])
    wts = np.sqrt(counts.astype(np.float64))[:, None]
    prior = np.hstack([np.eye(2), np.zeros((2, 1))]).T  # (3, 2): the identity map
    lhs = (x * wts).T @ (x * wts) + RIDGE * np.diag([1.0, 1.0, 0.0])
    rhs = (x * wts).T @ (y_ab * wts) + RIDGE * np.diag([1.0, 1.0, 0.0]) @ prior
    return np.linalg.solve(lhs + 1e-9 * np.eye(3), rhs)


def apply_zone_map(image: np.ndarray, zone_map: ZoneMap) -> np.ndarray:
    """``image`` (RGB uint8) with its a*b* mapped by ``zone_map``, lightness kept: a new uint8 image."""
    affine = np.zeros((3, 4), np.float32)  # L* kept; a*b* through the map (one pass, not a matmul per pixel)
    affine[0, 0] = 1.0
    affine[1:, 1:3], affine[1:, 3] = zone_map.matrix, zone_map.offset
    rgb = cv2.cvtColor(cv2.transform(_lab(image), affine), cv2.COLOR_LAB2RGB)
    rgb *= 255.0  # round to uint8 in place: the image is large
    rgb += 0.5
    return np.clip(rgb, 0, 255, out=rgb).astype(np.uint8)


def worth_applying(zone_map: ZoneMap | None) -> bool:
    """Whether the map changes the photo enough to read it again."""
    return zone_map is not None and zone_map.largest_shift >= NEGLIGIBLE
