"""The decoding's pixel work, with no full-size copy: a decoder's pixels reduced strip by strip (each
strip converted to 8-bit RGB, alpha laid on white, on the way), a codec's own array where it holds less than
Pillow would, the memory all decodings share, and the EXIF turn.

:func:`vision.photo.decode.decode_image` checks the photo and its budget, then hands its pixels here.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import cv2
import numpy as np
from PIL import Image

__all__ = [
    "DECODE_POOL",
    "ORIENTATION_TAG",
    "DECODE_POOL_BYTES",
    "BytePool",
    "array_strip",
    "codec_pixels",
    "pillow_strip",
    "reduce_strips",
    "upright",
]

# What all decodings running at once in this process may take together: one at the per-image limit, or a
# few ordinary photos; a decoding that does not fit waits for the others to finish.
DECODE_POOL_BYTES = 320 * 2**20
_SIXTEEN_BIT = ("I;16", "I;16L", "I;16B", "I;16N")
# A whole JPEG ends with the end-of-image marker; OpenCV's decodings at each DCT scale Pillow's draft() uses.
_JPEG_END = b"\xff\xd9"
_JPEG_SCALES = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


class BytePool:
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


DECODE_POOL = BytePool(DECODE_POOL_BYTES)
ORIENTATION_TAG = 0x0112  # EXIF
_STRIP_ROWS = 64  # output rows per strip: a strip's temporary copies stay a few megabytes


def reduce_strips(size: tuple[int, int], strip: Callable[[int, int], np.ndarray], factor: int) -> np.ndarray:
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


def pillow_strip(img: Image.Image, y0: int, y1: int) -> np.ndarray:
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


def codec_pixels(img: Image.Image, data: bytes, original: tuple[int, int]) -> tuple[np.ndarray | None, bool]:
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
        import pillow_heif  # HEIC only (see vision.photo.decode._register_heif)

        try:
            heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
            return np.asarray(heif), False
        except RuntimeError as exc:  # libheif's decoding errors
            raise OSError(str(exc)) from None
    return None, False


def array_strip(pixels: np.ndarray, y0: int, y1: int, bgr: bool) -> np.ndarray:
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


def upright(rgb: np.ndarray, orientation: int) -> np.ndarray:
    """Apply the EXIF orientation tag (1–8) so the array is the photo as a person sees it."""
    turn = _TRANSPOSE.get(orientation)
    return rgb if turn is None else turn(rgb)
