"""Where the goal cards may lie: bright, card-shaped paper, and the cards it may hold.

A goal card is white paper with black print, whatever the print (the boxed cards, the print-and-play
sheets), and it lies apart from the town, whose cards are mostly coloured. On a small copy of the photo the
paper is what is clearly brighter than its wide surroundings (the photo minus its median over a window of
two fifths of the photo's long side) and not coloured; its holes (the print) filled, each region is judged
by how well its turned bounding rectangle fits it. A region that fits badly (a card that touches a lit
patch of table, paper and glare run together) is opened harder, and split by raising the brightness bar
inside it, step by step, so a card a little brighter than what touches it still comes apart from it; one
paper found at several bars is kept at its best fit, and what never fits is no card.

Cards laid edge to edge form one region. Their size is not known beforehand (the photo's distance), so a
region is offered both ways round: its cards standing across its long side or across its short side, as
many as fit at the card's proportions (:func:`card_quads`). Each offer is a hypothesis only; the title
(:mod:`vision.towns.goals.title`) decides which are cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["CARD_ASPECT", "MAX_REGIONS", "PaperRegion", "card_quads", "find_paper"]

#: A card's width over its height (63.5 × 88.9 mm, the size of both games' cards).
CARD_ASPECT = 63.5 / 88.9
#: The regions kept, largest first: three goal cards, touching or apart, and a few others (a white town
#: card, a lit sheet of paper) fit in this many; each costs a few crops, never an OCR pass of its own.
MAX_REGIONS = 6
#: The small copy's long side (px) where paper is found; the crops are cut from the photo itself.
WORK_SIDE = 504
#: The photo's exposure is evened first: this percentile of its luma is made white (a dim photo's paper is
#: as far above its table as a bright one's).
BRIGHTEST = 99.5
#: The brightness bars (luma above the surroundings' median), in order; the first is the paper's usual
#: margin over a table or a sheet, the others split what did not fit.
LEVELS = (10, 20, 32, 48)
#: Saturation (0-255) above which a pixel is coloured, never card paper (white balance tints paper 10-40).
MAX_PAPER_SATURATION = 70
#: Least share of its bounding rectangle a region must fill to be card paper (a card, or cards in a row).
MIN_FILL = 0.75
#: The opening (px, small copy) that breaks thin bridges between paper and table, and the step by which
#: it grows for a region that does not fit.
OPENING, OPENING_STEP = 9, 8
#: Least short side of a region, on the small copy (px): smaller paper cannot carry a legible title.
MIN_SIDE = 18
#: More cards than this in one region is no row of goal cards.
MAX_CARDS_IN_REGION = 4


@dataclass(frozen=True)
class PaperRegion:
    """A bright paper region in photo pixels: its turned bounding rectangle (``centre``, ``size`` as
    (width, height), ``angle`` in degrees, as :func:`cv2.minAreaRect` gives) and ``fill``, the share of
    the rectangle it covers."""

    centre: tuple[float, float]
    size: tuple[float, float]
    angle: float
    fill: float

    @property
    def area(self) -> float:
        return self.size[0] * self.size[1]

    def holds(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` (photo px) lies in the rectangle."""
        outline = self.corners().reshape(-1, 1, 2)
        return cv2.pointPolygonTest(outline, (float(point[0]), float(point[1])), False) >= 0

    def corners(self) -> np.ndarray:
        """The rectangle's corners (4 × 2, photo px) as TL, TR, BR, BL of its own frame (width across)."""
        bl, tl, tr, br = cv2.boxPoints((self.centre, self.size, self.angle))
        return np.float32([tl, tr, br, bl])


def find_paper(rgb: np.ndarray) -> list[PaperRegion]:
    """The card-shaped paper regions of RGB photo ``rgb``, largest first, at most :data:`MAX_REGIONS`."""
    scale = WORK_SIDE / max(rgb.shape[:2])
    small = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)
    value = hsv[..., 2].astype(np.float32)
    gain = 255.0 / max(1.0, float(np.percentile(value, BRIGHTEST)))
    value = np.clip(value * gain, 0, 255).astype(np.uint8)
    window = 2 * (WORK_SIDE // 5) + 1
    lift = cv2.subtract(value, cv2.medianBlur(value, window))
    lift[hsv[..., 1] >= MAX_PAPER_SATURATION] = 0
    found: list[PaperRegion] = []
    _split(lift, scale, np.ones_like(value), 0, found)
    kept: list[PaperRegion] = []
    for region in sorted(found, key=lambda r: -r.fill):  # one paper found at several bars: its best fit
        if not any(other.holds(region.centre) for other in kept):
            kept.append(region)
    kept.sort(key=lambda r: -r.area)
    return kept[:MAX_REGIONS]


def _split(
    lift: np.ndarray,
    scale: float,
    inside: np.ndarray,
    level: int,
    out: list[PaperRegion],
    opening: int = OPENING,
) -> None:
    """Add to ``out`` the regions of ``inside`` brighter than bar ``level`` (on ``lift``, the small copy at
    ``scale``) that fit their rectangles. One that does not is opened harder first, step by step up to a
    third of its short side (a card joined to a lit patch of table along its edge comes apart from it), and
    what does not fit is split at the next bar too. The harder openings split no further."""
    bright = (lift > LEVELS[level]) & (inside > 0)
    for outline in _outlines(bright, opening):
        (cx, cy), (w, h), angle = cv2.minAreaRect(outline)
        if min(w, h) < MIN_SIDE:
            continue
        fill = cv2.contourArea(outline) / (w * h)
        if fill >= MIN_FILL:
            out.append(
                PaperRegion((cx / scale, cy / scale), (w / scale, h / scale), float(angle), float(fill))
            )
            continue
        if opening > OPENING:
            continue
        part = np.zeros(inside.shape, np.uint8)
        cv2.drawContours(part, [outline], -1, 1, -1)
        pieces: list[PaperRegion] = []
        harder = OPENING + OPENING_STEP
        while not pieces and harder <= min(w, h) / 3:
            _split(lift, scale, part, level, pieces, opening=harder)
            harder += OPENING_STEP
        out.extend(pieces)
        if level + 1 < len(LEVELS):
            _split(lift, scale, part, level + 1, out)


def _outlines(mask: np.ndarray, opening: int) -> list[np.ndarray]:
    """The outer outlines of ``mask``'s regions, their holes (the print on the paper) filled and bridges
    between them (to the table) narrower than ``opening`` px broken."""
    bright = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(bright)
    cv2.drawContours(filled, outlines, -1, 1, -1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (opening, opening))
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, disc)
    outlines, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(outlines)


def card_quads(region: PaperRegion) -> list[np.ndarray]:
    """Each card ``region`` may hold, as corners (4 × 2, photo px) TL, TR, BR, BL of a portrait card,
    under both hypotheses (cards standing across either side of the region), each card both ways up.

    Which way up a card lies is left to its title; the quads of one card turned half round are offered
    one after the other."""
    tl, tr, br, bl = region.corners()
    quads: list[np.ndarray] = []
    for frame in (np.float32([tl, tr, br, bl]), np.float32([tr, br, bl, tl])):
        across = float(np.linalg.norm(frame[1] - frame[0]))
        down = float(np.linalg.norm(frame[3] - frame[0]))
        height = down if across >= CARD_ASPECT * down * 0.75 else across / CARD_ASPECT
        n_across = max(1, round(across / (CARD_ASPECT * height)))
        n_down = max(1, round(down / height))
        if n_across * n_down > MAX_CARDS_IN_REGION:
            continue
        for a in range(n_across):
            for d in range(n_down):
                card = _sub_quad(frame, a / n_across, (a + 1) / n_across, d / n_down, (d + 1) / n_down)
                quads.extend((card, np.roll(card, -2, axis=0)))
    return quads


def _sub_quad(frame: np.ndarray, u0: float, u1: float, v0: float, v1: float) -> np.ndarray:
    """The part of quad ``frame`` (TL, TR, BR, BL) between fractions ``u0``-``u1`` across and
    ``v0``-``v1`` down, as TL, TR, BR, BL."""

    def at(u: float, v: float) -> np.ndarray:
        top = frame[0] + (frame[1] - frame[0]) * u
        bottom = frame[3] + (frame[2] - frame[3]) * u
        return top + (bottom - top) * v

    return np.float32([at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)])
