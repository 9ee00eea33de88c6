"""The same bytes always give the same JSON, bit for bit: whatever the process scanned before, on whichever
thread, however busy the machine is (no solver time limits, thread races or caches steer a reading)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scoring.city import format_city
from vision.pipeline import scan_image

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "samples" / "demo.jpg"


def scanned(data: bytes, cards: list[int] | None) -> str:
    """Everything a scan reports (the city with its header, and the result's JSON), as one string."""
    result = scan_image(data, cards=cards)
    out: dict[str, Any] = {"city": format_city(result.city), **result.to_json()}
    return json.dumps(out, sort_keys=True)


@contextmanager
def busy_cpu(threads: int = 2) -> Iterator[None]:
    """Other work competing for the interpreter and the cores while the block runs."""
    stop = threading.Event()

    def spin() -> None:
        n = 0
        while not stop.is_set():
            n += 1

    workers = [threading.Thread(target=spin, daemon=True) for _ in range(threads)]
    for w in workers:
        w.start()
    try:
        yield
    finally:
        stop.set()
        for w in workers:
            w.join()


@pytest.mark.parametrize("cards", [[7, 12, 13], None], ids=["cards given", "cards from the backs"])
def test_the_same_file_scanned_twice_gives_identical_json(cards: list[int] | None) -> None:
    data = DEMO.read_bytes()
    first = scanned(data, cards)
    assert scanned(data, cards) == first


def test_a_scan_on_another_thread_of_a_loaded_machine_gives_identical_json() -> None:
    data = DEMO.read_bytes()
    quiet = scanned(data, [7, 12, 13])
    with busy_cpu(), ThreadPoolExecutor(max_workers=1) as pool:  # as the service scans: on a worker
        loaded = pool.submit(scanned, data, [7, 12, 13]).result()
    assert loaded == quiet


def test_scans_side_by_side_on_threads_give_the_json_each_gives_alone() -> None:
    """The service scans several photos at once: the scans share thread pools and solver threads."""
    from tests.bench.perturb import jpeg_bytes, turned
    from vision.photo.decode import decode_image

    demo = DEMO.read_bytes()
    photos = [demo, jpeg_bytes(turned(decode_image(demo).rgb, 180))]
    alone = [scanned(p, None) for p in photos]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda p: scanned(p, None), photos * 2))
    assert together == alone * 2


def test_the_missing_cards_named_are_the_same_on_every_scan() -> None:
    data = DEMO.read_bytes()
    named = {json.dumps(json.loads(scanned(data, [7, 12, 13]))["scoring_cards"]) for _ in range(3)}
    assert len(named) == 1


def test_processes_with_other_string_hashes_give_identical_json() -> None:
    """Python orders sets of strings by a hash seeded per process: no reading may depend on that order."""
    code = "import sys; from api.cli import main; sys.exit(main(['scan', sys.argv[1], '--format', 'json']))"
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", code, str(DEMO)], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.add(done.stdout)
    assert len(outputs) == 1
