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
from PIL import Image, ImageOps, UnidentifiedImageError

from scoring.errors import InputError

MAX_FILE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 64_000_000  # 48/50 MP phone modes pass; anything bigger is refused before decoding
MIN_SIDE = 64
FORMATS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC"}

_heif_registered = False


class ImageError(InputError):
    """A file that cannot be used as a photo."""

    code = "bad_image"
    status = 400


class NotAnImage(ImageError):
    code = "not_an_image"
    status = 415


class UnsupportedImage(ImageError):
    code = "unsupported_image"
    status = 415


class ImageTooLarge(ImageError):
    code = "image_too_large"
    status = 413


class ImageTooSmall(ImageError):
    code = "image_too_small"


class TruncatedImage(ImageError):
    code = "truncated_image"


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
        import pillow_heif

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
    return img


def decode_image(
    data: bytes,
    *,
    long_side: int | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    max_pixels: int = MAX_PIXELS,
) -> DecodedImage:
    """Decode ``data`` into an upright ``uint8`` RGB array of shape (H, W, 3).

    With ``long_side``, the result is shrunk (never enlarged) so that its longer side is ``long_side``
    pixels; JPEGs are then decoded directly at a reduced scale, which is several times faster than a full
    decode. Raises :class:`NotAnImage`, :class:`UnsupportedImage`, :class:`ImageTooLarge`,
    :class:`ImageTooSmall` or :class:`TruncatedImage`.
    """
    if not data:
        raise NotAnImage("not an image: the file is empty")
    if len(data) > max_bytes:
        raise ImageTooLarge(
            f"the file is {len(data) / 2**20:.1f} MiB; at most {max_bytes / 2**20:.0f} MiB allowed"
        )
    img = _open(data, max_pixels)
    fmt = FORMATS[img.format]  # type: ignore[index]
    original = img.size
    if long_side is not None and img.format in ("JPEG", "MPO"):
        # draft() picks the smallest DCT scale (1/2, 1/4, 1/8) that still covers the requested size.
        factor = long_side / max(original)
        if factor < 1:
            img.draft("RGB", (math.ceil(original[0] * factor), math.ceil(original[1] * factor)))
    try:
        img.load()
        upright = ImageOps.exif_transpose(img)
        rgb = _to_rgb_array(upright)
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"the image has too many pixels (more than {max_pixels:,} allowed)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise TruncatedImage(f"the {fmt} file is damaged or cut short ({exc})") from None
    # A 90° EXIF turn swaps the sides; compare shapes rather than re-reading the tag.
    swapped = upright.size != img.size
    upright_size = (original[1], original[0]) if swapped else original
    if long_side is not None and max(rgb.shape[:2]) > long_side:
        f = long_side / max(rgb.shape[:2])
        size = (max(1, round(rgb.shape[1] * f)), max(1, round(rgb.shape[0] * f)))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
    return DecodedImage(rgb, upright_size, rgb.shape[1] / upright_size[0], fmt)


def _to_rgb_array(img: Image.Image) -> np.ndarray:
    """Any Pillow mode → contiguous uint8 RGB; transparency is laid on white, 16-bit is scaled down."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        arr = np.asarray(img, dtype=np.float64)
        top = 65535.0 if img.mode != "I" or arr.max() > 255 else 255.0
        grey = np.clip(arr * (255.0 / top), 0, 255).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(white, rgba)
    return np.ascontiguousarray(np.asarray(img.convert("RGB"), dtype=np.uint8))


def read_image_file(path: str, **kwargs: int) -> DecodedImage:
    """Read and decode a photo file (see :func:`decode_image`); refuses oversized files before reading."""
    with open(path, "rb") as fh:
        limit = int(kwargs.get("max_bytes", MAX_FILE_BYTES))
        data = fh.read(limit + 1)
    return decode_image(data, **kwargs)  # type: ignore[arg-type]
