"""How the light falls across the table: a smooth field of relative brightness, measured on the table itself.

A shadow (an arm, the phone) or a lamp's fall-off multiplies every channel under it by one factor: the
brightness changes, the chromaticity (each channel's share) does not. Where a pixel has the table's
chromaticity and its neighbourhood is calm, its brightness over the table colour's own says how much light
reaches it; spreading those ratios smoothly over the photo (a normalised convolution: the table's ratios
blurred, divided by how much table the blur saw) gives the light everywhere, and dividing the photo by it
gives the photo as if lit evenly. Where no table is near (deep
inside a large city) a wider blur fills in, and far from any table the light is taken as even (1).

The border band the table colours come from is 1 by construction, and light within :data:`EVEN_WITHIN` of it
counts as even, so a photo lit evenly is left exactly as it is.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["OVEREXPOSED_SHARE", "channel_max", "channel_min", "clipped_share", "even_light", "light_field"]

# A pixel clipped to white: every channel at least this (a photo exposed past the sensor's range).
CLIPPED_FROM = 250
#: A photo is overexposed when at least this share of it is clipped to white: the devset's 24 phone photos
#: measure 0.000 (a white cloth's median at 250 among them), rendered cities exposed ×1.1 on a white table
#: 0.07, ×1.26 and ×1.43 0.55 and 0.72 (random editions 37 091 and 37 020, whose pale grounds came out
#: white: their retakes blamed a shadow and glare).
OVEREXPOSED_SHARE = 0.25
# A pixel is "table-like" when its chromaticity (each channel's share of R + G + B, which a change of light
# leaves alone) lies this close to a table colour's ...
TABLE_CHROMA = 0.02
# ... its brightness (R + G + B) is within these ratios of that colour's (a shadow darkens, a lamp
# brightens), and it is bright enough for its chromaticity to mean something.
RATIO_RANGE = (0.35, 1.3)
MIN_SUM = 45.0
# The field never corrects beyond these ratios: deeper changes are not light but something on the table.
FIELD_RANGE = (0.4, 1.25)
# The light is measured on a copy this long (pixels on its long side).
FIELD_LONG_SIDE = 128
# Blur widths as fractions of the image's long side: the fine one follows a shadow's edge, the wide one
# fills in across a city.
FINE_SIGMA = 1 / 40
WIDE_SIGMA = 1 / 8
# Light that varies by less than this is left alone (a photo lit evenly is read exactly as it is); beyond
# it the field is shrunk towards 1 by this much, so that it stays continuous. At 0.05 a render's own light
# fall-off was lifted and its lattice moved (a training photo read 43 of 44 blocks); at 0.15 the devset's
# shadow band still reads as in even light (6 of 6 photos it had broken).
EVEN_WITHIN = 0.15
# How much table (the blurred share of table-like pixels) the fine blur must see to be trusted alone.
FINE_SUPPORT = 0.3
WIDE_SUPPORT = 0.02


def _table_ratio(rgb: np.ndarray, table_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pixel, (its chromaticity distance to the nearest table colour, its brightness over that
    colour's); the nearest is chosen by chromaticity, a brightness far from the colour's weighing a little
    (a cloth of light and dark patches of one hue)."""
    f = rgb.astype(np.float32)
    total = f.sum(axis=2) + 1e-3
    share = f[..., :2] / total[..., None]
    best = np.full(rgb.shape[:2], np.inf, np.float32)
    chroma = np.full(rgb.shape[:2], np.inf, np.float32)
    ratio = np.ones(rgb.shape[:2], np.float32)
    for colour in np.asarray(table_rgb, np.float32):
        c_total = max(float(colour.sum()), 1.0)
        dc = np.hypot(share[..., 0] - colour[0] / c_total, share[..., 1] - colour[1] / c_total)
        r = total / c_total
        d = dc + 0.02 * np.abs(np.log(np.maximum(r, 1e-3)))
        closer = d < best
        best[closer], chroma[closer], ratio[closer] = d[closer], dc[closer], r[closer]
    return chroma, ratio, total


def _spread(values: np.ndarray, weight: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Normalised convolution: (the weighted blur of ``values``, the blurred weight)."""
    num = cv2.GaussianBlur(values * weight, (0, 0), sigma)
    den = cv2.GaussianBlur(weight, (0, 0), sigma)
    return num / np.maximum(den, 1e-6), den


def light_field(rgb: np.ndarray, table_rgb: np.ndarray, calm: np.ndarray) -> np.ndarray:
    """The relative light (float32, H × W, 1 where lit like the photo's border) of an RGB photo (uint8)
    whose table colours are ``table_rgb`` (K × 3 RGB); ``calm`` (bool) marks pixels whose neighbourhood has
    no drawing in it (the table, not a card).

    The light is smooth, so it is measured on a copy :data:`FIELD_LONG_SIDE` px long (area-averaged; a
    pixel there is calm when all it covers is) and enlarged."""
    h, w = rgb.shape[:2]
    if len(table_rgb) == 0:
        return np.ones((h, w), np.float32)
    f = min(1.0, FIELD_LONG_SIDE / max(h, w))
    size = (max(1, round(w * f)), max(1, round(h * f)))
    coarse = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
    still = cv2.resize(calm.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0.999
    chroma, ratio, total = _table_ratio(coarse, table_rgb)
    like = still & (chroma < TABLE_CHROMA) & (total > MIN_SUM)
    like &= (ratio > RATIO_RANGE[0]) & (ratio < RATIO_RANGE[1])
    weight = like.astype(np.float32)
    long_side = max(size)
    fine, fine_seen = _spread(ratio, weight, FINE_SIGMA * long_side)
    wide, wide_seen = _spread(ratio, weight, WIDE_SIGMA * long_side)
    # Where the wide blur saw almost no table, the light is taken as even.
    wide = np.where(wide_seen > WIDE_SUPPORT, wide, 1.0)
    trust = np.clip(fine_seen / FINE_SUPPORT, 0.0, 1.0)
    off = trust * fine + (1.0 - trust) * wide - 1.0
    off = np.sign(off) * np.maximum(np.abs(off) - EVEN_WITHIN, 0.0)
    if not off.any():
        return np.ones((h, w), np.float32)
    field = cv2.resize((1.0 + off).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(field, *FIELD_RANGE).astype(np.float32)


def even_light(rgb: np.ndarray, field: np.ndarray) -> np.ndarray:
    """``rgb`` (uint8) divided by the light ``field``: the photo as if lit evenly (``rgb`` itself where the
    field is even)."""
    if not (field != 1.0).any():
        return rgb
    return np.clip(rgb.astype(np.float32) / field[..., None] + 0.5, 0, 255).astype(np.uint8)


def channel_min(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's least channel (OpenCV's: numpy's reduction over the last axis is 10–20 times slower)."""
    r, g, b = cv2.split(rgb)
    return cv2.min(cv2.min(r, g), b)


def channel_max(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's greatest channel."""
    r, g, b = cv2.split(rgb)
    return cv2.max(cv2.max(r, g), b)


def clipped_share(rgb: np.ndarray) -> float:
    """The share of the RGB image's pixels clipped to white (every channel at least :data:`CLIPPED_FROM`):
    where the exposure ran past the sensor's range, pale colours and white alike came out pure white.

    >>> img = np.full((4, 4, 3), 120, np.uint8); img[0] = 255
    >>> clipped_share(img)
    0.25
    """
    low = channel_min(rgb)
    return float(cv2.countNonZero(cv2.compare(low, CLIPPED_FROM, cv2.CMP_GE))) / max(low.size, 1)
