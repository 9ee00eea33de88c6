"""Scoring-card recognition on fixed-seed synthetic photos: cards found, numbers right, time.

Run: ``python tests/bench/bench_scorecards.py [--photos 120] [--first-seed 70000] [--long-side 2016]``.

Photos come from :func:`models.synth.scene.render_photo` at the pipeline's working size (2016 px on the
long side, what a 12 MP photo is decoded to), conditions drawn from each seed as for real photos. The
number classifier never saw these photos: it is trained on its own rendered circles. A card counts when
it lies wholly in the frame; a reading is matched to the card whose outline contains its circle.

Printed: cards found, numbers right / wrong / unread, photos whose three numbers come out exactly (what a
scan's ``cards:`` header gets), false detections, corner error, per table kind, and time per photo.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from models.synth.scene import render_photo  # noqa: E402
from vision.backs.choose import choose_scoring_cards  # noqa: E402
from vision.backs.numerals import NumberReader, get_reader, use_reader  # noqa: E402
from vision.backs.read import find_scoring_cards  # noqa: E402


def _inside(poly: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def _city_scale_and_mask(photo: Any) -> tuple[float, np.ndarray]:
    """What the scan gives the card reader: the photo's scale at the city (px per mm, from the city cards'
    outlines, as the lattice measures it) and the city's region (the cards' outlines filled)."""
    h, w = photo.image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    lengths = []
    for card in photo.truth.cards:
        corners = np.array(card.corners, np.float64)
        cv2.fillPoly(mask, [corners.round().astype(np.int32)], 1)
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        lengths.append(sides.max() / 88.9)
    return float(np.median(lengths)), mask


def _condition(text: str) -> tuple[str, object]:
    """``name=value`` → (name, the value as JSON if it parses, else as text): ``tilt=35``, ``wb=[1,1,2]``."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=120)
    ap.add_argument("--first-seed", type=int, default=70000)
    ap.add_argument("--long-side", type=int, default=2016)
    ap.add_argument(
        "--unscaled", action="store_true", help="search every circle size, with no city mask (no scan)"
    )
    ap.add_argument("--verbose", action="store_true", help="print every miss and misread")
    ap.add_argument(
        "--model", type=Path, default=None, help="folder with another numbers.onnx/.json to measure"
    )
    ap.add_argument(
        "--condition",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="fix a photo condition for every photo (repeatable), e.g. tilt=35 glare=0.6 table=white",
    )
    args = ap.parse_args(argv)

    overrides = dict(_condition(c) for c in args.condition)
    if args.model is not None:
        use_reader(NumberReader(args.model / "numbers.onnx", args.model / "numbers.json"))
    get_reader()  # load the model before timing
    stats: dict[str, int] = defaultdict(int)
    by_table: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # cards, numbers right
    times: list[float] = []
    corner_err: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.photos):
        photo = render_photo(seed, long_side=args.long_side, **overrides)
        h, w = photo.image.shape[:2]
        t = time.perf_counter()
        scale, mask = (None, None) if args.unscaled else _city_scale_and_mask(photo)
        readings = find_scoring_cards(photo.image, city_mask=mask, px_per_mm=scale)
        times.append(time.perf_counter() - t)
        # The header from the backs alone, as a scan whose city gave no reading would choose it.
        chosen = choose_scoring_cards([r.to_back_number() for r in readings], from_city=None)
        numbers = list(chosen.cards) if chosen.cards else None

        truths = [s for s in photo.truth.scoring_cards if s.in_photo]
        polys = [np.array(s.corners) for s in truths]
        whole = [bool(((p >= 0) & (p < [w, h])).all()) for p in polys]
        matched: set[int] = set()
        for r in readings:
            hit = next((i for i, p in enumerate(polys) if _inside(p, r.circle[:2])), None)
            if hit is None:
                stats["false detections"] += 1
                if args.verbose:
                    print(f"seed {seed}: false detection {r.number} at {r.circle}")
                continue
            matched.add(hit)
            if not whole[hit]:
                continue
            truth = truths[hit]
            if r.number == truth.number:
                stats["numbers right"] += 1
            elif r.number is None:
                stats["numbers unread"] += 1
                if args.verbose:
                    print(f"seed {seed}: could not read {truth.number} (best {r.alternatives[:1]})")
            else:
                stats["numbers wrong"] += 1
                if args.verbose:
                    print(f"seed {seed}: read {r.number} ({r.confidence:.2f}) for {truth.number}")
            if r.band_found:
                stats["bands found"] += 1
            long_side = float(np.linalg.norm(polys[hit][1] - polys[hit][0]))
            corner_err.append(float(np.linalg.norm(r.corners - polys[hit], axis=1).mean()) / long_side)
        table = str(photo.conditions.table)
        for i, truth in enumerate(truths):
            if not whole[i]:
                stats["cards partly out of frame"] += 1
                continue
            stats["cards"] += 1
            by_table[table][0] += 1
            if i in matched:
                stats["cards found"] += 1
                if any(r.number == truth.number and _inside(polys[i], r.circle[:2]) for r in readings):
                    by_table[table][1] += 1
            elif args.verbose:
                print(f"seed {seed}: missed card {truth.number} ({table}, tilt {photo.conditions.tilt:.0f})")
        if truths and all(whole):
            stats["photos with three cards"] += 1
            if numbers == sorted(t.number for t in truths):
                stats["photos with all three right"] += 1
            elif numbers is not None:
                stats["photos with a wrong header"] += 1
        if not truths:
            stats["photos without cards"] += 1
            if numbers is not None:
                stats["photos without cards given a header"] += 1

    cards = max(1, stats["cards"])
    last = args.first_seed + args.photos - 1
    fixed = f", {' '.join(args.condition)}" if args.condition else ""
    print(f"{args.photos} photos (seeds {args.first_seed}..{last}), {args.long_side} px{fixed}")
    print(f"cards wholly in frame: {stats['cards']} (+{stats['cards partly out of frame']} partly out)")
    print(f"  found:          {stats['cards found']} ({100 * stats['cards found'] / cards:.1f}%)")
    print(f"  number right:   {stats['numbers right']} ({100 * stats['numbers right'] / cards:.1f}%)")
    print(f"  number wrong:   {stats['numbers wrong']} ({100 * stats['numbers wrong'] / cards:.1f}%)")
    print(f"  number unread:  {stats['numbers unread']}")
    print(f"  title band seen beside the circle: {stats['bands found']}")
    if corner_err:
        print(f"  corner error:   median {100 * statistics.median(corner_err):.1f}% of the card's length")
    three, exact = stats["photos with three cards"], stats["photos with all three right"]
    print(
        f"photos with three cards in frame: {three}; header exactly right {exact} "
        f"({100 * exact / max(1, three):.1f}%), header wrong {stats['photos with a wrong header']}"
    )
    print(
        f"photos without scoring cards: {stats['photos without cards']}; given a header anyway "
        f"{stats['photos without cards given a header']}"
    )
    print(f"false detections: {stats['false detections']}")
    for table, (n, right) in sorted(by_table.items()):
        print(f"  table {table:6s}: {right}/{n} numbers right ({100 * right / max(1, n):.1f}%)")
    times_ms = sorted(1000 * t for t in times)
    print(
        f"time per photo: median {statistics.median(times_ms):.1f} ms, "
        f"p95 {times_ms[int(0.95 * (len(times_ms) - 1))]:.1f} ms, max {times_ms[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
