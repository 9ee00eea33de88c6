"""Read the scoring cards lying scoring side up beside the city: where each is, and its number.

A real scoring card's scoring side is off-white graph paper crossed near its
top by a grey-brown title band 8 mm tall; a pale yellow circle 12 mm across sits on the band near the
left end, with the card's number (1–18) in black, and the card's name runs along the band to its right.

1. **Circles** by their shape: :mod:`vision.backs.circles`.
2. **Which way is up.** Print, grid lines and card edges give the card's two axes around the circle
   (:func:`_lettering_angle`), hence four candidate ways up. In the right one the title band runs from
   the circle to the right, darker than the paper just above and below it; in the three others the strip
   to the right is rule text on paper, or the table, with nothing darker between lighter. The band's
   contrast for each way up, section by section along the strip so that it must run on from the circle,
   is its prior.
3. **The number.** The circle's inside is sampled into upright patches per candidate, centred on its
   number and scaled to the number's own height, through small changes of that, and classified; what the
   views agree on counts (:mod:`vision.backs.numerals`); the classifier's "no upright number" class and
   the prior together weigh the candidates. A 6 turned around is a 9: only the band tells them apart.

Circles on ``city_mask`` are skipped: the city's own yellow (cars, signs) is never a scoring card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.backs.choose import BackNumber
from vision.backs.circles import CIRCLE_RADIUS_MM, NumberCircle, find_number_circles
from vision.backs.numerals import N_CLASSES, NUMBERS, agreed, circle_frame, get_reader, jittered_patches
from vision.cells import check_rgb_image

__all__ = ["ScoringCardReading", "find_scoring_cards"]

#: A reading with less confidence than this is reported with ``number=None``.
MIN_CONFIDENCE = 0.6
#: The card around its circle, in circle radii from the circle's centre as the card reads upright:
#: left, top, right, bottom edges (the circle's centre lies 11.1 mm from the left edge and 9.5 mm from
#: the top of an 88.9 × 63.5 mm card).
CARD_EDGES_IN_RADII = (
    -11.1 / CIRCLE_RADIUS_MM,
    -9.5 / CIRCLE_RADIUS_MM,
    77.8 / CIRCLE_RADIUS_MM,
    54.0 / CIRCLE_RADIUS_MM,
)
#: Where the band and the paper beside it are sampled, in circle radii: along the band from the circle's
#: rim outwards, across it the band's middle (the band is 0.67 radii high each way) and the paper above
#: and below.
BAND_ALONG = (1.4, 6.2)
BAND_ACROSS = 0.3
PAPER_ACROSS = (0.9, 1.4)
#: The strip along the band is judged in this many sections, each scoring its contrast bounded to
#: BAND_SECTION_RANGE (luma): the band must run on from the circle the whole way, not only show in part.
#: Turned half round, the strip leaves the card 0.85 radii past the rim (the circle sits near the card's
#: left edge), and a neighbouring card's band in line beyond the gap must not outweigh the gap; nor may
#: rule text close under the band in a few sections.
BAND_SECTIONS = 8
BAND_SECTION_RANGE = (0.0, 90.0)
#: Least sections of the strip in the photo for a frame's band to be judged at all.
MIN_SECTIONS = 2
#: A strip of a section is sampled at this many points across and along it; its luma is their median.
STRIP_POINTS = (4, 24)
#: Band contrast (paper minus band luma, 0–255) that says the title band is there, and the softness of
#: the prior made from it: a way up whose band is 6 luma weaker is e times less likely.
BAND_MIN_CONTRAST = 15.0
BAND_SOFTNESS = 6.0


@dataclass(frozen=True)
class ScoringCardReading:
    """One scoring card found in a photo.

    ``number`` is the card's number (1–18), or ``None`` when the circle was found but the number could not
    be read confidently; ``confidence`` (0–1) is the probability of the number read, the ways up weighed
    by the title band and the classifier. ``corners`` (4 × 2 float, image pixels of the image passed in)
    run TL, TR, BR, BL as the card reads upright (circle at the top left), placed from the circle and the
    card's layout. ``circle`` is the circle's centre and mean radius in image pixels; ``band_found``
    whether the title band was seen beside it (its way up is then sure); ``alternatives`` the three most
    likely numbers with their confidences.
    """

    number: int | None
    confidence: float
    corners: np.ndarray
    circle: tuple[float, float, float]
    band_found: bool = True
    alternatives: tuple[tuple[int, float], ...] = field(default=(), compare=False)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "confidence": round(self.confidence, 4),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "circle": [round(v, 1) for v in self.circle],
        }

    def to_back_number(self) -> BackNumber:
        """This reading as :func:`vision.backs.choose.choose_scoring_cards` weighs it, with its JSON."""
        outline = tuple((float(x), float(y)) for x, y in self.corners) if self.band_found else None
        return BackNumber(self.number, self.confidence, self.alternatives, self.to_json(), outline)


def _band_contrasts(grey: np.ndarray, centre: np.ndarray, frames: Sequence[np.ndarray]) -> np.ndarray:
    """For each upright ``frame``, how much darker the strip running right of the circle is than the paper
    above and below it, section by section (bounded) and averaged: large for the title band, about
    nothing for print, paper or table.

    The strips (band, paper above, paper below) of every section and frame are sampled in one
    ``cv2.remap``, at points given in upright circle coordinates (radii; x right, y down). A strip mostly
    off the photo (a card at its edge) says nothing: the paper on the other side stands in for it, and a
    section with no band or no paper in the photo is left out; a frame with fewer than
    :data:`MIN_SECTIONS` left has no band (0).
    """
    n_across, n_along = STRIP_POINTS
    edges = np.linspace(BAND_ALONG[0], BAND_ALONG[1], BAND_SECTIONS + 1)
    along = np.linspace(edges[:-1], edges[1:], n_along, axis=-1)  # sections × points along
    strips = np.array([(-BAND_ACROSS, BAND_ACROSS), (-PAPER_ACROSS[1], -PAPER_ACROSS[0]), PAPER_ACROSS])
    across = np.linspace(strips[:, 0], strips[:, 1], n_across, axis=-1)  # strips × points across
    # (x, y) of every point, ordered strip, section, across, along; then the same for each frame.
    q = np.stack(np.broadcast_arrays(along[None, :, None, :], across[:, None, :, None]), -1).reshape(-1, 2)
    p = np.concatenate([centre + q @ f.T for f in frames]).astype(np.float32)
    h, w = grey.shape[:2]
    xs, ys = p[:, 0].reshape(-1, n_across * n_along), p[:, 1].reshape(-1, n_across * n_along)
    inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    luma = cv2.remap(grey, np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1), cv2.INTER_LINEAR)
    luma = _median_where(luma.astype(np.float64), inside)  # one row per strip, NaN when mostly off
    band, above, below = np.moveaxis(luma.reshape(len(frames), len(strips), BAND_SECTIONS), 1, 0)
    paper = np.fmin(above, below)  # the darker paper, or the one side in the photo
    section = np.clip(paper - band, *BAND_SECTION_RANGE)
    known = np.isfinite(section)
    total = np.where(known, section, 0.0).sum(axis=1)
    count = known.sum(axis=1)
    return np.where(count >= MIN_SECTIONS, total / np.maximum(count, 1), 0.0)


def _median_where(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per row, the median of ``values`` where ``valid``; NaN for a row less than half valid."""
    ordered = np.sort(np.where(valid, values, np.inf), axis=1)
    k = valid.sum(axis=1)
    rows = np.arange(len(values))
    lo, hi = np.maximum((k - 1) // 2, 0), np.maximum(k // 2, 0)
    median = (ordered[rows, lo] + ordered[rows, np.minimum(hi, values.shape[1] - 1)]) / 2
    return np.where(2 * k >= values.shape[1], median, np.nan)


def _corners_from_circle(centre: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """The card's corners TL, TR, BR, BL from its circle and the card's layout; ``frame`` is the upright
    circle frame (radii → image px), so a slanted view slants the box too."""
    left, top, right, bottom = CARD_EDGES_IN_RADII
    local = np.array([[left, top], [right, top], [right, bottom], [left, bottom]])
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
    grey, at = _grey_around(image, centre, frames[0])
    patches = np.concatenate([jittered_patches(grey, at, f) for f in frames])
    probs = agreed(get_reader().probabilities(patches).reshape(len(frames), -1, N_CLASSES))
    upright = np.asarray(prior, np.float64) * (1.0 - probs[:, 0])
    posterior = upright / max(float(upright.sum()), 1e-12)
    given_upright = probs[:, 1:] / np.maximum(1.0 - probs[:, :1], 1e-12)
    joint = posterior[:, None] * given_upright  # frames × numbers
    p_number = joint.sum(axis=0)
    order = np.argsort(-p_number)[:3]
    best = int(order[0])
    alts = tuple((int(NUMBERS[j]), float(p_number[j])) for j in order)
    return int(np.argmax(joint[:, best])), alts[0][0], alts[0][1], alts


def _grey_around(
    image: np.ndarray, centre: np.ndarray, frame: np.ndarray
) -> tuple[np.ndarray, tuple[float, float]]:
    """The photo around a circle, in grey, far enough out for every patch read from it (3 radii: the
    patches reach at most about 2.2), and the circle's centre in it: converted once, not per patch."""
    half = 3.0 * float(np.abs(frame).sum(axis=1).max()) + 2
    h, w = image.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 2), min(h, int(centre[1] + half) + 2)
    crop = np.ascontiguousarray(image[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)])
    grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY) if crop.ndim == 3 else crop
    return grey, (float(centre[0]) - x0, float(centre[1]) - y0)


def _read_card(image: np.ndarray, grey: np.ndarray, circle: NumberCircle) -> ScoringCardReading:
    """Orientation and number of the card around one circle."""
    centre, axes = circle.centre, circle.axes
    base = circle_frame(axes, np.array([0.0, -1.0]))
    angle = _lettering_angle(image, centre, base)
    # The four ways the card can lie, each an upright circle frame (a quarter turn apart).
    frames = [base @ _rotation(angle + k * np.pi / 2) for k in range(4)]
    contrast = _band_contrasts(grey, centre, frames)
    prior = np.exp((contrast - contrast.max()) / BAND_SOFTNESS)
    prior = 0.9 * prior / prior.sum() + 0.025  # never quite rule a way up out
    k, number, conf, alts = _read(image, centre, frames, prior)
    return ScoringCardReading(
        number if conf >= MIN_CONFIDENCE else None,
        conf,
        _corners_from_circle(centre, frames[k]),
        (float(centre[0]), float(centre[1]), circle.radius),
        bool(contrast.max() >= BAND_MIN_CONTRAST),
        alts,
    )


def find_scoring_cards(
    image: np.ndarray, city_mask: np.ndarray | None = None, px_per_mm: float | None = None
) -> list[ScoringCardReading]:
    """Find the scoring cards (scoring side up) in an upright RGB ``uint8`` photo and read their numbers.

    ``city_mask`` (any size, non-zero on the city) excludes circles lying on the city; ``px_per_mm`` is the
    photo's scale near the city (the circle's expected size), None to search a range of sizes. Returns
    every card found, best first (confident numbers before unread ones), at most one reading per number.
    Raises ``TypeError`` / ``ValueError`` for an image that is not RGB ``uint8``, a mask that is not 2-D or
    a scale that is not a positive number.
    """
    image = check_rgb_image(image, 16, "to hold scoring cards")
    if city_mask is not None and np.ndim(city_mask) != 2:
        raise ValueError(f"city_mask must be a 2-D array, got shape {np.shape(city_mask)}")
    if px_per_mm is not None and not (np.isfinite(px_per_mm) and px_per_mm > 0):
        raise ValueError(f"px_per_mm must be a positive number, got {px_per_mm!r}")
    mask = None if city_mask is None else np.asarray(city_mask)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    circles = find_number_circles(image, px_per_mm, mask)
    return _best_per_number([_read_card(image, grey, c) for c in circles])


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
