"""Accuracy of the photo reader on a fixed-seed synthetic evaluation set, end to end.

    python tests/bench/bench_accuracy.py [--limit N] [--photos 300] [--no-photos]

Part 1, classifier only: held-out top-down crops (play seeds disjoint from training), cut and disturbed the
way training data is (``models.cellset``), read by the shipped ONNX model.

Part 2, end to end: simulated 12 MP photos (``models.synth.scene.render_photo``, consecutive seeds from
``EVAL_SEED_BASE``, never used in training), each read by ``vision.pipeline.scan_image`` from its JPEG bytes,
until ``--photos`` of them show the whole city. The targets are judged on those: a photo that cuts the city
cannot be read whole, and what it must get is the warning that the city runs off the edge, which is reported
for the cut photos met on the way (about one in ten). Reports cell accuracy (zone and road both right, with
the truth's expansion cells compared as tokens), whole cities read exactly, scores exactly right
(``scoring.engine.score_city`` with the truth's scoring cards), all broken down by photo condition, and
the median time per photo with a stage-by-stage profile. Rendered photos are cached under
``data/eval_photos_<renderer hash>/`` so reruns only scan. Figures also go to ``data/bench_accuracy.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.city import City  # noqa: E402
from scoring.errors import InputError  # noqa: E402

DATA = ROOT / "data"
EVAL_SEED_BASE = 50_000_000  # photo seeds; training uses play seeds 1e6.. and 9e6.. with another generator
CROP_SEED_BASE = 80_000_000  # held-out top-down crops for the classifier-only figures
TARGETS = {"cells": 0.995, "cities": 0.95, "scores": 0.95}


# --- classifier only ---------------------------------------------------------------------------------


def classifier_only(n_cities: int) -> dict[str, Any]:
    """Accuracy of the shipped model on held-out top-down crops from ``n_cities`` rendered cities."""
    from models.cellset import KINDS, load_or_build
    from vision.cells.classify import ZONES_WITH_EMPTY, get_classifier

    data = load_or_build(DATA, "bench", range(CROP_SEED_BASE, CROP_SEED_BASE + n_cities), 2)
    clf = get_classifier()
    t = time.perf_counter()
    preds = clf.predict(data.crops)
    per_crop_ms = (time.perf_counter() - t) / len(preds) * 1000
    zone = np.array([clf.zones.index("W" if p.kind == "wrecktar" else p.zone or "empty") for p in preds])
    road = np.array([clf.roads.index(p.road or "none") for p in preds])
    ok = (zone == data.zone) & (road == data.road)
    out: dict[str, Any] = {"crops": len(preds), "both": float(ok.mean()), "ms_per_crop": per_crop_ms}
    mark = np.array([1 if p.poi else 2 if p.construction else 0 for p in preds])
    blocks = np.isin(data.zone, [clf.zones.index(z) for z in "RCIP"])
    out["mark_on_blocks"] = float((mark[blocks] == data.mark[blocks]).mean())
    out["zone"] = float((zone == data.zone).mean())
    out["road"] = float((road == data.road).mean())
    out["by_zone"] = {
        z: float(ok[data.zone == i].mean()) for i, z in enumerate(clf.zones) if (data.zone == i).any()
    }
    out["by_kind"] = {
        k: float(ok[data.kind == i].mean()) for i, k in enumerate(KINDS) if (data.kind == i).any()
    }
    classes = ZONES_WITH_EMPTY  # data labels use the full class list even for an older, smaller model
    confusion = np.zeros((len(classes), len(classes)), int)
    np.add.at(confusion, (data.zone, zone), 1)
    out["zone_confusion"] = {"classes": list(classes), "rows_truth_cols_read": confusion.tolist()}
    return out


# --- end to end ----------------------------------------------------------------------------------------


@cache
def renderer_fingerprint() -> str:
    """A hash of the code that renders the photos (the synth package and the simulated play): cached
    photos from another version of it are not reused, so the evaluation set is what the seeds make now."""
    import hashlib

    synth = sorted((ROOT / "models" / "synth").glob("*.py"))
    if not synth:  # the renderer moved: a hash of nothing would reuse photos another renderer made
        raise SystemExit(f"bench_accuracy: no renderer found under {ROOT / 'models' / 'synth'}")
    files = synth + [ROOT / "scoring" / "placement.py"]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:10]


# Set by --renderer: read the photos another version of the renderer made (to compare two scanners on the
# same photos after a change to the renderer; they must be in data/ already).
PINNED_RENDERER: str | None = None


def eval_photo(seed: int) -> tuple[bytes, Any]:
    """The JPEG bytes and truth of evaluation photo ``seed``, rendered once and cached under data/."""
    from models.synth.truth import PhotoTruth

    folder = DATA / f"eval_photos_{PINNED_RENDERER or renderer_fingerprint()}"
    jpg, js = folder / f"{seed}.jpg", folder / f"{seed}.json"
    if jpg.is_file() and js.is_file():
        return jpg.read_bytes(), PhotoTruth.from_json(json.loads(js.read_text()))
    from models.synth.scene import render_photo

    photo = render_photo(seed)
    folder.mkdir(parents=True, exist_ok=True)
    jpg.write_bytes(photo.jpeg)
    js.write_text(photo.truth.dumps())
    return photo.jpeg, photo.truth


def _key(city: City, r: int, c: int, marks: bool) -> tuple[Any, ...]:
    cell = city.cell(r, c)
    return (cell.kind, cell.zone, cell.road) + ((cell.poi, cell.construction) if marks else (False, False))


def _trim(city: City, marks: bool) -> list[list[tuple[Any, ...]]]:
    """The grid as comparable keys, without all-empty border rows and columns."""
    cells = [(r, c) for r, c, cell in city.cells() if cell.kind != "empty"]
    if not cells:
        return []
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    return [[_key(city, r, c, marks) for c in range(c0, c1 + 1)] for r in range(r0, r1 + 1)]


def compare_cells(truth: City, read: City, marks: bool = False) -> tuple[int, int]:
    """(right, total) cells after the best alignment of ``read`` on ``truth`` (shift, and 180° turn, which
    does not change a score). Every truth grid cell counts, and so does every non-empty cell read outside
    it; a cell is right when kind (block, empty, Wrecktar), zone and road match, and with ``marks`` also
    the Point of Interest and construction marks."""
    t = _trim(truth, marks)
    best = (0, sum(len(row) for row in t) or 1)
    for cand in (read, read.rotated()):
        g = _trim(cand, marks)
        if not g or not t:
            continue
        nt, mt, ng, mg = len(t), len(t[0]), len(g), len(g[0])
        empty = ("empty", None, None, False, False)
        for dr in range(-ng + 1, nt):
            for dc in range(-mg + 1, mt):
                right = extra = 0
                for r in range(nt):
                    for c in range(mt):
                        rr, cc = r - dr, c - dc
                        got = g[rr][cc] if 0 <= rr < ng and 0 <= cc < mg else empty
                        right += got == t[r][c]
                for rr in range(ng):
                    for cc in range(mg):
                        r, c = rr + dr, cc + dc
                        if not (0 <= r < nt and 0 <= c < mt) and g[rr][cc] != empty:
                            extra += 1
                total = nt * mt + extra
                if right / total > best[0] / best[1]:
                    best = (right, total)
    return best


def _buckets(cond: dict[str, Any]) -> dict[str, str]:
    """The photo's conditions in a few readable bins."""

    def band(value: float, edges: Iterable[float], unit: str = "") -> str:
        lo = None
        for e in edges:
            if value < e:
                return f"<{e}{unit}" if lo is None else f"{lo}–{e}{unit}"
            lo = e
        return f"≥{lo}{unit}"

    wb = cond.get("wb", [1, 1, 1])
    cast = max(abs(float(np.log(g / wb[1]))) for g in wb) if wb else 0.0
    return {
        "tilt": band(float(cond.get("tilt", 0)), (10, 20, 30), "°"),
        "table": str(cond.get("table", "?")),
        "blur": band(float(cond.get("blur", 0)), (1, 2, 4), " px"),
        "lighting": band(float(cond.get("light", 0)), (0.15, 0.3), " gradient"),
        "glare": "glare" if float(cond.get("glare", 0)) > 0 else "no glare",
        "colour cast": band(cast, (0.05, 0.1, 0.2), " log-gain"),
        "framing": "partial" if cond.get("partial") else "whole city",
        "expansions": " + ".join(
            name
            for name, on in (
                ("Wrecktar", cond.get("wrecktar")),
                ("POI", cond.get("poi")),
                ("construction", cond.get("construction")),
            )
            if on
        )
        or "none",
    }


def end_to_end(whole_photos: int, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Read photos from seed :data:`EVAL_SEED_BASE` on until ``whole_photos`` of them show the whole city;
    the cut ones met on the way are read too and reported apart."""
    from scoring.engine import score_city
    from vision.pipeline import scan_image

    rows = []
    seed, whole = EVAL_SEED_BASE, 0
    while whole < whole_photos:
        jpeg, truth = eval_photo(seed)
        seed += 1
        whole += not truth.conditions.get("partial")
        true_city = truth.parsed_city()
        cards = tuple(s.number for s in truth.scoring_cards)
        t = time.perf_counter()
        warned = False
        try:
            result = scan_image(jpeg)
            read, timings, error = result.city, result.timings, None
            warned = any("runs off" in w for w in result.warnings)
        except InputError as exc:
            read, timings, error = None, {}, f"{type(exc).__name__}: {exc}"
            warned = "no city found" in str(exc)
        seconds = time.perf_counter() - t
        cells_total = true_city.n_rows * true_city.n_cols
        right = tokens_right = 0
        tokens_total = cells_total
        exact = score_ok = False
        if read is not None:
            right, cells_total = compare_cells(true_city, read)
            tokens_right, tokens_total = compare_cells(true_city, read, marks=True)
            exact = tokens_right == tokens_total
            true_score = score_city(true_city, cards).total
            try:
                score_ok = score_city(read, cards, true_city.expansions).total == true_score
            except InputError:
                score_ok = False
        rows.append(
            {
                "seed": seed - 1,
                "cells_right": right,
                "cells": cells_total,
                "tokens_right": tokens_right,
                "tokens": tokens_total,
                "exact": exact,
                "score": score_ok,
                "seconds": seconds,
                "timings": timings,
                "error": error,
                "warned": warned,
                "bins": _buckets(truth.conditions),
            }
        )
        if progress:
            progress(whole, whole_photos)
    return summarise(rows)


def _rates(rows: list[dict[str, Any]]) -> dict[str, Any]:
    cells = sum(r["cells"] for r in rows)
    tokens = sum(r["tokens"] for r in rows)
    return {
        "photos": len(rows),
        "cells": sum(r["cells_right"] for r in rows) / max(1, cells),
        "tokens": sum(r["tokens_right"] for r in rows) / max(1, tokens),
        "cities": sum(r["exact"] for r in rows) / max(1, len(rows)),
        "scores": sum(r["score"] for r in rows) / max(1, len(rows)),
        "errors": sum(r["error"] is not None for r in rows),
        # Told the city is cut by the photo's edge (or refused): what a photo missing part of it must get.
        "warned_cut": sum(r["warned"] for r in rows) / max(1, len(rows)),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    whole = [r for r in rows if r["bins"]["framing"] == "whole city"]
    out: dict[str, Any] = {"whole_city_photos": _rates(whole)}
    out["cut_city_photos"] = _rates([r for r in rows if r["bins"]["framing"] != "whole city"])
    out["all_photos"] = _rates(rows)
    out["whole_city_no_expansions"] = _rates([r for r in whole if r["bins"]["expansions"] == "none"])
    # By condition over the whole-city photos (a cut city cannot be read whole, whatever the light), and
    # by framing over all.
    by: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for cond, value in r["bins"].items():
            if cond == "framing" or r["bins"]["framing"] == "whole city":
                by[cond][value].append(r)
    out["by_condition"] = {c: {v: _rates(rs) for v, rs in sorted(vals.items())} for c, vals in by.items()}
    times = [r["seconds"] for r in rows]
    stages: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for k, v in r["timings"].items():
            stages[k].append(v)
    out["median_seconds"] = statistics.median(times) if times else None
    out["median_stage_seconds"] = {k: statistics.median(v) for k, v in stages.items()}
    out["failures"] = [
        {k: r[k] for k in ("seed", "cells_right", "cells", "score", "error")} for r in rows if not r["exact"]
    ]
    return out


def _print_rates(name: str, rates: dict[str, Any]) -> None:
    print(
        f"  {name:<28} {rates['photos']:>4} photos  cells {rates['cells']:.2%} (with marks"
        f" {rates['tokens']:.2%})  cities {rates['cities']:.1%}"
        f"  scores {rates['scores']:.1%}" + (f"  errors {rates['errors']}" if rates["errors"] else "")
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--photos", type=int, default=300, help="evaluation photos showing the whole city (default 300)"
    )
    ap.add_argument("--limit", type=int, default=None, help="only N whole-city photos (a quick run)")
    ap.add_argument("--crop-cities", type=int, default=60, help="cities for the classifier-only figures")
    ap.add_argument("--no-photos", action="store_true", help="classifier-only figures only")
    ap.add_argument(
        "--renderer", default=None, help="read the cached photos of this renderer fingerprint (see data/)"
    )
    args = ap.parse_args(argv)
    global PINNED_RENDERER
    if args.renderer:
        if not (DATA / f"eval_photos_{args.renderer}").is_dir():
            ap.error(f"no cached evaluation photos for renderer {args.renderer} in {DATA}")
        PINNED_RENDERER = args.renderer
    report: dict[str, Any] = {}

    print("classifier only, held-out top-down crops:")
    co = classifier_only(args.crop_cities)
    report["classifier_only"] = co
    print(
        f"  {co['crops']} crops: zone and road right {co['both']:.3%} (zone {co['zone']:.3%}, road"
        f" {co['road']:.3%}); {co['ms_per_crop']:.2f} ms per crop"
    )
    print("  by true zone: " + ", ".join(f"{k} {v:.2%}" for k, v in co["by_zone"].items()))
    print(f"  expansion marks right on {co['mark_on_blocks']:.2%} of blocks")
    print("  by cell kind: " + ", ".join(f"{k} {v:.2%}" for k, v in co["by_kind"].items()))

    if not args.no_photos:
        n = min(args.photos, args.limit) if args.limit else args.photos
        print(f"end to end, photos from seed {EVAL_SEED_BASE} on until {n} show the whole city:")
        done = {0}

        def progress(whole: int, total: int) -> None:
            if (whole % 25 == 0 or whole == total) and whole not in done:
                done.add(whole)
                print(f"  ... {whole}/{total}", flush=True)

        e2e = end_to_end(n, progress)
        report["end_to_end"] = e2e
        whole, cut = e2e["whole_city_photos"], e2e["cut_city_photos"]
        _print_rates("whole city in the frame", whole)
        _print_rates("... and no expansion", e2e["whole_city_no_expansions"])
        _print_rates("city cut by the frame", cut)
        _print_rates("all photos read", e2e["all_photos"])
        print(
            f"  photos cutting the city: told so on {cut['warned_cut']:.0%} of {cut['photos']};"
            f" whole cities told so wrongly: {whole['warned_cut']:.1%} of {whole['photos']}"
        )
        for cond, values in e2e["by_condition"].items():
            print(f" by {cond}" + (":" if cond == "framing" else " (whole-city photos):"))
            for value, rates in values.items():
                _print_rates(value, rates)
        stages = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in e2e["median_stage_seconds"].items())
        print(f"  median time per photo {e2e['median_seconds']:.3f} s; median stages: {stages}")
        met = {k: whole[k] >= v for k, v in TARGETS.items()}
        print(
            f"  targets, on the {whole['photos']} whole-city photos: "
            + ", ".join(f"{k} ≥ {TARGETS[k]:.1%}: {'met' if ok else 'NOT met'}" for k, ok in met.items())
        )
        if e2e["failures"]:
            print("  not read exactly: " + ", ".join(str(f["seed"]) for f in e2e["failures"][:30]))
    DATA.mkdir(exist_ok=True)
    (DATA / "bench_accuracy.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
