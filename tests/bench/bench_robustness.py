"""How the photo reader holds up beyond the renderer's own range: smaller, recompressed and distorted photos.

    python tests/bench/bench_robustness.py [--photos 100]

Takes the first ``--photos`` whole-city evaluation photos of ``bench_accuracy`` (same seeds and cache),
changes each the way real photos differ from ours, and counts the cities read exactly (marks included):

- as rendered (the reference);
- shrunk to 1600 px and 1024 px on the long side and saved again at JPEG quality 70 (a photo sent through
  a messaging app, or an older phone);
- with radial lens distortion ``r' = r (1 + k1 r²)`` (r = 1 at half the long side), k1 = ±0.05 (a phone's
  main camera after its own correction stays well inside this) and 0.1 (an uncorrected wide lens).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_accuracy import EVAL_SEED_BASE, compare_cells, eval_photo  # noqa: E402

from scoring.errors import InputError  # noqa: E402
from vision.pipeline import WORK_LONG_SIDE, scan_image  # noqa: E402

Change = Callable[[np.ndarray], np.ndarray]


def shrink(long_side: int) -> Change:
    def change(bgr: np.ndarray) -> np.ndarray:
        k = long_side / max(bgr.shape[:2])
        return cv2.resize(bgr, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)

    return change


def distort(k1: float) -> Change:
    """Radial distortion about the image centre; positive k1 is barrel (straight lines bow outwards)."""

    def change(bgr: np.ndarray) -> np.ndarray:
        k = WORK_LONG_SIDE / max(bgr.shape[:2])  # at the working size: the result is read at it anyway
        bgr = cv2.resize(bgr, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        h, w = bgr.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        f = max(w, h) / 2
        x, y = (xx - w / 2) / f, (yy - h / 2) / f
        s = 1 + k1 * (x * x + y * y)  # each output pixel samples the undistorted image at s times its radius
        return cv2.remap(
            bgr, x * s * f + w / 2, y * s * f + h / 2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )

    return change


CHANGES: dict[str, tuple[Change | None, int]] = {
    "as rendered": (None, 0),
    "1600 px, JPEG 70": (shrink(1600), 70),
    "1024 px, JPEG 70": (shrink(1024), 70),
    "lens k1 = +0.05": (distort(0.05), 92),
    "lens k1 = -0.05": (distort(-0.05), 92),
    "lens k1 = +0.10": (distort(0.10), 92),
}


def whole_city_photos(count: int) -> list[tuple[bytes, object]]:
    out, seed = [], EVAL_SEED_BASE
    while len(out) < count:
        jpeg, truth = eval_photo(seed)
        seed += 1
        if not truth.conditions.get("partial"):
            out.append((jpeg, truth))
    return out


def exact(photos: list[tuple[bytes, object]], change: Change | None, quality: int) -> tuple[int, int]:
    """(cities read exactly, photos refused) after ``change`` and a JPEG save at ``quality``."""
    right = refused = 0
    for jpeg, truth in photos:
        data = jpeg
        if change is not None:
            bgr = change(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
            data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
        try:
            city = scan_image(data).city
        except InputError:
            refused += 1
            continue
        got, total = compare_cells(truth.parsed_city(), city, marks=True)  # type: ignore[attr-defined]
        right += got == total
    return right, refused


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=100, help="whole-city evaluation photos (default 100)")
    args = ap.parse_args(argv)
    photos = whole_city_photos(args.photos)
    print(f"cities read exactly, of {len(photos)} whole-city evaluation photos:")
    for name, (change, quality) in CHANGES.items():
        right, refused = exact(photos, change, quality)
        print(
            f"  {name:<18} {right:>4} ({right / len(photos):.1%})"
            + (f", {refused} refused" if refused else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
