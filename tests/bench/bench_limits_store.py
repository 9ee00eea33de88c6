"""Issue 27's store and admission rows, measured on real processes (bench_limits.py prints them).

Each row: what was sent, the answer, and how long it took. A row whose answer is not the expected one
makes :func:`main` return False.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from bench_service import ROOT, free_port, start_server

from api.core import owner_of_token
from api.storage import DeviceStore, connect

CITY = "R:EW  I:EW\nP     C:SE\n"
TOKEN = "a" * 20 + "B" * 20
UNREACHABLE = "postgresql://someone:secret@127.0.0.1:1/nothing"


def _row(name: str, expected: str, run: Callable[[], str]) -> bool:
    started = time.monotonic()
    answer = run()
    seconds = time.monotonic() - started
    ok = answer.startswith(expected)
    print(f"{name}: {answer} in {seconds:.2f} s ({'as expected' if ok else 'EXPECTED ' + expected})")
    return ok


def _cli(*argv: str) -> str:
    """``sprawlscan ARGV``: its exit status, its last line of error and its own peak RSS."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "api.cli", *argv], cwd=ROOT, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    last = (lines or [""])[-1][:90]
    return f"exit {proc.returncode}, {len(lines)} line(s): {last!r} (peak {usage.ru_maxrss / 1024:.0f} MiB)"


def _status(resp: httpx.Response) -> str:
    code = resp.json().get("error", {}).get("code", "ok") if resp.content else ""
    return f"{resp.status_code} {code}"


def _start_any(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A server that may answer /healthz with 503 (bench_service's start_server waits for a 200)."""
    cmd = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--log-level", "error"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except httpx.TransportError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("the server did not start within 90 s")


def _with_server(env: dict[str, str], work: Callable[[str, int], bool], any_health: bool = False) -> bool:
    port = free_port()
    proc = _start_any(port, env) if any_health else start_server(port, env)
    try:
        return work(f"http://127.0.0.1:{port}", port)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _issued(url: str) -> dict[str, str]:
    """The auth header of a device token the server at ``url`` issued (only such a token is heard)."""
    return {"Authorization": f"Bearer {httpx.post(f'{url}/api/v1/devices').json()['device_token']}"}


def _service_rows(url: str, port: int) -> bool:
    auth = _issued(url)
    ok = True
    for moment in ("9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00"):
        body = {"city": CITY, "played_at": moment}
        ok &= _row(
            f"played_at {moment}",
            "422",
            lambda b=body: _status(httpx.post(f"{url}/api/v1/games", json=b, headers=auth)),
        )

    def concurrent() -> str:
        other = _issued(url)
        with ThreadPoolExecutor(20) as pool:
            codes = list(
                pool.map(
                    lambda _: (
                        httpx.post(f"{url}/api/v1/games", json={"city": CITY}, headers=other).status_code
                    ),
                    range(20),
                )
            )
        stored = httpx.get(f"{url}/api/v1/games", headers=other).json()["count"]
        return f"{stored} stored, {codes.count(409)} refused 409"

    ok &= _row("MAX_GAMES_PER_DEVICE=10, 20 concurrent saves", "10 stored", concurrent)
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    ok &= _row(
        "Host/Origin evil.example",
        "400 host_not_allowed",
        lambda: _status(httpx.post(f"{url}/api/v1/score", json={"city": CITY}, headers=evil)),
    )
    ok &= _row(
        "an honest upload while 7 uploads trickle 20 kB/s", "200", lambda: _honest_while_trickling(url, port)
    )
    return ok


def _trickle(port: int, declared: int, stop: threading.Event) -> None:
    head = (
        f"POST /api/v1/scans HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        f'Content-Length: {declared}\r\n\r\n--b\r\nContent-Disposition: form-data; name="image"; '
        'filename="a.jpg"\r\n\r\n\xff\xd8\xff'
    ).encode("latin-1")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        try:
            sock.sendall(head)
            while not stop.wait(0.1):
                sock.sendall(b"x" * 2000)
        except OSError:
            return


def _honest_while_trickling(url: str, port: int) -> str:
    stop = threading.Event()
    threads = [
        threading.Thread(target=_trickle, args=(port, n, stop)) for n in [25_000_000] * 6 + [10_000_000]
    ]
    for t in threads:
        t.start()
    try:
        time.sleep(2)
        photo = (ROOT / "samples" / "demo.jpg").read_bytes()
        resp = httpx.post(f"{url}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
        alive = sum(t.is_alive() for t in threads)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    return f"{_status(resp)} ({alive} of 7 still trickling)"


def _read_only_rows(folder: Path) -> bool:
    db = folder / "ro.db"
    subprocess.run(
        [sys.executable, "-m", "api.cli", "stats", "--database", str(db)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    engine = connect(f"sqlite:///{db}")
    DeviceStore(engine, 1, 60).issue(owner_of_token(TOKEN), "bench")  # issued while it can be written
    engine.dispose()
    env = {"SPRAWLSCAN_DATABASE_URL": f"sqlite:///file:{db}?mode=ro&uri=true"}

    def work(url: str, port: int) -> bool:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        photo = (ROOT / "samples" / "demo.jpg").read_bytes()
        ok = _row("read-only database: /healthz", "503", lambda: _status(httpx.get(f"{url}/healthz")))
        ok &= _row(
            "read-only database: a save",
            "503 store_unavailable",
            lambda: _status(httpx.post(f"{url}/api/v1/games", json={"city": CITY}, headers=auth)),
        )
        ok &= _row(
            "read-only database: a scan",
            "503 store_unavailable",
            lambda: _status(
                httpx.post(f"{url}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
            ),
        )
        return ok

    return _with_server(env, work, any_health=True)


def main() -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ok = True
        export = folder / "edge.json"
        game = {"city": CITY, "played_at": "9999-12-31T23:00:00-05:00"}
        export.write_text(json.dumps({"format": "sprawlscan-games", "version": 1, "games": [game]}))
        binary = folder / "photo.json"
        binary.write_bytes((ROOT / "samples" / "demo.jpg").read_bytes())
        db = ["--database", str(folder / "g.db")]
        ok &= _row(
            "games --import (played_at 9999-12-31T23:00-05:00)",
            "exit 2, 1 line",
            lambda: _cli("games", *db, "--import", str(export), "--device", TOKEN),
        )
        ok &= _row(
            "games --import /dev/zero",
            "exit 2, 1 line",
            lambda: _cli("games", *db, "--import", "/dev/zero", "--device", TOKEN),
        )
        ok &= _row(
            "games --import a JPEG",
            "exit 2, 1 line",
            lambda: _cli("games", *db, "--import", str(binary), "--device", TOKEN),
        )
        for command in ("games", "stats"):
            ok &= _row(
                f"{command} --database /tmp",
                "exit 2, 1 line",
                lambda c=command: _cli(c, "--database", "/tmp"),
            )
            ok &= _row(
                f"{command} --database (unreachable PostgreSQL)",
                "exit 2, 1 line",
                lambda c=command: _cli(c, "--database", UNREACHABLE),
            )
        env = {"SPRAWLSCAN_DATABASE_PATH": str(folder / "s.db"), "SPRAWLSCAN_MAX_GAMES_PER_DEVICE": "10"}
        ok &= _with_server(env, _service_rows)
        ok &= _read_only_rows(folder)
    return ok


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(0 if main() else 1)
