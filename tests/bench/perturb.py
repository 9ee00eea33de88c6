"""What a phone and a room do to a photo, made at run time from a photo's bytes: the perturbations the
devset is read in by ``tests/bench/bench_real.py --perturb`` (see :mod:`tests.bench.perturbed`).

Plain functions over numpy RGB images (H, W, 3, uint8) and JPEG bytes, with nothing random in them: the same
photo always gives the same perturbed photo. :func:`perturbed` maps a perturbation's name to what the scanner
is handed: an RGB image for the changes a pixel array can hold exactly (the scan reads it as it reads a
decoded photo) or the bytes of a file for what lives in the file (a JPEG's quality, its EXIF orientation,
HEIC).

Where a change is made "on the city" (glare, shadow) it is placed by fractions of the frame around its
middle, where the devset's cities lie: the scanner's own view of where the city is is not used, so that a
perturbation never depends on the code it measures. One perturbation cannot do without the city's place:
"no scoring cards in view" (:data:`LOCATED`) crops the photo to the city and a margin, so that the
scoring cards' backs lying beside it are out of the frame; the caller gives that place (:class:`CityBox`,
from the upright reading's cells: the devset's truth names blocks, not pixels).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

__all__ = [
    "EXIF_ORIENTATION",
    "LOCATED",
    "PERTURBATIONS",
    "CityBox",
    "crop_to_city",
    "crop_edges",
    "crop_fraction",
    "dim_warm",
    "exif_rotated",
    "glare_spot",
    "heic_bytes",
    "jpeg_bytes",
    "perturbed",
    "shadow_band",
    "shrunk_recompressed",
    "steeper",
    "turned",
]

EXIF_ORIENTATION = 0x0112
# How a re-saved photo is written where the perturbation is not about compression (a phone's own quality).
SAVE_QUALITY = 92
# A phone camera's focal length as a fraction of the long side (a 26 mm-equivalent lens on a 4:3 sensor).
FOCAL_OF_LONG_SIDE = 0.8
# "No scoring cards in view" keeps this many blocks' widths of table round the city: the devset's backs lie
# about a block or more away from it; at 0.3 a tilted city's corner cell looked cut by the frame (3 of 24
# readings asked for a retake), at 0.5 none did and no back was seen.
CITY_MARGIN = 0.5


@dataclass(frozen=True)
class CityBox:
    """Where the city lies in a photo: its cells' bounding box (``x0``, ``y0``, ``x1``, ``y1``, pixels)
    and a block's width there (``cell``, pixels)."""

    x0: float
    y0: float
    x1: float
    y1: float
    cell: float


def turned(rgb: np.ndarray, degrees: int) -> np.ndarray:
    """``rgb`` turned clockwise by a multiple of 90 degrees (pixels moved, none changed)."""
    if degrees % 90:
        raise ValueError(f"a turn must be a multiple of 90 degrees, not {degrees}")
    return np.ascontiguousarray(np.rot90(rgb, -(degrees // 90) % 4))


def crop_edges(rgb: np.ndarray, left: int = 0, top: int = 0, right: int = 0, bottom: int = 0) -> np.ndarray:
    """``rgb`` with that many pixels cut off each side."""
    h, w = rgb.shape[:2]
    if min(left, top, right, bottom) < 0 or left + right >= w or top + bottom >= h:
        raise ValueError(f"cannot crop {left},{top},{right},{bottom} px off a {w} x {h} image")
    return np.ascontiguousarray(rgb[top : h - bottom, left : w - right])


def crop_fraction(rgb: np.ndarray, fraction: float) -> np.ndarray:
    """``rgb`` with ``fraction`` of its width and height cut off every side (0.04: 4 % all round)."""
    h, w = rgb.shape[:2]
    dx, dy = round(w * fraction), round(h * fraction)
    return crop_edges(rgb, dx, dy, dx, dy)


def jpeg_bytes(rgb: np.ndarray, quality: int = SAVE_QUALITY, exif: bytes | None = None) -> bytes:
    """``rgb`` saved as a JPEG (4:2:0, as phones write them), with an EXIF block when given."""
    buf = io.BytesIO()
    extra = {"exif": exif} if exif is not None else {}
    Image.fromarray(rgb).save(buf, format="JPEG", quality=quality, subsampling=2, **extra)
    return buf.getvalue()


def shrunk_recompressed(rgb: np.ndarray, scale: float = 0.6, quality: int = 70) -> bytes:
    """``rgb`` shrunk to ``scale`` of its size (area-averaged) and saved as a JPEG of ``quality``."""
    h, w = rgb.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return jpeg_bytes(cv2.resize(rgb, size, interpolation=cv2.INTER_AREA), quality)


def dim_warm(rgb: np.ndarray, darker: float = 0.2, warmth: float = 0.1) -> np.ndarray:
    """``rgb`` ``darker`` darker with a warm cast: red up and blue down by ``warmth`` (a lamp indoors)."""
    gain = (1.0 - darker) * np.array([1.0 + warmth, 1.0, 1.0 - warmth], np.float32)
    return np.clip(rgb.astype(np.float32) * gain + 0.5, 0, 255).astype(np.uint8)


def exif_rotated(rgb: np.ndarray, quality: int = SAVE_QUALITY) -> bytes:
    """A JPEG that stores ``rgb`` turned a quarter counter-clockwise with EXIF orientation 6 ("turn the
    pixels a quarter clockwise to show them"), so that its upright view is ``rgb`` itself."""
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = 6
    return jpeg_bytes(turned(rgb, -90), quality, exif.tobytes())


def heic_bytes(rgb: np.ndarray, quality: int = 90) -> bytes:
    """``rgb`` saved as HEIC (an iPhone's own format)."""
    import pillow_heif

    heif = pillow_heif.from_bytes(mode="RGB", size=(rgb.shape[1], rgb.shape[0]), data=rgb.tobytes())
    buf = io.BytesIO()
    heif.save(buf, quality=quality)
    return buf.getvalue()


def _falloff(shape: tuple[int, ...], distance: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    h, w = shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return distance(xs, ys)


def glare_spot(
    rgb: np.ndarray, centre: tuple[float, float] = (0.45, 0.42), radius: float = 0.06, strength: float = 1.1
) -> np.ndarray:
    """A lamp's glare on glossy cards: a soft spot, ``radius`` of the long side, at ``centre`` (fractions
    of width and height), washing the colours out towards white; past 1, ``strength`` clips its core to
    white (a specular highlight saturates the sensor)."""
    h, w = rgb.shape[:2]
    sigma = radius * max(h, w)
    cx, cy = centre[0] * w, centre[1] * h
    spot = _falloff(rgb.shape, lambda x, y: np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * sigma**2)))
    a = np.minimum(1.0, strength * spot)[..., None]
    out = rgb.astype(np.float32) * (1 - a) + 255.0 * a
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def shadow_band(
    rgb: np.ndarray, width: float = 0.12, depth: float = 0.45, angle_deg: float = 30.0
) -> np.ndarray:
    """A soft shadow band (an arm, the phone) across the middle of the frame: ``width`` of the long side
    wide, darkening by ``depth`` at its centre line, tilted ``angle_deg`` from vertical."""
    h, w = rgb.shape[:2]
    sigma = width * max(h, w) / 2.355  # full width at half depth
    t = np.deg2rad(angle_deg)
    nx, ny = np.cos(t), np.sin(t)  # the band's normal
    shade = _falloff(
        rgb.shape,
        lambda x, y: np.exp(-(((x - w / 2) * nx + (y - h / 2) * ny) ** 2) / (2 * sigma**2)),
    )
    out = rgb.astype(np.float32) * (1 - depth * shade)[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def steeper(rgb: np.ndarray, degrees: float = 15.0) -> np.ndarray:
    """``rgb`` re-warped as if the phone were tilted ``degrees`` further from looking straight down (its
    top edge away from the table): the homography of the camera turned about its horizontal axis, centred
    again and scaled so the whole photo stays in the frame (the table's edge colour fills the corners)."""
    h, w = rgb.shape[:2]
    f = FOCAL_OF_LONG_SIDE * max(h, w)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t = np.deg2rad(degrees)
    # Turned about the x axis this way, the top of the frame (the table's far side) moves away.
    turn = np.array([[1, 0, 0], [0, np.cos(t), np.sin(t)], [0, -np.sin(t), np.cos(t)]])
    hom = k @ turn @ np.linalg.inv(k)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float).T
    moved = hom @ corners
    moved = moved[:2] / moved[2]
    lo, hi = moved.min(axis=1), moved.max(axis=1)
    scale = min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    fit = np.array([[scale, 0, 0], [0, scale, 0], [0, 0, 1.0]])
    fit[:2, 2] = np.array([w / 2, h / 2]) - scale * (lo + hi) / 2
    return cv2.warpPerspective(
        rgb, fit @ hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def crop_to_city(rgb: np.ndarray, box: CityBox, margin: float = CITY_MARGIN) -> np.ndarray:
    """``rgb`` cut down to the city's ``box`` and ``margin`` blocks' widths round it (within the frame):
    what lies beside the city, the scoring cards' backs among it, is out of view."""
    h, w = rgb.shape[:2]
    pad = margin * box.cell
    left, top = max(0, round(box.x0 - pad)), max(0, round(box.y0 - pad))
    right, bottom = max(0, w - round(box.x1 + pad)), max(0, h - round(box.y1 + pad))
    if (left, top, right, bottom) == (0, 0, 0, 0):
        raise ValueError("the city fills the frame: nothing beside it to cut off")
    return crop_edges(rgb, left, top, right, bottom)


# name → what to do to the upright photo's pixels; an array is scanned as a decoded photo, bytes as a file.
PERTURBATIONS: dict[str, Callable[[np.ndarray], np.ndarray | bytes]] = {
    "rot90": lambda rgb: turned(rgb, 90),
    "rot180": lambda rgb: turned(rgb, 180),
    "rot270": lambda rgb: turned(rgb, 270),
    "crop3": lambda rgb: crop_edges(rgb, left=3, top=3),
    "crop4pc": lambda rgb: crop_fraction(rgb, 0.04),
    "shrink60q70": shrunk_recompressed,
    "dimwarm": dim_warm,
    "exif6": exif_rotated,
    "heic": heic_bytes,
    "glare": glare_spot,
    "shadow": shadow_band,
    "steeper15": steeper,
}
# name → what to do to the upright photo's pixels knowing where the city lies in them.
LOCATED: dict[str, Callable[[np.ndarray, CityBox], np.ndarray]] = {"nocards": crop_to_city}


def perturbed(name: str, rgb: np.ndarray, box: CityBox | None = None) -> np.ndarray | bytes:
    """The upright photo ``rgb`` under perturbation ``name`` (one of :data:`PERTURBATIONS`, or of
    :data:`LOCATED` with the city's ``box``)."""
    if name in LOCATED:
        if box is None:
            raise ValueError(f"perturbation {name!r} needs to know where the city lies")
        return LOCATED[name](rgb, box)
    if name not in PERTURBATIONS:
        raise ValueError(f"unknown perturbation {name!r}; known: {', '.join([*PERTURBATIONS, *LOCATED])}")
    return PERTURBATIONS[name](rgb)
