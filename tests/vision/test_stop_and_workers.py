"""A scan is timed one way (vision.runtime.stages.StageTimer), stopped another (vision.runtime.stages.Stop,
asked between stages), and runs on thread pools its caller owns (vision.runtime.workers), none of them made
at import."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from tests.conftest import ROOT, png_bytes
from vision.pipeline import scan_image
from vision.runtime.stages import ScanCancelled, ScanPastDeadline, StageTimer, Stop
from vision.runtime.workers import Workers, current_workers, default_workers


def test_a_cancelled_scan_stops_before_its_first_stage() -> None:
    stop = Stop()
    stop.cancel("the client has gone")
    timings: dict[str, float] = {}
    with pytest.raises(ScanCancelled, match="before its first stage: the client has gone"):
        scan_image(png_bytes(), timings=timings, stop=stop)
    assert timings == {}


def test_a_scan_past_its_deadline_stops_after_the_stage_it_is_in() -> None:
    timings: dict[str, float] = {}
    with pytest.raises(ScanPastDeadline, match="after its 'decode' stage") as stopped:
        scan_image(png_bytes(640, 480), timings=timings, stop=Stop(deadline_s=0.0))
    assert stopped.value.stage == "decode" and list(timings) == ["decode"]


def test_a_stop_made_within_another_shares_its_cancel_but_not_its_deadline() -> None:
    outer = Stop()
    inner = outer.within(0.0)
    outer.check("decode")
    with pytest.raises(ScanPastDeadline):
        inner.check("decode")
    outer.cancel("gone")
    assert inner.cancelled
    with pytest.raises(ScanCancelled, match="after the 'locate' stage: gone"):
        inner.check("locate")


def test_the_stage_timer_adds_a_stage_timed_twice_and_leaves_out_one_that_failed() -> None:
    timer = StageTimer()
    for _ in range(2):
        with timer("refine"):
            pass
    with pytest.raises(ValueError), timer("assemble"):
        raise ValueError("a stage that fails")
    timer.add("cards", 0.5)
    assert list(timer.timings) == ["refine", "cards"] and timer.timings["cards"] == 0.5


def test_workers_made_active_serve_the_scans_on_this_thread_and_start_again_after_close() -> None:
    with Workers(backs=1, solves=1) as workers:
        with workers.active():
            assert current_workers() is workers
            name = workers.backs.submit(lambda: threading.current_thread().name).result()
            assert name.startswith("sprawlscan-backs")
        assert current_workers() is default_workers()
    # Closed with the block; used again, its pools start anew.
    assert workers.solves.submit(lambda: 7).result() == 7
    workers.close()


def test_importing_the_scanner_starts_no_thread_pool() -> None:
    probe = (
        "import threading, vision.pipeline, vision.runtime.workers as w; "
        "assert w._DEFAULT is None, 'a default pool at import'; "
        "assert not [t for t in threading.enumerate() if t.name.startswith('sprawlscan-')], 'threads'"
    )
    run = [sys.executable, "-c", probe]
    done = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
