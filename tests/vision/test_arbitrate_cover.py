"""A doubtful lattice is taken as it is only when the known cards explain its blocks and cover its card
region (vision.city.arbitrate.cards_confirm)."""

from __future__ import annotations

import numpy as np

from tests.vision.test_unexplained import PITCH, _geometry, _reading
from vision.cards.pieces import quadrants
from vision.cells import CellReading
from vision.city.arbitrate import cards_confirm
from vision.city.geometry import Geometry
from vision.lattice.fit import Lattice

ROWS, COLS = 6, 6


def _two_cards() -> list[list[CellReading]]:
    """Cards 1 and 2 side by side in rows 1-2, read surely; every other cell read surely as table."""
    readings = [[_reading((None, None), 0.99) for _ in range(COLS)] for _ in range(ROWS)]
    for card, col in ((1, 1), (2, 3)):
        for dr, dc, label in quadrants(card, False):
            readings[1 + dr][col + dc] = _reading(label, 0.99)
    return readings


def _over(rows: slice, cols: slice) -> Geometry:
    """A stand-in geometry whose card region is ``rows`` × ``cols`` of the lattice."""
    geometry = _geometry(Lattice((0.0, 0.0), *PITCH, ROWS, COLS))
    region = np.zeros((ROWS, COLS), bool)
    region[rows, cols] = True
    geometry.occupied = region  # type: ignore[misc]  # the stand-in is a namespace
    return geometry


def test_cards_that_fill_the_card_region_confirm_its_lattice() -> None:
    assert cards_confirm(_over(slice(1, 3), slice(1, 5)), _two_cards())


def test_cards_that_explain_a_few_blocks_of_a_wide_card_region_do_not() -> None:
    # A wrong period reads a few blocks the cards explain, among many cells of the region read as table.
    assert not cards_confirm(_over(slice(1, 5), slice(1, 5)), _two_cards())
