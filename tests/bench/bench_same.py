"""Does this tree read photos exactly as another commit does? For changes meant to be pure speed or pure
structure.

    python tests/bench/bench_same.py --against REV [--synthetic 12] [--towns 8] [--devset PATH]

The commit ``REV`` is exported (``git archive``) into a temporary folder, and both trees scan the same photos
in a child process each: every devset photo (``../shared/devset``, when it is there) upright and turned by
180° (the turned one written once as a PNG, so both trees read the same bytes), ``--synthetic`` rendered
cities (our own renderer, seeds from 50 000 000) and ``--towns`` rendered Circle the Wagons towns (seeds
from 9 600 000). For each city the scan's city, its JSON (labels, confidences, cards, placements, warnings)
and the lattice (origin, pitches, per-cell offsets to 1e-6 px) are compared; for every photo, the answer of
the service's whole path (``api.web.scanning.scan_and_score``: the game told, read, doubted and scored, its
JSON without the timings, and its overlay's bytes). Prints ``same readings: K/N`` and every photo that
differs, and exits 1 when one does. Run ``make .venv/.dev`` first: the other tree is scanned with this
checkout's interpreter.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEVSET = ROOT.parent / "shared" / "devset"
FIRST_SEED = 50_000_000
FIRST_TOWN_SEED = 9_600_000

# Run in the child: scan every photo listed on stdin with the tree given as argv[1], print one JSON object.
_CHILD = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from scoring.city import format_city
from vision.pipeline import WORK_LONG_SIDE, scan_rgb
from api.web.scanning import scan_and_score
try:  # the trees since vision's rooms (issue 36)
    from vision.photo import decode_image
except ImportError:  # the trees before (the name is put together so that no rewrite of imports finds it)
    decode_image = __import__("vision." + "decode", fromlist=["decode_image"]).decode_image
try:  # the trees since the game registry (issue 36)
    from games import GameRequest as Request
except ImportError:
    from api.core import ScoreOptions as Request


def city(data):
    rgb = decode_image(data, long_side=WORK_LONG_SIDE).rgb
    try:
        r = scan_rgb(rgb)
    except Exception as exc:  # a refusal is a reading too: it must be the same
        return {"error": f"{type(exc).__name__}: {exc}"}
    lat = r.geometry.lattice
    offsets = None if lat.offsets is None else np.round(lat.offsets, 6).tolist()
    return {
        "city": format_city(r.city),
        "json": r.to_json(),
        "lattice": [list(lat.origin), lat.pitch_x, lat.pitch_y, lat.rows, lat.cols, offsets],
    }


def scored(data):
    try:
        got = scan_and_score(data, Request(), 800, deadline_s=3600.0)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    result = {k: v for k, v in got.result.items() if k != "timings"}
    overlay = hashlib.sha256(got.overlay).hexdigest() if got.overlay else None
    return {"result": result, "overlay": overlay}


out = {}
for job in json.load(sys.stdin):
    data = open(job["path"], "rb").read()
    out[job["name"]] = {**(city(data) if job["kind"] == "city" else {}), "scored": scored(data)}
print(json.dumps(out, default=float))
"""


def _turned(photo: Path, folder: Path) -> Path:
    """``photo`` turned by 180°, written once as a PNG into ``folder`` (pixels kept as decoded)."""
    rgb = cv2.imdecode(np.frombuffer(photo.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    path = folder / f"{photo.stem}-180.png"
    cv2.imwrite(str(path), np.ascontiguousarray(rgb[::-1, ::-1]))
    return path


def _jobs(devset: Path, synthetic: int, towns: int, folder: Path) -> list[dict]:
    """The devset photos both ways up, ``synthetic`` cities and ``towns`` towns rendered once into
    ``folder`` (by this tree's renderer, so that both trees read the very same bytes)."""
    from models.synth.scene import render_photo
    from models.synth.wagons.photo import render_town_photo

    jobs = []
    for p in sorted(devset.glob("comp*.jpg")) if devset.is_dir() else []:
        jobs.append({"path": str(p), "kind": "city", "name": f"{p.stem}/0"})
        jobs.append({"path": str(_turned(p, folder)), "kind": "city", "name": f"{p.stem}/180"})
    for seed in range(FIRST_SEED, FIRST_SEED + synthetic):
        path = folder / f"synthetic-{seed}.jpg"
        path.write_bytes(render_photo(seed).jpeg)
        jobs.append({"path": str(path), "kind": "city", "name": f"synthetic {seed}"})
    for seed in range(FIRST_TOWN_SEED, FIRST_TOWN_SEED + towns):
        path = folder / f"town-{seed}.jpg"
        path.write_bytes(render_town_photo(seed).jpeg)
        jobs.append({"path": str(path), "kind": "town", "name": f"town {seed}"})
    return jobs


def _readings(tree: Path, jobs: list[dict]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tree)],
        cwd=tree,
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"scanning with {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, metavar="REV", help="the commit to compare with")
    parser.add_argument("--synthetic", type=int, default=12, help="rendered cities to compare too")
    parser.add_argument("--towns", type=int, default=8, help="rendered towns to compare too")
    parser.add_argument("--devset", type=Path, default=DEVSET)
    args = parser.parse_args()
    if not args.devset.is_dir():
        print(f"devset: {args.devset} not found; only rendered photos are compared")
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        old, photos = Path(tmp) / "tree", Path(tmp) / "photos"
        old.mkdir()
        photos.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against], capture_output=True)
        if archive.returncode != 0:
            raise SystemExit(f"git archive {args.against} failed: {archive.stderr.decode()[-500:]}")
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        jobs = _jobs(args.devset, args.synthetic, args.towns, photos)
        before = _readings(old, jobs)
        now = _readings(ROOT, jobs)
    differ = [name for name in before if before[name] != now.get(name)]
    for name in differ:
        keys = ("error", "city", "json", "lattice", "scored")
        what = [k for k in keys if before[name].get(k) != now[name].get(k)]
        print(f"  {name}: {', '.join(what)} differ")
    print(f"same readings: {len(before) - len(differ)}/{len(before)} photos as {args.against}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
