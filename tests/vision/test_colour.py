"""White balance from the city's own whites (vision.cells.white_balance)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cells.white_balance import apply_gains, balance_whites, lattice_box, white_gains
from vision.lattice.fit import Lattice


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


def _float_gains(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """white_gains written plainly in float32, as it was before its integer shortcuts."""
    x0, y0, x1, y1 = box
    px = image[y0:y1:2, x0:x1:2].reshape(-1, 3).astype(np.float32)
    px = px[px.max(axis=1) < 250]
    lum = px.mean(axis=1)
    bright = px[lum >= np.quantile(lum, 0.95)]
    top = bright.max(axis=1)
    sat = (top - bright.min(axis=1)) / np.maximum(top, 1.0)
    ref = np.median(bright[sat <= np.quantile(sat, 0.5)], axis=0)
    gains = np.clip(ref.mean() / ref, 1 / 1.35, 1.35)
    return (gains / gains.mean()).astype(np.float32)


@pytest.mark.parametrize("seed", range(6))
def test_gains_and_their_application_are_the_float32_computation_to_the_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    tint = rng.uniform(0.75, 1.25, 3).astype(np.float32)
    img = np.clip(_city_like(seed) * tint + rng.normal(0, 8, (240, 320, 3)), 0, 255).astype(np.uint8)
    img[::7, ::5] = rng.integers(0, 256, img[::7, ::5].shape)  # every value, glare and black included
    box = (int(rng.integers(0, 40)), int(rng.integers(0, 40)), 300, 230)
    gains = white_gains(img, box)
    assert np.array_equal(gains, _float_gains(img, box))
    scaled = np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    assert np.array_equal(balance_whites(img, box), scaled)
    strong = np.array([1.6, 0.4, 1.0], np.float32)  # beyond MAX_GAIN: clipping at 255 is exercised too
    assert np.array_equal(
        apply_gains(img[:, ::-1], strong), np.clip(img[:, ::-1] * strong, 0, 255).astype(np.uint8)
    )
