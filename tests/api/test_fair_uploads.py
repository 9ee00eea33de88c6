"""Issue 39, item 2: one client address holds at most its share of the upload slots, on a real server.

The attacker of the issue opens 32 connections from one address, each declaring 25 MB and sending just
above the minimum body rate, to fill every pending-scan slot for the 120 s a body may take. Its addresses
are given here as a proxy on the loopback gives them (``X-Forwarded-For``, which ``sprawlscan serve``
trusts from 127.0.0.1 only); the honest phone connects from 127.0.0.1 itself.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.web import Settings
from tests.conftest import ROOT, assert_error
from tests.live_server import serving

SHARE = Settings().max_client_uploads


class Trickle(threading.Thread):
    """An upload from ``address`` that declares 25 MB and sends ``rate`` bytes a second until the server
    answers (kept in ``answer``) or ``stop`` is set."""

    def __init__(self, port: int, address: str, stop: threading.Event, rate: int = 18_000) -> None:
        super().__init__(daemon=True)
        self.port, self.address, self.stop, self.rate = port, address, stop, rate
        self.answer = b""

    def run(self) -> None:
        head = (
            f"POST /api/v1/scans HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"X-Forwarded-For: {self.address}\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            "Content-Length: 25000000\r\n\r\n"
            '--b\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n\xff\xd8\xff'
        ).encode("latin-1")
        with socket.create_connection(("127.0.0.1", self.port)) as sock:
            try:
                sock.sendall(head)
                while not self.stop.is_set():
                    if select.select([sock], [], [], 0.1)[0]:
                        self.answer = _answer(sock)
                        return
                    sock.sendall(b"x" * (self.rate // 10))
            except OSError:
                return  # cut by the server


def _answer(sock: socket.socket) -> bytes:
    """What the server sends until it has sent a whole answer (its ``Content-Length``) or closes."""
    sock.settimeout(2)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        length = next(
            (
                line.split(b":")[1]
                for line in head.lower().split(b"\r\n")
                if line.startswith(b"content-length:")
            ),
            None,
        )
        if sep and length is not None and len(body) >= int(length):
            break
    return data


@pytest.fixture()
def flood(tmp_path: Path) -> Iterator[tuple[str, list[Trickle]]]:
    """A real server with 32 trickling uploads from one address (10.66.0.1) on it; yields its URL and
    the 32, stopped afterwards."""
    stop = threading.Event()
    with serving(tmp_path / "server.log", env={"SPRAWLSCAN_DATABASE_PATH": str(tmp_path / "f.db")}) as (
        url,
        port,
    ):
        uploads = [Trickle(port, "10.66.0.1", stop) for _ in range(32)]
        for upload in uploads:
            upload.start()
            time.sleep(0.02)
        try:
            time.sleep(1.5)
            yield url, uploads
        finally:
            stop.set()
            for upload in uploads:
                upload.join(10)


def test_one_address_holds_only_its_share_and_the_rest_are_told_429_with_retry_after(
    flood: tuple[str, list[Trickle]],
) -> None:
    _, uploads = flood
    refused = [u for u in uploads if u.answer]
    holding = [u for u in uploads if not u.answer and u.is_alive()]
    assert len(holding) == SHARE and len(refused) == 32 - SHARE
    for upload in refused:
        head, _, body = upload.answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429"), upload.answer[:200]
        assert b"retry-after: 2" in head.lower() and b'"too_many_uploads"' in body


def test_an_honest_upload_from_another_address_is_scanned_while_the_flood_holds_its_share(
    flood: tuple[str, list[Trickle]],
) -> None:
    url, uploads = flood
    photo = (ROOT / "samples" / "demo.jpg").read_bytes()
    resp = httpx.post(f"{url}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
    assert resp.status_code == 200, resp.text
    assert resp.json()["total"] is not None
    assert sum(u.is_alive() and not u.answer for u in uploads) == SHARE  # still trickling meanwhile
    # The flood's address is still turned away, at once, while its share is held.
    late = httpx.post(
        f"{url}/api/v1/scans",
        files={"image": ("demo.jpg", photo)},
        headers={"X-Forwarded-For": "10.66.0.1"},
        timeout=30,
    )
    assert_error(late, 429, "too_many_uploads", f"at most {SHARE} at once")
    assert late.headers["retry-after"] == "2"


def test_an_ipv6_client_is_counted_by_its_64_prefix() -> None:
    from api.web.admission import client_key

    neighbours = {client_key(f"2001:db8:5:6::{k:x}") for k in range(1, 200)}
    assert neighbours == {"2001:db8:5:6::/64"}
    assert client_key("2001:db8:5:7::1") != client_key("2001:db8:5:6::1")
