"""Cells lying on a scoring card read on its back are table: the card lies beside the city, not in it."""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np

from vision.backs import BackNumber
from vision.cells import CellReading
from vision.city import Geometry, clear_under_backs
from vision.lattice import Lattice

# A top-down view that is the photo itself: cells 40 px square from (0, 0), a row of five.
GEOMETRY = SimpleNamespace(to_rectified=np.eye(3), lattice=Lattice((0.0, 0.0), 40.0, 40.0, 1, 5))
GEOMETRY.outline_in_photo = partial(Geometry.outline_in_photo, GEOMETRY)


def _parks() -> list[list[CellReading]]:
    return [[CellReading.certain("P", None, 0.7) for _ in range(5)]]


def _back(x0: float, x1: float, confidence: float = 0.95, way_up_seen: bool = True) -> BackNumber:
    outline = ((x0, -10.0), (x1, -10.0), (x1, 50.0), (x0, 50.0))
    return BackNumber(11, confidence, outline=outline if way_up_seen else None)


def _labels(readings: list[list[CellReading]]) -> list[str]:
    return [r.label for r in readings[0]]


def test_cells_a_third_or_more_on_a_surely_read_back_read_as_table() -> None:
    # Cores (±14 px round each centre): cell 3 126–154, cell 4 166–194. A back from x 140 covers half of
    # cell 3's core and all of cell 4's.
    out = clear_under_backs(GEOMETRY, _parks(), [_back(140.0, 200.0)])
    assert _labels(out) == ["P", "P", "P", ".", "."]


def test_a_cell_only_brushed_by_a_back_keeps_its_reading() -> None:
    # A back from x 147 covers a quarter of cell 3's core (126–154): a back beside the city.
    out = clear_under_backs(GEOMETRY, _parks(), [_back(147.0, 200.0)])
    assert _labels(out) == ["P", "P", "P", "P", "."]


def test_a_back_read_unsurely_or_without_its_way_up_moves_nothing() -> None:
    unsure = clear_under_backs(GEOMETRY, _parks(), [_back(110.0, 200.0, confidence=0.5)])
    turned = clear_under_backs(GEOMETRY, _parks(), [_back(110.0, 200.0, way_up_seen=False)])
    assert _labels(unsure) == _labels(turned) == ["P"] * 5
