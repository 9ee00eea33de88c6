"""Photo bytes → an upright RGB array, refusing anything that is not a usable photo.

Accepts JPEG (including the MPO flavour some phones write), PNG, WebP and HEIC/HEIF. The EXIF orientation
tag is applied, so the array is the photo as a person sees it. Size limits are checked against the file
length and against the pixel count read from the header *before* any pixel is decoded, so a small file
that claims a huge image (a decompression bomb) costs nothing.

Every refusal is an :class:`ImageError` (an :class:`~scoring.errors.InputError`) with a stable ``code``.
"""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from scoring.errors import InputError
from vision.photo.jpeg_markers import JpegLayout, jpeg_layout
from vision.photo.pixels import (
    DECODE_POOL,
    ORIENTATION_TAG,
    array_strip,
    codec_pixels,
    pillow_strip,
    reduce_strips,
    upright,
)

MAX_FILE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 64_000_000  # 48/50 MP phone modes pass; anything bigger is refused before decoding
# The most memory one decoding may take (the full-size pixels Pillow holds, plus a conversion where one is
# needed), estimated from the header before a pixel is decoded: a 64 MP RGBA image fits, nothing more.
MAX_DECODE_BYTES = 256 * 2**20
# Bytes per pixel Pillow holds for each mode (RGB is stored in four); modes not listed take 4.
_MODE_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}
# A JPEG's scans, each a pass over the whole image, counted before decoding. libjpeg writes 1 (baseline), at
# most 4 (sequential, a scan per component), 6 (progressive grey), 10 (progressive colour: Pillow, OpenCV,
# jpegtran) and 18 (progressive CMYK); the 29 devset photos have 1 each. 32 leaves room for other encoders'
# scripts and costs at most 32 passes (about 3 s of CPU for a 64 MP image on the development machine).
MAX_JPEG_SCANS = 32
# Markers (segments) of a JPEG: the devset's photos have at most 10, Pillow's progressive CMYK 39. Pillow
# reads each one before the first scan in Python, so a file of a million tiny segments is refused unread.
MAX_JPEG_MARKERS = 1024
MIN_SIDE = 64
# The most the long side may exceed the short side: the scanner shrinks a photo to 2016 px on its long side
# (vision.pipeline.WORK_LONG_SIDE), where the short side must still keep MIN_SIDE pixels (2016 / 64 = 31.5).
MAX_ASPECT = 31
FORMATS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC"}

_heif_registered = False

# 12 MP photos are decoded at half size: ~4 px/mm on a city filling the frame, twice the rectified 2 px/mm.
# A deck photo is decoded the same way, so that its cards are read at a city's scale.
WORK_LONG_SIDE = 2016


class ImageError(InputError):
    """A file that cannot be used as a photo."""

    code = "bad_image"


class NotAnImage(ImageError):
    code = "not_an_image"


class UnsupportedImage(ImageError):
    code = "unsupported_image"


class ImageTooLarge(ImageError):
    code = "image_too_large"


class ImageTooSmall(ImageError):
    code = "image_too_small"


class TruncatedImage(ImageError):
    code = "truncated_image"


class ImageTooComplex(ImageTooLarge):
    """A JPEG with more scans or markers than a photo has: decoding it would cost far more than its size."""

    code = "image_too_complex"


@dataclass(frozen=True)
class DecodedImage:
    """An upright RGB photo. ``scale`` = decoded pixels per pixel of the upright original, whose size in
    pixels is ``original_size`` (width, height)."""

    rgb: np.ndarray
    original_size: tuple[int, int]
    scale: float
    format: str


def _register_heif() -> None:
    global _heif_registered
    if not _heif_registered:
        import pillow_heif  # registers the HEIC opener with Pillow: only once a HEIC photo comes

        pillow_heif.register_heif_opener()
        _heif_registered = True


def _open(data: bytes, max_pixels: int) -> Image.Image:
    """Open lazily (header only) and check the format and the pixel count."""
    _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"the image has too many pixels (more than {max_pixels:,} allowed)") from None
    except (UnidentifiedImageError, SyntaxError, ValueError, OSError):
        raise NotAnImage("not an image: the file is not a JPEG, PNG, WebP or HEIC photo") from None
    if img.format not in FORMATS:
        raise UnsupportedImage(f"unsupported image format {img.format}: send a JPEG, PNG, WebP or HEIC photo")
    width, height = img.size
    if width * height > max_pixels:
        raise ImageTooLarge(
            f"the image is {width} × {height} pixels ({width * height:,}); at most {max_pixels:,} are allowed"
        )
    if min(width, height) < MIN_SIDE:
        raise ImageTooSmall(f"the image is only {width} × {height} pixels; a photo of a city needs more")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageTooSmall(
            f"the image is {width} × {height} pixels, too long and narrow to hold a city: its long side "
            f"may be at most {MAX_ASPECT} times its short side"
        )
    return img


def decoded_bytes(img: Image.Image) -> int:
    """The memory decoding ``img`` (opened, not loaded) takes at its current size: the full-size pixels
    as the decoders hold them, measured per format. Pillow stores RGB in four bytes a pixel; libheif holds
    the YCbCr planes and the RGB(A) result (5 or 6 bytes); libwebp (through OpenCV) fills two canvases of
    three or four bytes a pixel, and animated WebP goes through Pillow's decoder, which holds three."""
    width, height = img.size
    if img.format == "WEBP":
        channels = 4 if img.mode == "RGBA" else 3
        per_pixel = 12 if getattr(img, "is_animated", False) else 2 * channels
    elif img.format == "HEIF":
        per_pixel = 6 if img.mode == "RGBA" else 5
    else:
        per_pixel = _MODE_BYTES.get(img.mode, 4)
    return width * height * per_pixel


def decode_image(
    data: bytes,
    *,
    long_side: int | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    max_pixels: int = MAX_PIXELS,
    max_decode_bytes: int = MAX_DECODE_BYTES,
) -> DecodedImage:
    """Decode ``data`` into an upright ``uint8`` RGB array of shape (H, W, 3).

    With ``long_side``, the result is shrunk (never enlarged) so that its longer side is ``long_side``
    pixels. JPEGs are decoded directly at a reduced scale (several times faster than a full decode); every
    other format is decoded once at full size and reduced strip by strip, converting each strip (alpha laid
    on white, 16-bit to 8-bit) on the way, so no full-size copy is made. The memory the decoding takes
    (:func:`decoded_bytes`) is checked against ``max_decode_bytes`` from the header, before decoding.
    Raises :class:`NotAnImage`, :class:`UnsupportedImage`, :class:`ImageTooLarge`,
    :class:`ImageTooSmall` or :class:`TruncatedImage`.
    """
    if not data:
        raise NotAnImage("not an image: the file is empty")
    if len(data) > max_bytes:
        raise ImageTooLarge(
            f"the file is {len(data) / 2**20:.1f} MiB; at most {max_bytes / 2**20:.0f} MiB allowed"
        )
    layout = _jpeg_structure(data)
    img = _open(data, max_pixels)
    fmt = FORMATS[img.format]  # type: ignore[index]
    original = img.size
    needed = _budget(img, fmt, layout, long_side, max_decode_bytes)
    factor = max(1, max(img.size) // long_side) if long_side else 1
    rgb, bgr, orientation = _decoded(img, fmt, data, original, factor, needed, max_pixels)
    rgb = upright(rgb, orientation)
    # A 90° EXIF turn swaps the sides.
    upright_size = (original[1], original[0]) if orientation in (5, 6, 7, 8) else original
    if long_side is not None:
        rgb, _ = fit_long_side(rgb, long_side)
    if bgr:
        rgb = cv2.cvtColor(rgb, cv2.COLOR_BGR2RGB, dst=rgb if rgb.flags.c_contiguous else None)
    return DecodedImage(rgb, upright_size, rgb.shape[1] / upright_size[0], fmt)


def _budget(
    img: Image.Image, fmt: str, layout: JpegLayout | None, long_side: int | None, max_decode_bytes: int
) -> int:
    """The memory decoding ``img`` will take, with a JPEG set to decode at the smallest DCT scale that still
    covers ``long_side``; :class:`ImageTooLarge` beyond ``max_decode_bytes``."""
    original = img.size
    if long_side is not None and img.format in ("JPEG", "MPO"):
        # draft() picks the smallest DCT scale (1/2, 1/4, 1/8) that still covers the requested size.
        factor = long_side / max(original)
        if factor < 1:
            img.draft("RGB", (math.ceil(original[0] * factor), math.ceil(original[1] * factor)))
    # A progressive JPEG's whole-image coefficients are held besides the output pixels.
    needed = decoded_bytes(img) + (layout.coefficient_bytes(*original) if layout else 0)
    if needed > max_decode_bytes:
        raise ImageTooLarge(
            f"decoding this {original[0]} × {original[1]} {img.mode} {fmt} image would take "
            f"{needed / 2**20:.0f} MiB of memory; at most {max_decode_bytes / 2**20:.0f} MiB are allowed"
        )
    return needed


def _decoded(
    img: Image.Image,
    fmt: str,
    data: bytes,
    original: tuple[int, int],
    factor: int,
    needed: int,
    max_pixels: int,
) -> tuple[np.ndarray, bool, int]:
    """The pixels reduced by ``factor``, whether they are in BGR order, and the EXIF orientation; the
    ``needed`` bytes are held from the process's decoding memory meanwhile, and ``img`` is closed."""
    DECODE_POOL.acquire(needed)
    try:
        pixels, bgr = codec_pixels(img, data, original)
        if pixels is None:
            img.load()
            rgb = reduce_strips(img.size, lambda y0, y1: pillow_strip(img, y0, y1), factor)
        elif factor == 1 and pixels.ndim == 3 and pixels.shape[2] == 3:
            # Three channels at the size wanted: used as decoded; BGR is swapped after the final resize,
            # on fewer pixels (the swap and the area resize commute exactly).
            rgb = pixels
        else:
            size = (pixels.shape[1], pixels.shape[0])
            rgb = reduce_strips(size, lambda y0, y1: array_strip(pixels, y0, y1, bgr), factor)
            bgr = False
        pixels = None  # a full-size array of the codec's goes before the EXIF look-up and the final resize
        orientation = img.getexif().get(ORIENTATION_TAG, 1)
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"the image has too many pixels (more than {max_pixels:,} allowed)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise TruncatedImage(f"the {fmt} file is damaged or cut short ({exc})") from None
    finally:
        img.close()  # the full-size pixels go now, not when the caller's frame ends
        DECODE_POOL.release(needed)
    return rgb, bgr, orientation


def _jpeg_structure(data: bytes) -> JpegLayout | None:
    """The layout of a JPEG (None for other formats), refusing one with more scans or markers than a photo
    has, before Pillow reads its headers or libjpeg its scans."""
    if not data.startswith(b"\xff\xd8"):
        return None
    layout = jpeg_layout(data, max_scans=MAX_JPEG_SCANS, max_markers=MAX_JPEG_MARKERS)
    if layout.scans > MAX_JPEG_SCANS:
        raise ImageTooComplex(
            f"the JPEG has more than {MAX_JPEG_SCANS} scans (a photo has 1, a progressive one up to 18); "
            "each costs a pass over the whole image, so it is refused before decoding"
        )
    if layout.markers > MAX_JPEG_MARKERS:
        raise ImageTooComplex(
            f"the JPEG has more than {MAX_JPEG_MARKERS} markers (a photo has a few dozen at most), "
            "so it is refused before decoding"
        )
    if layout.frames > 1:
        raise TruncatedImage(f"the JPEG file is damaged: it has {layout.frames} frame headers, not one")
    return layout


def fit_long_side(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """``image`` shrunk (area-averaged, never enlarged) so its longer side is at most ``long_side`` px,
    and the scale applied (≤ 1).

    >>> small, scale = fit_long_side(np.zeros((300, 400, 3), np.uint8), 200)
    >>> small.shape, scale
    ((150, 200, 3), 0.5)
    """
    scale = min(1.0, long_side / max(image.shape[:2]))
    if scale >= 1.0:
        return image, 1.0
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


def read_image_file(path: str, **kwargs: int) -> DecodedImage:
    """Read and decode a photo file (see :func:`decode_image`); refuses oversized files before reading."""
    with open(path, "rb") as fh:
        limit = int(kwargs.get("max_bytes", MAX_FILE_BYTES))
        data = fh.read(limit + 1)
    return decode_image(data, **kwargs)  # type: ignore[arg-type]
