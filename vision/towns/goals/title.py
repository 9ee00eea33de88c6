"""A goal card's title, cut out clean for the OCR, or nothing when the quad shows no goal card's top.

Both prints set a goal card's top the same way: the name in bold capitals, one or two lines, and under it a
thin black rule across most of the card, then the rule text. The rule is what tells a goal card's top from
anything else (the card's bottom, a town card, a sheet of paper): a long straight thin dark line, nearly
level when the quad is the card upright, with paper just above and below it (the bottoms of a line of bold
capitals make a long dark edge too, but ink lies right above it). Found, it also gives the title's exact
tilt, which the quad (from the paper's outline) only approximates, and where the title ends.

The title is cut at a fixed scale (the card :data:`CARD_WIDTH` px wide, so capitals stand about 20 px
tall, what Tesseract reads best), levelled on the rule, and cleaned: dark marks that touch the cut's
sides or top (the card's edge, the table beyond it) are whitened, so the OCR sees only the name.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "title_crop"]

#: The card rectified to this size (px), portrait; only its top :data:`TOP_SHARE` is cut.
CARD_WIDTH, CARD_HEIGHT = 300, 420
#: The share of the card's height where the title and its rule lie (a two-line name ends near 0.22).
TOP_SHARE = 0.3
#: A cut whose print and paper differ by less than this (luma, 2nd to 98th percentile) shows no print.
MIN_CONTRAST = 40
#: Thin dark marks: darker than their 9 px neighbourhood's closing by this much (luma, normalised cut).
DARK_MARK = 50
#: The rule: at least this share of the card wide, within this many degrees of level, no higher than this
#: share of the cut (the title is above it), with paper at RULE_CLEAR px above and below on most of it.
RULE_LENGTH = 0.5
RULE_TILT = 8.0
RULE_LOWEST_TOP = 0.35
RULE_CLEAR = 6
RULE_CLEAR_SHARE = 0.3
#: Ink of the name: darker than this on the normalised cut (paper 255, the capitals near 0).
INK = 100


def title_crop(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The cleaned title (grey, black print on white) of the card at ``quad`` (TL, TR, BR, BL in
    ``gray``'s px, the card upright), or None when that quad's top shows no goal card's rule."""
    height = int(CARD_HEIGHT * TOP_SHARE)
    target = np.float32([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]])
    warp = cv2.getPerspectiveTransform(np.float32(quad), target)
    top = cv2.warpPerspective(gray, warp, (CARD_WIDTH, height), flags=cv2.INTER_LINEAR, borderValue=255)
    low, high = np.percentile(top, (2, 98))
    if high - low < MIN_CONTRAST:
        return None
    norm = np.clip((top.astype(np.float32) - low) * 255 / (high - low), 0, 255).astype(np.uint8)
    rule = _rule(norm)
    if rule is None:
        return None
    rule_y, tilt = rule
    level = cv2.getRotationMatrix2D((CARD_WIDTH / 2, rule_y), tilt, 1.0)
    levelled = cv2.warpAffine(norm, level, (CARD_WIDTH, height), flags=cv2.INTER_LINEAR, borderValue=255)
    margin = int(CARD_WIDTH * 0.03)
    return _clean(levelled[: max(10, int(rule_y) - 4), margin : CARD_WIDTH - margin])


def _rule(norm: np.ndarray) -> tuple[float, float] | None:
    """The highest title rule in the cut ``norm``: its height (px, mid-line) and tilt (degrees)."""
    marks = cv2.morphologyEx(norm, cv2.MORPH_BLACKHAT, np.ones((9, 9), np.uint8))
    dark = (marks > DARK_MARK).astype(np.uint8)
    h, w = dark.shape
    lines = cv2.HoughLinesP(
        dark * 255, 1, np.pi / 360, int(w * 0.3), minLineLength=int(w * RULE_LENGTH), maxLineGap=6
    )
    best: tuple[float, float] | None = None
    for x1, y1, x2, y2 in [] if lines is None else lines.reshape(-1, 4):
        tilt = float(np.degrees(np.arctan2(y2 - y1, x2 - x1)))
        mid = (y1 + y2) / 2
        if abs(tilt) > RULE_TILT or mid < h * RULE_LOWEST_TOP or (best is not None and mid >= best[0]):
            continue
        xs = np.linspace(x1, x2, 40)
        ys = np.interp(xs, [x1, x2], [y1, y2]).round().astype(int)
        cols = xs.round().astype(int)
        above = dark[np.clip(ys - RULE_CLEAR, 0, h - 1), cols].mean()
        below = dark[np.clip(ys + RULE_CLEAR, 0, h - 1), cols].mean()
        if above <= RULE_CLEAR_SHARE and below <= RULE_CLEAR_SHARE:
            best = (float(mid), tilt)
    return best


def _clean(cut: np.ndarray) -> np.ndarray:
    """``cut`` with every dark mark that touches its sides or top whitened (the card's edge, the table)."""
    ink = (cut < INK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    h, w = cut.shape
    x, y, width = stats[:, 0], stats[:, 1], stats[:, 2]
    keep = (x > 0) & (y > 0) & (x + width < w)
    keep[0] = False
    mask = cv2.dilate(keep[labels].astype(np.uint8), np.ones((3, 3), np.uint8))
    return np.where(mask > 0, cut, 255).astype(np.uint8)
