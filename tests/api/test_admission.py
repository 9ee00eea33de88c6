"""Issue 27, the service's front door: the hosts it answers to (DNS rebinding) and fair admission of
uploads (bytes received, not declared; slow bodies cut by a minimum rate)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient

from api.web import Settings, create_app
from api.web.hosts import HostPolicy
from tests.conftest import CITY, ROOT, assert_error
from tests.live_server import serving


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("hosts") / "g.db"
    with TestClient(create_app(Settings(database_path=str(db)))) as c:
        yield c


def test_a_dns_rebinding_request_with_another_host_is_refused(app_client: TestClient) -> None:
    evil = {"Host": "evil.example:8766", "Origin": "http://evil.example:8766"}
    resp = app_client.post("/api/v1/score", json={"city": CITY}, headers=evil)
    assert_error(resp, 400, "host_not_allowed", "evil.example:8766", "SPRAWLSCAN_ALLOWED_HOSTS")
    assert_error(app_client.get("/api/v1/meta", headers=evil), 400, "host_not_allowed")
    assert resp.headers["x-content-type-options"] == "nosniff"  # still inside the security headers


@pytest.mark.parametrize(
    "host", ["localhost:8766", "127.0.0.1:8766", "[::1]:8766", "LOCALHOST.", "testserver"]
)
def test_the_loopback_names_and_the_served_host_are_answered(app_client: TestClient, host: str) -> None:
    origin = {"Origin": f"http://{host}"} if host.endswith("8766") else {}
    resp = app_client.post("/api/v1/score", json={"city": CITY}, headers={"Host": host, **origin})
    assert resp.status_code == 200, resp.text


def test_allowed_hosts_is_a_setting(tmp_path: Any) -> None:
    settings = Settings(database_path=str(tmp_path / "g.db"), allowed_hosts="scores.example.org, other.lan")
    with TestClient(create_app(settings)) as c:
        assert c.get("/healthz", headers={"Host": "scores.example.org"}).status_code == 200
        assert c.get("/healthz", headers={"Host": "other.lan:8000"}).status_code == 200
        assert_error(c.get("/healthz", headers={"Host": "evil.example"}), 400, "host_not_allowed")


def test_a_server_on_every_interface_answers_to_its_addresses_not_to_other_names() -> None:
    policy = HostPolicy.of("", "0.0.0.0")
    assert (
        policy.allows("192.168.1.5:8000") and policy.allows("[fe80::1]:8000") and policy.allows("localhost")
    )
    assert not policy.allows("evil.example:8000") and not policy.allows("")
    named = HostPolicy.of("", "scanner.lan")
    assert named.allows("scanner.lan:8000") and not named.allows("192.168.1.5")
    assert HostPolicy.of("*", "127.0.0.1").allows("anything.example")


def _trickle_upload(
    port: int, declared: int, stop: threading.Event, rate: int = 20_000, address: str = "10.0.0.1"
) -> None:
    """An upload declaring ``declared`` bytes that sends ``rate`` bytes a second until ``stop``, from
    ``address`` (forwarded: the server trusts its loopback proxy's X-Forwarded-For)."""
    head = (
        f"POST /api/v1/scans HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: {address}\r\n"
        f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {declared}\r\n\r\n"
        '--b\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n\xff\xd8\xff'
    ).encode("latin-1")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        try:
            sock.sendall(head)
            while not stop.wait(0.1):
                sock.sendall(b"x" * (rate // 10))
        except OSError:
            return  # cut by the server


def test_an_honest_upload_is_scanned_while_seven_uploads_trickle(tmp_path: Path) -> None:
    photo = (ROOT / "samples" / "demo.jpg").read_bytes()
    stop = threading.Event()
    with serving(tmp_path / "server.log") as (url, port):
        # 6 × 25 MB + 10 MB declared: all of SPRAWLSCAN_MAX_PENDING_BYTES, were declarations counted;
        # from seven addresses, each within its share of the upload slots.
        sizes = [25_000_000] * 6 + [10_000_000]
        threads = [
            threading.Thread(target=_trickle_upload, args=(port, n, stop, 20_000, f"10.0.0.{k + 1}"))
            for k, n in enumerate(sizes)
        ]
        for t in threads:
            t.start()
        try:
            time.sleep(1.5)
            started = time.monotonic()
            resp = httpx.post(f"{url}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
            seconds = time.monotonic() - started
            assert all(t.is_alive() for t in threads)  # the seven were still connected and trickling
        finally:
            stop.set()
            for t in threads:
                t.join(10)
        assert resp.status_code == 200, resp.text
        assert resp.json()["total"] is not None and seconds < 60
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        assert httpx.post(f"{url}/api/v1/score", json={"city": CITY}, headers=evil).status_code == 400


def test_a_burst_then_a_trickle_is_cut_by_the_rate_over_a_window() -> None:
    from tests.api.test_api_hardening import call, trickle

    # 20 kB at once buys 20 s at 1 kB/s on average since the start; over a 0.5 s window it buys 0.5 s.
    settings = Settings(body_grace_s=0.3, min_body_rate=1000, body_timeout_s=30, body_rate_window_s=0.5)
    app = create_app(settings)
    headers = {"content-type": "application/json", "content-length": "40000"}
    started = time.monotonic()
    status, _, body = anyio.run(call, app, "/api/v1/score", headers, trickle(b" " * 20_000, 0.2))
    seconds = time.monotonic() - started
    assert status == 408 and b"request_timeout" in body and b"over any 0.5 s" in body
    assert seconds < 3, seconds
