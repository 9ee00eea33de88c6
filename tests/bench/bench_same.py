"""Does this tree read photos exactly as another commit does? For changes meant to be pure speed.

    python tests/bench/bench_same.py --against REV [--synthetic 12] [--devset PATH]

The commit ``REV`` is exported (``git archive``) into a temporary folder, and both trees scan the same photos
in a child process each: every devset photo (``../shared/devset``, when it is there) upright and turned by
180°, and ``--synthetic`` rendered photos (our own renderer, seeds from 50 000 000). For each scan the city,
the scan's JSON (labels, confidences, cards, placements, warnings) and the lattice (origin, pitches, per-cell
offsets to 1e-6 px) are compared. Prints ``same readings: K/N`` and every photo that differs, and exits 1
when one does. Run ``make .venv/.dev`` first: the other tree is scanned with this checkout's interpreter.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEVSET = ROOT.parent / "shared" / "devset"
FIRST_SEED = 50_000_000

# Run in the child: scan every photo listed on stdin with the tree given as argv[1], print one JSON object.
_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from scoring.city import format_city
from vision.decode import decode_image
from vision.pipeline import WORK_LONG_SIDE, scan_rgb

out = {}
for job in json.load(sys.stdin):
    data = open(job["path"], "rb").read()
    rgb = decode_image(data, long_side=WORK_LONG_SIDE).rgb
    rgb = np.ascontiguousarray(np.rot90(rgb, -job["turn"] // 90))
    try:
        r = scan_rgb(rgb)
    except Exception as exc:  # a refusal is a reading too: it must be the same
        out[job["name"]] = {"error": f"{type(exc).__name__}: {exc}"}
        continue
    lat = r.geometry.lattice
    offsets = None if lat.offsets is None else np.round(lat.offsets, 6).tolist()
    out[job["name"]] = {
        "city": format_city(r.city),
        "json": r.to_json(),
        "lattice": [list(lat.origin), lat.pitch_x, lat.pitch_y, lat.rows, lat.cols, offsets],
    }
print(json.dumps(out, default=float))
"""


def _jobs(devset: Path, synthetic: int, folder: Path) -> list[dict]:
    """The devset photos both ways up, and ``synthetic`` photos rendered once into ``folder`` (by this
    tree's renderer, so that both trees read the very same bytes)."""
    from models.synth.scene import render_photo

    photos = sorted(devset.glob("comp*.jpg")) if devset.is_dir() else []
    jobs = [{"path": str(p), "turn": turn, "name": f"{p.stem}/{turn}"} for p in photos for turn in (0, 180)]
    for seed in range(FIRST_SEED, FIRST_SEED + synthetic):
        path = folder / f"synthetic-{seed}.jpg"
        path.write_bytes(render_photo(seed).jpeg)
        jobs.append({"path": str(path), "turn": 0, "name": f"synthetic {seed}"})
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
    parser.add_argument("--synthetic", type=int, default=12, help="rendered photos to compare too")
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
        jobs = _jobs(args.devset, args.synthetic, photos)
        before = _readings(old, jobs)
        now = _readings(ROOT, jobs)
    differ = [name for name in before if before[name] != now.get(name)]
    for name in differ:
        what = [k for k in ("error", "city", "json", "lattice") if before[name].get(k) != now[name].get(k)]
        print(f"  {name}: {', '.join(what)} differ")
    print(f"same readings: {len(before) - len(differ)}/{len(before)} photos as {args.against}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
