"""Rendered decks for the teach-your-deck tests: one fixed look-alike art per card, laid out as a deck
photo (the 18 cards face up in a grid with gaps) or as a city (cards side by side), top-down.

The art of a card is drawn once per ``seed`` (:func:`deck_art`), so a deck photo and a city photo made with
the same seed show the same printed cards, as a player's own deck does; another seed is another print.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from models.synth.art import CARD_H, CARD_W, render_city_card
from scoring.layouts import LAYOUTS, card_blocks

PPM = 4.0  # px per mm: a 12 MP photo of a city filling the frame, halved as the scanner decodes it
TABLE = (52, 70, 96)  # a dark blue cloth


def deck_art(seed: int, ppm: float = PPM) -> dict[int, np.ndarray]:
    """Card number → its RGB art, unturned; the same for the same seed."""
    return {
        n: render_city_card(card_blocks(n), np.random.default_rng([seed, n]), ppm).rgb
        for n in sorted(LAYOUTS)
    }


def _canvas(w_mm: float, h_mm: float, margin_mm: float, ppm: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w, h = int((w_mm + 2 * margin_mm) * ppm), int((h_mm + 2 * margin_mm) * ppm)
    noise = rng.normal(0, 6, (h // 8 + 1, w // 8 + 1, 3))
    table = np.array(TABLE, np.float64) + cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(table, 0, 255).astype(np.uint8)


def _paste(canvas: np.ndarray, art: np.ndarray, x_mm: float, y_mm: float, ppm: float, turned: bool) -> None:
    img = art[::-1, ::-1] if turned else art
    x, y = int(round(x_mm * ppm)), int(round(y_mm * ppm))
    canvas[y : y + img.shape[0], x : x + img.shape[1]] = img


def deck_photo(
    art: dict[int, np.ndarray],
    cards: Sequence[tuple[int, bool]],
    cols: int = 6,
    gap_mm: float = 4.0,
    ppm: float = PPM,
    seed: int = 0,
) -> np.ndarray:
    """The ``cards`` ((number, turned) in reading order) face up in a grid of ``cols`` columns: RGB."""
    rows = -(-len(cards) // cols)
    margin = 30.0
    canvas = _canvas(
        cols * CARD_W + (cols - 1) * gap_mm, rows * CARD_H + (rows - 1) * gap_mm, margin, ppm, seed
    )
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        _paste(canvas, art[n], margin + c * (CARD_W + gap_mm), margin + r * (CARD_H + gap_mm), ppm, turned)
    return canvas


def city_photo(
    art: dict[int, np.ndarray],
    cards: Sequence[tuple[int, bool]],
    cols: int = 5,
    ppm: float = PPM,
    seed: int = 1,
) -> np.ndarray:
    """A city of the ``cards`` side by side, ``cols`` cards a row (no stacking): RGB."""
    rows = -(-len(cards) // cols)
    margin = 40.0
    canvas = _canvas(cols * CARD_W, rows * CARD_H, margin, ppm, seed)
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        _paste(canvas, art[n], margin + c * CARD_W, margin + r * CARD_H, ppm, turned)
    return canvas


def png(rgb: np.ndarray) -> bytes:
    """PNG bytes of an RGB image (what a test hands the scanner)."""
    ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert ok
    return buf.tobytes()
