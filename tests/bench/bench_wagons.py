"""Circle the Wagons towns read from rendered photos by the shipped territory classifier, and which game a
photo shows.

    python tests/bench/bench_wagons.py [--photos 100] [--deck-photos 30] [--devset DIR]

Towns: rendered town photos (``models.synth.wagons.photo.render_town_photo``, consecutive seeds from
:data:`SEED_BASE`, disjoint from the classifier's training and held-out town seeds in
``models/territories.json``) with the art drawn ``art_spread`` 2 (training drew 1–1.5), each decoded from
its JPEG bytes as a scan is and read by ``vision.towns.scan.scan_town``, until ``--photos`` of them show the
whole town (a photo framed to cut the town cannot be read whole; those met on the way are counted apart,
as ``bench_accuracy.py`` does for cities). A town read turned by 180° is the same town (the players' table
has no up; a Circle the Wagons town scores the same either way round), so each reading is compared with the
truth upright and turned, at the best shift. Refused towns count as not exact and their territories as
wrong. Prints territories right per territory type, towns exact, the cells in doubt per town, wrong
territories that no doubt names (silent), and ends the town part with the line
``wagons: territories M/N, towns exact K/T``.

Taught deck: the first ``--deck-photos`` of those towns read again with a deck taught from the deck photo
of the town's own print (``models.synth.wagons.deck.render_wagons_deck`` of the same seed and spread: the
player's cards, in a photo of their own, the art drawn away from the classifier's centre), through
``vision.towns.deck.taught_reader``; prints ``wagons taught deck: territories M/N, towns exact K/T``
(refused towns count as for the line above).

Game detection (the scan of the CLI and the service, :func:`games.scan_photo`, which asks the games in
turn and stops at a city its cards explain): the Sprawlopolis devset (``../shared/devset``, skipped with a
note when absent), Sprawlopolis renders (``models.synth.scene.render_photo``, seeds from
:data:`CITY_SEED_BASE`) and the first town renders, ``min(20, --photos)`` renders of each game; prints
each mistake and ``game detection: mistakes X of N``. Last, the rulebook's example town
(``samples/wagons-rulebook.town``) photographed in :data:`RULEBOOK_PHOTOS` prints and conditions: the
same town and 20 points in each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import GameRequest, scan_photo  # noqa: E402
from models.synth.scene import render_photo  # noqa: E402
from models.synth.wagons.photo import render_given_town, render_town_photo  # noqa: E402
from scoring.city import cell_name  # noqa: E402
from scoring.errors import InputError  # noqa: E402
from scoring.wagons import Town, parse_town  # noqa: E402
from vision.photo.decode import WORK_LONG_SIDE, decode_image  # noqa: E402
from vision.towns import scan_town, shipped_reader  # noqa: E402
from vision.towns.deck import taught_reader, teach_town_deck  # noqa: E402

SEED_BASE = 9_500_000  # training: town seeds 3 000 000..3 000 400; held out: 8 000 000..8 000 060
CITY_SEED_BASE = 50_000_000  # Sprawlopolis renders never trained on (bench_accuracy.py's evaluation seeds)
ART_SPREAD = 2.0  # wider than training's 1–1.5
GAME_PHOTOS = 20
RULEBOOK = ROOT / "samples" / "wagons-rulebook.town"
RULEBOOK_PHOTOS = 5
RULEBOOK_TOTAL = 20
# Beside the checkout (as bench_real.py has it), or one level up for a worktree under a folder of them.
DEVSET = next(
    (p for p in (ROOT.parent / "shared" / "devset", ROOT.parents[1] / "shared" / "devset") if p.is_dir()),
    ROOT.parent / "shared" / "devset",
)
TYPES = "DFMPSW"

Grid = tuple[tuple[object, ...], ...]


@dataclass
class Tally:
    """The town figures so far."""

    right: Counter[str] = field(default_factory=Counter)  # per territory type
    total: Counter[str] = field(default_factory=Counter)
    towns: int = 0
    exact: int = 0
    turned: int = 0  # exact, read turned by 180°
    refused: list[str] = field(default_factory=list)
    doubt: list[int] = field(default_factory=list)
    wrong: int = 0
    silent: int = 0
    extra: int = 0  # table read as a territory
    extra_silent: int = 0
    silent_towns: int = 0  # not exact, yet no doubt and no warning
    cut: int = 0  # photos that cut the town, not counted
    seconds: list[float] = field(default_factory=list)


def _turned(grid: Grid) -> Grid:
    return tuple(tuple(reversed(row)) for row in reversed(grid))


def _cells(grid: Grid) -> dict[tuple[int, int], object]:
    return {(r, c): cell for r, row in enumerate(grid) for c, cell in enumerate(row) if cell is not None}


def _alignments(truth: Grid, read: Grid) -> Iterator[tuple[bool, int, int]]:
    for half in (False, True):
        for dr in range(-len(read), len(truth) + 1):
            for dc in range(-len(read[0]), len(truth[0]) + 1):
                yield half, dr, dc


def compare(truth: Town, read: Town, doubt: set[str], tally: Tally) -> bool:
    """Add one read town to ``tally``: territories right at the best alignment (upright or turned by 180°,
    any shift); wrong ones and table read as territory, silent when no doubt names their cell. True when
    the town is exact."""
    want = _cells(truth.grid)

    def placed(half: bool, dr: int, dc: int) -> dict[tuple[int, int], tuple[object, str]]:
        grid = _turned(read.grid) if half else read.grid
        rows, cols = len(grid), len(grid[0])
        out = {}
        for (r, c), cell in _cells(grid).items():
            own = (rows - 1 - r, cols - 1 - c) if half else (r, c)  # the cell's name is in the read town
            out[(r + dr, c + dc)] = (cell, cell_name(*own))
        return out

    def score(a: tuple[bool, int, int]) -> tuple[int, int]:
        got = placed(*a)
        return sum(got.get(p, (None,))[0] == t for p, t in want.items()), -len(set(got) ^ set(want))

    best = max(_alignments(truth.grid, read.grid), key=score)
    got = placed(*best)
    for pos, cell in want.items():
        tally.total[cell.terrain] += 1  # type: ignore[attr-defined]
        seen, name = got.get(pos, (None, ""))
        if seen == cell:
            tally.right[cell.terrain] += 1  # type: ignore[attr-defined]
            continue
        tally.wrong += 1
        tally.silent += name not in doubt
    for pos, (_, name) in got.items():
        if pos not in want:
            tally.extra += 1
            tally.extra_silent += name not in doubt
    exact = read.grid in (truth.grid, _turned(truth.grid))
    tally.turned += exact and read.grid != truth.grid
    return exact


def read_photo(jpeg: bytes) -> object:
    """The photo decoded as a scan decodes it (EXIF turn, working size)."""
    return decode_image(jpeg, long_side=WORK_LONG_SIDE).rgb


def _jpeg(rgb: object) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return buf.tobytes()


def bench_taught(n_photos: int) -> Tally:
    """The first ``n_photos`` whole towns of :func:`bench_towns` read with a deck taught from the deck photo
    of each town's print (see the module note)."""
    from models.synth.wagons.deck import render_wagons_deck

    tally, seed, reader = Tally(), SEED_BASE, shipped_reader()
    while tally.towns < n_photos:
        photo = render_town_photo(seed, art_spread=ART_SPREAD)
        seed += 1
        if photo.truth.conditions.get("partial"):
            continue
        truth = parse_town(photo.truth.city)
        tally.towns += 1
        deck = teach_town_deck(_jpeg(render_wagons_deck(seed - 1, art_spread=ART_SPREAD)[0]), reader=reader)
        try:
            scan = scan_town(read_photo(photo.jpeg), reader=taught_reader(deck.deck, reader))
        except InputError:
            for _, cell in truth.territories():
                tally.total[cell.terrain] += 1
            continue
        tally.exact += compare(truth, scan.town, {d.cell for d in scan.doubt}, tally)
    m, n = sum(tally.right.values()), sum(tally.total.values())
    print(f"wagons taught deck: territories {m}/{n}, towns exact {tally.exact}/{tally.towns} "
          f"({100 * m / max(1, n):.2f}%, target ≥ 99.8%)", flush=True)  # fmt: skip
    return tally


def bench_towns(n_photos: int, log: bool = True) -> tuple[Tally, list[bytes]]:
    """Read town photos from :data:`SEED_BASE` on until ``n_photos`` show the whole town; also returns the
    first :data:`GAME_PHOTOS` photos' bytes for game detection."""
    tally, kept, seed = Tally(), [], SEED_BASE
    while tally.towns < n_photos:
        photo = render_town_photo(seed, art_spread=ART_SPREAD)
        seed += 1
        if photo.truth.conditions.get("partial"):
            tally.cut += 1
            continue
        truth = parse_town(photo.truth.city)
        tally.towns += 1
        if len(kept) < GAME_PHOTOS:
            kept.append(photo.jpeg)
        t = time.perf_counter()
        try:
            scan = scan_town(read_photo(photo.jpeg))
        except InputError as exc:
            tally.seconds.append(time.perf_counter() - t)
            tally.refused.append(f"seed {seed - 1} ({truth.n_territories} territories): {exc}")
            if log:
                print(f"  seed {seed - 1}: {truth.n_territories} territories, refused", flush=True)
            for _, cell in truth.territories():
                tally.total[cell.terrain] += 1
                tally.wrong += 1
                tally.silent += 1
            continue
        tally.seconds.append(time.perf_counter() - t)
        tally.doubt.append(len(scan.doubt))
        exact = compare(truth, scan.town, {d.cell for d in scan.doubt}, tally)
        tally.exact += exact
        tally.silent_towns += not exact and not scan.doubt and not scan.warnings
        if log:
            state = "exact" if exact else "NOT exact"
            print(f"  seed {seed - 1}: {truth.n_territories} territories, {state}, doubt {len(scan.doubt)}",
                  flush=True)  # fmt: skip
    return tally, kept


def report_towns(t: Tally) -> None:
    m, n = sum(t.right.values()), sum(t.total.values())
    for kind in TYPES:
        if t.total[kind]:
            share = 100 * t.right[kind] / t.total[kind]
            print(f"  territory {kind}: {t.right[kind]}/{t.total[kind]} ({share:.1f}%)")
    print(f"territories right: {m}/{n} ({100 * m / max(1, n):.2f}%, target ≥ 99.5%)")
    print(f"towns exact: {t.exact}/{t.towns} ({100 * t.exact / max(1, t.towns):.1f}%, target ≥ 95%)")
    print(f"  of them read turned by 180° (the same town): {t.turned}; refused (not exact): {len(t.refused)}")
    for why in t.refused:
        print(f"  refused: {why}")
    print(f"wrong territories {t.wrong}, silent (no doubt names the cell) {t.silent}; table read as a "
          f"territory {t.extra}, silent {t.extra_silent}; towns read wrong with no doubt and no warning "
          f"{t.silent_towns}")  # fmt: skip
    if t.doubt:
        print(f"doubt per town: mean {statistics.mean(t.doubt):.2f}, max {max(t.doubt)} "
              f"({sum(d > 0 for d in t.doubt)} of {len(t.doubt)} towns with any)")  # fmt: skip
    print(f"photos cutting the town, not counted: {t.cut}; scan median {statistics.median(t.seconds):.2f} s")
    print(f"wagons: territories {m}/{n}, towns exact {t.exact}/{t.towns}")


def _scanned_game(jpeg: bytes) -> tuple[str | None, str]:
    """The game the scan of the CLI and the service reads ``jpeg`` as (None when it refuses the photo), and
    its refusal."""
    try:
        return scan_photo(jpeg, GameRequest()).game, ""
    except InputError as exc:
        return None, str(exc)


def bench_games(town_jpegs: list[bytes], devset: Path) -> tuple[int, int]:
    """Mistakes of game detection on the devset, Sprawlopolis renders and town renders: (mistakes,
    photos)."""
    jobs: list[tuple[str, str, bytes]] = []
    if devset.is_dir():
        jobs += [(p.stem, "sprawlopolis", p.read_bytes()) for p in sorted(devset.glob("comp*.jpg"))]
    else:
        print(f"  (no devset at {devset}: the real photos are left out)")
    n = len(town_jpegs)
    seeds = range(CITY_SEED_BASE, CITY_SEED_BASE + n)
    jobs += [(f"city seed {s}", "sprawlopolis", render_photo(s).jpeg) for s in seeds]
    jobs += [(f"town render {k}", "wagons", jpeg) for k, jpeg in enumerate(town_jpegs)]
    mistakes = confused = 0
    for name, game, jpeg in jobs:
        said, why = _scanned_game(jpeg)
        if said != game:
            mistakes += 1
            confused += said is not None
            print(f"  {name}: scanned as {said or 'nothing'}, is {game} {why}", flush=True)
    print(f"  of the mistakes, one game read as the other: {confused} (the rest: refused)")
    print(f"game detection: mistakes {mistakes} of {len(jobs)}")
    return mistakes, len(jobs)


def bench_rulebook(spread: float) -> int:
    """The rulebook's example town photographed in :data:`RULEBOOK_PHOTOS` prints drawn ``spread`` wide
    (seeds down from :data:`SEED_BASE`, skipping framings that cut the town): how many scan to it, either
    way round, and score 20."""
    town = parse_town(RULEBOOK.read_text(encoding="utf-8"))
    good = shot = 0
    seed = SEED_BASE - 1
    while shot < RULEBOOK_PHOTOS:
        photo = render_given_town(town, seed=seed, art_spread=spread)
        seed -= 1
        if photo.truth.conditions.get("partial"):
            continue
        shot += 1
        try:
            scan = scan_town(read_photo(photo.jpeg))
        except InputError as exc:
            print(f"  seed {seed + 1}: refused: {exc}")
            continue
        same = scan.town.grid in (town.grid, _turned(town.grid))
        total = scan.breakdown().total
        good += same and total == RULEBOOK_TOTAL
        if not same or total != RULEBOOK_TOTAL:
            print(f"  seed {seed + 1}: {'the same' if same else 'another'} town, {total} points")
    print(f"rulebook town, art spread {spread}: same town, {RULEBOOK_TOTAL} points in {good}/{shot} photos")
    return good


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100, help="town photos showing the whole town")
    parser.add_argument("--deck-photos", type=int, default=30, help="of them, read with a taught deck too")
    parser.add_argument("--devset", type=Path, default=DEVSET)
    args = parser.parse_args()
    if args.photos < 1:
        parser.error(f"--photos must be at least 1, got {args.photos}")
    print(f"town photos (seeds from {SEED_BASE}, art spread {ART_SPREAD}):", flush=True)
    tally, jpegs = bench_towns(args.photos)
    print("game detection:", flush=True)
    bench_games(jpegs, args.devset)
    for spread in (1.0, ART_SPREAD):
        bench_rulebook(spread)
    if args.deck_photos > 0:
        print(f"taught deck (the first {args.deck_photos} towns):", flush=True)
        bench_taught(min(args.deck_photos, args.photos))
    report_towns(tally)  # last: its final line is the benchmark's


if __name__ == "__main__":
    main()
