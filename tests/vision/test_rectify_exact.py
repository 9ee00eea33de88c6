"""The fast paths of the locate and rectify stages give the plain formulas' numbers to the bit: the
table-colour distances by lookup, the angle tests on cosines, the colour-jump profiles from shared
cumulative sums, and the Lab photo converted only around the card region."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.lattice.locate import _nearest_distance
from vision.lattice.periods import ColourJumps
from vision.lattice.rectify import _lab_around
from vision.lattice.vanishing import angle_below


def _plain_profile(jumps: ColourJumps, reach: int) -> np.ndarray:
    """The colour-jump profile computed directly: pooled bands, window sums by gathering from cumulative
    sums along the axis, the mean distance over the bands whose windows are mostly inside."""
    n, out = jumps.n, np.zeros(jumps.n)
    group = max(1, reach // jumps.BAND)
    bands = len(jumps.sums) // group
    if n <= 2 * reach + 1 or bands == 0:
        return out
    sums = jumps.sums[: bands * group].reshape(bands, group, n, 3).sum(axis=1)
    counts = jumps.counts[: bands * group].reshape(bands, group, n).sum(axis=1)
    cs = np.concatenate([np.zeros((bands, 1, 3)), np.cumsum(sums, axis=1)], axis=1)
    cc = np.concatenate([np.zeros((bands, 1)), np.cumsum(counts, axis=1)], axis=1)
    lo = np.clip(np.arange(n) - reach // 2, 0, n)
    hi = np.clip(np.arange(n) - reach // 2 + reach, 0, n)
    box, box_n = cs[:, hi] - cs[:, lo], cc[:, hi] - cc[:, lo]
    full = box_n >= 0.5 * group * jumps.BAND * reach
    mean = box / np.maximum(box_n, 1.0)[..., None]
    ok = full[:, : n - 2 * reach] & full[:, 2 * reach :]
    dist = np.sqrt(((mean[:, : n - 2 * reach] - mean[:, 2 * reach :]) ** 2).sum(axis=2))
    count = ok.sum(axis=0)
    out[reach : n - reach] = np.where(count > 0, (dist * ok).sum(axis=0) / np.maximum(count, 1), 0.0)
    return out


def _blobby_city(seed: int, shape: tuple[int, int] = (230, 310)) -> tuple[np.ndarray, np.ndarray]:
    """A Lab-like float32 image of flat patches with noise, and a tilted rectangle as its mask."""
    rng = np.random.default_rng(seed)
    h, w = shape
    patches = rng.uniform(0, 255, (h // 23 + 1, w // 31 + 1, 3)).astype(np.float32)
    lab = np.repeat(np.repeat(patches, 23, axis=0), 31, axis=1)[:h, :w]
    lab = lab + rng.normal(0, 4, lab.shape).astype(np.float32)
    mask = np.zeros(shape, np.uint8)
    box = cv2.boxPoints(((w / 2, h / 2), (0.8 * w, 0.7 * h), 7.0))
    cv2.fillPoly(mask, [np.round(box).astype(np.int32)], 255)
    return lab, mask


def test_table_distances_by_lookup_equal_the_per_pixel_formula() -> None:
    rng = np.random.default_rng(1)
    lab = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    colours = rng.uniform(0, 255, (3, 3)).astype(np.float32)
    weights = np.array([0.25, 1.0, 1.0], np.float32)
    per_pixel = [np.sqrt((((lab.astype(np.float32) - c) * weights) ** 2).sum(axis=2)) for c in colours]
    fast = _nearest_distance(lab, colours, weights)
    assert fast.dtype == np.float32
    assert np.array_equal(fast, np.min(per_pixel, axis=0))


@pytest.mark.parametrize("tol", [1.2, 1.8])
def test_angle_test_on_cosines_equals_the_arccos_one_even_at_the_threshold(tol: float) -> None:
    threshold = np.cos(np.radians(tol))
    steps = np.arange(-300, 301)
    around = threshold + steps * np.spacing(threshold)  # every float within 300 ulps of it
    cos = np.concatenate(
        [
            np.random.default_rng(2).uniform(0.0, 1.0, 5000),
            around,
            threshold + np.array([-2e-9, -1e-9, 1e-9, 2e-9]),
            [0.0, 1.0, 1.0 + 1e-12, np.nan],
        ]
    )
    plain = np.degrees(np.arccos(np.clip(cos, 0.0, 1.0))) < tol
    assert np.array_equal(angle_below(cos, tol), plain)
    assert plain[:5000].any() and not plain[:5000].all()


@pytest.mark.parametrize("axis", [0, 1])
def test_colour_jump_profiles_equal_the_direct_computation(axis: int) -> None:
    lab, mask = _blobby_city(3)
    jumps = ColourJumps(lab, mask, axis)
    reaches = [2, 3, 5, 8, 9, 11, 11, 16, 19, 23, 33, 37, 8, 60, 200]  # repeats, shared band heights
    for reach in reaches:
        profile = jumps.profile(reach)
        assert np.array_equal(profile, _plain_profile(jumps, reach)), reach
        profile[:] = -1.0  # a caller's changes stay with the caller
    assert jumps.profile(11).max() > 0


def test_both_axes_pool_like_two_separate_profiles() -> None:
    lab, mask = _blobby_city(4)
    singles = [ColourJumps(lab, mask, axis) for axis in (0, 1)]
    for pair, single in zip(ColourJumps.both_axes(lab, mask), singles, strict=True):
        assert np.array_equal(pair.sums, single.sums) and np.array_equal(pair.counts, single.counts)


def test_lab_around_the_card_region_warps_like_the_whole_photo_on_the_mask() -> None:
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    mask = np.zeros((300, 400), np.uint8)
    cv2.ellipse(mask, (190, 160), (120, 80), 20.0, 0.0, 360.0, 255, -1)
    bbox = cv2.boundingRect(mask)
    # A tilted, perspective view of the region, enlarged a little so that samples fall between pixels.
    h = np.array([[1.3, 0.2, -60.0], [-0.15, 1.2, -40.0], [4e-4, -3e-4, 1.0]])
    size = (420, 330)
    whole = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    around = _lab_around(rgb, bbox)
    warped_mask = cv2.warpPerspective(mask, h, size, flags=cv2.INTER_NEAREST)
    a = cv2.warpPerspective(whole, h, size, flags=cv2.INTER_LINEAR)
    b = cv2.warpPerspective(around, h, size, flags=cv2.INTER_LINEAR)
    inside = warped_mask > 0
    assert inside.sum() > 10000 and np.array_equal(a[inside], b[inside])
    assert not np.array_equal(whole, around)  # the far table really was left out
