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
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from scoring.errors import InputError
from vision.jpeg_markers import JpegLayout, jpeg_layout

MAX_FILE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 64_000_000  # 48/50 MP phone modes pass; anything bigger is refused before decoding
# The most memory one decoding may take (the full-size pixels Pillow holds, plus a conversion where one is
# needed), estimated from the header before a pixel is decoded: a 64 MP RGBA image fits, nothing more.
MAX_DECODE_BYTES = 256 * 2**20
# What all decodings running at once in this process may take together: one at the per-image limit, or a
# few ordinary photos; a decoding that does not fit waits for the others to finish.
DECODE_POOL_BYTES = 320 * 2**20
# Bytes per pixel Pillow holds for each mode (RGB is stored in four); modes not listed take 4.
_MODE_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}
_SIXTEEN_BIT = ("I;16", "I;16L", "I;16B", "I;16N")
# A whole JPEG ends with the end-of-image marker; OpenCV's decodings at each DCT scale Pillow's draft() uses.
_JPEG_END = b"\xff\xd9"
_JPEG_SCALES = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
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
    factor = max(1, max(img.size) // long_side) if long_side else 1
    _POOL.acquire(needed)
    try:
        pixels, bgr = _codec_pixels(img, data, original)
        if pixels is None:
            img.load()
            rgb = _reduce_strips(img.size, lambda y0, y1: _pillow_strip(img, y0, y1), factor)
        elif factor == 1 and pixels.ndim == 3 and pixels.shape[2] == 3:
            # Three channels at the size wanted: used as decoded; BGR is swapped after the final resize,
            # on fewer pixels (the swap and the area resize commute exactly).
            rgb = pixels
        else:
            size = (pixels.shape[1], pixels.shape[0])
            rgb = _reduce_strips(size, lambda y0, y1: _array_strip(pixels, y0, y1, bgr), factor)
            bgr = False
        pixels = None  # a full-size array of the codec's goes before the EXIF look-up and the final resize
        orientation = img.getexif().get(_ORIENTATION, 1)
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"the image has too many pixels (more than {max_pixels:,} allowed)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise TruncatedImage(f"the {fmt} file is damaged or cut short ({exc})") from None
    finally:
        img.close()  # the full-size pixels go now, not when the caller's frame ends
        _POOL.release(needed)
    rgb = _upright(rgb, orientation)
    # A 90° EXIF turn swaps the sides.
    upright_size = (original[1], original[0]) if orientation in (5, 6, 7, 8) else original
    if long_side is not None:
        rgb, _ = fit_long_side(rgb, long_side)
    if bgr:
        rgb = cv2.cvtColor(rgb, cv2.COLOR_BGR2RGB, dst=rgb if rgb.flags.c_contiguous else None)
    return DecodedImage(rgb, upright_size, rgb.shape[1] / upright_size[0], fmt)


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


class _BytePool:
    """Bytes of decoding memory shared by the threads of a process (a counting semaphore in bytes)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.free = total
        self._changed = threading.Condition()

    def acquire(self, n: int) -> None:
        n = min(n, self.total)
        with self._changed:
            self._changed.wait_for(lambda: self.free >= n)
            self.free -= n

    def release(self, n: int) -> None:
        with self._changed:
            self.free += min(n, self.total)
            self._changed.notify_all()


_POOL = _BytePool(DECODE_POOL_BYTES)
_ORIENTATION = 0x0112
_STRIP_ROWS = 64  # output rows per strip: a strip's temporary copies stay a few megabytes


def _reduce_strips(size: tuple[int, int], strip: Callable[[int, int], np.ndarray], factor: int) -> np.ndarray:
    """The image of ``size`` (width, height) shrunk by the whole ``factor`` (box average, as Pillow's
    ``reduce``), built from ``strip(y0, y1)``: rows ``y0..y1`` of the full image as uint8 RGB."""
    width, height = size
    out_w, out_h = max(1, width // factor), max(1, height // factor)
    out = np.empty((out_h, out_w, 3), np.uint8)
    for top in range(0, out_h, _STRIP_ROWS):
        bottom = min(out_h, top + _STRIP_ROWS)
        rows = strip(top * factor, min(height, bottom * factor))
        if factor > 1:
            rows = cv2.resize(rows[:, : out_w * factor], (out_w, bottom - top), interpolation=cv2.INTER_AREA)
        out[top:bottom] = rows
    return out


def _on_white(rgba: np.ndarray) -> np.ndarray:
    """RGBA uint8 → RGB uint8 laid on white, in 16-bit integers (no float copy)."""
    alpha = rgba[:, :, 3:4].astype(np.uint16)
    rgb = (rgba[:, :, :3] * alpha + 255 * (255 - alpha) + 127) // 255
    return rgb.astype(np.uint8)


def _grey(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.repeat(values.astype(np.uint8)[:, :, None], 3, axis=2))


def _pillow_strip(img: Image.Image, y0: int, y1: int) -> np.ndarray:
    """Rows ``y0..y1`` of a loaded Pillow image as uint8 RGB: alpha laid on white, 16/32-bit grey scaled."""
    piece = img.crop((0, y0, img.width, y1))
    if piece.mode in _SIXTEEN_BIT:
        return _grey(np.asarray(piece) >> 8)
    if piece.mode == "I":
        values = np.asarray(piece)
        wide = (img.getextrema()[1] or 0) > 255  # type: ignore[index, operator]
        return _grey(values.clip(0, 65535) // 257 if wide else values.clip(0, 255))
    if piece.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (piece.mode == "P" and "transparency" in img.info):
        return _on_white(np.asarray(piece.convert("RGBA")))
    return np.asarray(piece.convert("RGB"))


def _codec_pixels(img: Image.Image, data: bytes, original: tuple[int, int]) -> tuple[np.ndarray | None, bool]:
    """The whole image as one array straight from its codec, where that holds less than Pillow would or
    is quicker, and whether its channels are in BGR order: a colour JPEG through OpenCV at the DCT scale
    Pillow's ``draft`` chose (the same libjpeg-turbo decoding, without Pillow's copy of the pixels into an
    array; only for a file that ends as a whole JPEG does, so that a cut-short one still reaches Pillow's
    error), a still WebP through OpenCV (Pillow's WebP path holds twice as much), a HEIC through
    pillow-heif's own buffer (Pillow would copy it into four bytes a pixel). ``original`` is the image's
    size before ``draft``. ``(None, False)``: let Pillow decode it."""
    if img.format == "JPEG" and img.mode == "RGB" and data.endswith(_JPEG_END):
        # draft() rounds the reduced size up (7999 px at 1/2 is 4000), so the scale is the ratio rounded up.
        flag = _JPEG_SCALES.get(-(-original[0] // img.size[0]))
        if flag is not None:
            pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flag | cv2.IMREAD_IGNORE_ORIENTATION)
            if pixels is not None and pixels.shape == (img.size[1], img.size[0], 3):
                return pixels, True
    if img.format == "WEBP" and not getattr(img, "is_animated", False):
        pixels = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
        if pixels is not None and pixels.dtype == np.uint8:
            return pixels, True
    if img.format == "HEIF":
        import pillow_heif

        try:
            heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
            return np.asarray(heif), False
        except RuntimeError as exc:  # libheif's decoding errors
            raise OSError(str(exc)) from None
    return None, False


def _array_strip(pixels: np.ndarray, y0: int, y1: int, bgr: bool) -> np.ndarray:
    """Rows ``y0..y1`` of a codec's grey, RGB(A) or BGR(A) array as uint8 RGB, alpha laid on white."""
    rows = pixels[y0:y1]
    if rows.ndim == 2:
        return _grey(rows)
    if rows.shape[2] == 4:
        return _on_white(rows[:, :, [2, 1, 0, 3]] if bgr else rows)
    return np.ascontiguousarray(rows[:, :, 2::-1] if bgr else rows[:, :, :3])


# EXIF orientation → the turn that makes the photo upright (as Pillow's ImageOps.exif_transpose). OpenCV's
# turns write the turned copy directly, several times faster than numpy's turned view made contiguous.
_TRANSPOSE: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    2: lambda a: cv2.flip(a, 1),
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),
    5: cv2.transpose,
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.flip(cv2.transpose(a), -1),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}


def _upright(rgb: np.ndarray, orientation: int) -> np.ndarray:
    """Apply the EXIF orientation tag (1–8) so the array is the photo as a person sees it."""
    turn = _TRANSPOSE.get(orientation)
    return rgb if turn is None else turn(rgb)


def read_image_file(path: str, **kwargs: int) -> DecodedImage:
    """Read and decode a photo file (see :func:`decode_image`); refuses oversized files before reading."""
    with open(path, "rb") as fh:
        limit = int(kwargs.get("max_bytes", MAX_FILE_BYTES))
        data = fh.read(limit + 1)
    return decode_image(data, **kwargs)  # type: ignore[arg-type]
