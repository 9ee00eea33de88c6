"""How plainly each road piece's whole path shows in a block, for a print the scanner learned from a deck.

Two edge patches (:func:`vision.deck.look.apartness`) tell where a road leaves a block; on a print with
drawings (houses, trees, ponds) a drawing near an edge looks as unlike the ground as a road does, and a
curve and a straight that share an end are then told apart by one small patch. A road piece is a band
from one edge midpoint to another, though: straight through the middle, or a quarter ellipse round the
corner between its two ends at half the block's size. The median unlikeness along the piece's path is the
road's own contrast for the true piece, and the ground's (drawings are patches, not bands) for a piece
whose path leaves the road for most of its length.
"""

from __future__ import annotations

import math

import numpy as np

from scoring.city import ROADS
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM

__all__ = ["centre_line", "path_apartness"]

# Points along each piece's centre line, its ends left out (an outline, a rim, a neighbour's road lie there).
PATH_POINTS = 9
END_SHARE = 0.14
# Each point's unlikeness is the median over a square this many mm either side (inside the narrowest road).
POINT_HALF_MM = 1.0
# Where each edge's midpoint lies, as (x, y) fractions of the block.
MIDPOINT = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}


def centre_line(road: str, points: int = PATH_POINTS, end_share: float = END_SHARE) -> np.ndarray:
    """The (x, y) fractions (``points``, 2) along the piece ``road``'s centre line, ``end_share`` of it left
    out at either end.

    >>> centre_line("EW", 3, 0.0).tolist()
    [[1.0, 0.5], [0.5, 0.5], [0.0, 0.5]]
    """
    a, b = (np.array(MIDPOINT[e]) for e in road)
    if road in ("NS", "EW"):
        t = np.linspace(end_share, 1 - end_share, points)[:, None]
        return a + t * (b - a)
    corner = np.array([a[0] if a[0] in (0.0, 1.0) else b[0], a[1] if a[1] in (0.0, 1.0) else b[1]])
    start = math.atan2(a[1] - corner[1], a[0] - corner[0])
    end = math.atan2(b[1] - corner[1], b[0] - corner[0])
    if abs(end - start) > math.pi:  # the quarter turn, not the three quarters the other way round
        end += 2 * math.pi if end < start else -2 * math.pi
    margin = end_share * (end - start)
    theta = np.linspace(start + margin, end - margin, points)
    return corner + 0.5 * np.stack([np.cos(theta), np.sin(theta)], axis=1)


LINES = {road: centre_line(road) for road in ROADS}


def path_apartness(lab: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """The median unlikeness to ``ground`` (CIE ΔE76) along each road piece's path (6,) of the block crop
    ``lab`` (in :data:`scoring.city.ROADS` order).

    >>> from vision.deck.look import ground_colour, to_lab
    >>> cell = np.full((64, 89, 3), (70, 100, 50), np.uint8)  # a green block
    >>> cell[:, 40:49] = 60  # with a grey road running north to south
    >>> lab = to_lab(cell)
    >>> [int(v > 20) for v in path_apartness(lab, ground_colour(lab))]  # NS NE NW SE SW EW
    [1, 0, 0, 0, 0, 0]
    """
    h, w = lab.shape[:2]
    far = np.sqrt(((lab - ground) ** 2).sum(axis=-1))
    hx = max(1, round(POINT_HALF_MM * w / BLOCK_W_MM))
    hy = max(1, round(POINT_HALF_MM * h / BLOCK_H_MM))
    out = np.empty(len(ROADS), np.float32)
    for k, road in enumerate(ROADS):
        values = []
        for fx, fy in LINES[road]:
            x, y = round(fx * (w - 1)), round(fy * (h - 1))
            values.append(float(np.median(far[max(0, y - hy) : y + hy + 1, max(0, x - hx) : x + hx + 1])))
        out[k] = float(np.median(values))
    return out
