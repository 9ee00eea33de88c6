"""Where a photo shows its table's own repeating pattern (a check cloth), for finding the cards on it.

The card region is found where the colour is far from the table's and where the photo is busier than the
table (:func:`vision.lattice.locate.card_mask`). A check cloth defeats both: it is as busy as the cards, and
its red, pink and white are the colours of the residential blocks and the cards' pale art, so only the
blue and green blocks stand out and the region falls apart into a few of them. What a person sees is the
cloth's squares repeating all round the cards and nowhere on them. So: patches of the photo's border band
are matched (normalised cross-correlation of the lightness) over the whole photo; a table whose every
border patch repeats many times over is a pattern, and the cards are where none of them matches.

A table without such a pattern (wood, felt, marble, the devset's five cloths and tables) is left alone:
its border patches are faint (:data:`LEAST_SPREAD`), and those that pass repeat far fewer times than a
check's (:data:`REPEATS`). A polka-dot cloth repeats too, and its dots are told from the cards as well.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["repeating_table"]

# A border patch is this share of the photo's shorter side across (at least MIN_PATCH px).
PATCH_SHARE = 1 / 24
MIN_PATCH = 12
# A patch with less spread of lightness (standard deviation, 0-255) than this has no pattern to repeat: a
# table's grain or weave can repeat as often as a check does, but faintly. At 8 (until 2026-12-06) the
# devset's comp020 dimmed (its table's grain: patches repeating 90-128 times, spread 8-13) was taken as a
# check. Measured on the devset's 24 photos upright, in the twelve perturbations and with no scoring cards
# in view (336 photos): of the border patches repeating 90 times or more, 167 of 169 spread by 8-17.6 (two,
# in one cropped photo, by 23 and 61), and no devset photo keeps the four patches the test needs (three at
# most); the rendered check cloths' patches spread by 20.2-52 (bench_rooms check seeds 80000000-029, 238
# of 240 patches), and the 29 of 30 read as patterned at 8 still are.
LEAST_SPREAD = 19.0
# A patch repeats where its correlation peaks at REPEAT or more; the table is a pattern when all its
# border patches but one repeat at least REPEATS times: the rendered check cloths' second fewest 101-947
# (seed 80000021's, 75, is left to the colour and busyness cues); the devset's up to 95 with every patch
# counted (comp020 dimmed, LEAST_SPREAD's note), and none has four patches that pass LEAST_SPREAD.
REPEAT = 0.8
REPEATS = 90
# Where the best patch's correlation, over a patch's width, reaches MATCH, the table's pattern shows.
MATCH = 0.6


def repeating_table(lightness: np.ndarray, band: int) -> np.ndarray | None:
    """Where the table's repeating pattern shows (bool, ``lightness``'s shape), or None when the
    table's border patches do not repeat (no pattern: the usual table). ``band``: the border band's
    depth in px, where the patches are taken."""
    h, w = lightness.shape[:2]
    size = max(MIN_PATCH, int(min(h, w) * PATCH_SHARE))
    if min(h, w) < 4 * size:
        return None
    maps = [
        cv2.matchTemplate(lightness, patch, cv2.TM_CCOEFF_NORMED)
        for patch in _border_patches(lightness, band, size)
    ]
    if len(maps) < 4:
        return None
    repeats = sorted(_peaks(m) for m in maps)
    if repeats[1] < REPEATS:
        return None
    best = cv2.dilate(np.max(maps, axis=0), np.ones((size, size), np.uint8))
    out = np.ones((h, w), bool)  # the rim a patch cannot be centred on: taken as table, like the band
    half = size // 2
    out[half : half + best.shape[0], half : half + best.shape[1]] = best >= MATCH
    return out


def _border_patches(lightness: np.ndarray, band: int, size: int) -> list[np.ndarray]:
    """Square patches of ``size`` px in the border band: the four corners and the middle of each side,
    each with some spread (a plain patch matches anything plain)."""
    h, w = lightness.shape[:2]
    xs = (band, w // 2 - size // 2, w - band - size)
    ys = (band, h // 2 - size // 2, h - band - size)
    at = [(x, y) for y in ys for x in xs if (x, y) != (xs[1], ys[1])]
    patches = [lightness[y : y + size, x : x + size] for x, y in at]
    return [p for p in patches if float(p.std()) >= LEAST_SPREAD]


def _peaks(correlation: np.ndarray) -> int:
    """How many places a patch repeats at: local maxima of its ``correlation`` at :data:`REPEAT` or more."""
    top = cv2.dilate(correlation, np.ones((3, 3), np.uint8))
    return int(((correlation >= REPEAT) & (correlation >= top)).sum())
