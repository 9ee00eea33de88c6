"""Undo a photo's colour cast from the city's own whites, before the cells are classified.

Commercial and industrial blocks differ mostly in b*, by about 9 units, and a white-balance shift moves both
(``real-cards.md``): a cell seen alone cannot tell a bluish cast on industrial from commercial. Every city has
white in it, though (road centre dashes, parking stripes, smoke, sports-field lines, the scoring cards), so
the brightest near-neutral pixels of the city give the cast, and scaling the channels to make them grey takes
it out (the "white patch" method, restricted to the city and made robust to coloured highlights).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import Lattice

# Pixels this bright in any channel are clipped (glare): their colour says nothing about the cast.
CLIPPED = 250
# The brightest share of the region's pixels, and of those the least saturated share, make the white.
BRIGHT_SHARE = 0.05
NEUTRAL_SHARE = 0.5
# A correction beyond this per channel is more likely a city without white than a real cast.
MAX_GAIN = 1.35


def white_gains(image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Per-channel gains (float32, shape (3,), mean 1) that turn the region's whites grey.

    ``image`` is RGB uint8 (H, W, 3); ``box`` is ``(x0, y0, x1, y1)`` in pixels (clipped to the image), the
    whole image when ``None``. Returns ones when the region has too few usable pixels.

    >>> img = np.full((40, 40, 3), (120, 90, 60), np.uint8)
    >>> img[::4] = (240, 230, 200)  # warm "white" lines: a yellow cast
    >>> g = white_gains(img)
    >>> bool(g[2] > 1 > g[0])
    True
    """
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(w, int(x1)), min(h, int(y1))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return np.ones(3, np.float32)
    # The channel max and sum of uint8 pixels are exact in integers; float32 only for the few kept. The
    # sampled pixels stay a strided view, and are picked once (in their order) when both tests are known.
    u8 = image[y0:y1:2, x0:x1:2]
    usable = np.maximum(np.maximum(u8[..., 0], u8[..., 1]), u8[..., 2]) < CLIPPED
    if np.count_nonzero(usable) < 50:
        return np.ones(3, np.float32)
    # The channel mean as float32 computes it: the (exact) sum divided by 3, rounded once.
    lum = (u8[..., 0].astype(np.uint16) + u8[..., 1] + u8[..., 2]).astype(np.float32) / 3
    picked = usable & (lum >= np.quantile(lum[usable], 1 - BRIGHT_SHARE))
    bright = u8[picked].astype(np.float32)
    top = bright.max(axis=1)
    sat = (top - bright.min(axis=1)) / np.maximum(top, 1.0)
    white = bright[sat <= np.quantile(sat, NEUTRAL_SHARE)]
    ref = np.median(white, axis=0)
    if ref.min() < 1.0:
        return np.ones(3, np.float32)
    gains = np.clip(ref.mean() / ref, 1 / MAX_GAIN, MAX_GAIN)
    return (gains / gains.mean()).astype(np.float32)


def balance_whites(image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """``image`` (RGB uint8) with the cast measured in ``box`` (see :func:`white_gains`) taken out: a new
    uint8 image of the same shape."""
    return apply_gains(image, white_gains(image, box))


def apply_gains(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (RGB uint8) with each channel scaled by its float32 gain, clipped and truncated to uint8:
    a new image, the same to the bit as scaling every pixel in float32.

    Each channel takes 256 values, so the products are computed once per value and looked up.

    >>> img = np.array([[[10, 200, 255]]], np.uint8)
    >>> apply_gains(img, np.array([1.5, 0.5, 1.2], np.float32)).tolist()
    [[[15, 100, 255]]]
    """
    values = np.arange(256, dtype=np.float32)[:, None]
    lut = np.clip(values * np.asarray(gains, np.float32), 0, 255).astype(np.uint8).reshape(1, 256, 3)
    return cv2.LUT(np.ascontiguousarray(image), lut)


def lattice_box(lattice: Lattice) -> tuple[int, int, int, int]:
    """The pixel box ``(x0, y0, x1, y1)`` a lattice covers (offsets ignored: they are a few pixels)."""
    x0, y0 = lattice.origin
    return (
        int(np.floor(x0)),
        int(np.floor(y0)),
        int(np.ceil(x0 + lattice.cols * lattice.pitch_x)),
        int(np.ceil(y0 + lattice.rows * lattice.pitch_y)),
    )
