"""Find the number circles of scoring cards lying scoring side up: by their shape, not a yellow blob.

On a real scoring card the pale yellow number circle (12 mm across) sits on a grey-brown title band
8 mm tall, so it stands out above and below the band onto the paper. A loose
yellow threshold joins circle and band (the band's warm tan passes it) and, on wood, the table too. What
sets the circle apart is that it is more yellow than *everything* around it: band to its left and right,
paper above and below. The search:

1. **Yellowness** ``b* − 0.7·|a*|`` (CIE Lab): the fill's b* is far above the band's and the paper's,
   and the weight on ``|a*|`` keeps green park cells and orange diagram cells (b* high too) from looking
   yellow.
2. **Candidates** on a copy shrunk so that the expected circle is about :data:`DETECT_RADIUS_PX` px: the
   mean yellowness inside the circle minus the *most* yellow of 8 sectors of a ring around it. A yellow
   table, a card's edge or a park next to it fill at least one sector and score nothing; only a compact
   spot more yellow than every side scores. The ink of the digits is closed away first. Each sector is
   measured only where the sectors before it left a score.
3. **Fit** each candidate on the full image: yellowness thresholded halfway between fill and ring, every
   piece near the centre (the digits may cut the fill apart), the convex hull fitted by an ellipse that
   must be round (a circle seen up to ~60° from straight above) and of the expected size, with dark ink
   inside (the number). A candidate that does not fit is fitted again with windows for a smaller or
   larger circle: cards lie nearer the camera or farther than the city whose scale sets the size.

The expected radius comes from the city's scale (px per mm, where the lattice was fitted); without it a
range of sizes is searched.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.backs.ring_filter import MIN_RESPONSE, largest, ring_response

__all__ = ["CIRCLE_RADIUS_MM", "NumberCircle", "find_number_circles", "yellowness"]

#: Radius of the number circle, mm: 0.19 of the card's 63.5 mm height across (measured on real backs).
CIRCLE_RADIUS_MM = 6.0
#: Circle radius on the candidate copy, px: enough for a ring of 8 sectors, small enough to be cheap.
DETECT_RADIUS_PX = 5.0
#: Radii searched around the expected one (a slanted view and the cards' distance from the city change it).
RADIUS_STEPS = (0.7, 0.85, 1.0, 1.2)
#: A candidate that does not fit at the expected radius is fitted again at these multiples of it: a card
#: farther from the camera than the city (or nearer) has a smaller (larger) circle, and windows sized for
#: the expected one reach past its card onto the table, or take in the band beside it. Beside a city seen
#: from a slant the cards' scale runs from about 0.7 to 1.5 times the city's; the nearest to 1 go first.
REFIT_STEPS = (0.85, 1.2, 0.7, 1.45)
#: The fitted circle's larger semi-axis (the one a slanted view does not shorten) allowed, as a fraction of
#: the expected radius.
RADIUS_RANGE = (0.6, 1.5)
#: Without a scale: expected radii from this fraction of the photo's long side up, by RADIUS_STEP_FACTOR.
UNSCALED_RADII = (0.006, 0.04)
UNSCALED_STEP_FACTOR = 1.5
#: Weight of |a*| in the yellowness: green and red are not yellow however high their b*.
A_WEIGHT = 0.7
#: Least fill-over-ring yellowness contrast for a fit (the fill's b* is ~25 above band and paper).
MIN_CONTRAST = 6.0
MAX_CANDIDATES = 60
#: A fit whose centre lands this far (in radii) from its candidate is done again around it.
RECENTRE = 0.15
#: Shape of the fit: greatest distance of the hull from the ellipse and its spread, in radii.
MAX_HULL_REACH = 1.1
MAX_HULL_SPREAD = 0.04
#: Most of the hull's outline that may run along the photo's edge (a card lying partly out of frame): a
#: third of the circle cut off leaves the edge about 0.3 of the outline.
MAX_CUT_SHARE = 0.4
#: Least share of the hull that is fill (bold digits may cover up to two thirds of it).
MIN_SOLIDITY = 0.3
MIN_AXIS_RATIO = 0.5
#: Share of the circle's inside that is dark ink (the number): a bold "10" may cover most of it.
INK_RANGE = (0.04, 0.75)
#: Ink is darker than 0.6 × the fill, or than the fill less INK_DEPTH luma (0–255), whichever is the
#: lighter bound: glare or overexposure lays a veil over circle and ink alike, which keeps their
#: difference but lifts the ink's luma towards the fill's.
INK_DEPTH = 40.0


@dataclass(frozen=True)
class NumberCircle:
    """A number circle in image pixels: ``centre`` (x, y), ``axes`` (2×2 map of the unit circle onto the
    circle's ellipse), ``radius`` (mean, px) and ``contrast`` (fill over surroundings, Lab units)."""

    centre: np.ndarray
    axes: np.ndarray
    radius: float
    contrast: float


def yellowness(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``b* − A_WEIGHT·|a*|`` and L (0–255) of an RGB ``uint8`` image, float32.

    Examples
    --------
    >>> import numpy as np
    >>> y, _ = yellowness(np.array([[[236, 214, 110], [120, 190, 90], [235, 235, 230]]], np.uint8))
    >>> bool(y[0, 0] > 30 > y[0, 1]), bool(abs(y[0, 2]) < 5)  # pale yellow, a green, white paper
    (True, True)
    """
    luma, a, b = cv2.split(cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2LAB))
    a_star = np.abs(a.astype(np.float32) - 128)
    return b.astype(np.float32) - 128 - A_WEIGHT * a_star, luma.astype(np.float32)


def find_number_circles(
    image: np.ndarray, px_per_mm: float | None = None, exclude: np.ndarray | None = None
) -> list[NumberCircle]:
    """Number circles in an RGB ``uint8`` ``image``, strongest first.

    ``px_per_mm`` is the photo's scale near the cards (None: search a range of sizes); ``exclude`` (2-D,
    any size, non-zero where no card can lie, e.g. the city) drops candidates on it.
    """
    refits: tuple[float, ...] = ()
    if px_per_mm is not None:
        radii, refits = [CIRCLE_RADIUS_MM * px_per_mm], REFIT_STEPS
    else:  # the sizes searched overlap: no refits
        long_side = max(image.shape[:2])
        lo, hi = UNSCALED_RADII
        radii = list(lo * long_side * UNSCALED_STEP_FACTOR ** np.arange(20))
        radii = [r for r in radii if r <= hi * long_side]
    fitted: list[NumberCircle] = []
    for radius in radii:
        for x, y in _candidates(image, radius, exclude):
            if any(np.hypot(*(c.centre - (x, y))) < 0.5 * c.radius for c in fitted):
                continue  # a candidate already fitted at this or another size
            circle = _fit(image, x, y, radius)
            for step in refits:
                if circle is not None:
                    break
                circle = _fit(image, x, y, radius * step)
            if circle is not None:
                fitted.append(circle)
    # Overlapping fits (part of a fill cut off by its digits, found at a smaller size): the clearest stays.
    found: list[NumberCircle] = []
    for circle in sorted(fitted, key=lambda c: -c.contrast):
        if not any(np.hypot(*(c.centre - circle.centre)) < c.radius + circle.radius for c in found):
            found.append(circle)
    return found


def _candidates(image: np.ndarray, radius: float, exclude: np.ndarray | None) -> list[tuple[float, float]]:
    """Centres (image px) of spots more yellow than every side around them, strongest first."""
    k = max(1, int(round(radius / DETECT_RADIUS_PX)))
    h, w = image.shape[:2]
    if h // k < 8 or w // k < 8:
        return []
    small = cv2.resize(image[: h - h % k, : w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
    yellow, _ = yellowness(small)
    r0 = radius / k
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5) if r0 > 5.5 else (3, 3))
    yellow = cv2.morphologyEx(yellow, cv2.MORPH_CLOSE, closing)  # the digits' ink away
    pad = int(np.ceil(1.9 * max(RADIUS_STEPS) * r0))
    padded = cv2.copyMakeBorder(yellow, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    response = largest([ring_response(padded, pad, step * r0) for step in RADIUS_STEPS])
    size = int(2 * r0) | 1
    peaks = (response >= cv2.dilate(response, np.ones((size, size), np.uint8))) & (response > MIN_RESPONSE)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-response[ys, xs])
    out = []
    for i in order:
        x, y = (xs[i] + 0.5) * k, (ys[i] + 0.5) * k
        if exclude is not None and _on(exclude, x, y, (h, w)):
            continue
        out.append((float(x), float(y)))
        if len(out) == MAX_CANDIDATES:
            break
    return out


def _on(mask: np.ndarray, x: float, y: float, shape: tuple[int, int]) -> bool:
    mh, mw = mask.shape[:2]
    return bool(
        mask[min(mh - 1, max(0, int(y * mh / shape[0]))), min(mw - 1, max(0, int(x * mw / shape[1])))]
    )


def _fit(image: np.ndarray, x: float, y: float, r0: float, recentre: bool = True) -> NumberCircle | None:
    """The circle around candidate (x, y) of expected radius ``r0``, fitted on ``image``, or None. Wide
    digits pull a candidate off the circle's centre; a fit that lands away from it is done once more
    around where it landed (``recentre``), so that the windows below hold the whole circle."""
    h, w = image.shape[:2]
    if not (np.isfinite(x) and np.isfinite(y)):
        return None
    reach = int(2.2 * r0)
    x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
    x1, y1 = min(w, int(x) + reach + 1), min(h, int(y) + reach + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None  # an edge fit that landed off the photo: nothing of a circle there to read
    yellow, luma = yellowness(image[y0:y1, x0:x1])
    size = max(3, int(r0 / 4) | 1)
    yellow = cv2.morphologyEx(
        yellow, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    rho = np.hypot(np.arange(x0, x1)[None, :] - x, np.arange(y0, y1)[:, None] - y)
    outside = rho > 1.35 * r0
    inner, ring = yellow[rho < 0.6 * r0], yellow[outside & (rho < 1.9 * r0)]
    if inner.size == 0 or ring.size == 0:
        return None
    # The fill's level: a high percentile, past the digits; the ring's: high too, so no side is yellow.
    fill, around = _percentile(inner, 90), _percentile(ring, 80)
    if fill - around < MIN_CONTRAST:
        return None
    mask = (yellow > (fill + around) / 2).astype(np.uint8)
    mask[outside] = 0
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    near = np.hypot(centroids[:, 0] + x0 - x, centroids[:, 1] + y0 - y) < r0
    keep = near & (np.arange(n) > 0) & (stats[:, cv2.CC_STAT_AREA] >= 3)
    if not keep.any():
        return None
    piece = keep.astype(np.uint8)[labels]
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(np.concatenate(contours)).reshape(-1, 2).astype(np.float64)
    points = _off_the_edge(_along(hull), (x0, y0), (h, w))
    if points is None or len(points) < 10:
        return None
    ellipse = cv2.fitEllipse(points.astype(np.float32))
    (ex, ey), (ew, eh), angle = ellipse
    if recentre and np.hypot(ex + x0 - x, ey + y0 - y) > RECENTRE * r0:
        return _fit(image, ex + x0, ey + y0, r0, recentre=False)
    a, b = max(ew, eh) / 2, min(ew, eh) / 2
    radius = float(np.sqrt(a * b))
    if not RADIUS_RANGE[0] * r0 <= a <= RADIUS_RANGE[1] * r0 or b < MIN_AXIS_RATIO * a:
        return None
    if piece.sum() < MIN_SOLIDITY * cv2.contourArea(hull.astype(np.float32)):
        return None
    centre, axes = ellipse_axes(ellipse)
    reach_in_radii = np.linalg.norm((points - centre) @ np.linalg.inv(axes).T, axis=1)
    if reach_in_radii.max() > MAX_HULL_REACH or reach_in_radii.std() > MAX_HULL_SPREAD:
        return None
    inside = np.zeros(piece.shape, np.uint8)
    cv2.ellipse(inside, ((ex, ey), (ew * 0.85, eh * 0.85), angle), 1, -1)
    fill_luma = float(np.median(luma[(inside > 0) & (piece > 0)]))
    ink = float(np.mean(luma[inside > 0] < max(0.6 * fill_luma, fill_luma - INK_DEPTH)))
    if not INK_RANGE[0] <= ink <= INK_RANGE[1]:
        return None
    return NumberCircle(centre + (x0, y0), axes, radius, fill - around)


def _off_the_edge(points: np.ndarray, offset: tuple[int, int], shape: tuple[int, int]) -> np.ndarray | None:
    """The outline ``points`` (window px; the window's top left at ``offset`` in a photo of ``shape``)
    that are not on the photo's edge, or None when more than :data:`MAX_CUT_SHARE` are: a circle cut by
    the edge has the edge for outline there, not the circle, and is fitted on the rest."""
    x, y = points[:, 0] + offset[0], points[:, 1] + offset[1]
    cut = (x <= 0.5) | (y <= 0.5) | (x >= shape[1] - 1.5) | (y >= shape[0] - 1.5)
    return None if cut.mean() > MAX_CUT_SHARE else points[~cut]


def _along(polygon: np.ndarray) -> np.ndarray:
    """Points about 1 px apart along a closed polygon (a hull's vertices alone would weigh its corners).

    Examples
    --------
    >>> _along(np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]])).round(2).tolist()  # the last edge: √5 long
    [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.33, 0.67], [0.67, 0.33]]
    """
    if len(polygon) == 0:
        return np.zeros((0, 2))
    edges = np.diff(polygon, axis=0, append=polygon[:1])
    counts = np.maximum(1, np.ceil(np.sqrt((edges * edges).sum(axis=1))).astype(np.intp))
    edge = np.repeat(np.arange(len(polygon)), counts)
    step = np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)
    return polygon[edge] + edges[edge] * step[:, None] / counts[edge][:, None]


def _percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` of a 1-D float array (its default, linear method, to the bit) without
    its overhead: two order statistics and numpy's interpolation between them.

    Examples
    --------
    >>> v = np.float32([3.0, 1.0, 4.0, 1.5, 9.0, 2.5])
    >>> _percentile(v, 80) == float(np.percentile(v, 80)), _percentile(v, 80)
    (True, 4.0)
    """
    index = (values.size - 1) * (q / 100)
    lo = int(np.floor(index))
    hi = min(lo + 1, values.size - 1)
    ordered = np.partition(values, (lo, hi))
    a, b, t = ordered[lo], ordered[hi], index - lo
    diff = b - a
    return float(b - diff * (1 - t) if t >= 0.5 else a + diff * t)


def ellipse_axes(ellipse: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(centre, 2×2 map unit circle → ellipse) from an OpenCV rotated-rect ellipse."""
    (cx, cy), (w, h), angle = ellipse
    t = np.radians(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.array([cx, cy], np.float64), rot @ np.diag([w / 2, h / 2])
