"""Benchmark of the synthetic renderer: seconds per 12 MP photo on one core, seconds per top-down render,
and the CIELAB statistics of rendered blocks beside the scans' table in ``real-cards.md``.

Run: ``python tests/bench/bench_synth.py [--photos N]``. Target: under 2 s per 12 MP photo.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import cv2
import numpy as np

from models.synth.art import render_city_topdown
from models.synth.measure import REFERENCE_LAB, block_lab_percentiles
from models.synth.scene import render_photo
from scoring.placement import simulate_play


def bench_photos(n: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per photo (CPU time is what one core spends, even on a busy machine)."""
    render_photo(1000, long_side=400)  # warm imports and caches
    times, cpu = [], []
    for seed in range(n):
        t, c0 = time.perf_counter(), time.process_time()
        photo = render_photo(seed)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c0)
        c = photo.conditions
        print(
            f"  seed {seed}: {times[-1]:.2f} s wall, {cpu[-1]:.2f} s CPU  "
            f"{photo.image.shape[1]}x{photo.image.shape[0]}  {c.table}, "
            f"tilt {c.tilt:.0f}, EXIF {c.exif_orientation}, {len(photo.jpeg) / 1e6:.1f} MB"
        )
    return times, cpu


def bench_topdown(n: int) -> list[float]:
    times = []
    for seed in range(n):
        play = simulate_play(random.Random(seed))
        t = time.perf_counter()
        render_city_topdown(play, random.Random(seed), 2.0)
        times.append(time.perf_counter() - t)
    return times


def colour_table() -> None:
    stats = block_lab_percentiles(np.random.default_rng(0))
    print(
        "CIELAB percentiles 10/50/90 over whole rendered blocks (render | real-cards.md | median difference)"
    )
    for zone in "RCIP":
        cells = []
        for k, name in enumerate("Lab"):
            ours = "/".join(f"{v:.0f}" for v in stats[zone][k])
            ref = "/".join(f"{v:.0f}" for v in REFERENCE_LAB[zone][k])
            diff = stats[zone][k][1] - REFERENCE_LAB[zone][k][1]
            cells.append(f"{name}* {ours:>12} | {ref:>12} | {diff:+5.1f}")
        print(f"  {zone}: " + "   ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=5)
    args = parser.parse_args()
    cv2.setNumThreads(1)  # the target is for one core
    print(f"12 MP photos on one core ({args.photos}):")
    times, cpu = bench_photos(args.photos)
    print(
        f"photo render, wall: mean {statistics.mean(times):.2f} s, median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s; CPU: mean {statistics.mean(cpu):.2f} s, max {max(cpu):.2f} s (target < 2 s)"
    )
    td = bench_topdown(5)
    print(f"top-down render at 2 px/mm: mean {statistics.mean(td):.2f} s, max {max(td):.2f} s")
    colour_table()


if __name__ == "__main__":
    main()
