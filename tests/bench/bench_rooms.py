"""Cities in the harder rooms: tables, shadow bands, glare, steep tilt, 8 MP and low JPEG quality.

    python tests/bench/bench_rooms.py [--photos 6] [--long-side 3000] [--rooms check,shadow] [--save DIR]

Renders ``--photos`` cities per room kind (:data:`ROOMS`) with seeds of their own and scans each. A room
kind is a table of :data:`models.synth.tables.HARDER_TABLES` (drawn only when asked for, so the classifier
never trained on them) or one hard condition on the seed's own everyday table: a shadow band across the
frame, a strong glare spot, a camera tilted 25–35°, an 8 MP photo, a JPEG saved at quality 68–85. Every
city lies whole in the frame with a margin (``partial`` off), so a retake saying it runs off the edge is
false. Per room kind it prints the blocks right, the cities read exactly, the wrong cells and how many the
scan named nowhere (silent), the photos it asked to take again (``retake``, with the message and whether
it is true of the photo), those it found no city in and the cells in doubt a photo (the scan's ``doubt``
list). It ends with ``harder rooms: blocks B/T (P %), exact K/N, wrong cells W, silent S, retake R (false
F), no city C, doubt per photo D``: an honest scanner has S = F = 0. ``--rooms cut,cut_pale_wood`` reads
cities cut by the frame instead (:data:`CUT_ROOMS`, not among the defaults): there every answer should be a
true retake.
``--save DIR`` writes each photo that was not read exactly as ``ROOM-SEED.jpg`` for a look.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from perturbed import figures  # noqa: E402

from models.synth.scene import SynthPhoto, render_photo  # noqa: E402
from models.synth.tables import HARDER_TABLES  # noqa: E402
from scoring.city_text import parse_city  # noqa: E402
from scoring.errors import InputError  # noqa: E402
from tests.evaluate import compare_cities  # noqa: E402
from vision.pipeline import scan_image  # noqa: E402

ROOMS_SEED_BASE = 80_000_000  # own seeds: not training (1e6, 9e6, 7e7..) nor bench_accuracy (5e7..)
# The hard conditions, each drawn from the photo's seed: name -> (low, high) or a fixed value.
HARD_CONDITIONS: dict[str, dict[str, Any]] = {
    "shadow": {"shadow_band": (0.35, 0.6)},
    "glare": {"glare": (0.45, 0.6)},
    "tilt": {"tilt": (25.0, 35.0)},
    "8mp": {"long_side": 3264},
    "jpeg": {"jpeg_quality": (68, 85)},
}
# Cities framed too tight, cut by the photo's edge: read only when named (``--rooms cut``), where the one
# true answer is a retake saying that the city runs off the edge (the blocks beyond it are not in the photo).
CUT_ROOMS: dict[str, dict[str, Any]] = {
    "cut": {"partial": True, "fill": (1.05, 1.35)},
    "cut_pale_wood": {"partial": True, "fill": (1.05, 1.35), "table": "pale_wood"},
}
ROOMS: tuple[str, ...] = HARDER_TABLES + tuple(HARD_CONDITIONS)
ALL_ROOMS: tuple[str, ...] = ROOMS + tuple(CUT_ROOMS)
# A retake's message names its cause; how a person looking at the photo would check it.
_CUT = re.compile(r"runs off the edge")
_GLARE = re.compile(r"^glare")
_SHADOW = re.compile(r"^a shadow")


def room_conditions(room: str, seed: int, long_side: int) -> dict[str, Any]:
    """The overrides that put the city of ``seed`` in ``room``: whole in the frame with a margin."""
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"partial": False, "fill": float(rng.uniform(0.62, 0.9)), "long_side": long_side}
    if room in HARDER_TABLES:
        return out | {"table": room}
    for name, value in (HARD_CONDITIONS | CUT_ROOMS)[room].items():
        if isinstance(value, tuple) and isinstance(value[0], int):
            value = int(rng.integers(value[0], value[1] + 1))
        elif isinstance(value, tuple):
            value = float(rng.uniform(*value))
        out[name] = value
    return out


def cut_truly(photo: SynthPhoto) -> bool:
    """Whether a card of the city lies (partly) outside the frame."""
    w, h = photo.truth.width, photo.truth.height
    return any(not (0 <= x < w and 0 <= y < h) for card in photo.truth.cards for x, y in card.corners)


def retake_true(message: str, photo: SynthPhoto) -> bool | None:
    """Whether a retake's stated cause is in the photo (None where the bench cannot tell: the advice on
    the grid or the cards' look, judged by the reading's own figures)."""
    cond = photo.conditions
    if _CUT.search(message):
        return cut_truly(photo)
    if _GLARE.search(message):
        return cond.glare > 0
    if _SHADOW.search(message):
        return cond.shadow_band > 0 or cond.light >= 0.3
    counts = [(int(a), int(b)) for a, b in re.findall(r"(\d+) of its (\d+)", message)]
    if any(a > b for a, b in counts):
        return False
    return None


def read_room(room: str, seed: int, long_side: int, save: Path | None = None) -> dict[str, Any]:
    """One rendered city in ``room``, scanned, compared with its truth (see :func:`perturbed.figures`)."""
    photo = render_photo(seed, **room_conditions(room, seed, long_side))
    truth = parse_city(photo.truth.city)
    try:
        result = scan_image(photo.jpeg)
    except InputError as exc:
        row = {"no_city": str(exc), "exact": False, "wrong": [], "silent": [], "refused": None, "blocks": 0}
        row["of"], row["doubt"] = compare_cities(truth, None).cells, 0
    else:
        out = result.to_json()
        row = {**figures(truth, result.city, out), "no_city": None, "doubt": len(out.get("doubt") or [])}
    row["true"] = retake_true(row["refused"], photo) if row["refused"] else None
    if save is not None and not row["exact"]:
        save.mkdir(parents=True, exist_ok=True)
        (save / f"{room}-{seed}.jpg").write_bytes(photo.jpeg)
    return row


def _line(name: str, rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    right, of = sum(r["blocks"] for r in rows), sum(r["of"] for r in rows)
    exact = sum(bool(r["exact"]) for r in rows)
    wrong = sum(len(r["wrong"]) for r in rows)
    silent = sum(len(r["silent"]) for r in rows)
    retake = sum(bool(r["refused"]) for r in rows)
    false = sum(r["true"] is False for r in rows)
    no_city = sum(bool(r["no_city"]) for r in rows)
    doubt = sum(r["doubt"] for r in rows) / max(n, 1)
    return (
        f"{name}: blocks {right}/{of} ({100 * right / max(of, 1):.1f} %), exact {exact}/{n}, "
        f"wrong cells {wrong}, silent {silent}, retake {retake} (false {false}), no city {no_city}, "
        f"doubt per photo {doubt:.2f}"
    )


def _what(row: dict[str, Any]) -> str:
    if row["no_city"]:
        return f"no city: {row['no_city'][:100]}"
    if row["refused"]:
        truth = {True: "true", False: "FALSE", None: "?"}[row["true"]]
        return f"retake ({truth}): {row['refused'][:140]}"
    wrong = " ".join(row["wrong"])
    silent = f"  silent: {' '.join(row['silent'])}" if row["silent"] else ""
    return f"{row['blocks']}/{row['of']} {wrong or 'exact'}{silent}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=6, help="cities per room kind")
    ap.add_argument("--long-side", type=int, default=3000, help="the photos' long side in px (8mp: 3264)")
    ap.add_argument("--rooms", "--tables", default=",".join(ROOMS), help="comma-separated room kinds")
    ap.add_argument("--first", type=int, default=0, help="the first photo's index in each room")
    ap.add_argument("--save", type=Path, help="write the photos not read exactly here")
    args = ap.parse_args(argv)
    rooms = [r.strip() for r in args.rooms.split(",") if r.strip()]
    unknown = [r for r in rooms if r not in ALL_ROOMS]
    if unknown:
        ap.error(f"unknown room kind(s) {', '.join(unknown)}; known: {', '.join(ALL_ROOMS)}")
    every: list[dict[str, Any]] = []
    lines = []
    for room in rooms:
        rows = []
        for i in range(args.first, args.first + args.photos):
            seed = ROOMS_SEED_BASE + 1000 * ALL_ROOMS.index(room) + i  # whichever rooms are asked
            rows.append(read_room(room, seed, args.long_side, args.save))
            print(f"  {room} seed {seed}: {_what(rows[-1])}", flush=True)
        lines.append(_line(room, rows))
        print(lines[-1], flush=True)
        every += rows
    print("\n".join(lines))
    print(_line("harder rooms", every))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
