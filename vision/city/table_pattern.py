"""The table's own pattern: a cell off the cards that shows the same pattern as the table far from the city.

A patterned cloth (a red check) has squares the classifier reads as residential blocks, surely enough to
count beyond the card region, and the lattice then grows over the cloth cell by cell to the photo's edge.
A person tells the cloth at a glance: it is the pattern seen all round the city, repeating. So is this:
patches of the table far from the cards are warped onto the top-down view (the same millimetres as the
cells), and a cell whose core appears somewhere in one of them (normalised cross-correlation, which a
shadow's lower light does not change) is the table. Art does not repeat that way: a block read beyond the
cards matches the table's patches at most 0.44 (the devset's 33, and 174 rendered on eleven kinds of
room), while the check cloth's squares read as blocks match at least 0.68 and mostly 0.97. Only a table
that repeats a pattern all over the photo (:mod:`vision.lattice.pattern_mask`) is matched so: a textured
table's patches matched blocks washed out by a lamp's glare (the devset's glare perturbation), and a plain
table (felt, a flat cloth) has no pattern to match; their cells are left to the colour rule of
:class:`vision.city.geometry.Geometry`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import Lattice, project_points

__all__ = ["PATTERN_MATCH", "pattern_match", "table_patches"]

# A cell's core (this share of the pitch) matching a table patch at least this well is the table.
PATTERN_MATCH = 0.6
CORE = 0.8
# A core with less spread than this (0-255, over its pixels and channels) has no pattern to match.
LEAST_SPREAD = 8.0
# Up to PATCHES patches of PATCH_CELLS × PATCH_CELLS cells (room for the core at every phase of a pattern
# whose period is under a cell), farthest from the card region first, at least AWAY cells from it (a card
# the region missed lies beside it, and a patch over it would make its block match itself).
PATCHES = 6
PATCH_CELLS = 2.5
AWAY = 1.5
# Patch centres are tried on a grid this many steps across the card region's mask.
GRID_STEPS = 16
# Patches and cores are matched at this share of the view's scale (1 px/mm: a check's square, 6–15 mm, is
# still 6 px or more), a sixteenth of the work.
MATCH_SCALE = 0.5


def table_patches(
    photo: np.ndarray, to_view: np.ndarray, mask: np.ndarray, pitch: tuple[float, float]
) -> tuple[np.ndarray, ...]:
    """Patches of the table in ``photo`` warped by ``to_view`` (photo px to the top-down view's), at
    :data:`MATCH_SCALE` of the view's scale, each whole in the photo and :data:`AWAY` cells or more from
    the card region ``mask`` (a reduced copy of the photo, 0 off the cards); the farthest first, none
    overlapping much."""
    h, w = photo.shape[:2]
    mh, mw = mask.shape[:2]
    scale = np.array([w / mw, h / mh])
    size = (int(PATCH_CELLS * pitch[0]), int(PATCH_CELLS * pitch[1]))
    free = cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, 3)
    step = max(1, max(mh, mw) // GRID_STEPS)
    ys, xs = np.mgrid[step // 2 : mh : step, step // 2 : mw : step]
    order = np.argsort(-free[ys, xs].ravel(), kind="stable")
    centres: list[np.ndarray] = []
    out: list[np.ndarray] = []
    for i in order:
        if len(out) >= PATCHES:
            break
        at = np.array([xs.ravel()[i], ys.ravel()[i]], float) * scale
        centre = project_points(to_view, at[None])[0]
        if any(np.hypot(*(centre - c)) < 0.7 * min(size) for c in centres):
            continue
        if not _clear(centre, size, to_view, mask, scale, pitch, (w, h)):
            continue
        shift = np.array(
            [[1.0, 0.0, size[0] / 2 - centre[0]], [0.0, 1.0, size[1] / 2 - centre[1]], [0, 0, 1]]
        )
        patch = cv2.warpPerspective(photo, shift @ to_view, size, flags=cv2.INTER_LINEAR)
        out.append(_shrunk(patch))
        centres.append(centre)
    return tuple(out)


def _clear(
    centre: np.ndarray,
    size: tuple[int, int],
    to_view: np.ndarray,
    mask: np.ndarray,
    scale: np.ndarray,
    pitch: tuple[float, float],
    frame: tuple[int, int],
) -> bool:
    """Whether the patch of ``size`` round ``centre`` (view px), widened by :data:`AWAY` cells, lies off
    the card region, and the patch itself whole in the photo (``frame``: its width and height)."""
    half = np.array(size, float) / 2
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)
    from_view = np.linalg.inv(to_view)
    back = project_points(from_view, centre + corners * half)
    if (back < 0).any() or (back[:, 0] >= frame[0]).any() or (back[:, 1] >= frame[1]).any():
        return False
    wide = project_points(from_view, centre + corners * (half + AWAY * np.array(pitch))) / scale
    area = np.zeros(mask.shape[:2], np.uint8)
    cv2.fillConvexPoly(area, np.round(wide).astype(np.int32), 255)
    return not bool((area & mask).any())


def pattern_match(
    patches: tuple[np.ndarray, ...], view: np.ndarray, lattice: Lattice, r: int, c: int
) -> float:
    """How well cell (r, c)'s core in ``view`` appears in the table's ``patches`` (the best normalised
    cross-correlation, 0 with no patch or a core too plain to tell)."""
    box = lattice.core_box(r, c, CORE, view.shape)
    if box is None or not patches:
        return 0.0
    x0, y0, x1, y1 = box
    core = _shrunk(np.ascontiguousarray(view[y0:y1, x0:x1]))
    if min(core.shape[:2]) < 8 or float(core.std()) < LEAST_SPREAD:
        return 0.0
    best = 0.0
    for patch in patches:
        if patch.shape[0] >= core.shape[0] and patch.shape[1] >= core.shape[1]:
            best = max(best, float(cv2.matchTemplate(patch, core, cv2.TM_CCOEFF_NORMED).max()))
    return best


def _shrunk(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    size = (max(1, round(w * MATCH_SCALE)), max(1, round(h * MATCH_SCALE)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
