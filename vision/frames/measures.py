"""What a preview frame shows of the light, the sharpness and the angle on the cards it found.

The scan's own measures (:mod:`vision.city.light`) read them per cell in the top-down view, after the cells
are classified; a preview frame has no time for that (the check answers in tens of milliseconds), so each
is taken here on the small frame itself, over the card region :func:`vision.lattice.locate_city` found,
with the scan's pixel tests and light model:

* glare: the pixels a lamp's reflection saturates (every channel at :data:`GLARE_SATURATED` or more; the
  scan's :func:`vision.city.light.washed_out`, from 215, also takes in the white face of a scoring card that
  the card region may join to the city), kept only in spots at least :data:`GLARE_SPOT_CELLS` of a cell
  across (a reflection, not the art's white details nor a scoring card's text-free patches);
* shadow: the cards' brightness (each pixel's brightest channel, which the art's colours vary least)
  smoothed over one and a half cells, its darkest against its brightest (as
  :func:`vision.city.light.shadow_depth` does per block), and the light field of :mod:`vision.photo.light`
  measured on the table around the cards, where a shadow's darkening is not the art's;
* blur: how much of the cards' fine detail a slight blur leaves, in the direction the frame is most
  blurred (a sharp frame loses most of it, a blurred one has little left to lose; a shake blurs one
  direction only);
* exposure: the share of the frame clipped to white (:func:`vision.photo.clipped_share`), as the scan's;
* tilt: the angle between the camera's axis and the table, from the two vanishing points of the card
  edges and a phone's usual focal length.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.lattice import Located
from vision.photo import channel_max, channel_min, clipped_share, light_field

__all__ = [
    "FrameMeasures",
    "blur_ratio",
    "card_shadow",
    "glare_share",
    "measure_frame",
    "table_shadow",
    "tilt_degrees",
]

# A phone's main camera: focal length about 0.8 of the image's long side (a 26 mm equivalent lens).
FOCAL_OF_LONG_SIDE = 0.8
# A pixel a lamp's reflection saturates: a glare spot's core is 255 (250 and more once JPEG-compressed);
# most rendered scoring cards' white stays below, some reach it between their text lines.
GLARE_SATURATED = 250
# A glare spot is at least this share of a cell across: smaller saturated patches are the art's whites or
# a scoring card's (on 15 rendered cities, 0.34 % of a card region at most, against 0.67 % and more for a
# lamp's spot 5 % of the frame's long side across).
GLARE_SPOT_CELLS = 0.6
# The cards' brightness is smoothed over this many cells (sigma) before its depth is taken: the art's own
# light and dark blocks average out, a shadow remains.
SHADOW_SMOOTH_CELLS = 1.5
SHADOW_CELL_PX = 8.0
# The second difference along each of four directions: a shake blurs one direction and leaves the others.
_SECOND_DIFFERENCES = (
    np.array([[1, -2, 1]], np.float32),
    np.array([[1], [-2], [1]], np.float32),
    np.array([[1, 0, 0], [0, -2, 0], [0, 0, 1]], np.float32),
    np.array([[0, 0, 1], [0, -2, 0], [1, 0, 0]], np.float32),
)
# The slight blur whose effect on the detail tells sharp from blurred (sigma, px of the small frame).
BLUR_PROBE_SIGMA = 1.0


@dataclass(frozen=True)
class FrameMeasures:
    """One frame's measures: ``span`` the larger share of the frame's width or height the cards cover,
    ``glare`` the share of the card region under glare spots, ``shadow`` the depth of the darkest part of
    the cards (0 even, 1 black; :func:`card_shadow`) and ``table_shadow`` that of the light on the table
    beside them (:func:`table_shadow`), ``blur`` the detail kept after a slight blur (low: sharp;
    :func:`blur_ratio`),
    ``tilt`` degrees from straight above, ``aspect`` the measured cell ratio (1.4 when right), ``cut``
    the sides of the frame the cards run into, ``clipped`` the share of the frame clipped to white."""

    span: float
    glare: float
    shadow: float
    table_shadow: float
    blur: float
    tilt: float
    aspect: float
    cut: tuple[str, ...]
    clipped: float = 0.0

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            k: round(float(v), 3) for k, v in self.__dict__.items() if isinstance(v, float)
        }
        out["cut"] = list(self.cut)
        return out


def glare_share(rgb: np.ndarray, region: np.ndarray, cell_px: float) -> float:
    """The share of ``region`` (uint8 mask) lying in saturated spots at least
    :data:`GLARE_SPOT_CELLS` of a cell (``cell_px`` across) wide."""
    inside = region > 0
    area = int(inside.sum())
    if area == 0:
        return 0.0
    washed = ((channel_min(rgb) >= GLARE_SATURATED) & inside).astype(np.uint8)
    k = max(3, int(GLARE_SPOT_CELLS * cell_px) | 1)
    spots = cv2.morphologyEx(washed, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return float(spots.sum()) / area


def table_shadow(rgb: np.ndarray, region: np.ndarray, table_lab: np.ndarray, cell_px: float) -> float:
    """How much darker the darkest light within a cell of the cards is than the brightest there, 0..1,
    from :func:`vision.photo.light.light_field` measured on the table (the pixels a cell or more away from
    the card region)."""
    if len(table_lab) == 0:
        return 0.0
    k = max(3, int(cell_px) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    near = cv2.dilate(region, kernel) > 0
    calm = ~cv2.dilate(near.astype(np.uint8), kernel).astype(bool)
    table_rgb = cv2.cvtColor(np.clip(table_lab + 0.5, 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2RGB)[0]
    field = light_field(rgb, table_rgb, calm)[near]
    if field.size == 0:
        return 0.0
    return float(1.0 - field.min() / max(float(field.max()), 1e-6))


def card_shadow(rgb: np.ndarray, region: np.ndarray, cell_px: float) -> float:
    """How much darker the darkest part of the cards is than their brightest, 0..1: each pixel's
    brightest channel, averaged over the card region with a Gaussian of :data:`SHADOW_SMOOTH_CELLS`
    cells, compared over the region less its rim (where the average sees little card). Measured on a
    copy with cells :data:`SHADOW_CELL_PX` across (the light is smooth; a wide blur is costly)."""
    f = min(1.0, SHADOW_CELL_PX / max(cell_px, 1.0))
    size = (max(1, round(rgb.shape[1] * f)), max(1, round(rgb.shape[0] * f)))
    bright = cv2.resize(channel_max(rgb), size, interpolation=cv2.INTER_AREA).astype(np.float32)
    weight = (cv2.resize(region, size, interpolation=cv2.INTER_AREA) > 127).astype(np.float32)
    cell = cell_px * f
    k = max(3, int(cell) | 1)
    core = cv2.erode(weight, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    if not core.any():
        return 0.0
    sigma = SHADOW_SMOOTH_CELLS * cell
    num = cv2.GaussianBlur(bright * weight, (0, 0), sigma)
    den = cv2.GaussianBlur(weight, (0, 0), sigma)
    smooth = (num / np.maximum(den, 1e-6))[core]
    return float(1.0 - smooth.min() / max(float(smooth.max()), 1.0))


def blur_ratio(rgb: np.ndarray, region: np.ndarray) -> float:
    """How much of the cards' fine detail a slight blur leaves, in the direction the frame is most
    blurred: for each of four directions (across, down and both diagonals), the mean second difference
    on the card region after the probe's blur over before it, the largest of the four. A sharp frame
    loses most of its detail to the probe, a blurred one has little left to lose (figures:
    :data:`vision.frames.check.BLUR_HINT`)."""
    inside = region > 0
    if not inside.any():
        return 0.0
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    soft = cv2.GaussianBlur(grey, (0, 0), BLUR_PROBE_SIGMA)
    worst = 0.0
    for kernel in _SECOND_DIFFERENCES:
        before = float(np.abs(cv2.filter2D(grey, -1, kernel))[inside].mean())
        after = float(np.abs(cv2.filter2D(soft, -1, kernel))[inside].mean())
        worst = max(worst, after / max(before, 1e-6))
    return worst


def tilt_degrees(located: Located, shape: tuple[int, ...]) -> float:
    """The angle between the camera's axis and the table's normal, from the card edges' two vanishing
    points (a pinhole camera centred on the frame, focal length :data:`FOCAL_OF_LONG_SIDE`)."""
    h, w = shape[:2]
    f = FOCAL_OF_LONG_SIDE * max(h, w)
    rays = []
    for family in located.families:
        vx, vy, vw = family.vanishing
        rays.append(np.array([vx - w / 2 * vw, vy - h / 2 * vw, f * vw]))
    normal = np.cross(rays[0], rays[1])
    size = float(np.linalg.norm(normal))
    if size == 0.0:
        return 90.0
    return float(np.degrees(np.arccos(min(1.0, abs(normal[2]) / size))))


def measure_frame(rgb: np.ndarray, located: Located, cell_px: float, aspect: float) -> FrameMeasures:
    """The :class:`FrameMeasures` of the small RGB frame ``rgb`` whose cards are ``located``, with cells
    about ``cell_px`` across there and measured at ``aspect``."""
    h, w = rgb.shape[:2]
    _, _, bw, bh = located.bbox
    region = located.mask
    return FrameMeasures(
        span=max(bw / w, bh / h),
        glare=glare_share(rgb, region, cell_px),
        shadow=card_shadow(rgb, region, cell_px),
        table_shadow=table_shadow(rgb, region, located.table_lab, cell_px),
        blur=blur_ratio(rgb, region),
        tilt=tilt_degrees(located, rgb.shape),
        aspect=aspect,
        cut=located.touches_border,
        clipped=clipped_share(rgb),
    )
