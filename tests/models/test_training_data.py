"""The training crops cut from rendered photos (models.photoset) carry the truth's labels."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from models.photoset import FAR, NEAR, photo_cells, training_photo
from scoring.city_text import parse_city
from vision.cells.classify import MARKS
from vision.cells.classify import ROADS_WITH_NONE as ROADS
from vision.cells.classify import ZONES_WITH_EMPTY as ZONES
from vision.cells.crops import CROP_H, CROP_W

SEED = 70_000_002  # a whole city in the frame (checked below), read exactly by the pipeline


def _labels(zone: str, road: str | None, mark: int) -> tuple[str, str, int]:
    return zone, road or "none", mark


@pytest.mark.slow
def test_photo_crops_label_every_block_of_the_city_once() -> None:
    truth = training_photo(SEED).truth
    assert not truth.conditions.get("partial")
    city = parse_city(truth.city)
    data = photo_cells(SEED)
    assert data.crops.shape[1:] == (CROP_H, CROP_W, 3) and data.crops.dtype == np.uint8
    got = Counter(
        (ZONES[z], ROADS[r], int(m))
        for z, r, m, k in zip(data.zone, data.road, data.mark, data.kind, strict=True)
        if k == 0 and ZONES[z] != "W"
    )

    def expected(turned: bool) -> Counter:
        cells = [cell.rotated() if turned else cell for _, _, cell in city.blocks()]
        return Counter(
            _labels(
                c.zone,
                c.road,
                MARKS.index("poi") if c.poi else MARKS.index("construction") if c.construction else 0,
            )
            for c in cells
        )

    # Roads are named in the lattice's frame, which may run the other way round from the truth's grid.
    assert got in (expected(False), expected(True))


@pytest.mark.slow
def test_table_crops_are_empty_cells_with_no_road_or_mark() -> None:
    assert 0 < NEAR < FAR < 1  # in between, a crop shows two half blocks and is left out
    data = photo_cells(SEED)
    empty = data.zone == ZONES.index("empty")
    assert empty.any() and (data.road[empty] == 0).all() and (data.mark[empty] == 0).all()
    assert set(np.unique(data.kind[empty])) <= {1, 2}
