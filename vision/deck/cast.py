"""The colour cast between a city photo and the deck photo that taught its print, found by the zones.

A print the scanner was taught has no white of its own: a flat print's palest zone (a cream, a pale
yellow) is what the white balance of a deck photo takes for white, so the deck's grounds are learned in
one cast and a city photo, balanced on its scoring cards or its table, is seen in another. The zones' grounds
then lie 20–45 a*b* units from where the deck put them, and nearest-ground reading names them wrongly
(a cream commercial block read as residential).

A cast is a gain per RGB channel (von Kries), the same for every zone. The deck's structure says what the
city must show: every card has one block of each zone, so each of the four grounds is where several
of the city's blocks lie. The cast is the gain (R, G, B) that brings :data:`PER_ZONE` cells (or fewer in a
small city) nearest each zone's ground, each cell's cost capped (the table round the city and a misread
block weigh no more than :data:`CAP` spreads). Asking for every zone keeps the fit from folding the
whole city onto one ground (a cast that moves every cell near the residential ground and leaves the others
empty costs their missing cells in full). The search runs coarse to fine over gains within
:data:`MAX_GAIN` either way, one channel's never more than :data:`MAX_TINT` another's and their mean
within :data:`MAX_BRIGHT` of 1 (what two photos' white balances can differ by), and a cast is taken only
where it at least halves the cost as seen (:data:`GAINED`): a city seen in the deck's light keeps its
colours, and a lattice that is not the city's is not fitted a cast to make it one.

Example: a deck of four flat grounds, and a city photo of them with green and blue dimmed by a fifth:

>>> from vision.deck.look import CityLook, to_lab
>>> rgb = np.array([[(200, 180, 120), (90, 60, 140), (60, 140, 70), (170, 60, 60)]], np.uint8)
>>> look = CityLook(to_lab(rgb)[0], np.full(4, 6.0, np.float32), 5.0)
>>> city = np.repeat(rgb, 6, axis=0).astype(np.float32) * (1.0, 0.8, 0.8)
>>> gains = zone_cast(look, to_lab(np.clip(city, 0, 255).astype(np.uint8)).reshape(-1, 3))
>>> [round(float(g / gains[0]), 2) for g in gains]  # green and blue raised by a quarter against red
[1.0, 1.25, 1.25]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.look import CityLook, lab_distance

__all__ = ["CAP", "MAX_GAIN", "PER_ZONE", "apply_cast", "zone_cast"]

# Each zone's ground must be matched by this many cells (a sixteenth of the cells read, 2 at least).
PER_ZONE = 6
# A cell's cost is capped at this many of its zone's spreads (squared): the table and a stray block.
CAP = 3.0
# A channel's gain is sought within this factor either way: a white balance gains up to 1.35 a channel
# (:data:`vision.cells.white_balance.MAX_GAIN`) in each of the two photos.
MAX_GAIN = 2.0
# Nor may one channel's gain exceed another's by more than this: two photos' white balances, each within
# 1.35 a channel, differ by 1.7 at most.
MAX_TINT = 1.8
# The gains' geometric mean stays within this factor either way (the view's white balance scales its
# whites to about the same level in every photo; a lamp's brightness is left to the lightness fit).
MAX_BRIGHT = 1.3
# The cast found must at least halve the zones' cost as seen, or none is taken.
GAINED = 0.5
# The search: this many steps a channel, each round a third as wide round the last round's best.
STEPS = 9
ROUNDS = 4
# Fewer cells than this carry no cast (a reread of a few cells keeps the lattice's).
MIN_CELLS = 16


def _lab_to_rgb(lab: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(lab.reshape(-1, 1, 3).astype(np.float32), cv2.COLOR_LAB2RGB).reshape(lab.shape)


def _rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    flat = np.clip(rgb, 0.0, 1.0).reshape(-1, 1, 3).astype(np.float32)
    return cv2.cvtColor(flat, cv2.COLOR_RGB2LAB).reshape(rgb.shape)


def apply_cast(grounds: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The Lab ``grounds`` (N, 3) as seen with each RGB channel multiplied by ``gains`` (3,)."""
    if not len(grounds) or bool((gains == 1.0).all()):
        return grounds
    return _rgb_to_lab(_lab_to_rgb(grounds) * gains).astype(np.float32)


def _costs(look: CityLook, rgb: np.ndarray, candidates: np.ndarray, per_zone: int) -> np.ndarray:
    """Each candidate's (K, 3 gains) cost: per zone, the ``per_zone`` nearest cells' capped squared
    distances in spreads, summed."""
    lab = _rgb_to_lab(rgb[None] * candidates[:, None, :])
    d = lab_distance(lab[:, :, None, :], look.grounds[None, None]) / look.spread[None, None]
    capped = np.minimum(d**2, CAP**2)
    return np.sort(capped, axis=1)[:, :per_zone].sum(axis=(1, 2))


def zone_cast(look: CityLook, grounds: np.ndarray) -> np.ndarray:
    """The RGB gains (3,) that carry a city photo's cell grounds (N, 3 Lab) onto the deck's zones (see the
    module's docstring); ones for fewer than :data:`MIN_CELLS` cells."""
    if len(grounds) < MIN_CELLS:
        return np.ones(3, np.float32)
    per_zone = int(np.clip(len(grounds) // 16, 2, PER_ZONE))
    rgb = _lab_to_rgb(np.asarray(grounds, np.float32))
    as_seen = float(_costs(look, rgb, np.ones((1, 3)), per_zone)[0])
    centre, half = np.zeros(3), float(np.log(MAX_GAIN))
    axis = np.linspace(-1.0, 1.0, STEPS)
    steps = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3)
    best = as_seen
    for _ in range(ROUNDS):
        candidates = centre + half * steps
        spread = candidates.max(axis=1) - candidates.min(axis=1)
        bright = np.abs(candidates.mean(axis=1))
        allowed = (spread <= np.log(MAX_TINT)) & (bright <= np.log(MAX_BRIGHT))
        costs = np.where(allowed, _costs(look, rgb, np.exp(candidates), per_zone), np.inf)
        centre, best = candidates[int(np.argmin(costs))], float(costs.min())
        half /= 3
    if best > GAINED * as_seen:
        # No cast explains the zones much better: seen in the deck's light already (fitting one would fit
        # noise), or cells of a lattice that is not the city's.
        return np.ones(3, np.float32)
    return np.exp(centre).astype(np.float32)
