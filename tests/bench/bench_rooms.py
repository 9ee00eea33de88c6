"""Cities on the harder rooms' tables: a red check cloth, grey felt, marble and pale wood.

    python tests/bench/bench_rooms.py [--photos 6] [--long-side 3000] [--tables check,felt]

Renders ``--photos`` cities per table kind (:data:`models.synth.tables.HARDER_TABLES`, drawn only when asked
for, so the classifier never trained on them), with seeds of their own, and scans each. Per table it prints
the cities read exactly, the blocks right, the wrong cells and how many of them the scan named in its
``doubt``, the photos it asked to take again (``retake``) and those it found no city in. It ends with
``harder rooms: exact K/N, wrong cells W, silent S, retake R, no city F``: an honest scanner has S = 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from perturbed import figures  # noqa: E402

from models.synth.scene import render_photo  # noqa: E402
from models.synth.tables import HARDER_TABLES  # noqa: E402
from scoring.city_text import parse_city  # noqa: E402
from scoring.errors import InputError  # noqa: E402
from vision.pipeline import scan_image  # noqa: E402

ROOMS_SEED_BASE = 80_000_000  # own seeds: not training (1e6, 9e6, 7e7..) nor bench_accuracy (5e7..)


def read_room(table: str, seed: int, long_side: int) -> dict[str, Any]:
    """One rendered city on ``table``, scanned, compared with its truth (see :func:`perturbed.figures`)."""
    photo = render_photo(seed, table=table, long_side=long_side)
    truth = parse_city(photo.truth.city)
    try:
        result = scan_image(photo.jpeg)
    except InputError as exc:
        return {"no_city": str(exc), "exact": False, "wrong": [], "silent": [], "refused": None, "blocks": 0}
    return {**figures(truth, result.city, result.to_json()), "no_city": None}


def _line(name: str, rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    exact = sum(bool(r["exact"]) for r in rows)
    wrong = sum(len(r["wrong"]) for r in rows)
    silent = sum(len(r["silent"]) for r in rows)
    retake = sum(bool(r["refused"]) for r in rows)
    no_city = sum(bool(r["no_city"]) for r in rows)
    return (
        f"{name}: exact {exact}/{n}, wrong cells {wrong}, silent {silent}, retake {retake}, no city {no_city}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=6, help="cities per table kind")
    ap.add_argument("--long-side", type=int, default=3000, help="the photos' long side in px")
    ap.add_argument("--tables", default=",".join(HARDER_TABLES), help="comma-separated table kinds")
    args = ap.parse_args(argv)
    every: list[dict[str, Any]] = []
    for table in args.tables.split(","):
        rows = []
        for i in range(args.photos):
            seed = ROOMS_SEED_BASE + 1000 * HARDER_TABLES.index(table) + i  # whichever tables are asked
            row = read_room(table, seed, args.long_side)
            rows.append(row)
            what = row["no_city"] or row["refused"] or " ".join(row["wrong"]) or "exact"
            silent = f"  silent: {' '.join(row['silent'])}" if row["silent"] else ""
            print(f"  {table} seed {seed}: {what[:120]}{silent}", flush=True)
        print(_line(table, rows), flush=True)
        every += rows
    print(_line("harder rooms", every))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
