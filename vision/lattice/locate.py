"""Find the city in a photo: where the cards lie, and the two families of straight lines they are made of.

Works on a small copy of the photo (about 1000 px on the long side). Two kinds of evidence:

* **Card region.** The table is estimated from the photo's border band (robust colour clusters), and a
  pixel is "card" when its colour is far from every table colour *or* its neighbourhood is busy with
  edges (the cards are covered with small outlined drawings; even a tablecloth close to the commercial
  blue is much calmer than a block). The largest connected region, closed over the gaps between cards,
  is the city.
* **Line families.** Card edges, block rims and road edges are straight and, in a finished city, all
  parallel to one of two directions on the table (hand placement turns a card by 2° at most). Line
  segments (LSD) inside the city region are grouped by angle into two families; each family's vanishing
  point (possibly at infinity) is fitted with RANSAC, which is what the rectifier needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import cv2
import numpy as np

from scoring.errors import InputError
from vision.lattice.colours import region_colours
from vision.lattice.pattern_mask import repeating_table
from vision.lattice.vanishing import vanishing_point
from vision.photo import even_light, light_field

LOCATE_LONG_SIDE = 1000
# A city must cover at least this fraction of the photo to be read (about 8 blocks in a 12 MP frame).
MIN_AREA_FRACTION = 0.02


class NoCityFound(InputError):
    """The photo shows no Sprawlopolis city, or too little of one to read."""

    code = "no_city_found"


@dataclass(frozen=True)
class LineFamily:
    """Line segments (N × 4: x1, y1, x2, y2) sharing one direction on the table, and their vanishing
    point in homogeneous image coordinates (third component 0 when the lines are parallel in the image)."""

    segments: np.ndarray
    vanishing: np.ndarray
    angle: float  # mean image angle of the family in degrees, 0..180


@dataclass(frozen=True)
class Located:
    """The city in the small copy: its region mask (uint8 0/255), bounding box (x, y, w, h), the two line
    families, and the table's estimated colours (Lab, uint8 OpenCV scale); ``colours`` is how many colours
    the region shows (:func:`vision.lattice.colours.region_colours`; 0: not counted), which the
    rectification holds to a game's (:mod:`vision.lattice.bounds`)."""

    mask: np.ndarray
    bbox: tuple[int, int, int, int]
    families: tuple[LineFamily, LineFamily]
    table_lab: np.ndarray
    segments: np.ndarray  # every line segment found on the city (N × 4), inliers or not
    touches_border: tuple[str, ...]  # sides of the photo the city runs into: "left", "top", ...
    colours: int = 0
    patterned: bool = False  # the table repeats a pattern all over the photo (vision.lattice.pattern_mask)


def table_colours(lab: np.ndarray, band: int) -> np.ndarray:
    """Up to three Lab colours that describe the border band of the photo (mostly table)."""
    return colour_clusters(border_band(lab, band), 3, 0.15)


def border_band(image: np.ndarray, band: int) -> np.ndarray:
    """The pixels of ``image`` within ``band`` px of its edge, (N, channels), each once."""
    h, w = image.shape[:2]
    depth = image.shape[2] if image.ndim == 3 else 1
    return np.concatenate(
        [
            image[:band].reshape(-1, depth),
            image[h - band :].reshape(-1, depth),
            image[band : h - band, :band].reshape(-1, depth),
            image[band : h - band, w - band :].reshape(-1, depth),
        ]
    )


def colour_clusters(pixels: np.ndarray, clusters: int, least: float) -> np.ndarray:
    """Up to ``clusters`` k-means centres (float32) of ``pixels`` (N × 3), each holding at least ``least``
    of them: clusters that are a tiny share of the border are objects or cards crossing it, not table."""
    border = pixels.astype(np.float32)
    if len(border) < clusters:
        return np.zeros((0, 3), np.float32)
    step = max(1, len(border) // 4000)
    sample = border[::step]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    # k-means++ draws from OpenCV's process-wide generator: seed it, or the same photo could be read
    # differently depending on what the process did before.
    cv2.setRNGSeed(0)
    _, labels, centres = cv2.kmeans(sample, clusters, None, criteria, 2, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    counts = np.bincount(labels.ravel(), minlength=clusters)
    return centres[counts >= least * len(sample)]


def _nearest_distance(lab: np.ndarray, colours: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted Euclidean distance (float32) from each pixel of ``lab`` (uint8) to the nearest of
    ``colours``.

    A channel holds one of 256 values, so each channel's weighted square is looked up in a table of
    them, made with the same float32 steps, and the three are added in order; the root of the least sum
    is the least root. The numbers are those of the plain per-pixel formula.
    """
    planes, values = cv2.split(lab), np.arange(256, dtype=np.float32)

    def squared(colour: np.ndarray) -> np.ndarray:
        sq = [cv2.LUT(planes[i], ((values - colour[i]) * weights[i]) ** 2) for i in range(3)]
        return sq[0] + sq[1] + sq[2]

    return np.sqrt(reduce(np.minimum, (squared(colour) for colour in colours)))


def _busyness(lightness: np.ndarray, win: int) -> tuple[np.ndarray, float]:
    """Mean gradient magnitude of ``lightness`` over ``win`` px, and its median along the photo's border
    (the table's own level)."""
    grey = lightness.astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    busy = cv2.blur(np.sqrt(gx * gx + gy * gy), (win, win))
    table_busy = np.median(np.concatenate([busy[:4].ravel(), busy[-4:].ravel(), busy[:, :4].ravel()]))
    return busy, float(table_busy)


# The border band is judged in this many stretches a side (:func:`_calm_border`).
BORDER_STRETCHES = 4


def _calm_border(busy: np.ndarray, band: int) -> np.ndarray | None:
    """The stretches of the border band (:data:`BORDER_STRETCHES` a side) as calm as the table, (H, W)
    bool, or None when every stretch is. A city cut by the frame puts cards in part of the border band:
    stretches much busier than the calmest quarter of them (by the card cue of :func:`_busy_above`) are
    cards, not table. Only asked for when the whole band found no city (:func:`locate_city`'s
    ``calm_border``): a table whose grain is busier on one side is taken for cards by this rule."""
    h, w = busy.shape
    ids = np.full((h, w), -1, np.int32)
    n = BORDER_STRETCHES
    for k in range(n):
        x0, x1 = k * w // n, (k + 1) * w // n
        y0, y1 = band + k * (h - 2 * band) // n, band + (k + 1) * (h - 2 * band) // n
        ids[:band, x0:x1], ids[h - band :, x0:x1] = k, n + k
        ids[y0:y1, :band], ids[y0:y1, w - band :] = 2 * n + k, 3 * n + k
    levels = np.array([float(busy[ids == i].mean()) for i in range(4 * n)])
    quiet = float(np.percentile(levels, 25))
    card = levels - quiet > max(12.0, 1.5 * quiet + 6.0)
    if not card.any():
        return None
    return np.isin(ids, np.flatnonzero(~card))


def cards_in_border(small: np.ndarray) -> bool:
    """Whether part of the border band of ``small`` (as :func:`locate_city` takes it) is far busier than
    the rest, as where a city runs off the frame: only then does ``calm_border`` measure another table."""
    h, w = small.shape[:2]
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    lightness = cv2.cvtColor(half, cv2.COLOR_RGB2LAB)[:, :, 0]
    band, win = _band_and_window(lightness.shape)
    return _calm_border(_busyness(lightness, win)[0], band) is not None


def _band_and_window(shape: tuple[int, ...]) -> tuple[int, int]:
    """The border band's depth, and the window the busy cue is measured over, for a photo of ``shape``."""
    side = min(shape[:2])
    return max(4, side // 25), max(5, (side // 40) | 1)


def _busy_above(busy: np.ndarray, table_busy: float) -> np.ndarray:
    """Where ``busy`` stands clearly above the table's own level (bool)."""
    return (busy - table_busy) > max(12.0, 1.5 * table_busy + 6.0)


def card_mask(rgb: np.ndarray, calm_border: bool = False) -> tuple[np.ndarray, np.ndarray, bool]:
    """Return (mask of likely card pixels as uint8 0/255, table Lab colours, whether the table repeats a
    pattern) for a small RGB photo; ``calm_border``: the table measured on the calm stretches of the
    border band only (:func:`_calm_border`), else on all of it.

    The cues are read on the photo as if lit evenly (:mod:`vision.photo.light`): a shadow across a pale table
    is darker than the table but no card, and drawings in the shade are as busy as those in the light.
    """
    h, w = rgb.shape[:2]
    raw_lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    band, win = _band_and_window(rgb.shape)
    busy, table_busy = _busyness(raw_lab[:, :, 0], win)
    calm = _calm_border(busy, band) if calm_border else None
    if calm is None:
        table = table_colours(raw_lab, band)
    else:  # the city runs into part of the border: the table is what the rest of it shows
        table = colour_clusters(raw_lab[calm], 3, 0.15)
        table_busy = float(np.median(busy[calm]))
    table_rgb = cv2.cvtColor(np.clip(table + 0.5, 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2RGB)[0]
    even = even_light(rgb, light_field(rgb, table_rgb, ~_busy_above(busy, table_busy)))
    lab = raw_lab
    if even is not rgb:  # a shadow or a lamp's fall-off to lift: the cues on the evenly lit copy
        lab = cv2.cvtColor(even, cv2.COLOR_RGB2LAB)
        busy, table_busy = _busyness(lab[:, :, 0], win)
        if calm is not None:
            table_busy = float(np.median(busy[calm]))
    # Chroma differences weigh more than lightness: shading and glare change L far more than a, b.
    weights = np.array([0.25, 1.0, 1.0], np.float32)
    colour_score = cv2.blur(_nearest_distance(lab, table, weights), (5, 5))
    # Each cue is scaled by how far it sits above the table's own level; either may mark a card. The
    # busy cue is blurred over ``win`` pixels, so it spills past the card edges: pull it back by half that.
    colour_mask = (colour_score > 18.0).astype(np.uint8)
    busy_mask = _busy_above(busy, table_busy).astype(np.uint8)
    busy_mask = cv2.erode(busy_mask, np.ones((win, win), np.uint8), anchor=(win // 2, win // 2))
    mask = np.maximum(colour_mask, busy_mask) * 255
    pattern = repeating_table(raw_lab[:, :, 0], band)
    if pattern is not None:  # a check cloth, as busy as the cards and of their colours: see pattern_mask
        mask = np.maximum(mask, (~pattern).astype(np.uint8) * 255)
    k = max(3, (min(h, w) // 35) | 1)  # also removes thin bands where the table shades off
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    close = max(5, (min(h, w) // 45) | 1)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close))
    )
    return mask, table, pattern is not None


def _largest_region(mask: np.ndarray, rank: int = 0) -> np.ndarray:
    """The ``rank``-th largest connected region of ``mask`` (0: the largest), its holes filled; all zero
    when there is no such region."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1 + rank:
        return np.zeros_like(mask)
    areas = stats[1:, cv2.CC_STAT_AREA]
    best = 1 + int(np.argsort(-areas, kind="stable")[rank])
    region = (labels == best).astype(np.uint8) * 255
    # Fill holes: gaps inside the city and blocks that look like the table are still city.
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def _segments(rgb: np.ndarray, region: np.ndarray, min_len: float) -> np.ndarray:
    """LSD line segments (N × 4) at least ``min_len`` long whose middle lies in ``region``; only the
    region's bounding box is searched (LSD's cost grows with the area), in grey."""
    x, y, w, h = cv2.boundingRect(region)
    if w == 0 or h == 0:
        return np.zeros((0, 4), np.float32)
    lsd = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD)
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[y : y + h, x : x + w]), cv2.COLOR_RGB2GRAY)
    found = lsd.detect(grey)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    seg = found.reshape(-1, 4) + np.array([x, y, x, y], np.float32)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    mx = np.clip(((seg[:, 0] + seg[:, 2]) / 2).astype(int), 0, region.shape[1] - 1)
    my = np.clip(((seg[:, 1] + seg[:, 3]) / 2).astype(int), 0, region.shape[0] - 1)
    keep = (length >= min_len) & (region[my, mx] > 0)
    return seg[keep]


def _angles(seg: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(seg[:, 3] - seg[:, 1], seg[:, 2] - seg[:, 0])) % 180.0


# Among the candidates for the perpendicular family, one this many degrees from 90° counts e^-1/2 of its
# segments' length: a textured fill's stripes (random edition 7040's weave, 55° from the card edges and
# longer in all than the true family at 89°) must outweigh the card edges by more the farther they slant.
PERPENDICULAR_SPREAD = 25.0


def _dominant_pair(seg: np.ndarray) -> tuple[float, float]:
    """The two dominant segment directions (degrees), the second roughly perpendicular to the first."""
    ang = _angles(seg)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    hist = np.bincount(np.round(ang).astype(int) % 180, weights=length, minlength=180)
    smooth = np.convolve(np.tile(hist, 3), np.ones(5) / 5, mode="same")[180:360]
    first = int(np.argmax(smooth))
    # The perpendicular family: perspective bends it by up to ~35° away from 90° in the image.
    offsets = np.arange(55, 126)
    cand = (first + offsets) % 180
    prior = np.exp(-0.5 * ((offsets - 90) / PERPENDICULAR_SPREAD) ** 2)
    second = int(cand[np.argmax(smooth[cand] * prior)])
    return float(first), float(second)


def _angle_diff(a: np.ndarray, b: float) -> np.ndarray:
    d = np.abs(a - b) % 180.0
    return np.minimum(d, 180.0 - d)


def _border_sides(region: np.ndarray) -> tuple[str, ...]:
    h, w = region.shape
    band = 2
    sides = []
    for name, strip, span in (
        ("top", region[:band], w),
        ("bottom", region[h - band :], w),
        ("left", region[:, :band], h),
        ("right", region[:, w - band :], h),
    ):
        if (strip > 0).any(axis=0 if name in ("top", "bottom") else 1).sum() > 0.05 * span:
            sides.append(name)
    return tuple(sides)


def locate_city(small: np.ndarray, *, seed: int = 0, rank: int = 0, calm_border: bool = False) -> Located:
    """Find the city in a small RGB photo (long side about :data:`LOCATE_LONG_SIDE`): in the largest
    card-like region, or with ``rank`` in the ``rank``-th largest (a town may lie beside a larger group of
    goal cards); ``calm_border``: the table measured on the calm stretches of the border band
    (:func:`card_mask`), for a second look at a photo whose city the whole band did not find.

    Raises :class:`NoCityFound` when no card region of a plausible size exists, or when its straight
    edges do not form two clear perpendicular families (a table, a face, a page of text).
    """
    h, w = small.shape[:2]
    # The region needs far less resolution than the lines: find it at half size.
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    raw, table, patterned = card_mask(half, calm_border)
    region = cv2.resize(_largest_region(raw, rank), (w, h), interpolation=cv2.INTER_NEAREST)
    area = int(np.count_nonzero(region))
    if area < MIN_AREA_FRACTION * h * w:
        raise NoCityFound(
            "no city found: nothing in the photo looks like a group of Sprawlopolis cards "
            f"(the largest card-like area covers {100 * area / (h * w):.1f}% of the photo)"
        )
    x, y, bw, bh = cv2.boundingRect(region)
    grown = cv2.dilate(region, np.ones((9, 9), np.uint8))
    seg = _segments(small, grown, min_len=max(8.0, 0.012 * max(h, w)))
    if len(seg) < 12:
        raise NoCityFound("no city found: too few straight card edges in the photo")
    first, second = _dominant_pair(seg)
    ang = _angles(seg)
    rng = np.random.default_rng(seed)
    scale = 2.0 / max(h, w)
    centre = np.array([w / 2, h / 2])
    families = []
    for main in (first, second):
        member = seg[_angle_diff(ang, main) < 20.0]
        if len(member) < 6:
            raise NoCityFound("no city found: the straight edges in the photo do not form a grid")
        norm = np.hstack([(member[:, :2] - centre) * scale, (member[:, 2:] - centre) * scale])
        found = vanishing_point(norm, rng)
        if found is None:
            raise NoCityFound("no city found: the photo shows no straight card edges")
        v, inliers = found
        if inliers.sum() < 6:
            raise NoCityFound("no city found: the straight edges in the photo do not form a grid")
        # Back to pixel coordinates of the small photo.
        to_pixels = np.array([[1 / scale, 0, centre[0]], [0, 1 / scale, centre[1]], [0, 0, 1]])
        vp = to_pixels @ v
        families.append(LineFamily(member[inliers], vp / np.linalg.norm(vp), main))
    sides, colours = _border_sides(region), region_colours(small, region)
    return Located(region, (x, y, bw, bh), (families[0], families[1]), table, seg, sides, colours, patterned)
