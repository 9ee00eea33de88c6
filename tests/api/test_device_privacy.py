"""Issue 39, items 3 and 6, on a real ``sprawlscan serve``: device tokens are issued and checked, their
issuance is bounded per client, scans belong to the device that made them, and a kept photo comes back
without its location.

Client addresses are given as a proxy on the loopback gives them (``X-Forwarded-For``, trusted from
127.0.0.1 only), so that each test mints its tokens as a client of its own.
"""

from __future__ import annotations

import hashlib
import io
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

from tests.conftest import CITY, ROOT, assert_error
from tests.live_server import serving

PER_CLIENT = 3  # device tokens one address is issued a day, on this server
UNISSUED = "Bearer " + "q" * 43  # well formed, never issued
GPS_IFD, ORIENTATION = 0x8825, 0x0112


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("privacy") / "p.db"


@pytest.fixture(scope="module")
def live(database: Path) -> Iterator[str]:
    env = {"SPRAWLSCAN_DATABASE_PATH": str(database), "SPRAWLSCAN_MAX_DEVICES_PER_CLIENT": str(PER_CLIENT)}
    with serving(database.with_name("server.log"), env=env) as (url, _):
        yield url


@pytest.fixture(scope="module")
def located_photo() -> bytes:
    """The demo photo with an EXIF block naming a GPS position, a camera and orientation 6 put in front of
    its image data (the JPEG itself untouched)."""
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    exif[0x010F] = "PhoneMaker"
    exif[GPS_IFD] = {1: "N", 2: (52.0, 22.0, 1.5), 3: "E", 4: (4.0, 53.0, 2.0)}
    block = exif.tobytes()
    app1 = b"\xff\xe1" + (len(block) + 2).to_bytes(2, "big") + block
    demo = (ROOT / "samples" / "demo.jpg").read_bytes()
    return demo[:2] + app1 + demo[2:]


@pytest.fixture(scope="module")
def private_scan(live: str, located_photo: bytes) -> tuple[str, dict[str, str]]:
    """A scan of the located photo made (and its photo kept) with a device token: its id and that auth."""
    auth = _auth(live, "10.20.0.1")
    files = {"image": ("city.jpg", located_photo, "image/jpeg")}
    resp = httpx.post(
        f"{live}/api/v1/scans", files=files, data={"keep_photo": "1"}, headers=auth, timeout=120
    )
    assert resp.status_code == 200, resp.text
    return resp.json()["scan_id"], auth


def _auth(url: str, client: str) -> dict[str, str]:
    resp = httpx.post(f"{url}/api/v1/devices", headers={"X-Forwarded-For": client})
    assert resp.status_code == 201, resp.text
    return {"Authorization": f"Bearer {resp.json()['device_token']}"}


def test_a_well_formed_token_the_service_never_issued_is_401_on_every_endpoint_that_takes_one(
    live: str, private_scan: tuple[str, dict[str, str]]
) -> None:
    scan_id, _ = private_scan
    bad = {"Authorization": UNISSUED}
    export = {"format": "sprawlscan-games", "version": 1, "games": []}
    calls = [
        ("GET", "/api/v1/games", None),
        ("GET", "/api/v1/stats", None),
        ("GET", "/api/v1/games/export", None),
        ("POST", "/api/v1/games", {"city": CITY}),
        ("POST", "/api/v1/games/import", export),
        ("GET", "/api/v1/deck", None),
        ("DELETE", "/api/v1/deck", None),
        ("GET", f"/api/v1/scans/{scan_id}", None),
        ("GET", f"/api/v1/scans/{scan_id}/overlay", None),
        ("GET", f"/api/v1/scans/{scan_id}/photo", None),
        ("POST", "/api/v1/check", {"scan_id": scan_id, "tally": "total 1"}),
    ]
    for method, path, body in calls:
        resp = httpx.request(method, live + path, json=body, headers=bad)
        assert_error(resp, 401, "device_token_unknown", "not issued by this server", "POST /api/v1/devices")
    photo = {"image": ("city.jpg", b"\xff\xd8\xff\xe0" + bytes(64), "image/jpeg")}
    resp = httpx.post(f"{live}/api/v1/scans", files=photo, headers=bad)
    assert_error(resp, 401, "device_token_unknown")


def test_an_issued_token_opens_its_games_and_a_malformed_one_is_still_told_what_a_token_is(live: str) -> None:
    auth = _auth(live, "10.21.0.1")
    assert httpx.post(f"{live}/api/v1/games", json={"city": CITY}, headers=auth).status_code == 201
    assert httpx.get(f"{live}/api/v1/games", headers=auth).json()["count"] == 1
    resp = httpx.get(f"{live}/api/v1/games", headers={"Authorization": "Bearer short"})
    assert_error(resp, 401, "device_token_required", "32–128")


def test_one_address_is_issued_a_bounded_number_of_tokens_then_429_with_retry_after(live: str) -> None:
    minted = [
        httpx.post(f"{live}/api/v1/devices", headers={"X-Forwarded-For": "10.30.0.1"}) for _ in range(5)
    ]
    assert [r.status_code for r in minted] == [201] * PER_CLIENT + [429] * (5 - PER_CLIENT)
    assert_error(minted[-1], 429, "too_many_devices", f"issued {PER_CLIENT} device tokens", "24 h")
    assert 86_000 < int(minted[-1].headers["retry-after"]) <= 86_400
    # Another address is issued its own, and the tokens issued before the bound still work.
    assert httpx.post(f"{live}/api/v1/devices", headers={"X-Forwarded-For": "10.30.0.2"}).status_code == 201
    first = {"Authorization": f"Bearer {minted[0].json()['device_token']}"}
    assert httpx.get(f"{live}/api/v1/stats", headers=first).status_code == 200


def test_a_scan_made_with_a_token_is_read_back_only_with_that_token(
    live: str, private_scan: tuple[str, dict[str, str]]
) -> None:
    scan_id, mine = private_scan
    other = _auth(live, "10.20.0.2")
    for path in (
        f"/api/v1/scans/{scan_id}",
        f"/api/v1/scans/{scan_id}/overlay",
        f"/api/v1/scans/{scan_id}/photo",
    ):
        assert httpx.get(live + path, headers=mine).status_code == 200
        assert_error(httpx.get(live + path, headers=other), 404, "scan_not_found", "unknown, or expired")
        assert_error(httpx.get(live + path), 404, "scan_not_found", "unknown, or expired")
    tally = {"scan_id": scan_id, "tally": "total 1"}
    assert httpx.post(f"{live}/api/v1/check", json=tally, headers=mine).status_code == 200
    assert_error(httpx.post(f"{live}/api/v1/check", json=tally, headers=other), 404, "scan_not_found")
    assert_error(httpx.post(f"{live}/api/v1/check", json=tally), 404, "scan_not_found")


def test_a_kept_photo_is_served_without_its_location_and_with_its_pixels_and_orientation(
    live: str, private_scan: tuple[str, dict[str, str]], located_photo: bytes
) -> None:
    scan_id, mine = private_scan
    served = httpx.get(f"{live}/api/v1/scans/{scan_id}/photo", headers=mine).content
    assert served != located_photo
    kept = Image.open(io.BytesIO(served)).getexif()
    assert dict(kept) == {ORIENTATION: 6}  # the camera's name and the GPS directory are gone
    assert kept.get_ifd(GPS_IFD) == {}
    assert b"PhoneMaker" not in served
    image_data = located_photo.index(b"\xff\xda")  # from the first scan on, byte for byte
    assert served.endswith(located_photo[image_data:])
    sent = np.asarray(Image.open(io.BytesIO(located_photo)))
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(served))), sent)


def test_a_scan_made_without_a_token_is_anonymous_and_read_by_its_id_alone(live: str) -> None:
    photo = (ROOT / "samples" / "demo.jpg").read_bytes()
    resp = httpx.post(f"{live}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
    assert resp.status_code == 200, resp.text
    scan_id = resp.json()["scan_id"]
    assert httpx.get(f"{live}/api/v1/scans/{scan_id}").json()["scan_id"] == scan_id
    assert httpx.get(f"{live}/api/v1/scans/{scan_id}", headers=_auth(live, "10.22.0.1")).status_code == 200


def test_an_issued_token_is_kept_in_the_database_as_its_hash_only(live: str, database: Path) -> None:
    token = _auth(live, "10.23.0.1")["Authorization"].removeprefix("Bearer ")
    with sqlite3.connect(database) as conn:
        owners = {owner for (owner,) in conn.execute("SELECT owner FROM devices")}
        clients = {client for (client,) in conn.execute("SELECT client FROM issuances")}
    assert hashlib.sha256(token.encode()).hexdigest() in owners
    assert not any(token in owner for owner in owners)
    assert hashlib.sha256(b"10.23.0.1").hexdigest() in clients and "10.23.0.1" not in clients
