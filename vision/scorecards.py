"""Find the scoring cards lying face up beside the city, and read their numbers.

A scoring card's scoring side is off-white graph paper with a yellow circle holding the card's number (1–18)
near one end, the card's name beside it and rule text below (``shared/reference/real-cards.md``). The
search works on a copy of the photo shrunk by a whole factor to about :data:`DETECT_LONG_SIDE` px:

1. **Yellow circles.** Pixels in a broad yellow hue band with strong saturation; connected pieces (nested
   ones too: a circle on a card on a wooden table) whose outline is a filled ellipse (a circle seen up to
   ~60° from straight above; a digit may notch it), with dark ink inside and pale paper around.
2. **The card around each circle.** The paper colour is sampled just outside the circle; the connected
   piece of that colour around it, holes filled, is the card (tighter colour tolerances are tried when
   it runs into a pale table). It must be card-shaped once the circle's foreshortening is undone; a dark
   band along one long side (the card's road) is added to its corners.
3. **Which way is up.** Print, grid and card edges give the card's two axes around the circle, hence four
   candidate ways up. The digits stand upright when the card lies landscape with the circle at its left
   end, so the outline's long side and the circle's place on it give each candidate a prior; without an
   outline, the name printed to the right of the circle does.
4. **The number.** The circle's inside is sampled from the full-resolution image into an upright patch
   per candidate (:mod:`vision.numbers`) and classified; the classifier's "no upright number" class and
   the prior together weigh the candidates. A 6 turned around is a 9: only the prior tells them apart.

If fewer than three cards turn up, the search runs again with the photo's colour cast taken out (a
strong warm or cold cast tints the paper like the circle). Circles on ``city_mask`` are skipped: the
city's own yellow (cars, signs) is never a scoring card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.numbers import NUMBERS, circle_frame, circle_patch, get_reader

__all__ = ["ScoringCardReading", "find_scoring_cards", "recognised_numbers"]

DETECT_LONG_SIDE = 1000
#: Circle radius limits on the detection copy, px: smaller cannot be read, larger is not a card on a table.
MIN_RADIUS = 3.0
MAX_RADIUS_FRACTION = 0.08  # of the long side
#: Yellow in OpenCV HSV (H in 0..180): a broad hue band, strong saturation, not dark.
HUE_RANGE = (14, 42)
MIN_SATURATION = 100
MIN_VALUE = 80
#: Card proportions in circle radii (88.9 × 63.5 mm card, circle ~14.4 mm across as the renderer draws it;
#: not measured on real cards). Used only as loose bounds on the paper region found around a circle.
CARD_LONG_IN_RADII = 12.3
CARD_SHORT_IN_RADII = 8.8
#: A reading with less confidence than this is reported with ``number=None``.
MIN_CONFIDENCE = 0.6


@dataclass(frozen=True)
class ScoringCardReading:
    """One scoring card found in a photo.

    ``number`` is the card's number (1–18), or ``None`` when the circle was found but the number could not
    be read confidently; ``confidence`` (0–1) is the probability that the chosen way up is right (card
    outline and classifier together) times the classifier's probability of the number read that way up.
    ``corners`` (4 × 2 float, image pixels of the image passed in) run TL, TR, BR, BL as the card reads
    upright (circle at the top left); when the card's outline could not be traced they are an estimate
    from the circle alone (``outline_found`` false). ``circle`` is the yellow circle's centre and mean
    radius in image pixels; ``alternatives`` the three most likely numbers with their confidences.
    """

    number: int | None
    confidence: float
    corners: np.ndarray
    circle: tuple[float, float, float]
    outline_found: bool = True
    alternatives: tuple[tuple[int, float], ...] = field(default=(), compare=False)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "confidence": round(self.confidence, 4),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "circle": [round(v, 1) for v in self.circle],
        }


@dataclass(frozen=True)
class _Circle:
    """A yellow-circle candidate on the detection copy: centre, 2×2 map unit circle → ellipse, radius."""

    centre: np.ndarray
    axes: np.ndarray
    radius: float
    score: float


def _check_image(image: object) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be an RGB uint8 array (H, W, 3), got {image.dtype} {image.shape}")
    if min(image.shape[:2]) < 16:
        raise ValueError(f"image is too small to hold scoring cards: {image.shape[1]}×{image.shape[0]} px")
    return image


def _yellow_mask(hsv: np.ndarray) -> np.ndarray:
    h, s, v = cv2.split(hsv)
    mask = (h >= HUE_RANGE[0]) & (h <= HUE_RANGE[1]) & (s >= MIN_SATURATION) & (v >= MIN_VALUE)
    return mask.astype(np.uint8) * 255


def _ellipse_axes(ellipse: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(centre, 2×2 map unit circle → ellipse) from an OpenCV rotated-rect ellipse."""
    (cx, cy), (w, h), angle = ellipse
    t = np.radians(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.array([cx, cy], np.float64), rot @ np.diag([w / 2, h / 2])


def _find_circles(small: np.ndarray, hsv: np.ndarray, ycc: np.ndarray) -> list[_Circle]:
    """Filled yellow ellipses with dark ink inside and paper around them, on the detection copy."""
    mask = _yellow_mask(hsv)
    long_side = max(small.shape[:2])
    # Connected yellow pieces, nested ones included (a circle on a card on a yellowish wooden table lies in
    # a hole of the table's piece). Box size and pixel count rule out most pieces before any contour work:
    # tracing every hole of a speckled table would cost far more than the rest of the search.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    bw, bh, count = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    plausible = (
        (np.minimum(bw, bh) >= 1.4 * MIN_RADIUS * 0.7)
        & (np.maximum(bw, bh) <= 2 * MAX_RADIUS_FRACTION * long_side)
        & (np.minimum(bw, bh) >= 0.4 * np.maximum(bw, bh))
        & (count >= 0.3 * np.pi / 4 * bw * bh)
    )
    plausible[0] = False
    out = []
    for i in np.flatnonzero(plausible):
        x, y, w, h = (int(v) for v in stats[i, :4])
        piece = np.zeros((h + 2, w + 2), np.uint8)
        piece[1:-1, 1:-1] = labels[y : y + h, x : x + w] == i
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contour = max(contours, key=len)
        if len(contour) < 8:
            continue
        contour = contour.reshape(-1, 2) + np.array([x - 1, y - 1])
        area = cv2.contourArea(contour)
        ellipse = cv2.fitEllipse(contour)
        (_, _), (ew, eh), _ = ellipse
        a, b = max(ew, eh) / 2, min(ew, eh) / 2
        if b < MIN_RADIUS * 0.7 or a > MAX_RADIUS_FRACTION * long_side or b / a < 0.45:
            continue
        fill = area / (np.pi * a * b)  # the outline must be the ellipse, not a blob of another shape
        if not 0.8 <= fill <= 1.2:
            continue
        centre, axes = _ellipse_axes(ellipse)
        # Every outline point on the ellipse: a rectangle (a yellow roof) has corners well outside it. A
        # digit stroke touching the rim may notch it inward, so a few points may lie inside.
        rho = np.linalg.norm((contour - centre) @ np.linalg.inv(axes).T, axis=1)
        tolerance = 0.12 + 1.0 / b
        if rho.max() > 1 + tolerance or np.percentile(rho, 10) < 1 - tolerance or rho.std() > 0.04 + 0.3 / b:
            continue
        score = _circle_evidence(mask, ycc, centre, axes)
        if score > 0:
            out.append(_Circle(centre, axes, float(np.sqrt(a * b)), score))
    return out


def _circle_evidence(mask: np.ndarray, ycc: np.ndarray, centre: np.ndarray, axes: np.ndarray) -> float:
    """How much the ellipse looks like a card's number circle (0 = not at all): mostly yellow inside with
    some dark ink (the number), and mostly light, colourless paper in a ring around it."""
    reach = float(np.abs(axes).sum(axis=1).max()) * 2.2 + 2
    h, w = mask.shape
    x0, y0 = max(0, int(centre[0] - reach)), max(0, int(centre[1] - reach))
    x1, y1 = min(w, int(centre[0] + reach) + 1), min(h, int(centre[1] + reach) + 1)
    local = centre - np.array([x0, y0])
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.ellipse(inside, _cv_ellipse(local, axes * 0.85), 255, -1)
    ring = np.zeros_like(inside)
    cv2.ellipse(ring, _cv_ellipse(local, axes * 2.1), 255, -1)
    cv2.ellipse(ring, _cv_ellipse(local, axes * 1.3), 0, -1)
    yellow = mask[y0:y1, x0:x1] > 0
    light = ycc[y0:y1, x0:x1, 0].astype(np.float32)
    n_inside, n_ring = int(np.count_nonzero(inside)), int(np.count_nonzero(ring))
    if n_inside == 0 or n_ring == 0:
        return 0.0
    yellow_in = yellow & (inside > 0)
    yellow_share = np.count_nonzero(yellow_in) / n_inside
    if yellow_share < 0.35:  # (a blurred thin digit may leave the yellow mask almost whole: no upper bound)
        return 0.0
    yellow_l = float(np.median(light[yellow_in]))
    dark_share = np.count_nonzero((light < 0.6 * yellow_l) & (inside > 0)) / n_inside
    if dark_share < 0.03:
        return 0.0
    # Paper: far less colourful than the yellow (a colour cast tints both), and not much darker than it
    # (both lie in the same light).
    crcb = ycc[y0:y1, x0:x1, 1:].astype(np.float32) - 128
    chroma = np.hypot(crcb[..., 0], crcb[..., 1])
    yellow_chroma = float(np.median(chroma[yellow_in]))
    paper = (chroma < max(22.0, 0.45 * yellow_chroma)) & (light > 0.8 * yellow_l) & (ring > 0)
    paper_share = np.count_nonzero(paper) / n_ring
    if paper_share < 0.35:
        return 0.0
    return float(yellow_share + paper_share)


def _refine_circle(
    image: np.ndarray, circle: _Circle, scale: float, gains: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The circle re-fitted on the full-resolution image (centre, axes in its pixels); falls back to the
    detection-copy fit scaled up when the re-fit is not clean."""
    centre, axes = circle.centre / scale, circle.axes / scale
    if scale >= 1.0:
        return centre, axes
    r = circle.radius / scale
    h, w = image.shape[:2]
    x0, y0 = max(0, int(centre[0] - 1.6 * r)), max(0, int(centre[1] - 1.6 * r))
    x1, y1 = min(w, int(centre[0] + 1.6 * r) + 1), min(h, int(centre[1] + 1.6 * r) + 1)
    crop = _apply_gains(image[y0:y1, x0:x1], gains)
    mask = _yellow_mask(cv2.cvtColor(crop, cv2.COLOR_RGB2HSV))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return centre, axes
    contour = max(contours, key=cv2.contourArea)
    if len(contour) < 8:
        return centre, axes
    c2, a2 = _ellipse_axes(cv2.fitEllipse(contour))
    c2 = c2 + np.array([x0, y0])
    r2 = float(np.sqrt(abs(np.linalg.det(a2))))
    if np.linalg.norm(c2 - centre) > 0.3 * r or not 0.75 < r2 / r < 1.33:
        return centre, axes
    return c2, a2


def _card_outline(ycc: np.ndarray, circle: _Circle) -> tuple[np.ndarray, float] | None:
    """The card around ``circle`` on the detection copy: its four corners (in order round the outline, not
    yet upright) and the paper's luma (Y, 0–255), or None when no clean outline is found."""
    r = circle.radius
    h, w = ycc.shape[:2]
    reach = int(np.ceil(CARD_LONG_IN_RADII * 1.15 * r))
    cx, cy = circle.centre
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(w, int(cx) + reach + 1), min(h, int(cy) + reach + 1)
    win = ycc[y0:y1, x0:x1].astype(np.float32)
    local = circle.centre - np.array([x0, y0])

    # Paper colour: the brighter half of a ring just outside the circle (text and rim are darker).
    ring = np.zeros(win.shape[:2], np.uint8)
    cv2.ellipse(ring, _cv_ellipse(local, circle.axes * 2.1), 255, -1)
    cv2.ellipse(ring, _cv_ellipse(local, circle.axes * 1.3), 0, -1)
    samples = win[ring > 0]
    if len(samples) < 8:
        return None
    paper = np.median(samples[samples[:, 0] >= np.median(samples[:, 0])], axis=0)
    chroma = np.hypot(win[..., 1] - paper[1], win[..., 2] - paper[2])
    light = win[..., 0] - paper[0]
    # Loose tolerances first (light falls unevenly across a card); tighter ones when the paper runs on
    # into a pale table or a touching card.
    for tol_chroma, tol_light in ((14, 30), (8, 16), (5, 10)):
        is_paper = ((chroma < tol_chroma) & (np.abs(light) < tol_light)).astype(np.uint8)
        quad = _paper_piece_outline(is_paper, ring, local, circle)
        if quad is not None:
            return quad + np.array([x0, y0], np.float64), float(paper[0])
    return None


def _paper_piece_outline(
    is_paper: np.ndarray, ring: np.ndarray, local: np.ndarray, circle: _Circle
) -> np.ndarray | None:
    """Corners of the card-sized paper piece around the circle (window px), or None when there is none."""
    r = circle.radius
    # The card's paper is one connected piece (its text lies in holes of it); a thin shadow line parts it
    # from a card it touches. Take the piece that fills most of the ring, with its holes filled.
    n, labels = cv2.connectedComponents(is_paper, connectivity=4)
    counts = np.bincount(labels[ring > 0], minlength=n)
    counts[0] = 0
    if n < 2 or counts.max() < 0.2 * np.count_nonzero(ring):
        return None
    piece = (labels == int(np.argmax(counts))).astype(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    region = np.zeros_like(piece)
    cv2.drawContours(region, contours, -1, 1, -1)
    cv2.ellipse(region, _cv_ellipse(local, circle.axes * 1.3), 1, -1)  # the circle belongs to its card
    k = max(3, int(round(0.6 * r)) | 1)
    region = cv2.morphologyEx(region, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # Touching the window's edge means the paper ran on (a white table) or the card is cut off.
    if region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any():
        return None
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    expected = CARD_LONG_IN_RADII * CARD_SHORT_IN_RADII * r * r
    if not 0.35 * expected <= cv2.contourArea(hull) <= 1.6 * expected:
        return None
    quad = _quadrilateral(hull)
    return quad if _card_shaped(quad, circle.axes) else None


def _card_shaped(quad: np.ndarray, axes: np.ndarray) -> bool:
    """Whether ``quad`` (corners in order round it) is card-shaped once the circle's foreshortening is undone
    (``axes``: unit circle → ellipse): corners near right angles, and clearly longer than wide (1.4 : 1
    with the road band, 1.63 : 1 without). Two overlapping cards traced as one piece fail this."""
    flat = quad @ np.linalg.inv(axes).T
    edges = np.roll(flat, -1, axis=0) - flat
    lengths = np.linalg.norm(edges, axis=1)
    if lengths.min() <= 0:
        return False
    cosines = [
        abs(float(edges[i] @ edges[(i + 1) % 4])) / (lengths[i] * lengths[(i + 1) % 4]) for i in range(4)
    ]
    aspect = (lengths[0] + lengths[2]) / (lengths[1] + lengths[3])
    aspect = max(aspect, 1 / aspect)
    return max(cosines) < np.sin(np.radians(20)) and 1.2 <= aspect <= 1.95


def _cv_ellipse(centre: np.ndarray, axes: np.ndarray) -> tuple:
    """OpenCV's ((cx, cy), (w, h), angle) for the ellipse ``centre + axes @ unit circle``."""
    u, s, _ = np.linalg.svd(axes)
    angle = float(np.degrees(np.arctan2(u[1, 0], u[0, 0])))
    return (float(centre[0]), float(centre[1])), (float(2 * s[0]), float(2 * s[1])), angle


def _quadrilateral(hull: np.ndarray) -> np.ndarray:
    """Four corners of a convex outline: a polygon approximation when it has four vertices, else the
    minimum-area rectangle."""
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05, 0.07):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            break
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)


def _with_road_band(ycc: np.ndarray, quad: np.ndarray, paper_l: float) -> np.ndarray:
    """``quad`` (paper region, corners in order around it) grown over a dark band along one long side."""
    # Long sides: the pair of opposite edges with the larger summed length.
    edges = [np.linalg.norm(quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    first = 0 if edges[0] + edges[2] >= edges[1] + edges[3] else 1
    best, grown = 0.0, quad
    for side in (first, first + 2):
        a, b = quad[side % 4], quad[(side + 1) % 4]
        # The opposite side's corners, to step outward and away from the paper.
        c, d = quad[(side + 2) % 4], quad[(side + 3) % 4]
        width = 0.5 * (np.linalg.norm(d - a) + np.linalg.norm(c - b))
        out_a = (a - d) / max(np.linalg.norm(a - d), 1e-6)
        out_b = (b - c) / max(np.linalg.norm(b - c), 1e-6)
        band = 9.0 / 54.5 * width  # the road band is 9 mm of the card's 63.5 mm
        strip = np.array([a, b, b + out_b * band, a + out_a * band])
        pix = _pixels_in(ycc, strip)
        if len(pix) < 10:
            continue
        darker = (pix[:, 0] < paper_l - 25) & (np.hypot(pix[:, 1] - 128, pix[:, 2] - 128) < 25)
        share = float(darker.mean())
        if share > 0.6 and share > best:
            best = share
            grown = quad.copy()
            grown[side % 4], grown[(side + 1) % 4] = a + out_a * band, b + out_b * band
    return grown


def _pixels_in(img: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """The pixels of ``img`` inside a convex ``polygon`` (N × 2 px), as a (count, channels) float32 array."""
    h, w = img.shape[:2]
    x0, y0 = np.clip(np.floor(polygon.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(polygon.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, img.shape[2]), np.float32)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(polygon - [x0, y0]).astype(np.int32), 255)
    return img[y0:y1, x0:x1][mask > 0].astype(np.float32)


def _order_upright(quad: np.ndarray, circle_centre: np.ndarray, axes: np.ndarray) -> tuple[np.ndarray, float]:
    """Corners TL, TR, BR, BL of the card read upright (landscape, circle at the left end), and how sure
    the left/right choice is (0 = the circle is mid-card, 1 = clearly at one end).

    Side lengths are compared with the foreshortening undone by the circle's ``axes`` (unit circle →
    ellipse): a card seen at a slant can look squarer than it is, never the other way round here."""
    unwarp = np.linalg.inv(axes)
    centre = quad.mean(axis=0)
    edges = [unwarp @ (quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    first = (
        0
        if np.linalg.norm(edges[0]) + np.linalg.norm(edges[2])
        >= np.linalg.norm(edges[1]) + np.linalg.norm(edges[3])
        else 1
    )
    # Back in the image: the two long edges run opposite ways round the quad.
    long_dir = axes @ (edges[first] - edges[first + 2])
    half_long = 0.25 * np.linalg.norm(long_dir)
    long_dir /= max(np.linalg.norm(long_dir), 1e-9)
    along = float((circle_centre - centre) @ long_dir)
    right = -long_dir if along > 0 else long_dir
    sureness = float(np.clip(abs(along) / max(half_long, 1e-9) / 0.5, 0, 1))
    # Image y runs down, so "up" is "right" turned a quarter counter-clockwise on screen.
    up = np.array([right[1], -right[0]])
    # In (right, up) coordinates TL, TR, BR, BL lie near 135°, 45°, −45°, −135°: clockwise from TL, each
    # sorted within its own quarter (the cut at 180° lies between BL and TL).
    rel = quad - centre
    angles = np.degrees(np.arctan2(rel @ up, rel @ right))
    return quad[np.argsort((180.0 - angles) % 360.0)], sureness


def _corners_from_circle(centre: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Card corners guessed from the circle alone (a rough estimate, flagged by ``outline_found``): the
    circle near the top-left corner of a landscape card, placed as the renderer places it (positions in
    circle radii from its centre). ``frame`` is the upright circle frame."""
    local = np.array([[-1.45, -1.45], [10.9, -1.45], [10.9, 7.35], [-1.45, 7.35]])
    return centre + local @ frame.T


def _rotation(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def _lettering_angle(image: np.ndarray, centre: np.ndarray, frame: np.ndarray) -> float:
    """The card's axis directions around the circle, as an angle (radians, modulo a quarter turn) in the
    circle's own frame ``frame`` (the foreshortening undone).

    Text lines, graph-paper lines and card edges all run along the card's two axes: the magnitude-weighted
    mean of 4 × the gradient angle (a quarter turn apart counts as the same) points along them.
    """
    size, reach = 64, 5.0
    step = 2 * reach / size
    m = np.empty((2, 3))
    m[:, :2] = frame * step
    m[:, 2] = centre + frame @ np.array([step / 2 - reach, step / 2 - reach])
    h, w = image.shape[:2]
    view = cv2.warpAffine(
        image, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )
    grey = cv2.cvtColor(view, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    # Leave out the circle itself: its rim has every direction and would only add noise.
    yy, xx = np.mgrid[0:size, 0:size]
    mag[np.hypot(xx - size / 2 + 0.5, yy - size / 2 + 0.5) < 1.3 / step] = 0
    theta = np.arctan2(gy, gx)
    z = np.sum(mag * np.exp(4j * theta))
    return float(np.angle(z) / 4)


def _text_beside(image: np.ndarray, centre: np.ndarray, frame: np.ndarray) -> float:
    """1.0 when the strip to the right of the circle (1.4–5 radii out, ±0.8 radii across, in the upright
    ``frame``) looks like a line of print on paper: some dark ink, but not mostly dark (a dark table, the
    city) and not none (a bare table); else 0.0."""
    step = 0.1
    size = (36, 16)  # strip samples along and across
    m = np.empty((2, 3))
    m[:, :2] = frame * step
    m[:, 2] = centre + frame @ np.array([1.4, -0.8])
    strip = cv2.warpAffine(
        image, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )
    luma = cv2.cvtColor(strip, cv2.COLOR_RGB2GRAY).astype(np.float32)
    paper = float(np.percentile(luma, 90))
    ink = float(np.mean(luma < 0.6 * paper))
    return 1.0 if 0.08 <= ink <= 0.7 else 0.0


def _read(
    image: np.ndarray, centre: np.ndarray, frames: Sequence[np.ndarray], prior: Sequence[float]
) -> tuple[int, int, float, tuple[tuple[int, float], ...]]:
    """Read the circle through each of ``frames`` (the ways up the card may lie) and decide.

    ``prior`` is how likely each frame is upright from the card outline alone. The classifier's "no
    upright number" class says how unlikely each frame is from the picture; together:
    P(frame k) ∝ prior_k · (1 − p_k(none)), and P(n) = Σ_k P(frame k) · p_k(n | upright). Numbers that
    read the same half turned (1, 8, 11) collect both halves; a 6 and a 9 are one picture half turned, so
    only the prior separates them, and without an outline each stays near one half.

    Returns (the frame the number is read in, number, confidence P(n), the three most likely numbers
    with their P)."""
    patches = np.stack([circle_patch(image, (float(centre[0]), float(centre[1])), f) for f in frames])
    probs = get_reader().probabilities(patches).astype(np.float64)
    upright = np.asarray(prior, np.float64) * (1.0 - probs[:, 0])
    posterior = upright / max(float(upright.sum()), 1e-12)
    given_upright = probs[:, 1:] / np.maximum(1.0 - probs[:, :1], 1e-12)
    joint = posterior[:, None] * given_upright  # frames × numbers
    p_number = joint.sum(axis=0)
    order = np.argsort(-p_number)[:3]
    best = int(order[0])
    alts = tuple((int(NUMBERS[j]), float(p_number[j])) for j in order)
    return int(np.argmax(joint[:, best])), alts[0][0], alts[0][1], alts


def _read_card(
    image: np.ndarray, ycc: np.ndarray, circle: _Circle, scale: float, gains: np.ndarray | None
) -> ScoringCardReading:
    """Outline, orientation and number of the card around one circle candidate (``gains``: the colour
    cast correction found on the detection copy)."""
    centre, axes = _refine_circle(image, circle, scale, gains)
    base = circle_frame(axes, np.array([0.0, -1.0]))
    angle = _lettering_angle(image, centre, base)
    # The four ways the card can lie, each an upright circle frame (a quarter turn apart).
    frames = [base @ _rotation(angle + k * np.pi / 2) for k in range(4)]
    ups = [f @ np.array([0.0, -1.0]) for f in frames]

    outline = _card_outline(ycc, circle)
    ordered = None
    # Without an outline: the card's name is printed beside the circle, to its right as the card reads.
    prior = [1.0 + 3.0 * _text_beside(image, centre, f) for f in frames]
    if outline is not None:
        quad, paper_l = outline
        quad = _with_road_band(ycc, quad, paper_l) / scale
        ordered, sure = _order_upright(quad, centre, axes)
        outline_up = (ordered[0] - ordered[3]) + (ordered[1] - ordered[2])
        # The outline fixes the card's up to a half turn (its long side), and the circle's place on it
        # says which half; a quarter turn off stays possible (an outline can be wrong).
        cos = [float(u @ outline_up) / (np.linalg.norm(u) * np.linalg.norm(outline_up) + 1e-9) for u in ups]
        outline_k = int(np.argmax(cos))
        half = 0.84 * (0.5 + 0.45 * sure)
        prior = [0.08] * 4
        prior[outline_k], prior[(outline_k + 2) % 4] = half, 0.84 - half
    k, number, conf, alts = _read(image, centre, frames, prior)
    if ordered is not None:
        # Turn the corner order by the quarter turns between the outline's upright and the one read.
        corners = np.roll(ordered, -((k - outline_k) % 4), axis=0)
    else:
        corners = _corners_from_circle(centre, frames[k])
    return ScoringCardReading(
        number if conf >= MIN_CONFIDENCE else None,
        conf,
        corners,
        (float(centre[0]), float(centre[1]), float(np.sqrt(abs(np.linalg.det(axes))))),
        ordered is not None,
        alts,
    )


def find_scoring_cards(image: np.ndarray, city_mask: np.ndarray | None = None) -> list[ScoringCardReading]:
    """Find the scoring cards (scoring side up) in an upright RGB ``uint8`` photo and read their numbers.

    ``image`` may be any size; detection runs on a copy about :data:`DETECT_LONG_SIDE` px long and the
    numbers are read from ``image`` itself (so a larger image reads small cards better). ``city_mask`` (any
    size, non-zero on the city) excludes circles lying on the city. Returns every card found, best first
    (confident numbers before unread ones), at most one reading per number. Raises ``TypeError`` /
    ``ValueError`` for an image that is not RGB ``uint8`` or a mask that is not 2-D.
    """
    image = _check_image(image)
    if city_mask is not None and np.ndim(city_mask) != 2:
        raise ValueError(f"city_mask must be a 2-D array, got shape {np.shape(city_mask)}")
    small, scale = _detection_copy(image)
    readings: list[ScoringCardReading] = []
    _search(image, small, scale, None, city_mask, readings)
    if len(readings) < 3:
        # A strong colour cast tints the paper like the circle: look again with the cast taken out,
        # keeping the circles found already.
        gains = _cast_gains(small)
        if gains is not None:
            _search(image, small, scale, gains, city_mask, readings)
    return _best_per_number(readings)


def _search(
    image: np.ndarray,
    small: np.ndarray,
    scale: float,
    gains: np.ndarray | None,
    city_mask: np.ndarray | None,
    readings: list[ScoringCardReading],
) -> None:
    """Find and read the circles of ``small`` (corrected by ``gains``) not in ``readings`` yet, appending."""
    view = _apply_gains(small, gains)
    hsv = cv2.cvtColor(view, cv2.COLOR_RGB2HSV)
    # Luma and chroma: a linear (cheap) colour space is enough to tell paper from yellow and table.
    ycc = cv2.cvtColor(view, cv2.COLOR_RGB2YCrCb)
    for c in _find_circles(view, hsv, ycc):
        if city_mask is not None and _on_mask(city_mask, c.centre, small.shape[:2]):
            continue
        if any(np.hypot(*(c.centre / scale - r.circle[:2])) < r.circle[2] for r in readings):
            continue
        readings.append(_read_card(image, ycc, c, scale, gains))


def _detection_copy(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image shrunk by a whole factor to at most ~:data:`DETECT_LONG_SIDE` px, and the scale factor.

    A whole factor on a size divisible by it takes OpenCV's fast block-averaging path (several times
    faster than an arbitrary ratio on a 2016 px photo); the few rows and columns cut off do not matter.
    """
    h, w = image.shape[:2]
    k = max(1, int(np.ceil(max(h, w) / (1.1 * DETECT_LONG_SIDE))))
    if k == 1:
        return image, 1.0
    small = cv2.resize(image[: h - h % k, : w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
    return small, 1.0 / k


def _cast_gains(rgb: np.ndarray) -> np.ndarray | None:
    """Per-channel gains that take the colour cast out of ``rgb``, or None when there is none to speak of.

    The brightest pixels (card paper, a pale table, glare) are near white in the world, so the gains make
    their mean grey. A warm lamp otherwise tints the paper yellow enough to join the circle, and a cold
    light turns the yellow green."""
    luma = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    # The brightest 3%, leaving out clipped pixels, whose colour is lost. (Not reliable in every photo:
    # this only ever adds a second look, see find_scoring_cards.)
    bright = rgb[(luma >= np.percentile(luma, 97)) & (luma < 250)]
    if len(bright) < 50:
        return None
    mean = bright.reshape(-1, 3).astype(np.float64).mean(axis=0)
    gains = np.clip(mean.mean() / np.maximum(mean, 1.0), 0.6, 1.6)
    return None if np.abs(gains - 1).max() < 0.03 else gains


def _apply_gains(rgb: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    if gains is None:
        return rgb
    lut = np.clip(np.arange(256)[:, None] * gains[None, :], 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(np.ascontiguousarray(rgb), lut)


def _on_mask(mask: np.ndarray, point: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether ``point`` (px of an image of ``shape``) falls on the non-zero part of ``mask`` (any size)."""
    mask = np.asarray(mask)
    mh, mw = mask.shape
    y = min(mh - 1, max(0, int(point[1] * mh / shape[0])))
    x = min(mw - 1, max(0, int(point[0] * mw / shape[1])))
    return bool(mask[y, x])


def _best_per_number(readings: list[ScoringCardReading]) -> list[ScoringCardReading]:
    """Readings best first, keeping only the most confident one of each number."""
    readings = sorted(readings, key=lambda r: (r.number is None, -r.confidence))
    seen: set[int] = set()
    out = []
    for r in readings:
        if r.number is not None:
            if r.number in seen:
                continue
            seen.add(r.number)
        out.append(r)
    return out


_GIVE = "give their numbers (--cards) to score them"


def recognised_numbers(readings: Sequence[ScoringCardReading]) -> tuple[list[int] | None, list[str]]:
    """The three scoring cards' numbers from :func:`find_scoring_cards`, and warnings for a person.

    Returns (the three most confident numbers in ascending order, []) when three cards were read (with a
    warning naming the rest when more were); otherwise (None, [a warning saying what was found]).
    """
    read = sorted((r for r in readings if r.number is not None), key=lambda r: -r.confidence)
    unread = [r for r in readings if r.number is None]
    if len(read) >= 3:
        numbers = sorted(r.number for r in read[:3] if r.number is not None)
        warnings = []
        if len(read) > 3:
            extra = ", ".join(str(r.number) for r in read[3:])
            warnings.append(f"more than three scoring cards seen; used {numbers}, ignored {extra}")
        return numbers, warnings
    if not readings:
        return None, [f"scoring cards not recognised: none seen in the photo; {_GIVE}"]
    what = f"read {len(read)} of 3 ({', '.join(str(r.number) for r in read) or 'none'})"
    if unread:
        what += f"; {len(unread)} more card{'s' * (len(unread) != 1)} seen but not read"
    return None, [f"scoring cards not recognised: {what}; {_GIVE}"]
