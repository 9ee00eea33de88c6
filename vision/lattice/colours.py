"""How many colours a card region shows: the cards of a game show few, a panel of tiles as many as it has.

The cards of either game, in any print, show their zones or territories in a few colours (a zone or a
terrain is told by its colour), with the art's outlines, icons and the cards' rims between them. A panel of
coloured tiles or boxes, a shelf of books, a mosaic shows as many colours as it has tiles. The colours are
counted in squares of :data:`COLOUR_BIN` a*b* units (lightness aside: a shadow or a glare moves it, not the
hue), as the fewest squares that cover :data:`COLOUR_SHARE` of the region, most common first
(:func:`region_colours`). Measured on the small copy the region is found on: the card regions of the 24
devset cities, the 16 devset towns and the 7 deck photos, each also in the twelve perturbations of
``tests/bench/perturb.py``, show 2 to 13 colours; 50 renders of the shipped prints and 104 of random prints
of both games (``models.synth``) 2 to 20; panels of 60 to 760 random tiles 49 to 92.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["COLOUR_BIN", "COLOUR_SHARE", "MAX_CARD_COLOURS", "region_colours"]

#: The side of a colour's square, in a*b* units of OpenCV's 8-bit Lab.
COLOUR_BIN = 12
#: The share of the region the colours counted cover.
COLOUR_SHARE = 0.8
#: More colours than this are no game's cards (twice the most measured on cards; see the module note).
MAX_CARD_COLOURS = 40
# The region's pixels are sampled every this many pixels of the small copy.
_STEP = 2


def region_colours(image: np.ndarray, mask: np.ndarray) -> int:
    """How many colours (squares of :data:`COLOUR_BIN` a*b* units) cover :data:`COLOUR_SHARE` of the
    region ``mask`` (uint8, nonzero inside) of the RGB ``image`` it lies on; 0 for an empty region."""
    inside = mask[::_STEP, ::_STEP] > 0
    if not inside.any():
        return 0
    lab = cv2.cvtColor(np.ascontiguousarray(image[::_STEP, ::_STEP]), cv2.COLOR_RGB2LAB)[inside]
    side = 256 // COLOUR_BIN + 1
    squares = (lab[:, 1] // COLOUR_BIN).astype(np.int64) * side + lab[:, 2] // COLOUR_BIN
    counts = np.sort(np.bincount(squares, minlength=side * side))[::-1]
    return int(np.searchsorted(np.cumsum(counts), COLOUR_SHARE * len(squares))) + 1
