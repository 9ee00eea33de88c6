"""The town's lattice measured again in its top-down view (vision.towns.remeasure), on hand-drawn views:
a lattice of coloured cells with its card edges as line segments."""

from __future__ import annotations

import numpy as np
import pytest

from vision.lattice import PX_PER_MM, Lattice
from vision.towns.geometry import CELL_MM
from vision.towns.remeasure import on_edges, view_periods

NOMINAL = PX_PER_MM * np.array(CELL_MM)  # a territory's (width, height) px in the view


def drawn_town(
    pitch: tuple[float, float], origin: tuple[float, float], cells: tuple[int, int], seed: int = 0
):
    """A view of ``cells`` (rows, cols) territories of random colours at ``pitch`` from ``origin`` on a
    grey table, the card region's mask, and the vertical and horizontal segments along their edges."""
    rng = np.random.default_rng(seed)
    (px, py), (x0, y0), (rows, cols) = pitch, origin, cells
    w, h = int(x0 + cols * px + x0), int(y0 + rows * py + y0)
    view = np.full((h, w, 3), 90, np.uint8)
    mask = np.zeros((h, w), np.uint8)
    for r in range(rows):
        for c in range(cols):
            ys = slice(int(round(y0 + r * py)), int(round(y0 + (r + 1) * py)))
            xs = slice(int(round(x0 + c * px)), int(round(x0 + (c + 1) * px)))
            view[ys, xs] = rng.integers(40, 255, 3)
            mask[ys, xs] = 255
    vertical = np.array([[x0 + c * px, y0, x0 + c * px, y0 + rows * py] for c in range(cols + 1)])
    horizontal = np.array([[x0, y0 + r * py, x0 + cols * px, y0 + r * py] for r in range(rows + 1)])
    return view, mask, vertical, horizontal


@pytest.mark.parametrize("stretch", [(1.0, 1.0), (1.0, 1.3), (0.8, 1.0), (1.2, 0.75)])
def test_the_cell_periods_are_measured_in_a_view_drawn_too_wide_or_too_tall(
    stretch: tuple[float, float],
) -> None:
    pitch = (NOMINAL[0] * stretch[0], NOMINAL[1] * stretch[1])
    view, mask, vertical, horizontal = drawn_town(pitch, (60.0, 60.0), (6, 7))
    px, py = view_periods(view, mask, vertical, horizontal, NOMINAL)
    assert px == pytest.approx(pitch[0], rel=0.02)
    assert py == pytest.approx(pitch[1], rel=0.02)


def test_a_view_without_a_card_region_measures_no_period() -> None:
    view, mask, vertical, horizontal = drawn_town(tuple(NOMINAL), (60.0, 60.0), (4, 4))
    px, py = view_periods(view, np.zeros_like(mask), vertical, horizontal, NOMINAL)
    assert np.isnan(px) and np.isnan(py)


def test_a_uniform_lattice_off_by_a_third_of_a_cell_is_moved_onto_the_card_edges() -> None:
    origin = (70.0, 80.0)
    view, mask, vertical, horizontal = drawn_town(tuple(NOMINAL), origin, (4, 5))
    off = Lattice((origin[0] - 0.3 * NOMINAL[0], origin[1] + 0.35 * NOMINAL[1]), *NOMINAL, 4, 5)
    moved, occupied = on_edges(off, mask, vertical, horizontal)
    assert moved.origin == pytest.approx(origin, abs=1.5)
    assert (moved.rows, moved.cols) == (4, 5) and occupied.all()
    assert moved.offsets is None


def test_a_lattice_with_too_few_edges_keeps_its_phase() -> None:
    origin = (70.0, 80.0)
    view, mask, vertical, horizontal = drawn_town(tuple(NOMINAL), origin, (2, 2))
    off = Lattice((origin[0] + 10.0, origin[1]), *NOMINAL, 2, 2)
    moved, _ = on_edges(off, mask, vertical[:1, :] * [1, 1, 1, 0.2], horizontal)
    assert moved.origin[0] == pytest.approx(off.origin[0])
