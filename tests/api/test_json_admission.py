"""Issue 39, item 3: the CPU-heavy JSON requests (import, score, check, save) are admitted with bounded
work, on a real ``sprawlscan serve``.

The issue's probe: an import of 48 Circle the Wagons towns of 64 × 64 cells (0.8 MB) cost 4.4 s of CPU, and
four in parallel 23 s, while an honest scan took 13.6 s and ``/healthz`` up to 1.2 s. Here that import is
refused at once, and a flood of the largest imports allowed, from several addresses, is answered ``busy``
beyond the slots while ``/healthz`` and an honest scan still answer.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from api.core.saved_games import MAX_IMPORT_CELLS
from tests.conftest import ROOT, assert_error
from tests.live_server import serving

PENDING, PER_CLIENT = 4, 2  # this server's JSON slots: in all, and of one address
# /healthz while the flood runs, on the 2-core development machine shared with other work (0.1 s idle):
# before, the issue's flood made its median 1.0 s and its slowest 2.6 s (a flood like this one's: 0.74 s and
# 5.0 s); now 0.23 s and 0.7-1.5 s.
HEALTHY_MEDIAN_S, HEALTHY_MAX_S = 0.5, 3.0


def checkerboard_town(n: int) -> str:
    """Issue 27's costliest town: W/c and D/g alternating, every group and herd tied."""
    rows = (" ".join("W/c" if (r + c) % 2 == 0 else "D/g" for c in range(n)) for r in range(n))
    return "goals: cool-water the-herd\n" + "\n".join(rows) + "\n"


def export_of(towns: int) -> dict[str, object]:
    game = {"game": "wagons", "city": checkerboard_town(64)}
    return {"format": "sprawlscan-games", "version": 1, "games": [game] * towns}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("json")
    env = {
        "SPRAWLSCAN_DATABASE_PATH": str(folder / "j.db"),
        "SPRAWLSCAN_MAX_PENDING_JSON": str(PENDING),
        "SPRAWLSCAN_MAX_CLIENT_JSON": str(PER_CLIENT),
    }
    with serving(folder / "server.log", env=env) as (url, _):
        yield url


def _token(url: str, client: str) -> dict[str, str]:
    resp = httpx.post(f"{url}/api/v1/devices", headers={"X-Forwarded-For": client})
    assert resp.status_code == 201, resp.text
    return {"Authorization": f"Bearer {resp.json()['device_token']}", "X-Forwarded-For": client}


def test_the_issues_import_of_48_towns_of_64_cells_is_refused_at_once_naming_the_bound(live: str) -> None:
    start = time.monotonic()
    resp = httpx.post(f"{live}/api/v1/games/import", json=export_of(48), headers=_token(live, "10.40.0.1"))
    assert_error(resp, 413, "import_too_large", "196,608 cells", f"{MAX_IMPORT_CELLS:,}", "split the file")
    assert time.monotonic() - start < 3.0


class Health(threading.Thread):
    """``/healthz`` asked every 0.1 s until stopped: each answer's status and seconds."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.stop, self.answers = url, threading.Event(), []

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            status = httpx.get(f"{self.url}/healthz", timeout=30).status_code
            self.answers.append((status, time.monotonic() - start))
            time.sleep(0.1)


def test_a_flood_of_imports_is_answered_busy_while_healthz_and_an_honest_scan_still_answer(live: str) -> None:
    doc = export_of(MAX_IMPORT_CELLS // (64 * 64))  # the largest import allowed: 14 towns, 57 344 cells
    clients = [f"10.41.0.{k}" for k in range(1, 5) for _ in range(3)]  # 4 addresses, 3 imports each
    auths = {c: _token(live, c) for c in set(clients)}
    health = Health(live)
    health.start()
    with ThreadPoolExecutor(len(clients)) as pool:
        post = lambda c: httpx.post(f"{live}/api/v1/games/import", json=doc, headers=auths[c], timeout=120)  # noqa: E731
        # The first address's three go first, so that its third meets its own bound (429) while slots are
        # still free for the others; the rest then fill the slots (503). Sent all at once, a loaded machine
        # may admit one of each address first, and every later one meets the full slots instead.
        flood = [pool.submit(post, c) for c in clients[:3]]
        time.sleep(0.5)
        flood += [pool.submit(post, c) for c in clients[3:]]
        time.sleep(1.0)  # the flood holds every slot
        photo = (ROOT / "samples" / "demo.jpg").read_bytes()
        scan = httpx.post(f"{live}/api/v1/scans", files={"image": ("demo.jpg", photo)}, timeout=120)
        answers = [f.result() for f in flood]
    health.stop.set()
    health.join()
    assert scan.status_code == 200, scan.text
    codes = sorted(r.status_code for r in answers)
    assert codes.count(201) >= PENDING and 429 in codes and 503 in codes, codes
    for resp in answers:
        if resp.status_code == 429:
            assert_error(resp, 429, "too_many_requests", f"at most {PER_CLIENT} at once")
        elif resp.status_code == 503:
            assert_error(resp, 503, "busy", "try again")
        if resp.status_code != 201:
            assert resp.headers["retry-after"] == "2"
    assert health.answers and all(status == 200 for status, _ in health.answers)
    took = [t for _, t in health.answers]
    assert statistics.median(took) < HEALTHY_MEDIAN_S, f"/healthz: median {statistics.median(took):.2f} s"
    assert max(took) < HEALTHY_MAX_S, f"/healthz took {max(took):.2f} s during the flood"


def test_score_and_check_go_through_the_same_slots(live: str) -> None:
    town = {"game": "wagons", "city": checkerboard_town(64)}
    one = {"X-Forwarded-For": "10.42.0.1"}
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(lambda _: httpx.post(f"{live}/api/v1/score", json=town, headers=one), range(8))
        )
    codes = [r.status_code for r in answers]
    assert codes.count(200) >= PER_CLIENT and 429 in codes and set(codes) <= {200, 429}, codes
    assert httpx.post(f"{live}/api/v1/score", json=town, headers=one).json()["total"] == 4  # all free again
    tally = {"game": "wagons", "city": town["city"], "tally": "total 4"}
    assert httpx.post(f"{live}/api/v1/check", json=tally, headers=one).status_code == 200


def test_an_import_within_the_bound_is_scored_whole(live: str) -> None:
    auth = _token(live, "10.43.0.1")
    resp = httpx.post(f"{live}/api/v1/games/import", json=export_of(2), headers=auth, timeout=60)
    assert resp.status_code == 201, resp.text
    assert resp.json()["imported"] == 2
