"""The table's colours a town scan weighs cells against (cards read as the table, a cut by the photo's
edge) are those the locate stage found the cards against, carried on the town's geometry, not measured
on the photo's border again."""

from __future__ import annotations

import numpy as np
import pytest

import vision.towns.region as region
from vision.towns.geometry import locate_town, town_geometry

from .town_editions import edition_town

EDITION_SEED = 7003


@pytest.mark.slow
def test_a_towns_table_colours_are_those_its_cards_were_found_against(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rgb, _ = edition_town(EDITION_SEED)
    geometry = town_geometry(rgb)

    def border_table(_: np.ndarray) -> np.ndarray:
        raise AssertionError("the table's colours measured again")

    monkeypatch.setattr(region, "border_table", border_table)
    found = locate_town(rgb).located.table_lab
    assert np.allclose(region.table_lab(geometry), np.asarray(found, np.float32).reshape(-1, 3))
