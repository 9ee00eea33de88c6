"""Cell crops: the fixed-size patches the cell classifier sees, shared by training and the runtime.

A crop is a window centred on one lattice cell, ``CONTEXT`` times the lattice pitch in each direction (so a
little of every neighbour shows, which lets the classifier cope with a lattice centre that is a few mm off),
resampled to ``CROP_H`` × ``CROP_W`` RGB pixels. Training and the runtime must cut crops the same way, so both
call :func:`extract_crops`; training adds a per-crop :class:`CropJitter` that imitates the errors of the real
lattice fit and rectification.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.lattice import Lattice

CROP_H = 40
CROP_W = 56
# Window size relative to the pitch: 1.25 shows an eighth of a block of context on every side.
CONTEXT = 1.25
# The image is shrunk (area-averaged) before the crops are cut when they see it at under this share of its
# resolution, so the per-crop warps do not alias.
SHRINK_BELOW = 0.9


@dataclass(frozen=True)
class CropJitter:
    """Geometric disturbance of one crop, in units of the crop window.

    ``dx``/``dy`` shift the centre (fractions of the pitch), ``scale`` multiplies the window, ``angle`` turns
    it (degrees), and ``persp`` moves the four window corners independently (fractions of the window size,
    shape (4, 2)) to imitate residual perspective after an imperfect rectification.
    """

    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0
    angle: float = 0.0
    persp: np.ndarray | None = None


def check_rgb_image(image: object, min_side: int, purpose: str) -> np.ndarray:
    """``image`` itself when it is an RGB uint8 array (H, W, 3) with both sides at least ``min_side``
    px; else ``TypeError``/``ValueError`` saying what is wrong, and that it is too small ``purpose``."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(
            f"image must be an RGB uint8 array of shape (H, W, 3), got {image.dtype}, shape {image.shape}"
        )
    if min(image.shape[:2]) < min_side:
        raise ValueError(f"image is too small {purpose}: {image.shape[1]}×{image.shape[0]} px")
    return image


def _window_corners(
    centers: np.ndarray, pitch_x: float, pitch_y: float, context: float, jitter: CropJitter | None
) -> np.ndarray:
    """The four corners (TL, TR, BR, BL) of the crop windows centred at ``centers`` (N × 2) in image
    pixels, all disturbed by one ``jitter``: float32 (N, 4, 2)."""
    j = jitter or CropJitter()
    half_w = 0.5 * context * pitch_x * j.scale
    half_h = 0.5 * context * pitch_y * j.scale
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64)
    if j.persp is not None:
        unit = unit + 2.0 * np.asarray(j.persp, dtype=np.float64).reshape(4, 2)
    local = unit * np.array([half_w, half_h])
    theta = np.deg2rad(j.angle)
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    moved = np.asarray(centers, np.float64).reshape(-1, 1, 2) + np.array([j.dx * pitch_x, j.dy * pitch_y])
    return (local @ rot.T + moved).astype(np.float32)


def extract_crops(
    image: np.ndarray,
    centers: Sequence[tuple[float, float]] | np.ndarray,
    pitch_x: float,
    pitch_y: float,
    *,
    jitters: Sequence[CropJitter | None] | None = None,
    size: tuple[int, int] = (CROP_H, CROP_W),
    context: float = CONTEXT,
) -> np.ndarray:
    """Cut one crop per cell centre.

    Takes an RGB uint8 image (H, W, 3), cell centres in its pixels (x, y), the lattice pitch in pixels and
    optionally one jitter per centre. Returns a uint8 array (N, size[0], size[1], 3). Windows that run off
    the image are filled by replicating the border pixels.
    """
    check_rgb_image(image, 2, "to crop cells from")
    if pitch_x <= 0 or pitch_y <= 0 or not np.isfinite([pitch_x, pitch_y]).all():
        raise ValueError(f"pitch must be positive and finite, got ({pitch_x}, {pitch_y})")
    pts = np.asarray(centers, dtype=np.float64).reshape(-1, 2)
    if jitters is not None and len(jitters) != len(pts):
        raise ValueError(f"got {len(jitters)} jitters for {len(pts)} centres")
    out_h, out_w = size
    small, scale = _shrunk(image, out_h / (context * pitch_y))
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], dtype=np.float32)
    if jitters is None:  # one window shape for all: the corners in one computation
        windows = _window_corners(pts, pitch_x, pitch_y, context, None)
    else:
        each = [_window_corners(p, pitch_x, pitch_y, context, j) for p, j in zip(pts, jitters, strict=True)]
        windows = np.array(each, np.float32).reshape(-1, 4, 2)
    crops = np.empty((len(pts), out_h, out_w, 3), dtype=np.uint8)
    for i, corners in enumerate(windows * scale):
        jitter = jitters[i] if jitters is not None else None
        _warp_into(crops[i], small, dst, corners, perspective=jitter is not None and jitter.persp is not None)
    return crops


def _shrunk(image: np.ndarray, factor: float) -> tuple[np.ndarray, np.ndarray]:
    """The image downsampled once with area averaging (so the per-crop warps do not alias) when ``factor``
    is below :data:`SHRINK_BELOW`, and the scale (x, y) from the image's pixels to its."""
    factor = min(1.0, factor)
    if factor >= SHRINK_BELOW:
        return image, np.array([1.0, 1.0], dtype=np.float32)
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    fx = small.shape[1] / image.shape[1]
    fy = small.shape[0] / image.shape[0]
    return small, np.array([fx, fy], dtype=np.float32)


def _warp_into(
    out: np.ndarray, image: np.ndarray, dst: np.ndarray, corners: np.ndarray, *, perspective: bool
) -> None:
    """Warp the window ``corners`` of ``image`` onto ``out`` (its corners ``dst``): affine from three
    corners, or the full perspective of the four."""
    size = (out.shape[1], out.shape[0])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    if perspective:
        h = cv2.getPerspectiveTransform(dst, corners)
        cv2.warpPerspective(image, h, size, dst=out, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    else:
        m = cv2.getAffineTransform(dst[:3], corners[:3])
        cv2.warpAffine(image, m, size, dst=out, flags=flags, borderMode=cv2.BORDER_REPLICATE)


def lattice_crops(
    rectified: np.ndarray,
    lattice: Lattice,
    *,
    size: tuple[int, int] = (CROP_H, CROP_W),
    context: float = CONTEXT,
) -> np.ndarray:
    """Crops of every lattice cell in reading order: uint8 (rows * cols, size[0], size[1], 3)."""
    if lattice.rows < 1 or lattice.cols < 1:
        raise ValueError(f"lattice has no cells ({lattice.rows} rows × {lattice.cols} columns)")
    if lattice.offsets is not None and np.shape(lattice.offsets) != (lattice.rows, lattice.cols, 2):
        raise ValueError(
            f"lattice offsets must have shape ({lattice.rows}, {lattice.cols}, 2), "
            f"got {np.shape(lattice.offsets)}"
        )
    centers = lattice.centres().reshape(-1, 2)
    return extract_crops(rectified, centers, lattice.pitch_x, lattice.pitch_y, size=size, context=context)
