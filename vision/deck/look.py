"""What a block looks like, measured without knowing the print: its ground colour and where its road runs.

Every print of Sprawlopolis fills a block with one ground per zone (flat, or with the zone's drawings) and
draws its road piece from edge midpoint to edge midpoint, whatever the colours. So a few measures describe
any print:

- the *ground*: the median CIE Lab colour of the block's four corner squares (:func:`ground_colour`), which
  every road piece misses (a straight road runs through the middle, a curve is a quarter ellipse round a
  corner at half the block's size, well outside the corner square);
- the *apartness*: how unlike the ground the small patch just inside each edge's midpoint is, N, E, S, W
  (:func:`apartness`): a road piece leaves by its block's two edges most unlike the ground, whatever the
  road's colour, width or markings (:func:`road_logp`).

The deck's structure names the grounds and the road (:mod:`vision.deck.structure`); a city's cells are then
read by the same measures (:mod:`vision.deck.look_reader`).

Example:

>>> import numpy as np
>>> cell = np.full((64, 89, 3), (70, 100, 50), np.uint8)  # a green block
>>> cell[:, 40:49] = 60  # with a grey road running north to south
>>> lab = to_lab(cell)
>>> [round(v) for v in ground_colour(lab)]
[39, -21, 25]
>>> apart = apartness(lab, ground_colour(lab))
>>> [int(v > 20) for v in apart]  # N, E, S, W
[1, 0, 1, 0]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scoring.city import ROADS
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM

__all__ = [
    "EDGES",
    "ZONES",
    "CityLook",
    "block_crops",
    "edge_colours",
    "ground_colour",
    "ground_texture",
    "lab_distance",
    "apartness",
    "road_logp",
    "to_lab",
]

EDGES = "NESW"
# The corner squares the ground is measured on, as fractions of the block from its edges: clear of an
# outline and a rim (up to ~7 % of the short side) and of every road piece.
CORNER = (0.1, 0.24)
# The patch an edge's colour is measured on: this far in from the edge (mm: past an outline, a rim and a
# few mm of misplacement) and this far either side of its midpoint (inside the narrowest road, 3.5 mm).
EDGE_DEPTH_MM = (3.0, 6.5)
EDGE_HALF_MM = 1.2
# Lab weights of a colour distance: lightness weighs less (a lamp or a shadow changes it most).
LAB_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
ZONES = "RCIP"
# A crop with more than this share of its area beyond the view is not measured (it reads as table).
OUTSIDE = 0.1


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` (uint8) in CIE Lab as float32 (L 0–100, a and b about −128–127)."""
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)


def lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The weighted Lab distance of colours ``a`` (..., 3) and ``b`` (..., 3), broadcast."""
    return np.sqrt((((a - b) * LAB_WEIGHTS) ** 2).sum(axis=-1))


def _corners(h: int, w: int) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w]
    from_top, from_side = np.minimum(ys / h, 1 - (ys + 1) / h), np.minimum(xs / w, 1 - (xs + 1) / w)
    return (
        (CORNER[0] <= from_top)
        & (from_top <= CORNER[1])
        & (CORNER[0] <= from_side)
        & (from_side <= CORNER[1])
    )


def ground_colour(lab: np.ndarray) -> np.ndarray:
    """The median Lab colour (3,) of the block crop ``lab``'s corner squares."""
    h, w = lab.shape[:2]
    return np.median(lab[_corners(h, w)], axis=0).astype(np.float32)


def ground_texture(lab: np.ndarray) -> float:
    """How far (median ΔE76) the corner squares' pixels of the block crop ``lab`` stray from their
    median: about 0 for a flat print's block, 12 and more for a block with drawings."""
    h, w = lab.shape[:2]
    ground = lab[_corners(h, w)]
    return float(np.median(np.sqrt(((ground - np.median(ground, axis=0)) ** 2).sum(axis=1))))


def _edge_boxes(h: int, w: int, half_mm: float) -> list[tuple[int, int, int, int]]:
    """The (y0, y1, x0, x1) box inside each edge's midpoint, N, E, S, W, for a crop of ``h`` × ``w``."""
    mx, my = w / BLOCK_W_MM, h / BLOCK_H_MM
    d0, d1 = EDGE_DEPTH_MM
    cx, cy = w / 2, h / 2
    return [
        (round(d0 * my), round(d1 * my), round(cx - half_mm * mx), round(cx + half_mm * mx)),
        (round(cy - half_mm * my), round(cy + half_mm * my), round(w - d1 * mx), round(w - d0 * mx)),
        (round(h - d1 * my), round(h - d0 * my), round(cx - half_mm * mx), round(cx + half_mm * mx)),
        (round(cy - half_mm * my), round(cy + half_mm * my), round(d0 * mx), round(d1 * mx)),
    ]


def edge_colours(lab: np.ndarray) -> np.ndarray:
    """The median Lab colour (4, 3) of the patch inside each edge's midpoint (N, E, S, W)."""
    h, w = lab.shape[:2]
    boxes = _edge_boxes(h, w, EDGE_HALF_MM)
    return np.array([np.median(lab[y0:y1, x0:x1].reshape(-1, 3), axis=0) for y0, y1, x0, x1 in boxes])


def apartness(lab: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """How unlike its ground (CIE ΔE76) each edge patch (N, E, S, W) of the block crop ``lab`` is: a road
    piece leaves by the two edges most unlike it, whatever the road's colour."""
    return np.sqrt(((edge_colours(lab) - ground) ** 2).sum(axis=-1)).astype(np.float32)


def road_logp(apart: np.ndarray, scale: float, path: np.ndarray | None = None) -> np.ndarray:
    """Log-probabilities (..., 6) of the road pieces of :data:`scoring.city.ROADS` for blocks whose edges
    are ``apart`` (..., 4) from their ground: each piece's two edges' apartness over ``scale``. With the
    pieces' ``path`` (..., 6: :func:`vision.deck.road_paths.path_apartness`), the mean of the two edges and
    twice the path instead (a true piece scores about as it does on its edges alone)."""
    logits = np.stack([apart[..., EDGES.index(r[0])] + apart[..., EDGES.index(r[1])] for r in ROADS], axis=-1)
    if path is not None:
        logits = (logits.astype(np.float64) + 2.0 * np.asarray(path, np.float64)) / 2.0
    logits = logits / scale
    top = logits.max(axis=-1, keepdims=True)
    return logits - (top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True)))


def block_crops(
    image: np.ndarray, centres: np.ndarray, pitch: tuple[float, float]
) -> list[np.ndarray | None]:
    """The Lab crop of each block of the RGB ``image`` centred at ``centres`` (N, 2), ``pitch`` (width,
    height) pixels; None for a crop reaching past the image by more than :data:`OUTSIDE` of its area."""
    w, h = round(pitch[0]), round(pitch[1])
    out: list[np.ndarray | None] = []
    for x, y in np.asarray(centres, float).reshape(-1, 2):
        x0, y0 = round(x - pitch[0] / 2), round(y - pitch[1] / 2)
        crop = image[max(0, y0) : max(0, y0 + h), max(0, x0) : max(0, x0 + w)]
        out.append(
            to_lab(crop) if crop.shape[0] * crop.shape[1] >= (1 - OUTSIDE) * w * h and crop.size else None
        )
    return out


@dataclass(frozen=True)
class CityLook:
    """One print's look: ``grounds`` (4, 3) the Lab ground of R, C, I, P and ``spread`` (4,) how far a
    block's ground strays from it (weighted ΔE); ``road_scale`` the apartness (ΔE) over which a road piece's
    likelihood grows by e (:func:`road_logp`)."""

    grounds: np.ndarray
    spread: np.ndarray
    road_scale: float

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The look as a deck file's arrays (:data:`vision.deck.taught.EXTRA_ARRAYS`)."""
        return {
            "city_grounds": self.grounds,
            "city_spread": self.spread,
            "city_road": np.array([self.road_scale], np.float32),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> CityLook | None:
        """The look kept in a deck file's ``arrays`` (None when it keeps none); ``ValueError`` for arrays
        that do not make one."""
        if "city_grounds" not in arrays:
            return None
        grounds = arrays["city_grounds"].astype(np.float32)
        spread = arrays["city_spread"].astype(np.float32)
        road = arrays["city_road"].astype(np.float32)
        if grounds.shape != (4, 3) or spread.shape != (4,) or road.shape != (1,):
            raise ValueError("city look of the wrong shape")
        if not all(np.isfinite(v).all() for v in (grounds, spread, road)) or not (spread > 0).all():
            raise ValueError("city look not finite")
        if not road[0] > 0:
            raise ValueError("city look's road scale out of range")
        return cls(grounds, spread, float(road[0]))

    def zone_logp(self, grounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Log-probabilities (N, 4) of R, C, I, P for blocks of ground ``grounds`` (N, 3), and the distance
        to the nearest zone's ground in units of its spread (N,)."""
        d = lab_distance(grounds[:, None, :], self.grounds[None]) / self.spread[None, :]
        logits = -0.5 * d**2
        top = logits.max(axis=1, keepdims=True)
        norm = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        return logits - norm, d.min(axis=1)
