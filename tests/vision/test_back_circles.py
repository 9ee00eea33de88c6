"""The number-circle search's shortcuts give what the plain computation gives."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.backs import ring_filter
from vision.backs.circles import _along, _percentile
from vision.backs.ring_filter import MIN_INSIDE, MIN_RESPONSE, SECTORS, ring_response


def _dense_response(yellow: np.ndarray, r: float) -> np.ndarray:
    """The response the plain way: the inside and all 8 sectors averaged over the whole image with
    uncropped kernels, the most yellow sector taken at every pixel."""
    n = int(np.ceil(1.9 * r))
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    rho, angle = np.hypot(xx, yy), np.arctan2(yy, xx)
    ring = (rho >= 1.3 * r) & (rho <= 1.8 * r)
    width = 2 * np.pi / SECTORS

    def mean(mask: np.ndarray) -> np.ndarray:
        kernel = mask.astype(np.float32) / mask.sum()
        return cv2.filter2D(yellow, cv2.CV_64F, kernel.astype(np.float64), borderType=cv2.BORDER_REFLECT)

    inside = mean(rho <= 0.75 * r)
    around = np.max(
        [
            mean(ring & (angle >= -np.pi + s * width) & (angle < -np.pi + (s + 1) * width))
            for s in range(SECTORS)
        ],
        axis=0,
    )
    return np.where(inside >= MIN_INSIDE, inside - around, 0.0)


def _yellow_field(seed: int) -> np.ndarray:
    """Yellowness of a yellowish, grainy table with yellow spots of several sizes and a yellow stripe."""
    rng = np.random.default_rng(seed)
    yellow = rng.normal(9.0, 3.0, (120, 160)).astype(np.float32)
    yellow[:, 100:104] += 25  # a card's edge: yellow on two sides of a spot on it
    for _ in range(14):
        x, y, rad = rng.uniform(0, 160), rng.uniform(0, 120), rng.uniform(2.5, 7)
        cv2.circle(yellow, (int(x), int(y)), int(rad), float(rng.uniform(15, 45)), -1)
    return cv2.GaussianBlur(yellow, (3, 3), 0)


@pytest.mark.parametrize("share", [0.0, 1 / 32, 1.0])  # correlated always, as shipped, gathered always
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_pruned_response_is_the_plain_one_where_it_matters(
    monkeypatch: pytest.MonkeyPatch, share: float, seed: int
) -> None:
    monkeypatch.setattr(ring_filter, "GATHER_SHARE", share)
    yellow = _yellow_field(seed)
    r = 5.0
    pad = int(np.ceil(1.9 * r))
    padded = cv2.copyMakeBorder(yellow, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    fast, plain = ring_response(padded, pad, r), _dense_response(yellow, r)
    strong = plain > MIN_RESPONSE + 1e-3
    assert strong.sum() > 20  # the field has spots to find
    np.testing.assert_allclose(fast[strong], plain[strong], atol=1e-4)
    # Elsewhere the fast response may be 0 instead of a weak value, but never a strong one.
    assert np.all(fast[~strong] <= MIN_RESPONSE + 1e-3)


def test_percentile_is_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(0)
    for size in [1, 2, 3, 7, 10, 101, 1000]:
        for values in (rng.normal(0, 20, size), rng.integers(-60, 60, size) + 0.5):
            values = values.astype(np.float32)
            for q in (0, 12.5, 50, 80, 90, 100):
                assert _percentile(values, q) == float(np.percentile(values, q))


def test_along_walks_the_polygon_about_a_pixel_apart() -> None:
    polygon = np.array([[0.0, 0.0], [10.0, 0.0], [13.0, 4.0], [0.0, 7.0]])
    points = _along(polygon)
    closed = np.vstack([points, points[:1]])
    steps = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    assert steps.max() <= 1.0 + 1e-9 and steps.min() > 0.8
    for vertex in polygon:  # every corner is on the walk
        assert np.min(np.linalg.norm(points - vertex, axis=1)) < 1e-9
    assert len(_along(np.zeros((0, 2)))) == 0
