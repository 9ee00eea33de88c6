"""The vanishing point of one family of line segments: where, in the image, lines parallel on the table
meet (RANSAC over pairs of segments, refined by least squares; see :mod:`vision.lattice.locate`)."""

from __future__ import annotations

import numpy as np

__all__ = ["angle_below", "vanishing_point"]


def angle_below(cos: np.ndarray, tol: float) -> np.ndarray:
    """Whether ``degrees(arccos(clip(cos, 0, 1))) < tol``, elementwise. The cosine is compared with the
    threshold's; only values within 1e-9 of it, where rounding could decide, take the arccos (its error
    is some 1e-16, the band's width in angle some 1e-8)."""
    threshold = np.cos(np.radians(tol))
    below = cos > threshold
    near = np.abs(cos - threshold) < 1e-9
    if near.any():
        below[near] = np.degrees(np.arccos(np.clip(cos[near], 0.0, 1.0))) < tol
    return below


def vanishing_point(
    seg: np.ndarray, rng: np.random.Generator, tol_deg: float = 1.2, trials: int = 256
) -> tuple[np.ndarray, np.ndarray] | None:
    """RANSAC vanishing point of segments in normalised coordinates; returns (point, inlier mask), or None
    when no two segments meet.

    A hypothesis is the intersection of two segments' lines; its support is the total length of segments
    that point at it within ``tol_deg``. The winner is refined by least squares on its inliers.
    """
    p1 = np.hstack([seg[:, :2], np.ones((len(seg), 1))])
    p2 = np.hstack([seg[:, 2:], np.ones((len(seg), 1))])
    lines = np.cross(p1, p2)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    mid = (seg[:, :2] + seg[:, 2:]) / 2
    direction = (seg[:, 2:] - seg[:, :2]) / length[:, None]

    def within(v: np.ndarray, tol: float) -> np.ndarray:
        """Whether the angle between each segment and the ray from its midpoint to each point in ``v``
        (K × 3) is below ``tol`` degrees → (K × N) bool."""
        to_x = v[:, 0:1] - mid[None, :, 0] * v[:, 2:3]
        to_y = v[:, 1:2] - mid[None, :, 1] * v[:, 2:3]
        norm = np.maximum(np.sqrt(to_x * to_x + to_y * to_y), 1e-12)
        cos = np.abs(to_x * direction[None, :, 0] + to_y * direction[None, :, 1]) / norm
        return angle_below(cos, tol)

    prob = length / length.sum()
    i = rng.choice(len(seg), size=trials, p=prob)
    j = rng.choice(len(seg), size=trials, p=prob)
    hyp = np.cross(lines[i], lines[j])
    norm = np.linalg.norm(hyp, axis=1)
    hyp = hyp[(i != j) & (norm > 1e-12)]
    if len(hyp) == 0:
        return None
    hyp /= np.linalg.norm(hyp, axis=1, keepdims=True)
    support = (within(hyp, tol_deg) * length[None]).sum(axis=1)
    best = hyp[int(np.argmax(support))]
    inliers = within(best[None], tol_deg)[0]
    for _ in range(2):
        if inliers.sum() < 4:
            break
        w = length[inliers]
        m = (lines[inliers] * w[:, None]).T @ lines[inliers]
        best = np.linalg.eigh(m)[1][:, 0]
        inliers = within(best[None], tol_deg * 1.5)[0]
    return best, inliers
