"""A pinhole phone camera looking down at the table, as a plane-to-image homography.

Table coordinates are millimetres with x to the right, y down the top-down picture and z into the table,
so that (x, y, z) is right-handed and a camera looking straight down has the table's axes as its own.
"""

from __future__ import annotations

import math

import numpy as np


def _rz(deg: float) -> np.ndarray:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rx(deg: float) -> np.ndarray:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def look_at_table(
    target: tuple[float, float],
    distance: float,
    tilt: float,
    azimuth: float,
    roll: float,
    focal: float,
    size: tuple[int, int],
) -> np.ndarray:
    """3×3 homography from table mm to image pixels for a camera ``distance`` mm from ``target`` along its
    optical axis, the axis ``tilt`` degrees from vertical towards ``azimuth``, turned by ``roll`` degrees
    about the axis; ``focal`` in pixels, principal point at the centre of ``size`` = (width, height)."""
    # Camera-to-table rotation: spin about the vertical, tip the axis, then roll about the axis.
    m = _rz(azimuth) @ _rx(tilt) @ _rz(roll - azimuth)
    forward = m[:, 2]
    centre = np.array([target[0], target[1], 0.0]) - distance * forward
    k = np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]])
    # Points on the plane z = 0: X = (x, y, 0) -> K R^T (X - C).
    plane = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, -centre[2]]])
    h = k @ m.T @ plane
    return h / h[2, 2]


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply homography ``h`` to an N×2 array of points."""
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


def local_scale(h: np.ndarray, pt: tuple[float, float]) -> float:
    """Largest image pixels per table mm at ``pt`` (the homography's largest singular value there)."""
    x, y = pt
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    jac = np.array(
        [
            [(h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w],
            [(h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w],
        ]
    )
    return float(np.linalg.svd(jac, compute_uv=False)[0])
