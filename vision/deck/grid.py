"""The cards of a deck photo as a grid: each card's place (row, column), and the places left empty inside the
grid filled where cards were missed.

The player lays the 18 cards in a grid. A card whose blocks or territories look like the table (white snow
on a white sheet) shows too little against the table to be found by its outline, but its neighbours say
where it lies: the cards' centres follow their row and column (:func:`grid_fit`), and an empty place inside
the grid, or a place where only a piece of a card was found, is given the cards' usual outline at the
centre the grid predicts (:func:`completed`). Whether a card is really there is the teaching's call: a
place that shows no card fits none of the 18 and is refused by name.

Example: a grid of 2 × 2 cards, one missed, gets it back.

>>> import numpy as np
>>> card = np.array([(0, 0), (60, 0), (60, 90), (0, 90)], float)
>>> corners = np.array([card, card + (80, 0), card + (0, 110)])
>>> places = [(0, 0), (0, 1), (1, 0)]
>>> more, where = completed(corners, places, want=4)
>>> where
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> more[3].round().tolist()
[[80.0, 110.0], [140.0, 110.0], [140.0, 200.0], [80.0, 200.0]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["clusters", "completed", "grid_fit", "places_of", "portrait"]

# A card found with less than this share of the usual card's area, or with its centre this many card
# sides (the square root of its area) off the place the grid predicts, is a piece of one: the grid's
# outline stands for it.
SMALL = 0.75
OFF = 0.25


def portrait(quad: np.ndarray) -> np.ndarray:
    """A card's corners (TL, TR, BR, BL, long side first) restarted so its long side runs down the photo."""
    q = quad[[1, 2, 3, 0]]
    return q if (q[3] - q[0])[1] >= 0 else quad[[3, 0, 1, 2]]


def clusters(values: np.ndarray, gap: float) -> np.ndarray:
    """Index of each value's cluster, clusters in increasing order, split where sorted values jump by
    more than ``gap`` (a card's row or column from its centre along one of the deck's axes)."""
    order = np.argsort(values)
    index = np.zeros(len(values), int)
    k = 0
    for prev, cur in zip(order[:-1], order[1:], strict=True):
        k += bool(values[cur] - values[prev] > gap)
        index[cur] = k
    return index


def places_of(corners: np.ndarray) -> list[tuple[int, int]]:
    """Each card's (row, column) in the deck's grid, from its centre along the deck's axes."""
    top = (corners[:, 1] - corners[:, 0]).mean(axis=0)
    axis = top / max(float(np.hypot(*top)), 1e-9)
    normal = np.array([-axis[1], axis[0]])
    centres = corners.mean(axis=1)
    width = float(np.median(np.hypot(*(corners[:, 1] - corners[:, 0]).T)))
    height = float(np.median(np.hypot(*(corners[:, 3] - corners[:, 0]).T)))
    rows, cols = clusters(centres @ normal, 0.5 * height), clusters(centres @ axis, 0.5 * width)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def grid_fit(centres: np.ndarray, places: list[tuple[int, int]]) -> np.ndarray:
    """The affine map (3, 2) from (row, column, 1) to a card's centre, fitted to the cards found by least
    squares (hand placement scatters the centres by a few pixels; the grid's lines stay straight)."""
    design = np.array([(r, c, 1.0) for r, c in places])
    solution, *_ = np.linalg.lstsq(design, centres, rcond=None)
    return solution


def _area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def completed(
    corners: np.ndarray, places: list[tuple[int, int]], want: int
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """``corners`` (N, 4, 2) and ``places`` made to agree with the grid: a card found much smaller than the
    others or off its place (half a card whose other half is the table's colour) is given the cards'
    median outline at the centre the grid predicts, and, when fewer than ``want`` cards were found and the
    empty places inside the grid's rows and columns are no more than those missing, those places are added
    (in reading order) the same way."""
    if len(places) < 3:
        return corners, places
    centres = corners.mean(axis=1)
    outline = np.median(corners - centres[:, None, :], axis=0)
    areas = np.array([_area(q) for q in corners])
    usual, side = float(np.median(areas)), float(np.sqrt(np.median(areas)))
    to_centre = grid_fit(centres, places)
    off = np.hypot(*(np.array([(r, c, 1.0) for r, c in places]) @ to_centre - centres).T)
    sound = (areas >= SMALL * usual) & (off <= OFF * side)
    if sound.sum() >= 3 and not sound.all():
        to_centre = grid_fit(centres[sound], [p for p, ok in zip(places, sound, strict=True) if ok])
    quads = np.array(corners, float)
    for i in np.nonzero(~sound)[0]:
        quads[i] = np.array([*places[i], 1.0]) @ to_centre + outline
    rows, cols = sorted({r for r, _ in places}), sorted({c for _, c in places})
    empty = [(r, c) for r in rows for c in cols if (r, c) not in set(places)]
    if not empty or len(empty) > want - len(places) or len(rows) < 2 or len(cols) < 2:
        return quads, places
    added = [np.array([r, c, 1.0]) @ to_centre + outline for r, c in empty]
    every = [*places, *empty]
    order = sorted(range(len(every)), key=lambda i: every[i])
    return np.concatenate([quads, np.array(added)])[order], [every[i] for i in order]
