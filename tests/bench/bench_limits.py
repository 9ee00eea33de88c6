"""The service's memory bound and deadlines, measured on a real server (``sprawlscan serve``, defaults).

1. Peak memory per hostile image: a fresh server per file, whose peak RSS (VmHWM) above its idle RSS is
   printed for a 7900 × 7900 RGBA PNG, the same as WebP (lossless), a 7900 × 7900 16-bit grey PNG, a
   7900 × 7900 48-bit RGB PNG, a 5600 × 5600 RGBA WebP and 7999 × 7999 progressive JPEGs (4:2:0 and 4:4:4).
   Limit: 400 MiB above idle each.
2. Deadlines: one client trickling its headers and 32 trickling their upload bodies, a byte a second;
   printed: how long each kept its connection (limit: the documented deadline plus a second), and that an
   ordinary upload sent once they are cut is scanned (their pending-scan slots were freed).
3. The engine (issue 27): the 28 × 28 and 64 × 64 checkerboard towns (W/c and D/g, goals cool-water and
   the-herd) to ``/api/v1/score``, a JSON tally of 50 000 keys and one just within the 20 000-character
   limit to ``/api/v1/check``, and ``sprawlscan check`` with an 800 kB text tally; printed: the answer and
   its time. Limit: 5 s each.

3. CPU per request (issue 27): a 7999 × 7999 progressive JPEG whose last scan is repeated 300 times
   (answered within 15 s, and the server's CPU time stops growing once it is answered), a 64 × 40 000 PNG
   (a 4xx, not a 500) and an unknown option with a photo (refused before the scan).

3. Issue 27's store and admission rows (bench_limits_store.py): a played_at beyond the calendar, imports
   of /dev/zero and of a JPEG, databases that cannot be opened or written, 20 concurrent saves against a
   limit of 10, a DNS-rebinding Host, and an honest upload while seven uploads trickle.

Exits 1 when a limit is missed. The 20 concurrent 12 MP uploads are bench_service.py's.

    python tests/bench/bench_limits.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import bench_limits_store
import httpx
import numpy as np
from bench_service import ROOT, free_port, rss_kib, start_server

sys.path.insert(0, str(ROOT))
from PIL import Image, ImageDraw

from tests.live_server import trickle  # noqa: E402

MIB = 1024
PER_IMAGE_LIMIT_MIB = 400
HEADER_DEADLINE_S = 10.0  # the defaults of SPRAWLSCAN_HEADER_TIMEOUT_S and SPRAWLSCAN_BODY_GRACE_S
BODY_DEADLINE_S = 10.0
ENGINE_LIMIT_S = 5.0


def hostile_images(folder: Path) -> dict[str, Path]:
    """Small files that decode to huge images (the kinds issue 14 measured)."""
    n = 7900
    rgba = Image.new("RGBA", (n, n), (200, 190, 180, 255))
    draw = ImageDraw.Draw(rgba)
    for i in range(0, n, 400):
        draw.rectangle([i, i, i + 300, i + 300], fill=(20, 120, 40, 128))
    files = {
        "7900 × 7900 RGBA PNG": folder / "rgba.png",
        "7900 × 7900 RGBA WebP (lossless)": folder / "rgba.webp",
        "5600 × 5600 RGBA WebP (lossless)": folder / "rgba-5600.webp",
        "7900 × 7900 16-bit grey PNG": folder / "grey16.png",
        "7900 × 7900 48-bit RGB PNG": folder / "rgb48.png",
    }
    rgba.save(files["7900 × 7900 RGBA PNG"])
    rgba.save(files["7900 × 7900 RGBA WebP (lossless)"], lossless=True, quality=0, method=0)
    rgba.crop((0, 0, 5600, 5600)).save(files["5600 × 5600 RGBA WebP (lossless)"], lossless=True, quality=0)
    del rgba, draw
    grey = np.full((n, n), 40000, np.uint16)
    grey[::500] = 1000
    Image.fromarray(grey).save(files["7900 × 7900 16-bit grey PNG"])
    del grey
    import cv2

    rgb48 = np.full((n, n, 3), 40000, np.uint16)
    rgb48[::500] = 1000
    cv2.imwrite(str(files["7900 × 7900 48-bit RGB PNG"]), rgb48)
    del rgb48
    one_colour = Image.new("RGB", (7999, 7999), (120, 160, 90))
    files["7999 × 7999 progressive JPEG"] = folder / "progressive.jpg"
    one_colour.save(files["7999 × 7999 progressive JPEG"], progressive=True)
    files["7999 × 7999 progressive 4:4:4 JPEG"] = folder / "progressive-444.jpg"
    one_colour.save(files["7999 × 7999 progressive 4:4:4 JPEG"], progressive=True, subsampling=0)
    return files


def cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_bounds(folder: Path) -> bool:
    """Issue 27's inputs against one server: each answer's status and time, and the bomb's CPU."""
    progressive = (folder / "progressive.jpg").read_bytes()
    start = progressive.rfind(b"\xff\xda")
    bomb = progressive[:-2] + progressive[start:-2] * 300 + b"\xff\xd9"
    thin = folder / "thin.png"
    Image.new("RGB", (64, 40000), (120, 160, 90)).save(thin)
    port = free_port()
    proc = start_server(port, {})
    ok = True
    try:
        url = f"http://127.0.0.1:{port}/api/v1/scans"
        with httpx.Client(timeout=300) as client:
            cases = [
                ("bomb JPEG (last scan ×300)", {"image": ("bomb.jpg", bomb)}, {}),
                ("64 × 40 000 PNG", {"image": ("thin.png", thin.read_bytes())}, {}),
                ('options={"zzz": 1}', {"image": ("p.jpg", progressive)}, {"options": '{"zzz": 1}'}),
            ]
            for name, files, data in cases:
                cpu0, t0 = cpu_s(proc.pid), time.perf_counter()
                resp = client.post(url, files=files, data=data)
                took, cpu1 = time.perf_counter() - t0, cpu_s(proc.pid)
                time.sleep(2)
                after = cpu_s(proc.pid) - cpu1  # still burning once answered?
                code = resp.json().get("error", {}).get("code", "scanned")
                print(
                    f"{name} ({len(files['image'][1]) / 1e3:.0f} kB): {resp.status_code} {code} "
                    f"in {took:.2f} s, {cpu1 - cpu0:.2f} s CPU; {after:.2f} s CPU in the 2 s after"
                )
                ok &= 400 <= resp.status_code < 500 and took <= 15 and after < 0.5
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return ok


def peak_for(path: Path) -> tuple[float, float, str]:
    """Idle and peak RSS (MiB) of a fresh server that scans ``path`` once, and the answer's status."""
    port = free_port()
    proc = start_server(port, {})
    try:
        idle = rss_kib(proc.pid, "VmHWM")  # start-up's own peak: the baseline the scan adds to
        with httpx.Client(timeout=300) as client:
            resp = client.post(
                f"http://127.0.0.1:{port}/api/v1/scans", files={"image": (path.name, path.read_bytes())}
            )
        peak = rss_kib(proc.pid, "VmHWM")
        answer = f"{resp.status_code} {resp.json().get('error', {}).get('code', 'scanned')}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return idle / MIB, peak / MIB, answer


def kept_open(port: int, head: bytes, drip: bytes, limit_s: float = 60.0) -> tuple[float, bytes]:
    """Seconds a connection that sends ``head`` then one byte of ``drip`` a second stays open, and the
    start of what the server answered."""
    received, lived = trickle(port, head, drip, every_s=1.0, limit_s=limit_s)
    return lived, received[:40]


def deadlines(photo: bytes) -> bool:
    port = free_port()
    proc = start_server(port, {})
    ok = True
    try:
        header_result: list[tuple[float, bytes]] = []
        body_results: list[tuple[float, bytes]] = []
        upload = (
            b"POST /api/v1/scans HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 4000000\r\n\r\n--b\r\n"
        )
        threads = [
            threading.Thread(
                target=lambda: header_result.append(
                    kept_open(port, b"POST /api/v1/scans HTTP/1.1\r\n", b"X" * 99)
                )
            )
        ]
        threads += [
            threading.Thread(target=lambda: body_results.append(kept_open(port, upload, b"a" * 99)))
            for _ in range(32)
        ]
        for t in threads:
            t.start()
        time.sleep(2)
        with httpx.Client(timeout=60) as client:
            busy = client.post(f"http://127.0.0.1:{port}/api/v1/scans", files={"image": ("city.jpg", photo)})
        for t in threads:
            t.join()
        with httpx.Client(timeout=120) as client:
            after = client.post(f"http://127.0.0.1:{port}/api/v1/scans", files={"image": ("city.jpg", photo)})
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    header_s, header_answer = header_result[0]
    body_s = max(s for s, _ in body_results)
    answered = sum(answer.startswith(b"HTTP/1.1 408") for _, answer in body_results)
    # Cut by the server in time: a 408, or a reset (closing on unread bytes may lose the answer).
    cut = sum(s <= BODY_DEADLINE_S + 1 and (a.startswith(b"HTTP/1.1 408") or not a) for s, a in body_results)
    print(f"trickled headers (1 byte/s): connection kept {header_s:.1f} s, answer {header_answer[:12]!r}")
    print(
        f"32 trickled upload bodies (1 byte/s): kept at most {body_s:.1f} s, {cut}/32 cut in time "
        f"({answered} with the 408 received, the rest reset)"
    )
    print(
        f"an upload while the 32 held every slot: {busy.status_code}; once they were cut: {after.status_code}"
    )
    ok &= header_s <= HEADER_DEADLINE_S + 1 and header_answer.startswith(b"HTTP/1.1 408")
    ok &= body_s <= BODY_DEADLINE_S + 1 and cut == 32 and after.status_code == 200
    return ok


def _timed(what: str, send: Callable[[], tuple[str, bool]]) -> bool:
    """Run ``send`` (which returns its answer and whether it is the one expected) and print how long."""
    start = time.perf_counter()
    answer, expected = send()
    took = time.perf_counter() - start
    within = took < ENGINE_LIMIT_S and expected
    print(f"{what}: {answer} in {took:.2f} s ({'within' if within else 'OVER'} {ENGINE_LIMIT_S:.0f} s)")
    return within


def engine() -> bool:
    from tests.conftest import CITY
    from tests.scoring.test_engine_limits import checkerboard_town, tally_within_limit

    port = free_port()
    proc = start_server(port, {})
    url = f"http://127.0.0.1:{port}/api/v1"
    ok = True
    try:
        with httpx.Client(timeout=7200) as client:

            def post(path: str, body: dict, status: int) -> Callable[[], tuple[str, bool]]:
                def send() -> tuple[str, bool]:
                    resp = client.post(f"{url}/{path}", json=body)
                    return f"{resp.status_code} {resp.json().get('error', {}).get('code', 'ok')}", (
                        resp.status_code == status
                    )

                return send

            for n in (28, 64):
                town = {"game": "wagons", "city": checkerboard_town(n)}
                ok &= _timed(f"{n} × {n} checkerboard town", post("score", town, 200))
            keys = {f"parks{i}": 1 for i in range(50_000)}
            ok &= _timed("JSON tally of 50 000 keys", post("check", {"city": CITY, "tally": keys}, 422))
            within = tally_within_limit()
            check = post("check", {"city": CITY, "tally": within}, 200)
            ok &= _timed(f"JSON tally of {len(within):,} keys (within the limit)", check)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    with tempfile.TemporaryDirectory() as tmp:
        tally = Path(tmp) / "big.tally"
        tally.write_text("".join(f"parks{i} 1\n" for i in range(70_000)))
        cmd = [sys.executable, "-m", "api.cli", "check", "samples/example.city", "--tally", str(tally)]

        def cli() -> tuple[str, bool]:
            done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
            return f"exit {done.returncode}: {done.stderr.strip()[:70]}", done.returncode == 2

        ok &= _timed(f"sprawlscan check, {tally.stat().st_size / 1e3:.0f} kB text tally", cli)
    return ok


def main() -> int:
    from models.synth.scene import render_photo

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        files = hostile_images(Path(tmp))
        for name, path in files.items():
            idle, peak, answer = peak_for(path)
            within = peak - idle <= PER_IMAGE_LIMIT_MIB
            ok &= within
            verdict = "within" if within else "OVER"
            print(
                f"{name} ({path.stat().st_size / 1e3:.0f} kB): idle {idle:.0f} MiB, peak {peak:.0f} MiB, "
                f"+{peak - idle:.0f} MiB ({verdict} {PER_IMAGE_LIMIT_MIB}); answer {answer}"
            )
        ok &= cpu_bounds(Path(tmp))
    ok &= deadlines(render_photo(3).jpeg)
    ok &= engine()
    ok &= bench_limits_store.main()  # issue 27: times out of range, imports, databases, hosts, admission
    print("all limits held" if ok else "A LIMIT WAS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
