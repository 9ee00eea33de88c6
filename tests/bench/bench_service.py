"""Load check for the web service: N concurrent uploads of a 12 MP photo to a real server on loopback.

Starts ``sprawlscan serve`` (one process) on a free port, renders a synthetic 4032 × 3024 JPEG, sends
``--uploads`` scans with ``--concurrency`` at once, and prints throughput, latency percentiles and the
server's peak resident memory (VmHWM). Exits 1 if any upload fails, the run exceeds ``--deadline`` or the
peak passes 1 GiB.

    python tests/bench/bench_service.py [--uploads 20] [--concurrency 20] [--seed 3]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
PEAK_LIMIT_MIB = 1024  # docs/deployment.md: docker run --memory 1g


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int, field: str) -> int:
    """``VmRSS`` (now) or ``VmHWM`` (peak) of a process, in KiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/{pid}/status")


def start_server(port: int, env_extra: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, **env_extra}
    cmd = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                health = json.loads(resp.read())
                if not health["scanner"]:
                    proc.terminate()
                    raise SystemExit("the server has no scanner (cell model missing): nothing to measure")
                return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(
                    f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}"
                ) from None
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("server did not start within 90 s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3, help="synthetic photo seed")
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds for the whole load run")
    args = parser.parse_args()

    from models.synth.scene import render_photo

    photo = render_photo(args.seed)
    jpeg = photo.jpeg
    h, w = photo.image.shape[:2]
    print(f"photo: {w} × {h} JPEG, {len(jpeg) / 1e6:.1f} MB (synthetic seed {args.seed})")

    port = free_port()
    proc = start_server(port, {})
    url = f"http://127.0.0.1:{port}/api/v1/scans"
    try:
        idle = rss_kib(proc.pid, "VmRSS")
        # One scan first, so the measured run sees a warm process (model session loaded, code paths hot).
        with httpx.Client(timeout=120) as client:
            first = client.post(url, files={"image": ("city.jpg", jpeg, "image/jpeg")})
        if first.status_code != 200:
            print(f"warm-up scan failed: {first.status_code} {first.text[:300]}")
            return 1
        warm = rss_kib(proc.pid, "VmRSS")

        samples: list[int] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(0.05):
                samples.append(rss_kib(proc.pid, "VmRSS"))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        def upload(k: int) -> tuple[int, float, str]:
            # Each upload from a phone of its own (forwarded, as a loopback proxy gives it): one address
            # may hold only SPRAWLSCAN_MAX_CLIENT_UPLOADS uploads at once.
            phone = {"X-Forwarded-For": f"10.0.{k // 250}.{k % 250 + 1}"}
            t = time.perf_counter()
            with httpx.Client(timeout=args.deadline) as client:
                resp = client.post(url, files={"image": ("city.jpg", jpeg, "image/jpeg")}, headers=phone)
            return resp.status_code, time.perf_counter() - t, resp.text[:200]

        t0 = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            results = list(pool.map(upload, range(args.uploads)))
        wall = time.perf_counter() - t0
        stop.set()
        sampler.join()
        peak = rss_kib(proc.pid, "VmHWM")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()

    latencies = [lat for _, lat, _ in results]
    failures = [(code, text) for code, _, text in results if code != 200]
    print(f"uploads: {args.uploads} ({args.concurrency} at once), succeeded {args.uploads - len(failures)}")
    print(f"wall time: {wall:.2f} s; throughput: {args.uploads / wall:.2f} scans/s")
    print(
        f"latency: median {statistics.median(latencies):.2f} s, p95 {percentile(latencies, 0.95):.2f} s, "
        f"max {max(latencies):.2f} s"
    )
    print(
        f"server RSS: idle {idle / 1024:.0f} MiB, after one scan {warm / 1024:.0f} MiB, "
        f"during the run max {max(samples, default=warm) / 1024:.0f} MiB, peak (VmHWM) {peak / 1024:.0f} MiB"
    )
    for code, text in failures[:5]:
        print(f"  failed: {code} {text}")
    within = peak / 1024 <= PEAK_LIMIT_MIB
    print(f"peak {'within' if within else 'OVER'} the {PEAK_LIMIT_MIB} MiB of the documented container")
    if failures or wall > args.deadline or not within:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
