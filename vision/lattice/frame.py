"""The projective frame a located city is measured in: points mapped through a homography, the frame that
makes the two line families the x and y axes (step 1 of :mod:`vision.lattice.rectify`), and where line
segments lie along its axes."""

from __future__ import annotations

import numpy as np

from vision.lattice.locate import LineFamily, NoCityFound

__all__ = ["axis_frame", "positions_along", "project_points"]


def project_points(h: np.ndarray, pts: np.ndarray, *, in_front: bool = False) -> np.ndarray:
    """Points (N × 2) mapped through the 3 × 3 homography ``h``; with ``in_front``, also whether each lies
    in front of the camera (a positive homogeneous weight), as a second result.

    >>> project_points(np.diag([2.0, 3.0, 1.0]), np.array([[1.0, 1.0]])).tolist()
    [[2.0, 3.0]]
    """
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    mapped = p[:, :2] / p[:, 2:3]
    return (mapped, p[:, 2] > 0) if in_front else mapped  # type: ignore[return-value]


def axis_frame(families: tuple[LineFamily, LineFamily], centre: tuple[float, float]) -> np.ndarray:
    """A homography (photo pixels → frame) that makes family 0 horizontal and family 1 vertical, with
    unit scale and no shear at ``centre`` (the city's middle in the photo)."""
    v1, v2 = families[0].vanishing, families[1].vanishing
    horizon = np.cross(v1, v2)
    c = np.array([centre[0], centre[1], 1.0])
    if abs(horizon @ c) < 1e-12 * np.linalg.norm(horizon):
        raise NoCityFound("no city found: the card edges do not form a consistent grid")
    # Move the centre to the origin, then send the horizon to infinity with w = 1 at the origin: the map's
    # Jacobian there is the identity, so the frame keeps the photo's scale around the city.
    shift = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]])
    line = horizon @ np.linalg.inv(shift)
    hp = np.eye(3)
    hp[2] = line / line[2]
    hp = hp @ shift
    d1 = (hp @ v1)[:2]
    d2 = (hp @ v2)[:2]
    d1 = d1 / np.linalg.norm(d1)
    d2 = d2 / np.linalg.norm(d2)
    if d1[0] < 0:  # pick the sign of each direction that keeps the frame close to the photo
        d1 = -d1
    basis = np.column_stack([d1, d2])
    if np.linalg.det(basis) < 0:
        d2 = -d2
        basis = np.column_stack([d1, d2])
    if abs(np.linalg.det(basis)) < 0.2:  # the two families are nearly parallel: not a grid
        raise NoCityFound("no city found: the straight edges in the photo do not form a grid")
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return affine @ hp


def positions_along(frame: np.ndarray, seg: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Where segments cross ``axis`` in the frame (mean of their mapped end points) and their lengths."""
    a = project_points(frame, seg[:, :2].astype(np.float64))
    b = project_points(frame, seg[:, 2:].astype(np.float64))
    pos = (a[:, axis] + b[:, axis]) / 2
    length = np.linalg.norm(b - a, axis=1)
    return pos, length
