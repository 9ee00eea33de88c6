"""A kept photo loses its metadata and keeps its pixels, in each format the service keeps (issue 39, item 6),
and the migration that made tokens checked keeps every device that already had games or a deck."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import numpy as np
import pytest
from alembic import command
from alembic.config import Config
from PIL import Image
from sqlalchemy import insert

from api.core import owner_of_token
from api.storage import DeviceStore, ScanStore
from api.storage.engine import MIGRATIONS, connect, database_url, migrate
from api.storage.tables import decks, games
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


def test_the_upgrade_issues_every_device_that_kept_games_or_a_deck(db_url: str) -> None:
    engine = connect(database_url(db_url))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
    gamer, teacher, stranger = (owner_of_token(c * 43) for c in "gts")
    stamp = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(insert(games).values(_game_row(gamer, stamp)))
        row = {"owner": teacher, "game": "wagons", "deck": b"x", "cards": [], "created_at": stamp}
        conn.execute(insert(decks).values(**row))
    migrate(engine)
    devices = DeviceStore(engine, 1, 60)
    assert devices.issued(gamer) and devices.issued(teacher) and not devices.issued(stranger)
    assert devices.count() == 2
    engine.dispose()


def test_a_stored_scan_is_its_owners_and_an_anonymous_one_anyones(db_url: str) -> None:
    engine = connect(database_url(db_url))
    migrate(engine)
    store = ScanStore(engine)
    mine, other = owner_of_token("m" * 43), owner_of_token("o" * 43)
    store.put("private", {"total": 1}, "P\n", None, owner=mine)
    store.put("anonymous", {"total": 2}, "P\n", None)
    assert store.get("private", mine) is not None
    assert store.get("private", other) is None and store.get("private") is None
    assert store.get("anonymous") is not None and store.get("anonymous", other) is not None
    engine.dispose()


def _game_row(owner: str, stamp: datetime) -> dict[str, object]:
    return {
        "id": "g1",
        "owner": owner,
        "game": "sprawlopolis",
        "combo": "",
        "city": "P\n",
        "cards": [],
        "expansions": [],
        "options": {},
        "breakdown": {},
        "total": 0,
        "played_at": stamp,
        "created_at": stamp,
        "updated_at": stamp,
        "label": "",
        "players": [],
    }
