"""A real ``sprawlscan serve`` process for the tests that need one: started on a free port, waited for
until ``/healthz`` answers, stopped afterwards (its output kept in a file, so a full pipe cannot block it)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen, wait_s: float = 10.0) -> None:
    """Terminate ``proc``, and kill it when it does not end within ``wait_s``."""
    proc.terminate()
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def serving(
    log_path: Path, *args: str, env: dict[str, str] | None = None, start_s: float = 60.0
) -> Iterator[tuple[str, int]]:
    """Run ``sprawlscan serve --port P [args]`` with ``env`` added to this environment; yields
    (base URL, port). Raises RuntimeError with the server's output when it does not come up in ``start_s``."""
    port = free_port()
    cmd = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--log-level", "warning", *args]
    url = f"http://127.0.0.1:{port}"
    with log_path.open("w+b") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log, stderr=log)
        try:
            _wait_until_up(url, proc, log, start_s)
            yield url, port
        finally:
            stop(proc, wait_s=20.0)


def _wait_until_up(url: str, proc: subprocess.Popen, log, start_s: float) -> None:
    deadline = time.monotonic() + start_s
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"the server did not start:\n{log.read().decode()}") from None
            time.sleep(0.2)


def trickle(
    port: int, head: bytes, drip: bytes, every_s: float = 0.3, limit_s: float = 8.0
) -> tuple[bytes, float]:
    """Send ``head`` then ``drip`` a byte every ``every_s`` until the server answers or closes (or
    ``limit_s`` passes); return what it sent and how long the connection lived. A server that closes with
    bytes still unread resets the connection, and its answer may then never arrive."""
    start = time.monotonic()
    received = b""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(every_s)
        sock.sendall(head)
        for byte in drip:
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
                continue
            except TimeoutError:
                pass
            except ConnectionResetError:
                break  # the server cut the connection (its answer may be lost with the reset)
            if time.monotonic() - start > limit_s:
                break
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
        sock.settimeout(2)
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except (TimeoutError, OSError):
            pass
    return received, time.monotonic() - start


__all__: Sequence[str] = ("ROOT", "free_port", "serving", "stop", "trickle")
