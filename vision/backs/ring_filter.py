"""The ring filter behind the number circles' candidates (step 2 of :mod:`vision.backs.circles`): at each
pixel, the mean yellowness inside a circle minus the most yellow of eight sectors of a ring around it, so
that only a compact spot more yellow than every side scores."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

__all__ = [
    "GATHER_SHARE",
    "MIN_INSIDE",
    "MIN_RESPONSE",
    "SECTORS",
    "SECTOR_ORDER",
    "largest",
    "ring_response",
]


SECTORS = 8


#: The order the sectors are measured in: opposite ones first, as they rule out soonest the pixels that
#: are no spot (on a uniform field, or on a stripe such as a card's edge).
SECTOR_ORDER = (0, 4, 2, 6, 1, 5, 3, 7)


#: Below this share of the image's pixels still to measure, a sector is averaged at those pixels alone
#: (a gather per tap costs ~40× a direct correlation's per pixel).
GATHER_SHARE = 1 / 32


#: Least candidate response (yellowness inside minus the most yellow sector around), Lab units.
MIN_RESPONSE = 5.0


#: Least mean yellowness inside a candidate: the fill is yellow in itself, not only against a blue cloth
#: (the digits' ink, closed away only in part, lowers the mean: the fill alone is ~30).
MIN_INSIDE = 8.0


class _Kernel(NamedTuple):
    """An averaging kernel cropped to its taps: ``weights``, their top left at (``dy``, ``dx``) from the
    pixel averaged around, and the taps' rows and columns in ``weights``."""

    weights: np.ndarray
    dy: int
    dx: int
    taps: tuple[np.ndarray, np.ndarray]


def _ring_kernels(r: float) -> tuple[_Kernel, list[_Kernel]]:
    """Averaging kernels: the inside (0.75 r) and the 8 sectors of the ring 1.3–1.8 r around it, each
    cropped to its taps (a sector is a small piece off the centre, cheap to correlate directly, where the
    whole square would go through a DFT)."""
    n = int(np.ceil(1.9 * r))
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    rho, angle = np.hypot(xx, yy), np.arctan2(yy, xx)
    ring = (rho >= 1.3 * r) & (rho <= 1.8 * r)
    width = 2 * np.pi / SECTORS
    sectors = [
        ring & (angle >= -np.pi + s * width) & (angle < -np.pi + (s + 1) * width) for s in range(SECTORS)
    ]
    return _cropped(rho <= 0.75 * r, n), [_cropped(m, n) for m in sectors]


def _cropped(mask: np.ndarray, n: int) -> _Kernel:
    ys, xs = np.nonzero(mask)
    top, left = int(ys.min()), int(xs.min())
    piece = mask[top : ys.max() + 1, left : xs.max() + 1].astype(np.float32)
    return _Kernel(piece / piece.sum(), top - n, left - n, (ys - top, xs - left))


def _mean_at(padded: np.ndarray, kernel: _Kernel, pixels: np.ndarray, correlate: bool) -> np.ndarray:
    """The kernel's mean around ``pixels`` (flat indices into ``padded``): from a correlation of the whole
    image (``correlate``), or gathered at those pixels alone."""
    row = padded.shape[1]
    corners = pixels + kernel.dy * row + kernel.dx
    if correlate:  # anchored at its top left, the piece's mean around p lands on p's top-left corner
        out = cv2.filter2D(padded, -1, kernel.weights, anchor=(0, 0), borderType=cv2.BORDER_REFLECT)
        return out.ravel()[corners]
    taps = kernel.taps[0] * row + kernel.taps[1]
    return padded.ravel()[corners[:, None] + taps].mean(axis=1)


def ring_response(padded: np.ndarray, pad: int, r: float) -> np.ndarray:
    """The mean inside radius 0.75 r less the largest of its 8 ring-sector means, where the inside is
    yellow (MIN_INSIDE) and that exceeds MIN_RESPONSE; 0 elsewhere, at each pixel of the image that
    ``padded`` holds with ``pad`` reflected pixels on each side.

    A sector can only lower the response, so each is measured only at the pixels that the sectors before
    it left above MIN_RESPONSE: across the whole image while they are many, at those pixels alone once
    they are few (after the first sector, a few per cent of the image)."""
    inner, sectors = _ring_kernels(r)
    h, w = padded.shape[0] - 2 * pad, padded.shape[1] - 2 * pad
    top, left = pad + inner.dy, pad + inner.dx
    inside = cv2.filter2D(padded, -1, inner.weights, anchor=(0, 0), borderType=cv2.BORDER_REFLECT)
    inside = inside[top : top + h, left : left + w].ravel()
    live = np.flatnonzero(inside >= MIN_INSIDE)
    around = np.full(live.size, -np.inf, np.float32)
    for s in SECTOR_ORDER:
        at = (live // w + pad) * padded.shape[1] + live % w + pad
        around = np.maximum(around, _mean_at(padded, sectors[s], at, live.size > GATHER_SHARE * inside.size))
        above = inside[live] - around > MIN_RESPONSE
        live, around = live[above], around[above]
    response = np.zeros(inside.size, np.float32)
    response[live] = inside[live] - around
    return response.reshape(h, w)


def largest(arrays: list[np.ndarray]) -> np.ndarray:
    """Element-wise maximum of same-shaped ``arrays``, pairwise (``np.max`` would stack them first)."""
    out = arrays[0].copy()
    for a in arrays[1:]:
        np.maximum(out, a, out=out)
    return out
