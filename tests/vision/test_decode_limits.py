"""The decoder's CPU and memory bounds (issue 27): a JPEG's scans and markers counted before decoding, the
progressive coefficient buffer in the memory estimate, the reduced DCT scale for odd sizes, long narrow
images refused, and the scan's deadline. The server-side figures are tests/bench/bench_limits.py's."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.web import scanning
from games import GameRequest
from tests.conftest import Cli, assert_error
from vision.photo.decode import (
    MAX_JPEG_MARKERS,
    MAX_JPEG_SCANS,
    ImageTooComplex,
    ImageTooLarge,
    ImageTooSmall,
    decode_image,
    decoded_bytes,
)
from vision.photo.jpeg_markers import jpeg_layout
from vision.runtime.stages import Stop

ROOT = Path(__file__).resolve().parents[2]


def jpeg(width: int, height: int, mode: str = "RGB", **kw: Any) -> bytes:
    """A JPEG of one colour (noise in a corner, so every scan has something to code)."""
    img = Image.new("RGB", (width, height), (120, 160, 90))
    img.paste(Image.effect_noise((64, 64), 60).convert("RGB"), (0, 0))
    buf = io.BytesIO()
    img.convert(mode).save(buf, "JPEG", **kw)
    return buf.getvalue()


def last_scan_repeated(data: bytes, times: int) -> bytes:
    """``data`` with its last scan (header and entropy-coded data) repeated ``times`` more times."""
    start = data.rfind(b"\xff\xda")
    return data[:-2] + data[start:-2] * times + b"\xff\xd9"


def layout(data: bytes) -> Any:
    return jpeg_layout(data, max_scans=10**6, max_markers=10**6)


def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("a pixel was decoded")

    monkeypatch.setattr(cv2, "imdecode", refuse)
    monkeypatch.setattr(Image.Image, "load", refuse)


def test_a_jpeg_repeating_its_last_scan_is_refused_before_a_pixel_is_decoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bomb = last_scan_repeated(jpeg(640, 480, progressive=True), 300)
    assert layout(bomb).scans == 310
    no_decoding(monkeypatch)
    with pytest.raises(ImageTooComplex, match=f"more than {MAX_JPEG_SCANS} scans") as caught:
        decode_image(bomb, long_side=2016)
    assert caught.value.code == "image_too_complex" and isinstance(caught.value, ImageTooLarge)


def test_common_encoders_write_far_fewer_scans_and_markers_than_the_bounds() -> None:
    # The measurement behind MAX_JPEG_SCANS: baseline 1, progressive grey 6, colour 10, CMYK 18.
    counts = {
        (mode, progressive): layout(jpeg(300, 200, mode, progressive=progressive, optimize=True))
        for mode in ("L", "RGB", "CMYK")
        for progressive in (False, True)
    }
    assert {key: found.scans for key, found in counts.items()} == {
        ("L", False): 1,
        ("L", True): 6,
        ("RGB", False): 1,
        ("RGB", True): 10,
        ("CMYK", False): 1,
        ("CMYK", True): 18,
    }
    assert max(found.markers for found in counts.values()) < MAX_JPEG_MARKERS // 20
    assert 18 < MAX_JPEG_SCANS <= 32


def test_a_progressive_jpeg_of_up_to_the_bound_of_scans_is_decoded() -> None:
    data = jpeg(640, 480, progressive=True)
    at_bound = last_scan_repeated(data, MAX_JPEG_SCANS - layout(data).scans)
    assert layout(at_bound).scans == MAX_JPEG_SCANS
    assert decode_image(at_bound).rgb.shape == (480, 640, 3)
    with pytest.raises(ImageTooComplex):
        decode_image(last_scan_repeated(at_bound, 1))


def test_a_jpeg_of_more_markers_than_the_bound_is_refused_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    data = jpeg(200, 150)
    comment = b"\xff\xfe\x00\x04hi"  # a 2-byte comment segment
    many = data[:2] + comment * MAX_JPEG_MARKERS + data[2:]
    no_decoding(monkeypatch)
    with pytest.raises(ImageTooComplex, match=f"more than {MAX_JPEG_MARKERS} markers"):
        decode_image(many)


def test_restart_markers_and_stuffed_bytes_inside_a_scan_are_not_counted() -> None:
    noise = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 100, cv2.IMWRITE_JPEG_RST_INTERVAL, 1])
    data = buf.tobytes()
    assert ok and data.count(b"\xff\x00") > 100 and data.count(b"\xff\xd0") > 100
    found = layout(data)
    assert (found.scans, found.frames, found.progressive) == (1, 1, False) and found.markers < 12


def test_the_progressive_coefficient_buffer_is_counted_before_decoding() -> None:
    progressive, baseline = jpeg(2000, 1500, progressive=True), jpeg(2000, 1500)
    pixels = decoded_bytes(Image.open(io.BytesIO(baseline)))
    # 4:2:0: a 2-byte coefficient per luma sample and per sample of the two quarter-size chroma planes.
    coefficients = 2 * (2000 * 1504 + 2 * 1000 * 752)
    assert layout(progressive).coefficient_bytes(2000, 1500) == coefficients
    assert decode_image(baseline, max_decode_bytes=pixels).rgb.shape == (1500, 2000, 3)
    with pytest.raises(ImageTooLarge, match="2000 × 1500 RGB JPEG image would take 20 MiB"):
        decode_image(progressive, max_decode_bytes=pixels + coefficients - 1)
    assert decode_image(progressive, max_decode_bytes=pixels + coefficients).rgb.shape == (1500, 2000, 3)


def test_a_64_mp_progressive_jpeg_sampled_4_4_4_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 27's 751 kB file: 6 bytes of coefficients a pixel (366 MiB) whatever the DCT scale.
    data = jpeg(7999, 7999, progressive=True, subsampling=0)
    assert layout(data).coefficient_bytes(7999, 7999) == 2 * 3 * 8000 * 8000
    no_decoding(monkeypatch)
    with pytest.raises(ImageTooLarge, match="7999 × 7999 RGB JPEG image would take 427 MiB"):
        decode_image(data, long_side=2016)


def test_a_jpeg_of_odd_size_is_decoded_once_by_opencv_at_the_reduced_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = jpeg(1001, 801)
    flags: list[int] = []
    imdecode = cv2.imdecode

    def recording(buf: np.ndarray, flag: int) -> Any:
        flags.append(flag)
        return imdecode(buf, flag)

    monkeypatch.setattr(cv2, "imdecode", recording)
    monkeypatch.setattr(Image.Image, "load", lambda *a: pytest.fail("decoded again by Pillow"))
    out = decode_image(data, long_side=300)
    assert flags == [cv2.IMREAD_REDUCED_COLOR_2 | cv2.IMREAD_IGNORE_ORIENTATION]
    assert out.rgb.shape == (240, 300, 3)


# The child's own peak (VmHWM, per address space): ru_maxrss would carry over the parent's peak across exec.
_PEAK = """
import re, sys
from vision.photo.decode import decode_image
def peak():
    return int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
data = open(sys.argv[1], "rb").read()
idle = peak()
decode_image(data, long_side=2016)
print((peak() - idle) // 1024)
"""


def test_a_7999_pixel_progressive_jpeg_decodes_within_300_mib(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    Image.new("RGB", (7999, 7999), (120, 160, 90)).save(path, "JPEG", progressive=True)
    run = subprocess.run(
        [sys.executable, "-c", _PEAK, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    # The coefficients (183 MiB) and the 1/2-scale output (46 MiB); decoded at full size it took 373 MiB.
    assert int(run.stdout) < 300


@pytest.mark.parametrize("size", [(64, 40000), (40000, 64), (100, 3200)])
def test_an_image_too_long_and_narrow_for_a_city_is_refused_naming_its_shape(size: tuple[int, int]) -> None:
    buf = io.BytesIO()
    Image.new("RGB", size, (120, 160, 90)).save(buf, "PNG")
    with pytest.raises(ImageTooSmall, match=f"{size[0]} × {size[1]} pixels, too long and narrow"):
        decode_image(buf.getvalue(), long_side=2016)


def test_an_image_31_times_as_long_as_wide_is_still_decoded() -> None:
    buf = io.BytesIO()
    Image.new("RGB", (64, 64 * 31), (120, 160, 90)).save(buf, "PNG")
    assert decode_image(buf.getvalue(), long_side=2016).rgb.shape == (1984, 64, 3)


# ---- the service and the command line ------------------------------------------------------------------


def thin_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 40000), (120, 160, 90)).save(buf, "PNG")
    return buf.getvalue()


def test_the_service_answers_a_long_narrow_png_and_a_scan_bomb_with_4xx(client: TestClient) -> None:
    resp = client.post("/api/v1/scans", files={"image": ("thin.png", thin_png(), "image/png")})
    assert_error(resp, 400, "image_too_small", "64 × 40000")
    bomb = last_scan_repeated(jpeg(640, 480, progressive=True), 300)
    resp = client.post("/api/v1/scans", files={"image": ("bomb.jpg", bomb, "image/jpeg")})
    assert_error(resp, 413, "image_too_complex", "scans")


def test_the_cli_refuses_a_long_narrow_png_and_a_scan_bomb_with_one_line(cli: Cli, tmp_path: Path) -> None:
    thin, bomb = tmp_path / "thin.png", tmp_path / "bomb.jpg"
    thin.write_bytes(thin_png())
    bomb.write_bytes(last_scan_repeated(jpeg(640, 480, progressive=True), 300))
    for path, words in ((thin, "too long and narrow"), (bomb, "scans")):
        code, out, err = cli("scan", str(path))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert words in err and str(path) in err


def test_an_unknown_option_is_refused_before_the_scan(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_scan(*args: object, **kw: object) -> None:
        raise AssertionError("the photo was scanned")

    monkeypatch.setattr(scanning, "scan_and_score", no_scan)
    files = {"image": ("a.jpg", jpeg(200, 150), "image/jpeg")}
    resp = client.post("/api/v1/scans", files=files, data={"options": '{"zzz": 1}'})
    assert_error(resp, 400, "unknown_option", "'zzz'")


def test_a_scan_past_its_deadline_stops_at_the_end_of_the_stage_it_is_in() -> None:
    with pytest.raises(scanning.ScanTooSlow, match="after its 'decode' stage: it ran past its 0 s deadline"):
        scanning.scan_and_score(jpeg(640, 480), GameRequest(), 1600, deadline_s=0.0)
    Stop(deadline_s=60.0).check("decode")  # well within its deadline: carries on
    assert scanning.ScanTooSlow.status == 503
