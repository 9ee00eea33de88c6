"""Stand-in territory readers for the town-scan tests: readers whose reading is known, where the shipped
classifier's (``vision.towns.territories``) would mix its own errors into what a test checks.

:class:`TruthReader` knows the rendered truth: it finds where the top-down view it is given lies in the
photo (SIFT features matched between the two, then a RANSAC homography) and reads each lattice cell as
the truth's territory whose centre lies within :data:`REACH` of a cell of its centre, table elsewhere. So a
scan read with it is right exactly when its geometry is. :class:`ColourGuessReader` stands for a
territory classifier shown art it was not trained on: it reads the nearest of the rulebook's six colours
and an icon from the cell's texture, confidently, whatever the cell shows.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import Lattice

SURE = 0.95
# The rulebook key's median sRGB per territory type (shared/reference/wagons-cards.md).
RULEBOOK_RGB = {
    "D": (233, 184, 157),
    "F": (177, 196, 157),
    "S": (168, 207, 208),
    "M": (182, 174, 167),
    "P": (236, 206, 125),
    "W": (137, 193, 206),
}
SIFT_LONG_SIDE = 1400
# A lattice cell reads the truth territory whose centre lies within this many cells of its own, along each
# axis (the crop then shows mostly that territory).
REACH = 0.35


def distribution(token: str, sure: float = SURE, second: str | None = None) -> dict[str, float]:
    """``token`` at ``sure``, ``second`` (when given) at most of the rest."""
    rest = 1.0 - sure
    out = {token: sure}
    if second is not None and second != token:
        out[second] = 0.8 * rest
    return out


def view_to_photo(view: np.ndarray, photo: np.ndarray) -> np.ndarray:
    """The homography from ``view`` pixels to ``photo`` pixels, from matched SIFT features."""
    scale = min(1.0, SIFT_LONG_SIDE / max(photo.shape[:2]))
    small = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    sift = cv2.SIFT_create()
    kv, dv = sift.detectAndCompute(cv2.cvtColor(view, cv2.COLOR_RGB2GRAY), None)
    kp, dp = sift.detectAndCompute(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), None)
    pairs = cv2.BFMatcher().knnMatch(dv, dp, k=2)
    good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < 0.75 * n.distance]
    assert len(good) >= 12, f"the stand-in matched only {len(good)} features between view and photo"
    src = np.float32([kv[m.queryIdx].pt for m in good])
    dst = np.float32([kp[m.trainIdx].pt for m in good]) / scale
    h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0 / scale)
    assert h is not None, "the stand-in found no homography between view and photo"
    return h


class TruthReader:
    """Reads what the rendered truth (``truth``: a photo truth's JSON, ``cells`` in photo pixels) shows
    at each lattice cell; ``misread`` maps town cells (row, col) to a token read there instead (the
    truth then second). Records the views it was given in ``views``."""

    def __init__(self, photo: np.ndarray, truth: dict, misread: dict[tuple[int, int], str] | None = None):
        self.photo, self.misread = photo, dict(misread or {})
        cells = truth["cells"]
        self.points = np.array([[x, y] for _, _, x, y, _ in cells], np.float32)
        self.where = [(r, c) for r, c, _, _, _ in cells]
        self.tokens = [t for _, _, _, _, t in cells]
        self.views: list[np.ndarray] = []

    def __call__(self, view: np.ndarray, lattice: Lattice) -> list[list[dict[str, float]]]:
        self.views.append(view)
        to_view = np.linalg.inv(view_to_photo(view, self.photo))
        truth = cv2.perspectiveTransform(self.points.reshape(-1, 1, 2), to_view).reshape(-1, 2)
        out = []
        for r in range(lattice.rows):
            line = []
            for c in range(lattice.cols):
                x, y = lattice.center(r, c)
                # How far each truth centre lies from the cell's, in cells along each axis.
                off = np.abs(truth - (x, y)) / (lattice.pitch_x, lattice.pitch_y)
                i = int(np.argmin(off.max(axis=1)))
                near = bool(off[i].max() < REACH)
                token = self.tokens[i] if near else "."
                wrong = self.misread.get(self.where[i]) if near else None
                line.append(distribution(wrong, 0.9, token) if wrong else distribution(token))
            out.append(line)
        return out


class ColourGuessReader:
    """A confident reader of foreign art: the nearest rulebook colour of the cell's rim as its type, an
    icon from its middle's texture (how busy it is), the table when no type colour is near."""

    def __call__(self, view: np.ndarray, lattice: Lattice) -> list[list[dict[str, float]]]:
        key = np.array(list(RULEBOOK_RGB.values()), float)
        edges = cv2.Canny(cv2.cvtColor(view, cv2.COLOR_RGB2GRAY), 60, 160)
        out = []
        for r in range(lattice.rows):
            line = []
            for c in range(lattice.cols):
                x, y = lattice.center(r, c)
                hx, hy = int(0.4 * lattice.pitch_x), int(0.4 * lattice.pitch_y)
                crop = view[max(0, int(y) - hy) : int(y) + hy, max(0, int(x) - hx) : int(x) + hx]
                if crop.size == 0:
                    line.append(distribution("."))
                    continue
                mean = crop.reshape(-1, 3).mean(axis=0)
                d = np.linalg.norm(key - mean, axis=1)
                if d.min() > 60:
                    line.append(distribution("."))
                    continue
                busy = edges[
                    max(0, int(y) - hy // 2) : int(y) + hy // 2, max(0, int(x) - hx // 2) : int(x) + hx // 2
                ]
                icon = "bcfgmw"[int(6 * min(0.999, 4 * float((busy > 0).mean())))]
                line.append(distribution(f"{list(RULEBOOK_RGB)[int(np.argmin(d))]}/{icon}", 0.9))
            out.append(line)
        return out
