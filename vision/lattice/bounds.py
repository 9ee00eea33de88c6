"""How many cells a card region may hold: the bound that keeps a patterned photo from costing more than a
game.

A game has 18 cards of 4 cells (72): a city or a town and the scoring or goal cards beside it are all
of them. The period hypotheses include half the true pitch (four times the cells), so a lattice of more
than :data:`MAX_REGION_CELLS` cells is no hypothesis of any game's lattice, at any pitch the scan
considers. A tiled floor, a shelf of boxes or a mosaic of card-like tiles finds hundreds such cells, and
every stage after the rectification (the fit, each reading, the arbitration, the game detection) costs
in proportion to them: the rectification counts them first (:func:`check_region`), from the card
region and the homography alone, before any view is warped.

A region that fills the photo (:data:`FILLS_PHOTO` of it) is held to a whole game's cells: a photo of a
game shows the table around the cards (the region is found against the table seen along the photo's
border), so a photo covered edge to edge with more cells than all 18 cards have is a patterned surface
whatever the pitch (the largest region of 52 photos of cities and towns, real and rendered, covers 52 % of
its photo; a tiled floor 99 %).

A region is also held to a game's colours: the cards of either game, in any print, show their zones or
territories in a few colours, and a panel of coloured tiles or boxes with the table around it as many as it
has tiles (:mod:`vision.lattice.colours`). A region of more than :data:`MAX_CARD_COLOURS` colours is refused
(:class:`TooManyColours`), whatever its cells: reading it costs what a town of an unknown print does (the
game detection fits and reads dozens of lattices), and no game is there to find (a panel of 160 random
tiles on a table: 163 cells, 73 colours; of 60 tiles: 54 cells, 51 colours, and read as a city).
"""

from __future__ import annotations

import numpy as np

from vision.lattice.colours import MAX_CARD_COLOURS
from vision.lattice.fit import PX_PER_MM
from vision.lattice.locate import NoCityFound

__all__ = [
    "CELLS_PER_CARD",
    "FILLS_PHOTO",
    "GAME_CELLS",
    "MAX_CARDS",
    "MAX_REGION_CELLS",
    "TooManyCards",
    "TooManyColours",
    "check_region",
    "region_cells",
]

#: Cards in a whole game of either kind (city or town and the cards scored beside it), of four cells each.
MAX_CARDS = 18
CELLS_PER_CARD = 4
#: Every card of a game, and the most cells a hypothesis of its lattice may hold: all of them at half the
#: pitch (a region that fills the photo: all of them at the pitch measured).
GAME_CELLS = MAX_CARDS * CELLS_PER_CARD
MAX_REGION_CELLS = 4 * GAME_CELLS
FILLS_PHOTO = 0.9
# The region's pixels are sampled every this many pixels of the small copy.
_STEP = 4


class TooManyCards(NoCityFound):
    """The photo's card region holds far more card-sized cells than a city or town can: a tiled floor,
    a mosaic, a shelf of boxes (refused before its lattice is fitted or read)."""

    code = "too_many_cards"

    def __init__(self, cells: int) -> None:
        super().__init__(
            f"the photo shows a grid of about {cells} card-sized cells, more than a game has: a "
            f"Sprawlopolis city or a Circle the Wagons town has at most {MAX_CARDS} cards of "
            f"{CELLS_PER_CARD} blocks ({GAME_CELLS} cells); it looks like a tiled or patterned surface "
            "(photograph the cards alone, from above, with the table around them)"
        )
        self.cells = cells


class TooManyColours(TooManyCards):
    """A card region in more colours than any game's cards show (:data:`MAX_CARD_COLOURS`): a panel of
    coloured tiles or boxes with the table around it (refused before its lattice is fitted or read)."""

    def __init__(self, cells: int, colours: int) -> None:
        NoCityFound.__init__(
            self,
            f"the photo shows a grid of about {cells} card-sized cells in about {colours} different "
            "colours, more than a game's cards show: a Sprawlopolis city or a Circle the Wagons town has at "
            f"most {MAX_CARDS} cards, their zones or territories in a few colours; it looks like a tiled or "
            "patterned surface (photograph the cards alone, from above, with the table around them)",
        )
        self.cells = cells
        self.colours = colours


def region_cells(mask: np.ndarray, homography: np.ndarray, cell_mm: tuple[float, float]) -> int:
    """About how many cells of ``cell_mm`` the card region ``mask`` (uint8, the small copy) covers in the
    top-down view ``homography`` maps it to: each sampled pixel's area times the map's local scale
    (``det H / w³`` for a homography), over one cell's area in the view."""
    ys, xs = np.nonzero(mask[::_STEP, ::_STEP])
    if len(xs) == 0:
        return 0
    w = homography[2, 0] * xs * _STEP + homography[2, 1] * ys * _STEP + homography[2, 2]
    local = abs(float(np.linalg.det(homography))) / np.maximum(np.abs(w), 1e-12) ** 3
    area = float(local.sum()) * _STEP * _STEP
    return int(round(area / (PX_PER_MM * PX_PER_MM * cell_mm[0] * cell_mm[1])))


def check_region(
    mask: np.ndarray, homography: np.ndarray, cell_mm: tuple[float, float], colours: int = 0
) -> None:
    """Raise :class:`TooManyCards` when the region holds more than :data:`MAX_REGION_CELLS` cells
    (:func:`region_cells`), or fills the photo and holds more than :data:`GAME_CELLS`;
    :class:`TooManyColours` when it shows more than :data:`MAX_CARD_COLOURS` ``colours``
    (:attr:`~vision.lattice.locate.Located.colours`)."""
    cells = region_cells(mask, homography, cell_mm)
    fills = np.count_nonzero(mask) >= FILLS_PHOTO * mask.size
    if cells > MAX_REGION_CELLS or (fills and cells > GAME_CELLS):
        raise TooManyCards(cells)
    if colours > MAX_CARD_COLOURS:
        raise TooManyColours(cells, colours)
