"""Photo decoding: formats, EXIF orientation, reduced-size JPEG decoding and every refusal."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from scoring.errors import InputError
from tests.conftest import png_bomb
from vision.photo.decode import (
    ImageTooLarge,
    ImageTooSmall,
    NotAnImage,
    TruncatedImage,
    UnsupportedImage,
    decode_image,
)


def _quadrants(w: int = 240, h: int = 160) -> np.ndarray:
    """An image whose four quadrants have distinct colours, so any turn or mirror is detectable."""
    img = np.zeros((h, w, 3), np.uint8)
    img[: h // 2, : w // 2] = (220, 30, 30)  # top-left red
    img[: h // 2, w // 2 :] = (30, 220, 30)  # top-right green
    img[h // 2 :, : w // 2] = (30, 30, 220)  # bottom-left blue
    img[h // 2 :, w // 2 :] = (230, 230, 40)  # bottom-right yellow
    return img


def _encode(arr: np.ndarray, fmt: str, orientation: int | None = None, **kw: object) -> bytes:
    im = Image.fromarray(arr)
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation
        kw["exif"] = exif.tobytes()
    buf = io.BytesIO()
    im.save(buf, format=fmt, **kw)
    return buf.getvalue()


def _corner_colours(rgb: np.ndarray) -> list[tuple[int, ...]]:
    h, w = rgb.shape[:2]
    pts = [(h // 8, w // 8), (h // 8, 7 * w // 8), (7 * h // 8, w // 8), (7 * h // 8, 7 * w // 8)]
    return [tuple(int(v) for v in rgb[y, x]) for y, x in pts]


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 25) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 220, 30), (30, 30, 220), (230, 230, 40)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "HEIF"])
def test_each_format_decodes_to_rgb(fmt: str) -> None:
    src = _quadrants()
    out = decode_image(_encode(src, fmt, quality=95) if fmt != "PNG" else _encode(src, fmt))
    assert out.rgb.dtype == np.uint8 and out.rgb.shape == (160, 240, 3)
    got = _corner_colours(out.rgb)
    for g, want in zip(got, [RED, GREEN, BLUE, YELLOW], strict=True):
        assert _close(g, want), (fmt, got)
    assert out.format == {"WEBP": "WebP", "HEIF": "HEIC"}.get(fmt, fmt)


@pytest.mark.parametrize(
    ("orientation", "corners"),
    [
        (1, [RED, GREEN, BLUE, YELLOW]),
        (3, [YELLOW, BLUE, GREEN, RED]),  # turned 180°
        (6, [BLUE, RED, YELLOW, GREEN]),  # stored turned 90° anticlockwise: shown turned clockwise
        (8, [GREEN, YELLOW, RED, BLUE]),
    ],
)
def test_exif_orientation_is_applied(orientation: int, corners: list[tuple[int, int, int]]) -> None:
    out = decode_image(_encode(_quadrants(), "JPEG", orientation, quality=95))
    swapped = orientation in (6, 8)
    assert out.rgb.shape[:2] == ((240, 160) if swapped else (160, 240))
    assert out.original_size == ((160, 240) if swapped else (240, 160))
    for g, want in zip(_corner_colours(out.rgb), corners, strict=True):
        assert _close(g, want)


def test_heic_orientation_is_applied_once() -> None:
    out = decode_image(_encode(_quadrants(), "HEIF", 6, quality=95))
    assert out.rgb.shape[:2] == (240, 160)
    for g, want in zip(_corner_colours(out.rgb), [BLUE, RED, YELLOW, GREEN], strict=True):
        assert _close(g, want, tol=35)


def test_long_side_shrinks_a_jpeg_and_reports_the_scale() -> None:
    src = np.repeat(np.repeat(_quadrants(), 8, axis=0), 8, axis=1)  # 1920 × 1280
    out = decode_image(_encode(src, "JPEG", quality=90), long_side=500)
    assert out.rgb.shape == (333, 500, 3) or out.rgb.shape == (334, 500, 3)
    assert out.original_size == (1920, 1280)
    assert out.scale == pytest.approx(500 / 1920)
    assert _close(_corner_colours(out.rgb)[3], YELLOW)


def test_long_side_never_enlarges() -> None:
    out = decode_image(_encode(_quadrants(), "PNG"), long_side=4000)
    assert out.rgb.shape == (160, 240, 3) and out.scale == 1.0


def test_png_with_alpha_and_greyscale_become_rgb() -> None:
    rgba = np.zeros((100, 100, 4), np.uint8)
    rgba[..., 0] = 200
    rgba[:50, :, 3] = 255  # top half opaque red, bottom half fully transparent → white
    out = decode_image(_encode(rgba, "PNG")).rgb
    assert _close(tuple(out[10, 10]), (200, 0, 0)) and _close(tuple(out[90, 90]), (255, 255, 255))
    grey = decode_image(_encode(np.full((80, 80), 77, np.uint8), "PNG")).rgb
    assert grey.shape == (80, 80, 3) and int(grey[5, 5, 2]) == 77


def test_sixteen_bit_png_is_scaled_to_eight_bits() -> None:
    arr = np.full((70, 70), 65535 // 2, np.uint16)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG")
    out = decode_image(buf.getvalue()).rgb
    assert abs(int(out[0, 0, 0]) - 127) <= 1


@pytest.mark.parametrize("data", [b"", b"hello, this is text", b"\x00" * 5000, b"%PDF-1.4\n" + b"x" * 300])
def test_not_an_image(data: bytes) -> None:
    with pytest.raises(NotAnImage) as err:
        decode_image(data)
    assert err.value.code == "not_an_image" and isinstance(err.value, InputError)


def test_other_image_formats_are_refused_by_name() -> None:
    with pytest.raises(UnsupportedImage, match="GIF"):
        decode_image(_encode(_quadrants(), "GIF"))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_truncated_file(fmt: str) -> None:
    rng = np.random.default_rng(1)
    data = _encode((rng.random((300, 300, 3)) * 255).astype(np.uint8), fmt)
    with pytest.raises(TruncatedImage) as err:
        decode_image(data[: len(data) * 2 // 3])
    assert err.value.code == "truncated_image"


@pytest.mark.parametrize("size", [(20_000, 20_000), (100_000, 1_000), (60_000, 60_000)])
def test_decompression_bomb_refused_from_the_header(size: tuple[int, int]) -> None:
    data = png_bomb(*size)
    assert len(data) < 200
    with pytest.raises(ImageTooLarge) as err:
        decode_image(data)
    assert err.value.code == "image_too_large"


def test_pixel_and_byte_limits_are_parameters() -> None:
    data = _encode(_quadrants(), "PNG")
    with pytest.raises(ImageTooLarge, match="pixels"):
        decode_image(data, max_pixels=240 * 160 - 1)
    with pytest.raises(ImageTooLarge, match="MiB"):
        decode_image(data, max_bytes=len(data) - 1)
    assert decode_image(data, max_pixels=240 * 160).rgb.shape == (160, 240, 3)


def test_tiny_image_refused() -> None:
    with pytest.raises(ImageTooSmall):
        decode_image(_encode(np.zeros((20, 30, 3), np.uint8), "PNG"))


@pytest.mark.parametrize("long_side", [None, 1000, 400, 200, 90])
def test_a_whole_jpeg_reads_the_same_through_opencv_as_through_pillow(long_side: int | None) -> None:
    # A whole colour JPEG is decoded by OpenCV (at the DCT scale Pillow's draft picks); bytes after its
    # end-of-image marker send it through Pillow instead. The two must give the same pixels.
    rng = np.random.default_rng(7)
    base = cv2.resize((rng.random((60, 80, 3)) * 255).astype(np.uint8), (1600, 1200))
    data = _encode(base, "JPEG")
    assert data.endswith(b"\xff\xd9")
    through_opencv = decode_image(data, long_side=long_side).rgb
    through_pillow = decode_image(data + b"\x00", long_side=long_side).rgb
    assert through_opencv.shape == through_pillow.shape
    assert np.array_equal(through_opencv, through_pillow)
