"""The light across the table (vision.photo.light), and the city found and read under a soft shadow band (an
arm, the phone) on rendered photos."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from models.synth.scene import SynthPhoto, render_photo
from tests.bench.perturb import shadow_band
from tests.synth_truth import same_city
from vision.city.geometry import small_copy
from vision.lattice import locate_city
from vision.photo.decode import fit_long_side
from vision.photo.light import EVEN_WITHIN, even_light, light_field
from vision.pipeline import WORK_LONG_SIDE, scan_rgb

PALE = (235, 228, 205)  # a cream table


def _table(shade: np.ndarray) -> np.ndarray:
    """A pale table with a little grain, multiplied by ``shade`` (H × W)."""
    rng = np.random.default_rng(0)
    base = np.array(PALE, np.float32) + rng.normal(0, 3, shade.shape + (3,))
    return np.clip(base * shade[..., None] + 0.5, 0, 255).astype(np.uint8)


def _field(rgb: np.ndarray) -> np.ndarray:
    return light_field(rgb, np.array([PALE], np.uint8), np.ones(rgb.shape[:2], bool))


def test_an_evenly_lit_photo_is_left_exactly_as_it_is() -> None:
    rgb = _table(np.ones((120, 160), np.float32))
    field = _field(rgb)
    assert (field == 1.0).all()
    assert even_light(rgb, field) is rgb


def test_a_shadow_band_on_the_table_is_measured_and_lifted() -> None:
    xs = np.arange(160, dtype=np.float32)
    shade = np.tile(1.0 - 0.45 * np.exp(-((xs - 80) ** 2) / (2 * 10.0**2)), (120, 1))
    rgb = _table(shade)
    field = _field(rgb)
    # In the band's middle the light is 0.55; the field, smoothed and less the share counted as even,
    # reads a little more. Far from the band it is even.
    assert 0.55 < field[60, 80] < 0.55 + EVEN_WITHIN + 0.08
    assert field[60, 5] == 1.0 and field[60, 155] == 1.0
    lifted = even_light(rgb, field).astype(np.float32).mean(axis=2)
    assert abs(lifted[60, 80] - lifted[60, 5]) < (EVEN_WITHIN + 0.15) * lifted[60, 5]
    assert rgb.astype(np.float32).mean(axis=2)[60, 80] < 0.7 * lifted[60, 5]


def test_something_of_another_colour_on_the_table_is_not_taken_for_shade() -> None:
    rgb = _table(np.ones((120, 160), np.float32))
    rgb[40:80, 60:100] = (60, 90, 160)  # a dark blue card: not the table's chromaticity
    assert (_field(rgb) == 1.0).all()


@cache
def _shaded(seed: int, table: str) -> tuple[SynthPhoto, np.ndarray]:
    p = render_photo(seed, table=table, long_side=2016, partial=False, fill=0.7, glare=0.0, clutter=0)
    return p, shadow_band(p.image)  # the bench's band: 45 % darker at its middle, 12 % of the long side


def _cards_box(p: SynthPhoto, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The box around every card in the photo (city and scoring cards), in pixels of a copy ``scale``
    times the photo's size."""
    corners = [c for card in p.truth.cards for c in card.corners]
    corners += [c for s in p.truth.scoring_cards if s.in_photo for c in s.corners]
    pts = np.array(corners, np.float64) * scale
    return pts.min(axis=0), pts.max(axis=0)


# Rendered cities on a white table whose shadow band the card region once ran along, to the frame's edge.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_shadow_band_across_a_pale_table_is_not_taken_for_cards(seed: int) -> None:
    p, rgb = _shaded(seed, "white")
    small, _ = small_copy(rgb)
    located = locate_city(small)
    lo, hi = _cards_box(p, small.shape[1] / p.truth.width)
    x, y, w, h = located.bbox
    slack = 0.02 * max(small.shape[:2])
    assert x >= lo[0] - slack and y >= lo[1] - slack
    assert x + w <= hi[0] + slack and y + h <= hi[1] + slack


@pytest.mark.slow
@pytest.mark.parametrize("seed", [15, 18])
def test_a_city_under_a_shadow_band_on_a_pale_table_reads_as_it_does_in_even_light(seed: int) -> None:
    # The band once joined the city's card region to the scoring cards, whose backs then went unread.
    p, shaded = _shaded(seed, "white")
    even = scan_rgb(fit_long_side(p.image, WORK_LONG_SIDE)[0])
    result = scan_rgb(fit_long_side(shaded, WORK_LONG_SIDE)[0])
    assert result.retake is None
    assert same_city(result.city, even.city), f"read\n{result.city}\nin even light\n{even.city}"
    assert result.city.cards == even.city.cards and len(even.city.cards) == 3
