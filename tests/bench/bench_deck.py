"""Teach your deck, on the real-art development set: teach from each deck photo, then read the 24 cities.

    python tests/bench/bench_deck.py [--devset DIR] [--jobs 2] [--decks deck00,deck03]

For each of ``../shared/devset/decks/deckNN.jpg`` in turn it teaches the scanner (the taught file written to
a temporary folder and read back, never kept), prints the assignment right n/18 against ``deckNN.json``
(whole grid either way round) and the teaching time, then scans the 24 city photos with that deck and
prints blocks right, cities exact and the scan time against the untaught scan of the same photos (read
once first). It says plainly that it skipped when the folder is not there. Nothing of the set is copied.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEVSET = ROOT.parent / "shared" / "devset"
_DECKS: dict[str, Any] = {}


def _read(job: tuple[Path, str, str | None]) -> dict[str, Any]:
    """Scan one city photo, with the taught deck at ``deck_path`` or without one."""
    from scoring.city_text import parse_city
    from scoring.errors import InputError
    from tests.evaluate import compare_cities
    from vision.deck.taught import load_deck
    from vision.photo.decode import decode_image
    from vision.pipeline import WORK_LONG_SIDE, scan_rgb

    folder, name, deck_path = job
    deck = None
    if deck_path is not None:
        if deck_path not in _DECKS:
            _DECKS[deck_path] = load_deck(Path(deck_path).read_bytes())
        deck = _DECKS[deck_path]
    truth = parse_city((folder / f"{name}.city").read_text())
    rgb = decode_image((folder / f"{name}.jpg").read_bytes(), long_side=WORK_LONG_SIDE).rgb
    timings: dict[str, float] = {}
    t = time.perf_counter()
    try:
        read = scan_rgb(rgb, timings=timings, deck=deck).city
    except InputError:
        read = None
    seconds = time.perf_counter() - t
    score = compare_cities(truth, read)
    return {
        "name": name,
        "blocks": score.right,
        "of": score.cells,
        "exact": score.exact,
        "seconds": seconds,
        "deck_seconds": timings.get("deck", 0.0),
        "wrong": [f"{a}→{b}" for _, a, b in score.wrong],
    }


def assignment_right(cards: list[Any], truth: dict[str, Any]) -> int:
    """Cards given the true number and turn at their grid place, the grid read either way round."""
    want = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in truth["cards"]}
    rows = max(r for r, _ in want) + 1
    cols = max(c for _, c in want) + 1
    best = 0
    for turned in (False, True):
        right = 0
        for c in cards:
            r, k = (rows - 1 - c.row, cols - 1 - c.col) if turned else (c.row, c.col)
            right += want.get((r, k)) == (c.card, c.rotated != turned)
        best = max(best, right)
    return best


def _summary(rows: list[dict[str, Any]]) -> str:
    right, of = sum(r["blocks"] for r in rows), sum(r["of"] for r in rows)
    return (
        f"blocks {right}/{of} ({100 * right / max(of, 1):.2f} %), cities exact "
        f"{sum(r['exact'] for r in rows)}/{len(rows)}, "
        f"scan median {statistics.median(r['seconds'] for r in rows):.2f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEVSET)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--decks", default="", help="comma-separated deck photo names (default: all)")
    args = parser.parse_args(argv)
    meta_path = args.devset / "meta.json"
    deck_dir = args.devset / "decks"
    if not meta_path.is_file() or not deck_dir.is_dir():
        print(f"bench_deck: skipped, no real-art development set with deck photos at {args.devset}")
        return 0
    from scoring.errors import InputError
    from vision.deck.teach import teach_deck

    names = sorted(m["name"] for m in json.loads(meta_path.read_text()))
    decks = (
        [d.strip() for d in args.decks.split(",")]
        if args.decks
        else sorted(p.stem for p in deck_dir.glob("deck*.jpg"))
    )
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        plain = list(pool.map(_read, [(args.devset, n, None) for n in names]))
        print(f"untaught: {_summary(plain)}")
        with tempfile.TemporaryDirectory() as tmp:
            for deck in decks:
                truth = json.loads((deck_dir / f"{deck}.json").read_text())
                t = time.perf_counter()
                try:
                    teaching = teach_deck((deck_dir / f"{deck}.jpg").read_bytes(), names=[deck])
                except InputError as exc:
                    print(f"\n{deck}: teaching refused: {exc}")
                    continue
                seconds = time.perf_counter() - t
                path = Path(tmp) / f"{deck}.deck"
                path.write_bytes(teaching.deck.to_bytes())
                print(
                    f"\n{deck}: assignment right {assignment_right(teaching.cards, truth)}/18, teaching "
                    f"{seconds:.1f} s, file {path.stat().st_size // 1024} KB"
                )
                taught = list(pool.map(_read, [(args.devset, n, str(path)) for n in names]))
                ratio = statistics.median(
                    t["seconds"] / p["seconds"] for t, p in zip(taught, plain, strict=True)
                )
                deck_ms = 1000 * statistics.median(r["deck_seconds"] for r in taught)
                print(
                    f"  taught: {_summary(taught)}; cost +{100 * (ratio - 1):.0f} % (median per photo), "
                    f"deck stage median {deck_ms:.0f} ms"
                )
                for r in taught:
                    if not r["exact"]:
                        print(f"    {r['name']}: {r['blocks']}/{r['of']}  {' '.join(r['wrong'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
