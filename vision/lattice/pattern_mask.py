"""Where a photo shows its table's own repeating pattern (a check cloth), for finding the cards on it.

The card region is found where the colour is far from the table's and where the photo is busier than the
table (:func:`vision.lattice.locate.card_mask`). A check cloth defeats both: it is as busy as the cards, and
its red, pink and white are the colours of the residential blocks and the cards' pale art, so only the
blue and green blocks stand out and the region falls apart into a few of them. What a person sees is the
cloth's squares repeating all round the cards and nowhere on them. So: patches of the photo's border band
are matched (normalised cross-correlation of the lightness) over the whole photo; a table whose every
border patch repeats many times over is a pattern, and the cards are where none of them matches.

A table without such a pattern (wood, felt, marble, the devset's five cloths and tables) is left alone:
its border patches repeat at most 70 times (the devset's 24 photos, their second fewest of eight), a check
cloth's at least 101 (eight rendered). A polka-dot cloth repeats too, and its dots are told from the cards
as well.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["repeating_table"]

# A border patch is this share of the photo's shorter side across (at least MIN_PATCH px).
PATCH_SHARE = 1 / 24
MIN_PATCH = 12
# A patch with less spread of lightness than this has no pattern to repeat.
LEAST_SPREAD = 8.0
# A patch repeats where its correlation peaks at REPEAT or more; the table is a pattern when all its
# border patches but one repeat at least REPEATS times (see the module's note).
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
