"""The lattice moves little when the photo moves little: per-cell shifts and row/column boundaries are smooth
functions of the evidence (issue 28: cropping 2-3 px off a photo moved whole card columns by 4.5 mm)."""

from __future__ import annotations

import numpy as np

from vision.lattice.fit import PX_PER_MM, Lattice, _shrunk_quadratic, boundary_positions
from vision.lattice.offsets import _local_shifts

PITCH_X, PITCH_Y = 88.9, 63.5


def _cell_with_two_left_edges(length_a: float, length_b: float, at_b: float) -> np.ndarray:
    """Vertical segments by the left boundary (x = 100) of one cell: 3 px left of it and ``at_b`` right."""
    top, bottom = 20.0, 80.0
    half_a, half_b = length_a / 2, length_b / 2
    mid = (top + bottom) / 2
    return np.array(
        [
            [97.0, mid - half_a, 97.0, mid + half_a],
            [100.0 + at_b, mid - half_b, 100.0 + at_b, mid + half_b],
        ]
    )


def _shift_x(vertical: np.ndarray) -> float:
    lattice = Lattice((100.0, 18.25), PITCH_X, PITCH_Y, 1, 1)
    shifts, _ = _local_shifts(lattice, vertical, np.zeros((0, 4)), 4.0 * PX_PER_MM)
    return float(shifts[0, 0, 0])


def test_a_cells_shift_changes_little_when_two_edge_lines_trade_a_little_length() -> None:
    # A weighted median takes whichever line is longer: 3 px left or 5 px right, 8 px apart.
    before = _shift_x(_cell_with_two_left_edges(40.0, 39.0, 5.0))
    after = _shift_x(_cell_with_two_left_edges(39.0, 40.0, 5.0))
    assert abs(after - before) < 1.0


def test_a_cells_shift_moves_about_as_little_as_the_line_that_moved() -> None:
    before = _shift_x(_cell_with_two_left_edges(40.0, 39.0, 5.0))
    after = _shift_x(_cell_with_two_left_edges(40.0, 39.0, 6.0))
    assert abs(after - before) < 1.5


def test_a_cell_with_one_card_edge_follows_it() -> None:
    edge = np.array([[102.0, 22.0, 102.0, 78.0], [188.9 + 2.0, 22.0, 188.9 + 2.0, 78.0]])
    assert 1.0 < _shift_x(edge) <= 2.0


def _jumps(boundaries: np.ndarray, length: int, heights: np.ndarray) -> np.ndarray:
    """A colour-jump profile: flat-topped peaks 9 px wide centred on ``boundaries`` (whole pixels)."""
    out = np.full(length, 1.0)
    for b, h in zip(boundaries.astype(int), heights, strict=True):
        out[b - 4 : b + 5] += h
    return out


def test_boundaries_ignore_a_strong_jump_off_place_on_the_citys_outline() -> None:
    pitch = 89.0  # whole pixels, so that the peaks lie exactly where the lattice puts them
    uniform = 20.0 + pitch * np.arange(8)
    seen = uniform.copy()
    seen[0] += 8.0  # the outline: a block against the masked table, off where the lattice is (4 mm)
    seen[-1] -= 8.0
    heights = np.r_[30.0, np.full(6, 5.0), 30.0]
    fitted = boundary_positions(_jumps(seen, 700, heights), 20.0, pitch, 7)
    assert np.abs(fitted - uniform).max() < 1.0


def test_a_curvature_the_boundaries_do_not_determine_is_mostly_dropped() -> None:
    rng = np.random.default_rng(3)
    k = np.arange(1.0, 9.0)
    found = 20.0 + PITCH_X * k + rng.normal(0, 3.0, len(k))  # no true curvature, 3 px of noise
    raw = np.polyfit(k, found, 2)[0]
    kept = _shrunk_quadratic(k, found, np.ones(len(k)), PITCH_X)[0]
    assert abs(kept) < 0.5 * abs(raw)


def test_a_curvature_the_boundaries_determine_is_kept() -> None:
    k = np.arange(1.0, 12.0)
    found = 20.0 + PITCH_Y * k + 0.2 * k**2 + np.tile([0.3, -0.3], 6)[: len(k)]
    kept = _shrunk_quadratic(k, found, np.ones(len(k)), PITCH_Y)[0]
    assert abs(kept - 0.2) < 0.02
