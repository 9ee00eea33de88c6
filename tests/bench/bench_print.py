"""Any print of the cards: taught from one deck photo, read, and never scored untaught.

    python tests/bench/bench_print.py [--devset DIR] [--editions 20] [--city-editions 20] [--skip-devset]
        [--seeds 7003 37002 ...]

Three sets, each printed with its figures and a closing line:

- The print-and-play development set (``../shared/devset-wagons``: 16 town photos of the publisher's
  print-and-play cards with their truth, and 3 deck photos; skipped with a note when absent; never trained
  on). Each deck photo in turn teaches the scanner (``sprawlscan teach``'s path, the game told from the
  photo), its cards are compared with the photo's truth, and every town is scanned with that deck through the
  scan of the CLI and the service (``games.scan_photo``, the game told from the photo). Then every town
  is scanned with no deck: each must be read exactly or answered with a retake naming teaching
  (``needs_deck``), never a total from a wrong reading. Lines: ``print-and-play taught deckNN: cards K/18,
  territories M/N, towns exact T/16, silent S, retakes R`` and ``print-and-play untaught: exact E, needs_deck
  D, other refusals O, scored wrong W of 16, silent S``.
- Random editions of the renderer (``models.synth.wagons.edition.random_edition``; the first is the
  print-and-play edition drawn from the reference's facts): a deck photo of each teaches the scanner, a
  town photo of the same printed cards is read with the deck, and again without it (where it must be
  refused with ``needs_deck`` or read exactly). Lines: ``editions: taught K/E, territories M/N, towns exact
  T/E, silent S, untaught refused or exact U/E``, and the same figures for the towns the photo shows whole
  with how many of the others (a card partly outside the photo) were retaken, as the right answer is.

- Random Sprawlopolis editions (``models.synth.city_edition.random_city_edition``, seeds of their own):
  a deck photo of each teaches the scanner, a city photo of the same printed cards is read with the deck,
  and again without it (where it must be answered ``needs_deck``); see :mod:`print_city`. Line:
  ``city editions: taught K/E (asked A, K2/E after one tap), blocks M/N, cities exact X/E, silent S,
  untaught needs_deck U/E``; the same for the cities the photo shows whole, and of those the ones scored
  (blocks right where a total is printed) and the ones refused instead, by the refusal's kind.

A town read is compared with the truth at the best of the four whole-town turns and every shift; a
territory of the truth not read so (missed, or read as another) is wrong, and silent when no doubt names
its cell.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from print_city import city_editions, runs_off  # noqa: E402

from games import (  # noqa: E402
    GameRequest,
    scan_photo,
    teach_photos,  # noqa: E402
)
from models.synth.wagons.deck import render_wagons_deck  # noqa: E402
from models.synth.wagons.edition import PRINT_AND_PLAY, random_edition  # noqa: E402
from models.synth.wagons.photo import render_town_photo  # noqa: E402
from scoring.city import cell_name  # noqa: E402
from scoring.errors import InputError  # noqa: E402
from scoring.wagons import parse_town  # noqa: E402
from vision.deck import DeckError  # noqa: E402
from vision.towns.scan import TownScan  # noqa: E402

DEVSET = next(
    (p for p in (ROOT.parent / "shared" / "devset-wagons", ROOT.parents[1] / "shared" / "devset-wagons")
     if p.is_dir()),
    ROOT.parent / "shared" / "devset-wagons",
)  # fmt: skip
EDITION_SEED_BASE = 7_000
Grid = list[list[str | None]]
T = TypeVar("T")


@dataclass
class Compared:
    """A town read against its truth: territories of the truth, read right, wrong cells silent."""

    total: int
    right: int
    silent: int

    @property
    def exact(self) -> bool:
        return self.right == self.total


def _grid(text: str) -> Grid:
    town = parse_town(text)
    return [[None if t is None else t.token() for t in row] for row in town.grid]


def _turns(grid: list[list[T]]) -> list[list[list[T]]]:
    out, g = [], grid
    for _ in range(4):
        out.append(g)
        g = [list(row) for row in zip(*g[::-1], strict=True)]  # a quarter turn clockwise
    return out


def compare(truth: Grid, read: Grid, doubted: set[str]) -> Compared:
    """``read`` laid over ``truth`` at the best turn and shift (see the module note); the cells named in
    ``doubted`` (the read town's own names) are turned with it."""
    want = {(r, c): t for r, row in enumerate(truth) for c, t in enumerate(row) if t is not None}
    marks = [[cell_name(r, c) in doubted for c in range(len(row))] for r, row in enumerate(read)]
    best = Compared(len(want), -1, len(want))
    for turned, marked in zip(_turns(read), _turns(marks), strict=True):
        rows, cols = len(turned), len(turned[0]) if turned else 0
        for dr in range(-rows, len(truth) + 1):
            for dc in range(-cols, len(truth[0]) + 1):
                right = sum(
                    0 <= r - dr < rows and 0 <= c - dc < cols and turned[r - dr][c - dc] == t
                    for (r, c), t in want.items()
                )
                if right > best.right:
                    best = Compared(len(want), right, _silent(want, turned, marked, (dr, dc)))
    return best


def _silent(want: dict, read: Grid, marked: list[list[bool]], shift: tuple[int, int]) -> int:
    rows, cols = len(read), len(read[0]) if read else 0
    silent = 0
    for (r, c), t in want.items():
        rr, cc = r - shift[0], c - shift[1]
        inside = 0 <= rr < rows and 0 <= cc < cols
        if not inside or read[rr][cc] != t:
            silent += not (inside and marked[rr][cc])
    return silent


def jpeg(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def scan(photo: bytes, deck: object) -> TownScan | str:
    """The town read from ``photo`` as the CLI and the service read it, or the refusal's code."""
    try:
        result = scan_photo(photo, GameRequest(), decks=[deck] if deck is not None else []).scan
    except InputError as exc:
        return exc.code
    return result if isinstance(result, TownScan) else "read as a city"


def judged(result: TownScan | str, truth: Grid) -> tuple[Compared, str]:
    """How a scan fared: compared with the truth, and its kind (scored, retake, needs_deck, a refusal)."""
    if isinstance(result, str):
        return Compared(sum(t is not None for row in truth for t in row), 0, 0), result
    got = compare(truth, _grid(result.text), {d.cell for d in result.doubt})
    return got, "needs_deck" if result.needs_deck else ("retake" if result.retake else "scored")


def devset_taught(devset: Path, names: list[str], truths: dict[str, Grid]) -> None:
    for deck_path in sorted((devset / "decks").glob("deck*.jpg")):
        want = json.loads(deck_path.with_suffix(".json").read_text())
        places = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in want["cards"]}
        try:
            teaching = teach_photos([deck_path.read_bytes()], names=[deck_path.name])
        except DeckError as exc:
            print(f"print-and-play taught {deck_path.stem}: refused: {exc}")
            continue
        cards = cards_right(teaching.cards, places)
        tally = [judged(scan((devset / f"{n}.jpg").read_bytes(), teaching.deck), truths[n]) for n in names]
        _report(f"print-and-play taught {deck_path.stem}: cards {cards}/18, ", names, tally)


def cards_right(seen: list, truth: dict[tuple[int, int], tuple[int, bool]]) -> int:
    """How many cards taught lie in their true place with their true turn, the grid compared in the best of
    its eight turns and mirrorings with every turn flag flipped or not (a deck laid landscape is read
    standing, its rows and columns swapped and its turns relative to the way it was stood)."""
    rows = 1 + max(c.row for c in seen)
    cols = 1 + max(c.col for c in seen)
    maps = [
        lambda r, c: (r, c), lambda r, c: (rows - 1 - r, cols - 1 - c), lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c), lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r),
        lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r),
    ]  # fmt: skip
    return max(
        sum(truth.get(f(c.row, c.col)) == (c.card, c.rotated != flip) for c in seen)
        for f in maps
        for flip in (False, True)
    )


def _report(head: str, names: list[str], tally: list[tuple[Compared, str]]) -> None:
    for name, (got, kind) in zip(names, tally, strict=True):
        if not got.exact or kind != "scored":
            print(f"  {name}: {got.right}/{got.total} {kind}, silent {got.silent}")
    right = sum(g.right for g, _ in tally)
    total = sum(g.total for g, _ in tally)
    exact = sum(g.exact and k == "scored" for g, k in tally)
    silent = sum(g.silent for g, k in tally if k == "scored")
    retakes = sum(k != "scored" for _, k in tally)
    print(f"{head}territories {right}/{total}, towns exact {exact}/{len(tally)}, silent {silent}, "
          f"retakes {retakes}", flush=True)  # fmt: skip


def devset_untaught(devset: Path, names: list[str], truths: dict[str, Grid]) -> None:
    tally = [judged(scan((devset / f"{n}.jpg").read_bytes(), None), truths[n]) for n in names]
    kinds = [k for _, k in tally]
    exact = sum(g.exact and k == "scored" for g, k in tally)
    wrong = sum(not g.exact and k == "scored" for g, k in tally)
    silent = sum(g.silent for g, k in tally if k == "scored")
    refused = sum(k not in ("scored", "needs_deck") for k in kinds)
    print(f"print-and-play untaught: exact {exact}, needs_deck {kinds.count('needs_deck')}, other refusals "
          f"{refused} ({', '.join(sorted(set(kinds) - {'scored', 'needs_deck'})) or 'none'}), scored wrong "
          f"{wrong} of {len(names)}, silent {silent}", flush=True)  # fmt: skip


@dataclass(frozen=True)
class TownRead:
    """One edition's town read with its taught deck: how it compared, its kind, and whether a card of the
    town lies partly outside the photo (the right answer then is a retake)."""

    got: Compared
    kind: str
    runs_off: bool


def editions(count: int, only: tuple[int, ...] = ()) -> None:
    taught = refused = 0
    reads: list[TownRead] = []
    picked = [i for i in range(count) if not only or EDITION_SEED_BASE + i in only]
    for i in picked:
        seed = EDITION_SEED_BASE + i
        edition = PRINT_AND_PLAY if i == 0 else random_edition(np.random.default_rng(seed))
        deck_rgb, deck_truth = render_wagons_deck(seed, ppm=3.0, edition=edition)
        photo = render_town_photo(10 * seed, look=seed, edition=edition)
        truth = _grid(photo.truth.city)
        untaught, untaught_kind = judged(scan(photo.jpeg, None), truth)
        refused += untaught_kind == "needs_deck" or (untaught.exact and untaught_kind == "scored")
        try:
            teaching = teach_photos([jpeg(deck_rgb)], names=["deck photo"])
            ok = teaching.describe() == deck_truth["grid"]
        except DeckError as exc:
            print(f"  edition {seed}: not taught: {exc}")
            ok, teaching = False, None
        taught += ok
        got, kind = judged(scan(photo.jpeg, teaching.deck if teaching else None), truth)
        reads.append(TownRead(got, kind, runs_off(photo.truth)))
        if not (ok and got.exact and kind == "scored") or untaught_kind != "needs_deck":
            off = ", runs off the photo" if reads[-1].runs_off else ""
            print(
                f"  edition {seed} ({edition.name}{off}): taught {ok}, {got.right}/{got.total} {kind}, "
                f"silent {got.silent}; untaught {untaught_kind} {untaught.right}/{untaught.total}"
            )
    count = len(picked)
    print(f"editions: taught {taught}/{count}, {_towns_line(reads)}, untaught refused or exact "
          f"{refused}/{count}", flush=True)  # fmt: skip
    whole, off = [r for r in reads if not r.runs_off], [r for r in reads if r.runs_off]
    retaken = sum(r.kind != "scored" for r in off)
    print(f"  of them showing the whole town ({len(whole)}): {_towns_line(whole)}; running off the photo "
          f"{len(off)}, retaken {retaken}/{len(off)}", flush=True)  # fmt: skip


def _towns_line(reads: list[TownRead]) -> str:
    """Territories right, towns exact and silent territories (in towns scored) of ``reads``."""
    right, total = sum(r.got.right for r in reads), sum(r.got.total for r in reads)
    exact = sum(r.got.exact and r.kind == "scored" for r in reads)
    silent = sum(r.got.silent for r in reads if r.kind == "scored")
    return f"territories {right}/{total}, towns exact {exact}/{len(reads)}, silent {silent}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--devset", type=Path, default=DEVSET)
    parser.add_argument("--editions", type=int, default=20)
    parser.add_argument("--city-editions", type=int, default=20)
    parser.add_argument("--skip-devset", action="store_true")
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=(), help="only these edition seeds (7003 37002: for looking)"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    meta = args.devset / "meta.json"
    if args.skip_devset:
        pass
    elif not meta.is_file():
        print(f"bench_print: no print-and-play development set at {args.devset}: its part skipped")
    else:
        names = [m["name"] for m in json.loads(meta.read_text())]
        truths = {n: _grid((args.devset / f"{n}.town").read_text()) for n in names}
        devset_taught(args.devset, names, truths)
        devset_untaught(args.devset, names, truths)
    only = tuple(args.seeds)
    if args.editions:
        editions(args.editions, only)
    if args.city_editions:
        city_editions(args.city_editions, jpeg, only)
    print(f"bench_print: {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
