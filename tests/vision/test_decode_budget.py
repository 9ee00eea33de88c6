"""Decoding within a memory budget: the estimate from the header, the refusal before decoding, and the
strip-by-strip reduction giving what a whole-image reduction would (alpha on white, 16-bit, palettes,
WebP through OpenCV, EXIF turns). The peak memory itself is measured by tests/bench/bench_memory.py."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.photo.decode import MAX_DECODE_BYTES, ImageTooLarge, decode_image, decoded_bytes


def encoded(img: Image.Image, fmt: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def noise(h: int, w: int, channels: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (h, w, channels), dtype=np.uint8)


def box_reduce(arr: np.ndarray, factor: int) -> np.ndarray:
    h, w = (arr.shape[0] // factor) * factor, (arr.shape[1] // factor) * factor
    blocks = arr[:h, :w].astype(np.float64).reshape(h // factor, factor, w // factor, factor, -1)
    return blocks.mean(axis=(1, 3))


@pytest.mark.parametrize(
    ("mode", "fmt", "per_pixel"),
    [
        ("RGBA", "PNG", 4),
        ("RGB", "PNG", 4),
        ("L", "PNG", 1),
        ("I;16", "PNG", 2),
        ("RGBA", "WEBP", 8),
        ("RGB", "WEBP", 6),
        ("RGB", "HEIF", 5),
    ],
)
def test_the_estimate_follows_the_format_and_mode(mode: str, fmt: str, per_pixel: int) -> None:
    import pillow_heif

    pillow_heif.register_heif_opener()
    img = Image.new(mode, (96, 64))
    opened = Image.open(io.BytesIO(encoded(img, fmt, **({"lossless": True} if fmt == "WEBP" else {}))))
    assert decoded_bytes(opened) == 96 * 64 * per_pixel


def test_an_image_over_the_budget_is_refused_before_decoding_naming_the_limit() -> None:
    data = encoded(Image.new("RGBA", (400, 300), (1, 2, 3, 255)), "PNG")
    with pytest.raises(ImageTooLarge, match=r"400 × 300 RGBA PNG image would take 0 MiB.*at most 0 MiB"):
        decode_image(data, max_decode_bytes=400 * 300 * 4 - 1)
    assert decode_image(data, max_decode_bytes=400 * 300 * 4).rgb.shape == (300, 400, 3)
    assert 64_000_000 * 4 <= MAX_DECODE_BYTES < 64_000_000 * 5  # a 64 MP RGBA image fits, no more


def test_a_7900_pixel_rgba_webp_is_refused_as_its_decoder_needs_two_canvases() -> None:
    img = Image.new("RGBA", (7900, 7900), (10, 200, 30, 255))
    img.paste((0, 0, 0, 0), (0, 0, 400, 400))  # some transparency, so the WebP keeps its alpha
    data = encoded(img, "WEBP", lossless=True, quality=0, method=0)
    del img
    with pytest.raises(ImageTooLarge, match="476 MiB of memory; at most 256 MiB"):
        decode_image(data, long_side=2016)


@pytest.mark.parametrize("factor", [2, 3])
def test_strip_reduction_matches_a_box_average_of_the_whole_image(factor: int) -> None:
    src = noise(301, 457, 3)
    out = decode_image(encoded(Image.fromarray(src), "PNG"), long_side=457 // factor).rgb
    assert out.shape == (301 // factor, 457 // factor, 3)
    assert np.abs(out.astype(np.float64) - box_reduce(src, factor)).max() <= 1


def test_alpha_is_laid_on_white_before_reducing() -> None:
    rgba = noise(260, 390, 4)
    rgba[:, :, 3] = 255
    rgba[:, 200:, 3] = 0  # right part fully transparent: white whatever colour it holds
    rgba[:, 100:200, 3] = 128
    out = decode_image(encoded(Image.fromarray(rgba, "RGBA"), "PNG"), long_side=130).rgb
    alpha = rgba[:, :, 3:4].astype(np.float64) / 255
    expected = box_reduce(rgba[:, :, :3] * alpha + 255 * (1 - alpha), 3)
    assert np.abs(out.astype(np.float64) - expected).max() <= 1
    assert (out[:, 70:] == 255).all()


def test_sixteen_bit_grey_and_palettes_reduce_without_a_float_copy() -> None:
    grey = np.random.default_rng(1).integers(0, 65536, (200, 300), dtype=np.uint16)
    out = decode_image(encoded(Image.fromarray(grey), "PNG"), long_side=150).rgb
    expected = box_reduce((grey >> 8)[:, :, None], 2)[:, :, 0]
    assert np.abs(out[:, :, 0].astype(np.float64) - expected).max() <= 1.5
    assert (out[:, :, 0] == out[:, :, 2]).all()
    palette = Image.fromarray(noise(120, 180, 3)).convert("P", palette=Image.Palette.ADAPTIVE)
    full = np.asarray(palette.convert("RGB"))
    out = decode_image(encoded(palette, "PNG"), long_side=90).rgb
    assert np.abs(out.astype(np.float64) - box_reduce(full, 2)).max() <= 1


def test_webp_with_alpha_through_opencv_is_laid_on_white() -> None:
    rgba = np.zeros((128, 192, 4), np.uint8)
    rgba[:, :96] = (200, 40, 40, 255)  # left half opaque red, right half transparent
    out = decode_image(encoded(Image.fromarray(rgba, "RGBA"), "WEBP", lossless=True)).rgb
    assert tuple(out[64, 10]) == (200, 40, 40) and tuple(out[64, 180]) == (255, 255, 255)
    grey = cv2.imdecode(np.frombuffer(encoded(Image.fromarray(rgba), "WEBP", lossless=True), np.uint8), 0)
    assert grey is not None  # OpenCV reads the file the service hands it


def test_exif_turns_apply_to_the_reduced_image() -> None:
    src = np.zeros((200, 300, 3), np.uint8)
    src[:100, :150] = (220, 30, 30)  # top-left red
    exif = Image.Exif()
    exif[0x0112] = 6  # turn 90° clockwise to view
    out = decode_image(encoded(Image.fromarray(src), "PNG", exif=exif.tobytes()), long_side=150)
    assert out.rgb.shape == (150, 100, 3) and out.original_size == (200, 300)
    assert tuple(out.rgb[10, 90]) == (220, 30, 30)  # top-left went to top-right


def test_decodings_share_one_pool_and_wait_for_room() -> None:
    import threading
    import time

    from vision.photo.pixels import BytePool

    pool = BytePool(300)
    pool.acquire(200)
    got: list[float] = []
    waiter = threading.Thread(target=lambda: (pool.acquire(200), got.append(time.monotonic())))
    start = time.monotonic()
    waiter.start()
    time.sleep(0.2)
    assert not got  # 100 bytes free: the second decoding waits
    pool.release(200)
    waiter.join(timeout=2)
    assert got and got[0] - start >= 0.2 and pool.free == 100
    pool.release(200)
    pool.acquire(10**9)  # more than the pool: takes all of it rather than waiting forever
    assert pool.free == 0


def test_heic_is_read_from_pillow_heifs_own_buffer_and_a_damaged_one_is_400() -> None:
    import pillow_heif

    from vision.photo.decode import TruncatedImage

    pillow_heif.register_heif_opener()
    src = noise(300, 400, 3)
    data = encoded(Image.fromarray(src), "HEIF", quality=95)
    out = decode_image(data, long_side=200).rgb
    reference = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    assert out.shape == (150, 200, 3)
    assert np.abs(out.astype(np.float64) - box_reduce(reference, 2)).max() <= 1
    with pytest.raises(TruncatedImage):
        decode_image(data[: len(data) // 2])
