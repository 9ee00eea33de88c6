"""Where the card lines support two pitches a few percent apart nearly equally, the lattice fit keeps the
other as a rival for the reader to judge (vision.lattice.fit.RIVAL_APART, vision.city.arbitrate)."""

from __future__ import annotations

import numpy as np

from vision.lattice.fit import LatticeFit, fit_lattice
from vision.lattice.periods import strong_periods

WIDTH, HEIGHT = 1000, 640  # a top-down view at 2 px per mm: about 11 blocks by 10


def _vertical_lines(*pitches: float) -> np.ndarray:
    """Full-height vertical segments (x1, y1, x2, y2) at every multiple of each pitch across the view."""
    xs = np.concatenate([np.arange(20.0, WIDTH - 20, p) for p in pitches])
    return np.stack([xs, np.zeros_like(xs), xs, np.full_like(xs, HEIGHT - 1)], axis=1)


def _horizontal_lines(pitch: float) -> np.ndarray:
    ys = np.arange(20.0, HEIGHT - 20, pitch)
    return np.stack([np.zeros_like(ys), ys, np.full_like(ys, WIDTH - 1), ys], axis=1)


def _fit(vertical: np.ndarray, pitch: tuple[float, float] | None = None) -> LatticeFit:
    view = np.full((HEIGHT, WIDTH, 3), 200, np.uint8)
    mask = np.full((HEIGHT, WIDTH), 255, np.uint8)
    return fit_lattice(view, vertical, _horizontal_lines(63.5), mask, refine_offsets=False, pitch=pitch)


def test_lines_at_two_near_pitches_give_the_shorter_and_keep_the_other_as_a_rival() -> None:
    fit = _fit(_vertical_lines(84.0, 89.0))
    assert abs(fit.lattice.pitch_x - 84.0) < 0.6
    assert len(fit.rivals) == 1
    rival_x, rival_y = fit.rivals[0]
    assert abs(rival_x - 89.0) < 0.6
    assert rival_y == fit.lattice.pitch_y


def test_lines_at_one_pitch_give_no_rival() -> None:
    fit = _fit(_vertical_lines(88.9))
    assert abs(fit.lattice.pitch_x - 88.9) < 0.6
    assert fit.rivals == ()


def test_a_lattice_fitted_at_a_given_pitch_keeps_it_and_has_no_rivals() -> None:
    fit = _fit(_vertical_lines(84.0, 89.0), pitch=(89.0, 63.5))
    assert (fit.lattice.pitch_x, fit.lattice.pitch_y) == (89.0, 63.5)
    assert fit.rivals == ()


def test_strong_periods_are_listed_shortest_first_with_their_strength() -> None:
    profile = np.zeros(900)
    profile[np.arange(10, 900, 30)] = 1.0
    periods = strong_periods(profile, 25, 65)
    assert [round(lag) for lag, _ in periods] == [30, 60]
    assert periods[0][1] > periods[1][1] > 0.0
