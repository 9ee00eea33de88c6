"""Which cells of a town's card region show a card by their own pixels, not only by the region's outline.

The card region (:mod:`vision.towns.geometry`) is the photo's cards found by colour and closed over their
gaps, so a hole in the town where the table shows between cards (a cell the cards surround) lies inside it
too. A cell of the region that no decoded card shows is a card the reader read as the table only where its
own middle is unlike the table: most of its pixels lie as far from the table's colours (those of the
photo's border) as :mod:`vision.deck.outlines` asks of a card's. A cell whose middle reaches beyond the
photo's edge is no such card: the view repeats the edge's pixels there.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.city import small_copy
from vision.deck import CARD_DISTANCE, border_table, table_distance
from vision.towns.decode import TownDecoding
from vision.towns.geometry import TownGeometry

__all__ = ["MIDDLE", "UNLIKE_SHARE", "card_share", "table_lab", "unlike_table", "unseen_cards"]

# The middle of a cell looked at (a share of its pitch each way), and the share of it that must lie
# CARD_DISTANCE or more from every table colour.
MIDDLE = 0.6
UNLIKE_SHARE = 0.5


def _on_photo(geometry: TownGeometry, box: tuple[int, int, int, int]) -> bool:
    """Whether the corners of the view's ``box`` (x0, y0, x1, y1) all map inside the photo."""
    x0, y0, x1, y1 = box
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    back = cv2.perspectiveTransform(corners, np.linalg.inv(geometry.to_view))[0]
    h, w = geometry.photo.shape[:2]
    return bool(((back >= 0) & (back < (w, h))).all())


def unlike_table(geometry: TownGeometry, cells: Sequence[tuple[int, int]]) -> list[bool]:
    """For each lattice cell (row, col) of ``cells``: whether its middle in the top-down view is mostly
    unlike the table's colours (see the module note)."""
    if not cells:
        return []
    table = table_lab(geometry)
    lab = cv2.cvtColor(geometry.view, cv2.COLOR_RGB2LAB).astype(np.float32)
    lattice = geometry.lattice
    half = 0.5 * MIDDLE * np.array([lattice.pitch_x, lattice.pitch_y])
    h, w = lab.shape[:2]
    out = []
    for r, c in cells:
        x, y = lattice.center(r, c)
        x0, y0 = max(0, int(x - half[0])), max(0, int(y - half[1]))
        x1, y1 = min(w, int(x + half[0])), min(h, int(y + half[1]))
        crop = lab[y0:y1, x0:x1].reshape(-1, 3)
        seen = len(crop) > 0 and _on_photo(geometry, (x0, y0, x1, y1))
        if not seen:  # beyond the photo's edge the view repeats the edge's pixels
            out.append(False)
            continue
        out.append(card_share(crop, table) >= UNLIKE_SHARE)
    return out


def table_lab(geometry: TownGeometry) -> np.ndarray:
    """The table's colours (Lab, float32, one a row): those the locate stage found the cards against
    (:attr:`TownGeometry.table_lab`), else measured on the photo's border."""
    if len(geometry.table_lab):
        return geometry.table_lab
    small, _ = small_copy(geometry.photo)
    return border_table(cv2.cvtColor(small, cv2.COLOR_RGB2LAB)).astype(np.float32)


def card_share(lab_pixels: np.ndarray, table: np.ndarray) -> float:
    """The share of ``lab_pixels`` (n, 3) that lie :data:`~vision.deck.CARD_DISTANCE` or more from every
    ``table`` colour (:func:`table_lab`)."""
    return float((table_distance(lab_pixels, table) >= CARD_DISTANCE).mean())


def unseen_cards(geometry: TownGeometry, decoding: TownDecoding) -> np.ndarray:
    """(rows, cols) bool over the lattice: the cells of the card region that no decoded card shows though
    their middle is unlike the table (see the module note)."""
    occupied = geometry.occupied
    cells = [
        (int(r), int(c))
        for r, c in zip(*np.nonzero(occupied), strict=True)
        if decoding.cells[r][c].territory is None
    ]
    out = np.zeros_like(occupied, dtype=bool)
    for (r, c), unlike in zip(cells, unlike_table(geometry, cells), strict=True):
        out[r, c] = unlike
    return out
