"""The fallback period pairs of a town whose edges repeat too weakly to be measured
(vision.towns.arbitrate.extent_pitches), on a hand-made card region."""

from __future__ import annotations

import numpy as np
import pytest

from vision.lattice import Located, Periods
from vision.lattice.rectify import plausible_aspect
from vision.towns.arbitrate import MAX_EXTENT_CELLS, extent_pitches


def region(width: int, height: int) -> tuple[np.ndarray, Located, Periods]:
    """A small photo whose card region is one ``width`` × ``height`` px rectangle, seen straight on."""
    mask = np.zeros((400, 500), np.uint8)
    mask[40 : 40 + height, 60 : 60 + width] = 255
    located = Located(mask, (60, 40, width, height), (None, None), np.zeros(3), np.zeros((0, 4)), ())  # type: ignore[arg-type]
    periods = Periods(np.eye(3), (250.0, 200.0), [], (float("nan"), float("nan")), (0.0, 0.0))
    return np.zeros((400, 500, 3), np.uint8), located, periods


def test_a_town_of_three_by_two_cells_gets_its_true_periods_among_the_fallback_pairs() -> None:
    cell = (44.0, 62.0)  # portrait territories, 1 : 1.41
    pairs = extent_pitches(region(int(3 * cell[0]), int(2 * cell[1])))
    assert any(
        px == pytest.approx(cell[0], rel=0.05) and py == pytest.approx(cell[1], rel=0.05) for px, py in pairs
    )
    assert all(plausible_aspect(px / py) for px, py in pairs)
    # Whole numbers of cells each way, none beyond the limit.
    assert min(px for px, _ in pairs) >= 3 * cell[0] / MAX_EXTENT_CELLS - 1
    assert len(set(pairs)) == len(pairs)


def test_an_empty_card_region_gives_no_fallback_pairs() -> None:
    small, located, periods = region(0, 0)
    assert extent_pitches((small, located, periods)) == []
