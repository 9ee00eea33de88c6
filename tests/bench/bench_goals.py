"""The goal cards read from the print-and-play devset photos (issue 37 item 6): per photo, whether the
three goal cards read are exactly the ones in its ``goals:`` header, and the seconds the reading adds.

The photos are read from ``../shared/devset-wagons/`` (never copied into the project), decoded as a scan
decodes them (long side ``vision.photo.decode.WORK_LONG_SIDE``); the bench says so and stops when the folder
or Tesseract is absent. Run: ``.venv/bin/python tests/bench/bench_goals.py [FOLDER]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.goals import read_goal_cards, tesseract_path

ROOT = Path(__file__).resolve().parents[2]
DEVSET = next(
    (p for p in (ROOT.parent / "shared" / "devset-wagons", ROOT.parents[1] / "shared" / "devset-wagons")
     if p.is_dir()),
    ROOT.parent / "shared" / "devset-wagons",
)  # fmt: skip


def truth(town_file: Path) -> tuple[str, ...]:
    """The goal ids of a ``.town`` file's ``goals:`` header."""
    for line in town_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("goals:"):
            return tuple(sorted(line.split(":", 1)[1].split()))
    return ()


def main(folder: Path) -> int:
    photos = sorted(folder.glob("town*.jpg"))
    if not photos:
        print(f"bench_goals: no devset photos in {folder}: skipped")
        return 0
    if tesseract_path() is None:
        print("bench_goals: Tesseract is not installed (make tesseract): skipped")
        return 0
    right, seconds = 0, []
    for photo in photos:
        rgb = decode_image(photo.read_bytes(), long_side=WORK_LONG_SIDE).rgb
        start = time.perf_counter()
        reading = read_goal_cards(rgb)
        seconds.append(time.perf_counter() - start)
        expected = truth(photo.with_suffix(".town"))
        ok = tuple(sorted(reading.goals)) == expected
        right += ok
        asked = sum(c.goal is None for c in reading.cards)
        print(
            f"{photo.stem}: {'right' if ok else 'WRONG'}  read {' '.join(reading.goals) or '-'}"
            f"{f'  asked {asked}' if asked else ''}  ({seconds[-1]:.2f} s)"
        )
    print(
        f"goal cards right on {right} of {len(photos)} photos; added time per photo: median "
        f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEVSET))
