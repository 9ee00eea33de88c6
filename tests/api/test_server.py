"""The real server (``sprawlscan serve``, uvicorn with the service's protocol) against slow clients: headers
or a body trickled a byte at a time are cut with a 408 and the connection closed, within the deadline set
by ``SPRAWLSCAN_HEADER_TIMEOUT_S`` / ``SPRAWLSCAN_BODY_GRACE_S``; bad settings stop it in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live_server import free_port, serving, trickle

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "api.cli", "serve"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    env = {
        "SPRAWLSCAN_HEADER_TIMEOUT_S": "1",
        "SPRAWLSCAN_BODY_GRACE_S": "1",
        "SPRAWLSCAN_MIN_BODY_RATE": "1000",
    }
    with serving(tmp_path_factory.mktemp("server") / "server.log", env=env) as (_, port):
        yield port


def test_trickled_headers_are_cut_with_408(server: int) -> None:
    received, lived = trickle(server, b"GET /healthz HTTP/1.1\r\n", b"X-Slow: " + b"a" * 100)
    assert received.startswith(b"HTTP/1.1 408"), received
    assert b'"request_timeout"' in received
    assert 0.9 <= lived < 3.5


def test_a_silent_connection_is_cut_too(server: int) -> None:
    received, lived = trickle(server, b"", b"")
    assert received.startswith(b"HTTP/1.1 408") and lived < 3.5


def test_a_trickled_upload_body_is_cut_with_408_and_closed(server: int) -> None:
    head = (
        b"POST /api/v1/scans HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        b"Content-Length: 100000\r\n\r\n--b\r\n"
    )
    received, lived = trickle(server, head, b"a" * 100)
    assert received.startswith(b"HTTP/1.1 408"), received
    assert b"request_timeout" in received and b"connection: close" in received.lower()
    assert 0.9 <= lived < 3.5
    assert httpx.get(f"http://127.0.0.1:{server}/healthz").status_code == 200


def test_bad_settings_stop_the_server_in_one_line() -> None:
    env = {**os.environ, "SPRAWLSCAN_MAX_PENDING_SCANS": "0"}
    done = subprocess.run(
        [*SERVE, "--port", str(free_port())], cwd=ROOT, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert lines == [
        "sprawlscan: error: SPRAWLSCAN_MAX_PENDING_SCANS must be a positive whole number, got '0'"
    ]
    done = subprocess.run(
        [sys.executable, "-m", "uvicorn", "api.web.asgi:app"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2 and len(done.stderr.decode().strip().splitlines()) == 1


def test_serve_starts_without_alembic_plugin_chatter(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = {"SPRAWLSCAN_DATABASE_PATH": str(tmp_path / "fresh.db")}
    with serving(log, "--log-level", "info", env=env):
        pass
    text = log.read_text()
    assert "Running upgrade" in text  # the migrations themselves are still reported
    assert "setup plugin" not in text
