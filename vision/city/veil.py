"""A lamp's glare lifted off the top-down view, and how much of each cell's art it left.

Glare on glossy cards lays a white veil over the art: a photographed pixel is ``I = J (1 - a) + 255 a``
where ``J`` is the art and ``a`` the veil's strength, smooth across the city and strongest at the spot's
core. The card art has something dark in every patch of it (roads, outlines, trees), so the city's dark
channel (the least of R, G and B), taken as a lower envelope over half a cell, rises where a veil lies and
nowhere else (the dark channel prior of haze removal, with white in place of the sky). Measured on the real
cards' development set: the envelope over a city's cells has its median at 44–73 and its maximum at most
0.21 of the way from the median to white; under a glare spot it reaches 0.7 to 1.

Where ``a`` is at most :data:`RECOVERABLE` the art is divided back out; past it nothing is left to read,
the core stays white and the doubt names its cells (:mod:`vision.city.doubt`, ``glare``). Weakening those
cells' own readings so that the cards decide them was tried and read fewer of the perturbed devset right.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.lattice import Lattice

__all__ = ["RECOVERABLE", "Veil", "lift_veil"]

# The envelope's window and its smoothing, as shares of the shorter side of a cell.
ENVELOPE_WINDOW = 0.5
# A veil is lifted only when it is this strong somewhere on the city: the cities read clean reach 0.21
# (pale parks with nothing dark in half a cell), a lamp's spot 0.7 and more.
SPOT_STRENGTH = 0.45
# Below this strength a pixel is left as it is (the pale parks' own level, see SPOT_STRENGTH).
LEAST_STRENGTH = 0.15
# Past this strength the art is not divided back out: the noise and the JPEG's blocks would be amplified
# more than five times.
RECOVERABLE = 0.8
# The veil is measured on each card cell's central box, this share of the pitch across (its rim and the
# neighbours' edges left out).
CORE = 0.8
# The prior needs art with something dark in every patch. A print of flat grounds (no drawings) has none:
# its palest zone's blocks look veiled from edge to edge, and lifting that "veil" paints dark blotches into
# them and a halo round the city. Such a print shows its flatness in the cells' corner squares (a cell's
# fractions CORNER from its sides, clear of every road piece): their grey levels span (SPAN percentiles)
# under FLAT_TEXTURE in the median cell (rendered flat editions 1.7-4.9 levels, a phone's noise; the real
# cards' development set 41-48, rendered drawn looks 53-98), and no veil is lifted on such a city.
CORNER = (0.1, 0.24)
SPAN = (5, 95)
FLAT_TEXTURE = 16.0
FLAT_CELLS = 4


@dataclass(frozen=True)
class Veil:
    """The view with the veil lifted (``image``) and the veil's strength per pixel (0–1), or ``None``
    when the city shows no glare spot (then ``image`` is the view itself)."""

    image: np.ndarray
    strength: np.ndarray | None = None


def _envelope(view: np.ndarray, window: int) -> np.ndarray:
    dark = view.min(axis=2)
    # An opening, not an erosion alone: the erosion's minimum lags behind the veil where it rises fast.
    lower = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((window, window), np.uint8))
    return cv2.GaussianBlur(lower.astype(np.float32), (0, 0), window / 2)


def _city_mask(shape: tuple[int, ...], lattice: Lattice, occupied: np.ndarray) -> np.ndarray:
    """The cores of the lattice's cells on the card region, (H, W) bool."""
    mask = np.zeros(shape[:2], bool)
    for r, c in zip(*np.nonzero(occupied), strict=True):
        box = lattice.core_box(int(r), int(c), CORE, shape)
        if box is not None:
            mask[box[1] : box[3], box[0] : box[2]] = True
    return mask


def corner_texture(view: np.ndarray, lattice: Lattice, row: int, col: int) -> float | None:
    """How far apart (grey levels, between the :data:`SPAN` percentiles) the pixels of each of cell
    (row, col)'s four corner squares lie, the median over its squares; None when the cell is off the view."""
    box = lattice.core_box(row, col, 1.0, view.shape)
    if box is None:
        return None
    grey = view[box[1] : box[3], box[0] : box[2]].mean(axis=2)
    h, w = grey.shape
    near, far = CORNER
    out = []
    for y0, y1 in ((near * h, far * h), ((1 - far) * h, (1 - near) * h)):
        for x0, x1 in ((near * w, far * w), ((1 - far) * w, (1 - near) * w)):
            square = grey[round(y0) : round(y1), round(x0) : round(x1)]
            if square.size:
                lo, hi = np.percentile(square, SPAN)
                out.append(float(hi - lo))
    return float(np.median(out)) if out else None


def flat_print(view: np.ndarray, lattice: Lattice, occupied: np.ndarray, strength: np.ndarray) -> bool:
    """Whether the cells ``occupied`` of ``lattice`` show a print of flat grounds (:data:`FLAT_TEXTURE`),
    judged on those the veil's ``strength`` leaves clear (under :data:`LEAST_STRENGTH` in their core): a
    glare spot over most of a city washes its art flat, and at least :data:`FLAT_CELLS` clear cells are
    asked for (fewer: not a flat print)."""
    textures = []
    for r, c in zip(*np.nonzero(occupied), strict=True):
        box = lattice.core_box(int(r), int(c), CORE, strength.shape)
        if box is None or float(strength[box[1] : box[3], box[0] : box[2]].mean()) >= LEAST_STRENGTH:
            continue
        if (texture := corner_texture(view, lattice, int(r), int(c))) is not None:
            textures.append(texture)
    return len(textures) >= FLAT_CELLS and float(np.median(textures)) < FLAT_TEXTURE


def lift_veil(view: np.ndarray, lattice: Lattice, occupied: np.ndarray) -> Veil:
    """The veil over the cells ``occupied`` of ``lattice`` in the RGB top-down ``view``, lifted.

    Examples
    --------
    >>> import numpy as np
    >>> from vision.lattice import Lattice
    >>> art = np.full((120, 160, 3), 60, np.uint8)
    >>> lattice = Lattice((0.0, 0.0), 40.0, 30.0, 4, 4)
    >>> lift_veil(art, lattice, np.ones((4, 4), bool)).strength is None
    True
    """
    window = max(3, int(ENVELOPE_WINDOW * min(lattice.pitch_x, lattice.pitch_y)) | 1)
    envelope = _envelope(view, window)
    mask = _city_mask(view.shape, lattice, occupied)
    if not mask.any():
        return Veil(view)
    base = float(np.median(envelope[mask]))
    strength = np.clip((envelope - base) / max(255.0 - base, 1.0), 0.0, 1.0)
    if float(strength[mask].max()) < SPOT_STRENGTH or flat_print(view, lattice, occupied, strength):
        return Veil(view)
    strength[strength < LEAST_STRENGTH] = 0.0
    a = np.minimum(strength, RECOVERABLE)[..., None]
    art = (view.astype(np.float32) - 255.0 * a) / (1.0 - a)
    return Veil(np.clip(art + 0.5, 0, 255).astype(np.uint8), strength)
