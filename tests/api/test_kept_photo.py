"""A kept photo loses its metadata and keeps its pixels, in each format the service keeps (issue 39, 6)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from api.web.kept_photo import without_location

GPS_IFD, ORIENTATION = 0x8825, 0x0112


def _picture() -> Image.Image:
    return Image.fromarray((np.random.default_rng(7).random((48, 64, 3)) * 255).astype("uint8"))


def _exif(orientation: int) -> bytes:
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[0x010F] = "PhoneMaker"
    exif[GPS_IFD] = {1: "N", 2: (52.0, 22.0, 1.5), 3: "E", 4: (4.0, 53.0, 2.0)}
    return exif.tobytes()


def _encoded(fmt: str, orientation: int = 6) -> bytes:
    out = io.BytesIO()
    _picture().save(out, fmt, exif=_exif(orientation), **({"lossless": True} if fmt == "WEBP" else {}))
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_photo_loses_its_gps_and_camera_but_keeps_its_pixels(fmt: str) -> None:
    sent = _encoded(fmt)
    assert Image.open(io.BytesIO(sent)).getexif().get_ifd(GPS_IFD)  # the location is there to remove
    kept = without_location(sent, fmt.lower())
    assert kept is not None and b"PhoneMaker" not in kept
    exif = Image.open(io.BytesIO(kept)).getexif()
    assert exif.get_ifd(GPS_IFD) == {}
    assert dict(exif) == ({ORIENTATION: 6} if fmt == "JPEG" else {})
    pixels = [np.asarray(Image.open(io.BytesIO(b)).convert("RGB")) for b in (sent, kept)]
    assert np.array_equal(*pixels)


def test_a_jpeg_standing_upright_keeps_no_exif_at_all() -> None:
    kept = without_location(_encoded("JPEG", orientation=1), "jpeg")
    assert kept is not None and b"Exif" not in kept


def test_a_heic_photo_and_a_damaged_jpeg_are_not_kept() -> None:
    assert without_location(b"\x00\x00\x00\x18ftypheic" + bytes(64), "heif") is None
    jpeg = _encoded("JPEG")
    assert without_location(jpeg[:40], "jpeg") is None  # ends inside its header segments
