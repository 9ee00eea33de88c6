"""Draw a taught deck's assignment on its photo, for the player to confirm or correct.

Each card found gets its outline (white for one of the 18, yellow for an expansion card the player named)
and, large at its centre, what it was taken for: ``7`` (card 7 as it lies unturned), ``7r`` (turned by
180°) or ``W``, ``POI``, ``CZ``; small in its top-left corner its place as a correction names it
(``2,3``: row 2, card 3 of that row). The style is the scan overlay's (:mod:`vision.city.overlay`): a
downscaled copy of the photo, text in a dark halo.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.city import CARD_BOX, halo_text, overlay_base
from vision.deck.corrections import CardSeen

__all__ = ["draw_deck_overlay"]

CARD_LINE = (255, 255, 255)


def _text(
    canvas: np.ndarray, text: str, centre: tuple[float, float], scale: float, colour: tuple, line: int
) -> None:
    """``text`` centred on ``centre``, light on a dark halo (readable on any art)."""
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2 * line)
    org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    halo_text(canvas, text, org, scale, colour, 2 * line, 6 * line)


def draw_deck_overlay(photo: np.ndarray, cards: Sequence[CardSeen], *, long_side: int = 1400) -> np.ndarray:
    """An RGB picture of the deck photo (its working copy; long side at most ``long_side``) with each of
    ``cards`` (those found in it) outlined and labelled."""
    canvas, _ = overlay_base(photo, long_side)
    size = np.array(canvas.shape[1::-1], float)
    line = max(1, round(max(canvas.shape[:2]) / 700))
    for card in cards:
        if card.outline is None:
            continue
        poly = np.array(card.outline, float) * size
        colour = CARD_BOX if card.extra is not None else CARD_LINE
        cv2.polylines(canvas, [poly.round().astype(np.int32)], True, colour, 2 * line, cv2.LINE_AA)
        # The label's size follows the card's: a short side of the outline, about a third of it high.
        short = min(float(np.hypot(*(poly[1] - poly[0]))), float(np.hypot(*(poly[3] - poly[0]))))
        scale = max(0.4, short / 90)
        _text(canvas, card.label(), tuple(poly.mean(axis=0)), scale, colour, line)
        corner = poly[0] + 0.18 * (poly[2] - poly[0])
        _text(canvas, f"{card.row + 1},{card.col + 1}", tuple(corner), scale * 0.4, colour, max(1, line // 2))
    return canvas
