"""Cards that touch in a deck photo, cut apart: one region of the photo that holds several cards becomes one
outline per card.

A row (or column) of portrait cards laid edge to edge is a rectangle one card wide and ``n`` cards long, cut
into ``n`` equal boxes (:func:`row_of_cards`); any other cluster is worn away until it falls into pieces of
about a card each, each grown back within the region (:func:`split_region`).

Example: two cards of 60 × 90 px side by side are cut in two.

>>> import numpy as np, cv2
>>> region = np.array([(0, 0), (120, 0), (120, 90), (0, 90)], np.int32).reshape(-1, 1, 2)
>>> boxes = row_of_cards(region, cv2.contourArea(region), 60 * 90, (60.0, 90.0))
>>> len(boxes), [int(cv2.contourArea(b)) for b in boxes]
(2, [5400, 5400])
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["card_sides", "row_of_cards", "split_region"]

# A region of up to MAX_ROW cards touching side by side, whose width is a card's and whose area is n cards'
# within ROW_FIT, is cut into n equal cards.
MAX_ROW = 6
ROW_FIT = 0.25
# Cards that touch are worn apart by at most this share of a card's side ...
SPLIT_DEPTH = 0.25
# ... into pieces of at least this share of a card.
PIECE = 0.25


def card_sides(contours: list[np.ndarray]) -> tuple[float, float] | None:
    """The median short and long side of the cards found one by one (None when none was)."""
    if not contours:
        return None
    dims = np.array([sorted(cv2.minAreaRect(c)[1]) for c in contours])
    return float(np.median(dims[:, 0])), float(np.median(dims[:, 1]))


def row_of_cards(
    contour: np.ndarray, area: float, typical: float, sides: tuple[float, float] | None
) -> list[np.ndarray]:
    """A region of ``n`` cards side by side (a row of portrait cards or a column of them, touching) cut
    into ``n`` equal boxes along its length; [] when its rectangle is no such row."""
    if sides is None:
        return []
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    length, width = max(w, h), min(w, h)
    short, long = sides
    for along, across in ((short, long), (long, short)):
        n = round(length / along)
        fits = abs(width / across - 1) <= ROW_FIT and abs(area / (n * typical) - 1) <= ROW_FIT if n else False
        if 2 <= n <= MAX_ROW and fits:
            return _cut_box(cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float64), n)
    return []


def _cut_box(box: np.ndarray, n: int) -> list[np.ndarray]:
    """The rotated rectangle ``box`` (4 corners in order) cut into ``n`` equal boxes across its long side,
    each as a contour."""
    sides = [box[(k + 1) % 4] - box[k] for k in range(4)]
    k = int(np.argmax([np.hypot(*v) for v in sides[:2]]))
    start, step, other = box[k], sides[k] / n, sides[(k + 1) % 4]
    out = []
    for i in range(n):
        a, b = start + i * step, start + (i + 1) * step
        out.append(np.array([a, b, b + other, a + other]).round().astype(np.int32).reshape(-1, 1, 2))
    return out


def split_region(contour: np.ndarray, shape: tuple[int, int], typical: float) -> list[np.ndarray]:
    """The cards of a region of several that touch: the region worn away until it falls into pieces of
    about a card each (the gaps between cards laid by hand are narrow, never absent along a whole side),
    each piece grown back within the region. The region itself when it does not so fall apart."""
    region = np.zeros(shape, np.uint8)
    cv2.drawContours(region, [contour], -1, 255, thickness=cv2.FILLED)
    side = float(np.sqrt(typical))
    for k in range(3, max(4, int(SPLIT_DEPTH * side)), 2):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        n, labels = cv2.connectedComponents(cv2.erode(region, kernel))
        if n <= 2:
            continue
        pieces = []
        for label in range(1, n):
            grown = cv2.dilate((labels == label).astype(np.uint8) * 255, kernel) & region
            found, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            pieces += [c for c in found if cv2.contourArea(c) >= PIECE * typical]
        if len(pieces) >= 2:
            return pieces
    return [contour]
