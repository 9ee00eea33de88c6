"""White balance from the city's own whites (vision.colour)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.colour import balance_whites, lattice_box, white_gains
from vision.lattice import Lattice


def _city_like(seed: int = 0) -> np.ndarray:
    """Patches of the four zone colours with thin white lines and a few coloured highlights."""
    rng = np.random.default_rng(seed)
    zones = np.array([(170, 133, 106), (123, 143, 158), (148, 144, 147), (151, 186, 135)], np.float32)
    img = zones[rng.integers(0, 4, (12, 16))].repeat(20, 0).repeat(20, 1)
    img[5::20, :] = img[6::20, :] = 205  # road dashes, stripes: white, two pixels wide
    img[:, 9::40] = img[:, 10::40] = 205
    img[100:110, 100:130] = (250, 250, 120)  # a yellow car: bright but not white
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("cast", [(1.15, 1.0, 0.85), (0.85, 0.95, 1.2), (1.0, 1.1, 1.0)])
def test_a_colour_cast_is_taken_out(cast: tuple[float, float, float]) -> None:
    neutral = _city_like()
    tinted = np.clip(neutral * np.array(cast, np.float32), 0, 255).astype(np.uint8)
    fixed = balance_whites(tinted).astype(np.float32)
    # The white lines come out grey again, and the blocks close to their uncast colours (up to brightness).
    white = fixed[5::20].reshape(-1, 3).mean(axis=0)
    assert white.max() - white.min() < 6
    ratio = fixed.reshape(-1, 3).mean(axis=0) / neutral.reshape(-1, 3).astype(np.float32).mean(axis=0)
    assert ratio.max() / ratio.min() < 1.03


def test_a_neutral_city_is_left_as_it_is() -> None:
    img = _city_like(1)
    assert np.allclose(white_gains(img), 1.0, atol=0.02)


def test_clipped_glare_and_tiny_regions_give_no_correction() -> None:
    glare = np.full((50, 50, 3), 255, np.uint8)
    assert np.array_equal(white_gains(glare), np.ones(3, np.float32))
    img = _city_like()
    assert np.array_equal(white_gains(img, (10, 10, 12, 12)), np.ones(3, np.float32))


def test_only_the_box_is_measured() -> None:
    img = _city_like()
    img[:, 200:] = (255, 240, 180)  # a warm, bright table beside the city: not clipped, not the city
    inside = white_gains(img, (0, 0, 200, 240))
    assert np.allclose(inside, 1.0, atol=0.02)
    assert lattice_box(Lattice((10.4, 20.6), 89.0, 63.5, 2, 3)) == (10, 20, 278, 148)
