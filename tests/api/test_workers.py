"""A real ``sprawlscan serve --workers 2`` on one database: every follow-up of a scan (result, overlay,
tally check by scan id) is answered whichever worker takes the request.

Each request opens a new connection, so the kernel hands the requests to both worker processes; with the
old per-process cache about half of them answered 404.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import serving

pytestmark = pytest.mark.slow  # two server processes, each scanning the demo photo

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "samples" / "demo.jpg"


@pytest.fixture()
def two_workers(db_url: str, tmp_path: Path) -> Iterator[str]:
    """``sprawlscan serve --workers 2`` on the test database; yields its base URL."""
    env = {"SPRAWLSCAN_DATABASE_URL": db_url, "SPRAWLSCAN_SCAN_WORKERS": "1"}
    with serving(tmp_path / "server.log", "--workers", "2", env=env, start_s=90) as (url, _):
        yield url


def _request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers={"Connection": "close", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _multipart(fields: dict[str, str], image: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="city.jpg"\r\n'
        "Content-Type: image/jpeg\r\n\r\n".encode()
        + image
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def test_two_workers_answer_every_follow_up_of_a_scan(two_workers: str) -> None:
    photo = DEMO.read_bytes()
    body, content_type = _multipart({"keep_photo": "1"}, photo)
    status, raw = _request(two_workers + "/api/v1/scans", body, {"Content-Type": content_type})
    assert status == 200, raw[:500]
    scan = json.loads(raw)
    overlays = [_request(two_workers + scan["overlay"]) for _ in range(20)]
    assert [s for s, _ in overlays] == [200] * 20
    assert all(content.startswith(b"\xff\xd8\xff") for _, content in overlays)
    results = [_request(f"{two_workers}/api/v1/scans/{scan['scan_id']}") for _ in range(10)]
    assert all(s == 200 and json.loads(r)["total"] == scan["total"] for s, r in results)
    check = json.dumps({"scan_id": scan["scan_id"], "tally": f"total {scan['total']}"}).encode()
    checks = [
        _request(two_workers + "/api/v1/check", check, {"Content-Type": "application/json"})
        for _ in range(10)
    ]
    assert [s for s, _ in checks] == [200] * 10
    assert all(json.loads(r)["breakdown"]["total"] == scan["total"] for _, r in checks)
    assert _request(f"{two_workers}/api/v1/scans/{scan['scan_id']}/photo") == (200, photo)
