"""Benchmark: the history and statistics of one device with 10 000 saved games, on SQLite and PostgreSQL.

It fills a fresh database (a SQLite file, and a database on a throwaway PostgreSQL server started like the
tests start theirs) with N games of one device across random combinations of three scoring cards, plus as
many games of other devices, then times ``GET /api/v1/games`` (the first page of 50 and the count) and
``GET /api/v1/stats`` through the service in this process (FastAPI's test client: routing, database and JSON,
no network). Target (issue 15): each answers in under 50 ms (p95 over the timed requests).

Run: ``python tests/bench/bench_games.py [--games 10000] [--requests 30] [--backend sqlite postgresql]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from api.core.saved_games import owner_of_token  # noqa: E402
from api.web import Settings, create_app  # noqa: E402
from tests.pgserver import PostgresServer  # noqa: E402

TARGET_MS = 50.0
TOKEN = "bench-device-token-0123456789abcdefghij"


def fill(app: object, n: int, seed: int) -> None:
    """``n`` games of the benchmark device and ``n`` of other devices, inserted in batches."""
    rng = random.Random(seed)
    store = app.state.services.games  # type: ignore[attr-defined]
    app.state.services.devices.issue(owner_of_token(TOKEN), "bench")  # type: ignore[attr-defined]
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for owner in (owner_of_token(TOKEN), None):
        batch = []
        for i in range(n):
            cards = sorted(rng.sample(range(1, 19), 3))
            total = rng.randint(-10, 45)
            target = rng.randint(10, 40)
            batch.append(
                {
                    "game": "sprawlopolis",
                    "combo": " ".join(map(str, cards)),
                    "city": "P\n",
                    "cards": cards,
                    "expansions": [],
                    "variant": None,
                    "options": {},
                    "breakdown": {"total": total, "items": [{"key": "parks", "points": total}]},
                    "total": total,
                    "target": target,
                    "won": total >= target,
                    "label": f"game {i}",
                    "players": ["Ann"],
                    "played_at": start + timedelta(minutes=37 * i),
                }
            )
            if len(batch) == 1000:
                store.add_many(owner or owner_of_token(f"other-device-{i:06d}-padding-0123456789"), batch)
                batch = []
        if batch:
            store.add_many(owner or owner_of_token("other-device-final-padding-0123456789ab"), batch)


def time_requests(client: TestClient, path: str, requests: int) -> list[float]:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for _ in range(3):  # warm up connections and caches
        assert client.get(path, headers=auth).status_code == 200
    times = []
    for _ in range(requests):
        t = time.perf_counter()
        resp = client.get(path, headers=auth)
        times.append((time.perf_counter() - t) * 1000)
        assert resp.status_code == 200, resp.text
    return sorted(times)


def report(client: TestClient, requests: int, title: str) -> bool:
    """Time both endpoints; True when each one's p95 is under the target."""
    ok = True
    print(f"  {title}")
    for path in ("/api/v1/games", "/api/v1/stats"):
        times = time_requests(client, path, requests)
        p95 = times[int(0.95 * (len(times) - 1))]
        ok &= p95 < TARGET_MS
        median = statistics.median(times)
        print(f"    GET {path:<15} median {median:6.1f} ms   p95 {p95:6.1f} ms   max {times[-1]:6.1f} ms")
    return ok


def run(url: str, backend: str, games: int, requests: int) -> bool:
    app = create_app(Settings(database_url=url))
    with TestClient(app) as client:
        t = time.perf_counter()
        fill(app, games, 2026)
        fill_s = time.perf_counter() - t
        auth = {"Authorization": f"Bearer {TOKEN}"}
        history = client.get("/api/v1/games", headers=auth).json()
        stats = client.get("/api/v1/stats", headers=auth).json()
        assert history["count"] == games and stats["games"] == games
        combos = len(stats["sections"][0]["combinations"])
        print(
            f"{backend}: {games} games of the device (+{games} of others) in {combos} card combinations, "
            f"filled in {fill_s:.1f} s"
        )
        if backend != "postgresql":
            return report(client, requests, "history page (50 games + count) and statistics")
        # Right after a bulk insert PostgreSQL has no table statistics and no visibility map yet, so it
        # plans for a handful of rows and cannot answer from the indexes alone; autovacuum fixes both within
        # about a minute. Shown for information; the target is judged on the table as autovacuum leaves it.
        report(client, requests, "just after the bulk insert (before autovacuum):")
        engine = app.state.services.engine
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE games")
        return report(client, requests, "after VACUUM ANALYZE (what autovacuum does on its own):")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=30, help="timed requests per endpoint (default 30)")
    parser.add_argument(
        "--backend", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"]
    )
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in args.backend:
            ok &= run(f"sqlite:///{tmp}/bench.db", "sqlite", args.games, args.requests)
        if "postgresql" in args.backend:
            server = PostgresServer().start()
            try:
                ok &= run(server.new_database(), "postgresql", args.games, args.requests)
            finally:
                server.stop()
    print(f"target p95 < {TARGET_MS:.0f} ms for each: {'met' if ok else 'NOT met'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
