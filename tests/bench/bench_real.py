"""The scanner on photos of the real printed cards: the real-art development set.

    python tests/bench/bench_real.py [--devset DIR] [--jobs 1] [--only comp000,comp003] [--quick]
                                     [--perturb all|none|rot90,crop3,...]

The set (``../shared/devset/`` beside the checkout, see its README) is 24 photos of finished 15-card cities
built from the publisher's real cards, with their true cities, on five kinds of table. It is never trained
on and nothing of it is copied into the project: this script only reads it, and says plainly that it
skipped when the folder is not there (a clone without it).

Every photo is read four ways: upright with the scoring cards read from their backs (the default scan),
upright with the true scoring cards given, and turned by 90° and by 180° (the player may hold the phone
either way round), each without cards given. For each it prints blocks right (zone and road; the best
alignment over the four whole-city turns and every shift, so a city read turned round is still exact),
cities exact and scoring cards read, overall and per table kind, the median scan time, how often the lattice
arbitration ran, the photos whose placements name the city's cards (none of its scoring cards, as many as
show) and those with a scoring card in doubt (a card warning), and ends with the line ``devset: blocks
M/N, cities exact K/24, cards read J/24, city's cards named C/24`` for the default scan. ``--quick`` reads
only the default scan.

Then every photo is read in the twelve everyday perturbations of ``tests/bench/perturb.py`` (turned, cropped,
recompressed, dimmed, EXIF-turned, HEIC, glare, shadow, steeper) and with no scoring cards in view
(``nocards``: cut down to the city and a margin, from where the upright reading found it), and compared with
its upright reading (``tests/bench/perturbed.py``), ending with ``devset perturbed: identical K/N, wrong cells
W, silent S, doubt per photo D``, then per perturbation the city's cards named, the card warnings and the
readings scored with the wrong scoring cards. ``--perturb
rot90,crop3`` reads only those perturbations (and not the four ways above: a quick look); ``--perturb none``
leaves them out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.perturbed import chosen  # noqa: E402
from tests.evaluate import compare_cities  # noqa: E402

DEVSET = ROOT.parent / "shared" / "devset"
# name → (turn in degrees, whether the true scoring cards are given)
WAYS = {
    "upright": (0, False),
    "cards known": (0, True),
    "turned 90°": (90, False),
    "turned 180°": (180, False),
}


def _read(job: tuple[Path, str, int, bool]) -> dict[str, Any]:
    """Scan one devset photo one way and compare it with its truth."""
    import numpy as np

    from scoring.city_text import parse_city
    from scoring.errors import InputError
    from vision.photo.decode import decode_image
    from vision.pipeline import WORK_LONG_SIDE, scan_rgb

    folder, name, turn, give_cards = job
    decode_cpu = _time_decodings()
    truth = parse_city((folder / f"{name}.city").read_text())
    rgb = decode_image((folder / f"{name}.jpg").read_bytes(), long_side=WORK_LONG_SIDE).rgb
    rgb = np.ascontiguousarray(np.rot90(rgb, -turn // 90))
    timings: dict[str, float] = {}
    t = time.perf_counter()
    try:
        result = scan_rgb(rgb, cards=list(truth.cards) if give_cards else None, timings=timings)
        read, error = result.city, None
    except InputError as exc:
        read, error = None, str(exc)
    seconds = time.perf_counter() - t
    decode_cpu = list(decode_cpu)  # the scan's own (the truth's decodings below are not)
    score = compare_cities(truth, read)
    same_card = of_cards = same_cell = of_cells = 0
    if read is not None:
        true_cards, by_cell = _true_cards(truth)
        for cell in result.cells:
            where = score.to_truth(read, cell.row, cell.col)
            want = true_cards.get(where)
            if want is not None:
                of_cards += 1
                same_card += cell.card == want
            if where in by_cell:
                of_cells += 1
                same_cell += cell.card == by_cell[where]
    return {
        "name": name,
        "blocks": score.right,
        "of": score.cells,
        "exact": score.exact,
        "cards": read is not None and sorted(read.cards) == sorted(truth.cards),
        "seconds": seconds,
        "arbitrated": "arbitrate" in timings,
        "rival": "rival" in timings,
        "decode_seconds": timings.get("stacking", 0.0) + timings.get("unexplained", 0.0),
        "decode_cpu": decode_cpu,
        "error": error,
        "same_card": same_card,
        "of_cards": of_cards,
        "same_cell": same_cell,
        "of_cells": of_cells,
        **_card_figures(result if read is not None else None, truth.cards),
        "named": read is not None and _named_right([p["card"] for p in result.placements], truth),
        "card_alarm": read is not None and bool(result.scoring_cards and result.scoring_cards.in_doubt),
        "marks": 0 if read is None else sum(c.poi or c.construction for _, _, c in read.blocks()),
        "wrong": [f"{true}→{got}" for _, true, got in score.wrong],
    }


def _time_decodings() -> list[float]:
    """Record the CPU seconds of every joint card decoding this process runs from now on: the program's
    building and its solving (the thread's own time: on a machine shared with other work the wall-clock
    time says more about the others)."""
    import vision.cards.stacking as card_decoding
    from vision.cards.program import CardProgram

    seconds: list[float] = []
    pending = [0.0]  # a program built, not yet solved
    build = getattr(CardProgram.__init__, "__wrapped__", CardProgram.__init__)
    decode = getattr(card_decoding.stack_program, "__wrapped__", card_decoding.stack_program)

    def timed_build(self: Any, *args: Any, **kwargs: Any) -> None:
        t = time.thread_time()
        build(self, *args, **kwargs)
        pending[0] += time.thread_time() - t

    def timed_decode(*args: Any, **kwargs: Any) -> Any:
        t = time.thread_time()
        try:
            return decode(*args, **kwargs)
        finally:
            seconds.append(pending[0] + time.thread_time() - t)
            pending[0] = 0.0

    timed_build.__wrapped__ = build  # type: ignore[attr-defined]
    timed_decode.__wrapped__ = decode  # type: ignore[attr-defined]
    CardProgram.__init__ = timed_build  # type: ignore[method-assign]
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("vision.") and hasattr(module, "stack_program"):
            module.stack_program = timed_decode  # type: ignore[attr-defined]
    return seconds


def _true_cards(truth: Any) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Which card shows in each block of the true city, where the layouts decide it: the true city decoded
    with certain evidence and its scoring cards known.

    Two answers: by card, a card's blocks count when the city cannot be explained as well without that
    card (a card that shows only, say, a park could often be any of several); by cell, a block counts
    only when no other card could show it in an explanation as good (two cards present can show the same
    blocks and swap them for free: a fair measure does not count those).
    """
    from scoring.layouts import LAYOUTS
    from vision.cards.branch import best_stacking
    from vision.cards.program import UNEXPLAINED_COST, CardProgram
    from vision.cards.stacking import EMPTY_LABEL, CellEvidence, stack_cards

    grid = [[CellEvidence({EMPTY_LABEL: 0.0})] * (truth.n_cols + 2) for _ in range(truth.n_rows + 2)]
    for r, c, cell in truth.cells():
        label = (cell.zone, cell.road) if cell.is_block else EMPTY_LABEL
        grid[r + 1][c + 1] = CellEvidence({label: 0.0, **({EMPTY_LABEL: -12.0} if cell.is_block else {})})
    decoding = stack_cards(grid, exclude=truth.cards)
    by_card = {}
    for card in {p.card for p in decoding.placements}:
        without = stack_cards(grid, exclude=(*truth.cards, card))
        if without.objective < decoding.objective - 0.5:  # no other card explains its blocks as well
            by_card.update({(r - 1, c - 1): card for (r, c), d in decoding.cells.items() if d.card == card})
    program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    excluded = program.card_vars(truth.cards)
    by_cell = {}
    for (r, c), d in decoding.cells.items():
        if d.card is None:
            continue
        mine = [
            i
            for i in program.at_cell[(r, c)]
            if program.names[i][0] == "y" and program.placements[program.names[i][1]].card == d.card
        ]
        other = best_stacking(program, forbid=excluded + mine)
        if other is None or other[0] < decoding.objective - 0.5:
            by_cell[(r - 1, c - 1)] = d.card
    return by_card, by_cell


def _named_right(placed: list[int], truth: Any) -> bool:
    """Whether the placements name the city's cards: none of its scoring cards, and as many cards as
    show in the true city (a card the others hide wholly cannot be placed)."""
    return not set(placed) & set(truth.cards) and len(placed) == _cards_showing(truth)


def _cards_showing(truth: Any) -> int:
    """How many cards show a block in the true city: its decoding, with certain evidence, without its
    scoring cards."""
    from vision.cards.stacking import EMPTY_LABEL, CellEvidence, stack_cards

    grid = [[CellEvidence({EMPTY_LABEL: 0.0})] * (truth.n_cols + 2) for _ in range(truth.n_rows + 2)]
    for r, c, cell in truth.cells():
        label = (cell.zone, cell.road) if cell.is_block else EMPTY_LABEL
        grid[r + 1][c + 1] = CellEvidence({label: 0.0, **({EMPTY_LABEL: -12.0} if cell.is_block else {})})
    return len(stack_cards(grid, exclude=truth.cards, checks=False).placements)


def _card_figures(result: Any, truth: tuple[int, ...]) -> dict[str, Any]:
    """Where the scoring cards came from, the backs read right and wrong, and any card reported wrongly
    with no warning naming it (the thing a player must never get)."""
    if result is None or result.scoring_cards is None:
        return {"source": None, "backs_right": 0, "backs_wrong": 0, "unwarned": []}
    chosen = result.scoring_cards
    numbers = [b.number for b in chosen.backs if b.number is not None]
    warned = " ".join(result.warnings)
    unwarned = [n for n in (chosen.cards or ()) if n not in truth and str(n) not in warned]
    return {
        "source": chosen.source,
        "backs_right": sum(n in truth for n in numbers),
        "backs_wrong": sum(n not in truth for n in numbers),
        "unwarned": unwarned,
    }


def _summary(rows: list[dict[str, Any]]) -> str:
    right, cells = sum(r["blocks"] for r in rows), sum(r["of"] for r in rows)
    exact, cards = sum(r["exact"] for r in rows), sum(r["cards"] for r in rows)
    return (
        f"blocks {right}/{cells} ({100 * right / max(cells, 1):.2f} %), cities exact {exact}/{len(rows)}, "
        f"cards read {cards}/{len(rows)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEVSET)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine is shared: 1)")
    parser.add_argument("--only", default="", help="comma-separated photo names (for looking, not figures)")
    parser.add_argument("--quick", action="store_true", help="only the default upright scan")
    parser.add_argument("--json", type=Path, default=ROOT / "data" / "bench_real.json")
    parser.add_argument("--perturb", help="all (after the four ways; the default), none, or rot90,crop3,...")
    args = parser.parse_args(argv)
    try:
        ways_wanted = chosen(args.perturb)
    except ValueError as exc:
        parser.error(str(exc))
    meta_path = args.devset / "meta.json"
    if not meta_path.is_file():
        print(f"bench_real: skipped, no real-art development set at {args.devset}")
        return 0
    meta = {m["name"]: m for m in json.loads(meta_path.read_text())}
    names = sorted(meta) if not args.only else [n.strip() for n in args.only.split(",")]
    if args.perturb not in (None, "all", "none"):
        return _perturbed(args.devset, names, ways_wanted, args.jobs)
    ways = {"upright": WAYS["upright"]} if args.quick else WAYS
    jobs = [(args.devset, n, turn, given) for turn, given in ways.values() for n in names]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        done = list(pool.map(_read, jobs))
    by_way = {way: done[i * len(names) : (i + 1) * len(names)] for i, way in enumerate(ways)}

    print(f"real-art development set: {len(names)} photos from {args.devset}")
    for way, rows in by_way.items():
        print(f"\n{way}: {_summary(rows)}")
        tables: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            tables[meta[r["name"]]["table"]].append(r)
            if "tint" in meta[r["name"]]:
                tables["tinted" if meta[r["name"]]["tint"] else "untinted"].append(r)
        for table, sub in sorted(tables.items()):
            print(f"  {table:10s} {_summary(sub)}")
        times = [r["seconds"] for r in rows]
        decoding = sorted(r["decode_seconds"] for r in rows)
        cpu = sorted(t for r in rows for t in r["decode_cpu"])
        print(
            f"  scan median {statistics.median(times):.2f} s (max {max(times):.2f} s), of it the card "
            f"decoding median {1000 * statistics.median(decoding):.0f} ms "
            f"(max {1000 * decoding[-1]:.0f} ms); "
            f"lattice arbitration on {sum(r['arbitrated'] for r in rows)}/{len(rows)} photos, "
            f"a rival pitch read on {sum(r['rival'] for r in rows)}"
        )
        if cpu:
            per_photo = sorted(sum(r["decode_cpu"]) for r in rows)
            print(
                f"  card decodings: {len(cpu)} run, CPU median {1000 * statistics.median(cpu):.0f} ms, "
                f"max {1000 * cpu[-1]:.0f} ms each (building the program, where it is not reused, and "
                f"solving it); all of a scan's together median {1000 * statistics.median(per_photo):.0f} "
                f"ms, max {1000 * per_photo[-1]:.0f} ms"
            )
        sources = defaultdict(int)
        for r in rows:
            sources[str(r["source"])] += 1
        print(
            f"  scoring cards: from {', '.join(f'{k} {v}' for k, v in sorted(sources.items()))}; backs "
            f"read right {sum(r['backs_right'] for r in rows)}, wrong {sum(r['backs_wrong'] for r in rows)}"
            f"; wrong cards without a warning: {sum(len(r['unwarned']) for r in rows)}"
        )
        print(
            f"  the city's cards named right (placements: no scoring card, every card that shows) on "
            f"{sum(r['named'] for r in rows)}/{len(rows)} photos; cards in doubt (a card warning) on "
            f"{sum(r['card_alarm'] for r in rows)}/{len(rows)}"
        )
        same, of = sum(r["same_card"] for r in rows), sum(r["of_cards"] for r in rows)
        cell_same, cell_of = sum(r["same_cell"] for r in rows), sum(r["of_cells"] for r in rows)
        print(
            f"  card identity: {same}/{of} blocks whose card the layouts decide "
            f"({100 * same / max(of, 1):.1f} %) credited to that card; cell by cell (no other card "
            f"could show the block as well): {cell_same}/{cell_of} ({100 * cell_same / max(cell_of, 1):.1f} "
            f"%); expansion marks read (the set has none): {sum(r['marks'] for r in rows)}"
        )
        confusions: dict[str, int] = defaultdict(int)
        for r in rows:
            for w in r["wrong"]:
                true, got = w.split("→")
                zone_kind = "zone" if true.split(":")[0] != got.split(":")[0] else "road"
                confusions[f"{zone_kind} {true.split(':')[0]}→{got.split(':')[0]}"] += 1
            if not r["exact"] or r["error"]:
                detail = r["error"] or " ".join(r["wrong"])
                print(f"    {r['name']}: {r['blocks']}/{r['of']}  {detail}")
        if confusions:
            print(
                "  errors: "
                + ", ".join(f"{k} {v}" for k, v in sorted(confusions.items(), key=lambda kv: -kv[1]))
            )
    upright = by_way["upright"]
    right, cells = sum(r["blocks"] for r in upright), sum(r["of"] for r in upright)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(by_way, indent=1))
    print(
        f"\ndevset: blocks {right}/{cells}, cities exact {sum(r['exact'] for r in upright)}/{len(upright)}, "
        f"cards read {sum(r['cards'] for r in upright)}/{len(upright)}, city's cards named "
        f"{sum(r['named'] for r in upright)}/{len(upright)}"
    )
    return _perturbed(args.devset, names, ways_wanted, args.jobs) if ways_wanted else 0


def _perturbed(devset: Path, names: list[str], ways: list[str], jobs: int) -> int:
    from tests.bench.perturbed import report, run

    print(f"\ndevset in {len(ways)} perturbations ({', '.join(ways)}), each against its upright reading:")
    by_way = run(devset, names, ways, jobs)
    print(report(by_way), flush=True)
    print(_cards_report(devset, by_way), flush=True)
    return 0


def _cards_report(devset: Path, by_way: dict[str, list[dict[str, Any]]]) -> str:
    """Per perturbation: the photos whose placements name the city's cards, those with a scoring card in
    doubt (a card warning; the backs beside every devset city can be read), and the readings scored with
    scoring cards, and with the wrong ones (a suggestion the player would follow to a wrong total)."""
    from scoring.city_text import parse_city

    truths = {r["name"]: parse_city((devset / f"{r['name']}.city").read_text()) for r in by_way["upright"]}
    lines = ["the city's cards named right, and card warnings, per way:"]
    named_all = alarms_all = n_all = wrong_all = 0
    for way, rows in by_way.items():
        named = sum(
            r.get("city") is not None and _named_right(r.get("placements", []), truths[r["name"]])
            for r in rows
        )
        alarms = sum(bool(r.get("cards_in_doubt")) for r in rows)
        scored = [r for r in rows if r.get("cards")]
        wrong = sum(r["cards"] != sorted(truths[r["name"]].cards) for r in scored)
        lines.append(
            f"  {way:13s} named {named:>3d}/{len(rows):<3d} card warnings {alarms:>3d} scored with cards "
            f"{len(scored):>3d}/{len(rows):<3d} wrong cards {wrong:>2d}"
        )
        if way != "upright":
            named_all, alarms_all, n_all = named_all + named, alarms_all + alarms, n_all + len(rows)
            wrong_all += wrong
    lines.append(
        f"devset perturbed: city's cards named {named_all}/{n_all}, card warnings {alarms_all}, "
        f"scored with wrong cards {wrong_all}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
