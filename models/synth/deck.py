"""Rendered decks for the teach-your-deck tests: one fixed look-alike art per card, laid out as a deck
photo (the 18 cards face up in a grid with gaps) or as a city (cards side by side), top-down.

The art of a card is drawn once per ``seed`` (:func:`deck_art`), so a deck photo and a city photo made with
the same seed show the same printed cards, as a player's own deck does; another seed is another print.
An ``edition`` (:mod:`~models.synth.city_edition`) draws another printing of the cards: other zone colours,
flat or textured blocks, another road style; the default is the shipped look.
:func:`render_deck` is the deck photo ``sprawlscan synth --deck`` writes, with its truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from models.synth.art import CARD_H, CARD_W, render_city_card, render_wrecktar
from models.synth.city_edition import CityEdition, check_city_edition
from scoring.city import City
from scoring.city_text import parse_city
from scoring.layouts import LAYOUTS, card_blocks

PPM = 4.0  # px per mm: a 12 MP photo of a city filling the frame, halved as the scanner decodes it
TABLE = (52, 70, 96)  # a dark blue cloth


# The art's keys: a city card's number, or an expansion card's name.
Art = dict[int | str, np.ndarray]


def deck_art(seed: int, ppm: float = PPM, edition: CityEdition | None = None) -> Art:
    """Card number → its RGB art, unturned, in ``edition`` (default the shipped look), and
    ``"wrecktar"`` → our stand-in Wrecktar's; the same for the same seed and edition."""
    art: Art = {
        n: render_city_card(card_blocks(n), np.random.default_rng([seed, n]), ppm, edition).rgb
        for n in sorted(LAYOUTS)
    }
    art["wrecktar"] = render_wrecktar(np.random.default_rng([seed, 100]), ppm).rgb
    return art


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
    art: Art,
    cards: Sequence[tuple[int | str, bool]],
    cols: int = 6,
    gap_mm: float = 4.0,
    ppm: float = PPM,
    seed: int = 0,
    jitter_mm: float = 0.0,
    turn_deg: float = 0.0,
) -> np.ndarray:
    """The ``cards`` ((number or expansion name, turned) in reading order) face up in a grid of ``cols``
    columns: RGB.

    ``jitter_mm`` shifts each card by up to that much each way (gaps laid by hand, uneven); ``turn_deg``
    turns the whole photo (the deck photographed askew)."""
    rows = -(-len(cards) // cols)
    margin = 30.0 + jitter_mm
    canvas = _canvas(
        cols * CARD_W + (cols - 1) * gap_mm, rows * CARD_H + (rows - 1) * gap_mm, margin, ppm, seed
    )
    shifts = np.random.default_rng([seed, 99]).uniform(-jitter_mm, jitter_mm, (len(cards), 2))
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        x = margin + c * (CARD_W + gap_mm) + shifts[i, 0]
        y = margin + r * (CARD_H + gap_mm) + shifts[i, 1]
        _paste(canvas, art[n], x, y, ppm, turned)
    if turn_deg:
        h, w = canvas.shape[:2]
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), turn_deg, 1.0)
        side = int(np.hypot(w, h))
        turn[:, 2] += ((side - w) / 2, (side - h) / 2)
        canvas = cv2.warpAffine(
            canvas, turn, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return canvas


def city_photo(
    art: Art,
    cards: Sequence[tuple[int | str, bool]],
    cols: int = 5,
    ppm: float = PPM,
    seed: int = 1,
) -> np.ndarray:
    """A city of the ``cards`` side by side, ``cols`` cards a row (no stacking): RGB. Wrecktar in it
    lies where the card it covers would (it covers a card entirely)."""
    rows = -(-len(cards) // cols)
    margin = 40.0
    canvas = _canvas(cols * CARD_W, rows * CARD_H, margin, ppm, seed)
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        _paste(canvas, art[n], margin + c * CARD_W, margin + r * CARD_H, ppm, turned)
    return canvas


def city_truth(cards: Sequence[tuple[int | str, bool]], cols: int = 5) -> City:
    """The city :func:`city_photo` lays out for the same ``cards`` and ``cols`` (Wrecktar as its four W
    cells), as the scanner should read it.

    >>> from scoring.city import format_city
    >>> print(format_city(city_truth([(1, False)], cols=1)), end="")
    C:NS  P
    I:NE  R:EW
    """
    rows = -(-len(cards) // cols)
    grid = [["."] * (2 * cols) for _ in range(2 * rows)]
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        for dr in (0, 1):
            for dc in (0, 1):
                if n == "wrecktar":
                    grid[2 * r + dr][2 * c + dc] = "W"
                else:
                    cell = card_blocks(int(n), turned)[dr][dc]
                    grid[2 * r + dr][2 * c + dc] = cell.zone + (f":{cell.road}" if cell.road else "")
    return parse_city("\n".join(" ".join(row) for row in grid) + "\n")


def png(rgb: np.ndarray) -> bytes:
    """PNG bytes of an RGB image (what a test hands the scanner)."""
    ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert ok
    return buf.tobytes()


# ---- a deck photo for `sprawlscan synth --deck` ----------------------------------------------------------


@dataclass(frozen=True)
class DeckLayout:
    """How the 18 cards of seed ``seed``'s deck photo lie: ``cards`` (number, turned) in reading order,
    ``cols`` a row, laid by hand (``gap_mm`` give or take ``jitter_mm``), photographed ``turn_deg`` askew."""

    seed: int
    cards: tuple[tuple[int, bool], ...]
    cols: int
    gap_mm: float
    jitter_mm: float
    turn_deg: float

    def grid(self) -> str:
        """The cards as ``sprawlscan teach`` prints them (``7r``: card 7 turned by 180°).

        >>> print(DeckLayout(0, ((7, True), (12, False), (3, False)), 2, 5.0, 0.0, 0.0).grid())
          7r  12
          3
        """
        rows = [self.cards[k : k + self.cols] for k in range(0, len(self.cards), self.cols)]
        return "\n".join(
            " ".join(f"{n:>3}r" if turned else f"{n:>3} " for n, turned in row).rstrip() for row in rows
        )

    def truth(self, width: int, height: int, ppm: float) -> dict[str, Any]:
        """The JSON truth beside the photo: each card's place (0-based, as ``teach --format json``
        lists them), number and turn, the grid as ``teach`` prints it, and how the cards were laid."""
        return {
            "seed": self.seed,
            "kind": "deck",
            "width": width,
            "height": height,
            "px_per_mm": round(ppm, 4),
            "cards": [
                {"row": k // self.cols, "col": k % self.cols, "card": n, "rotated": turned}
                for k, (n, turned) in enumerate(self.cards)
            ],
            "grid": self.grid(),
            "layout": {
                "cols": self.cols,
                "gap_mm": round(self.gap_mm, 2),
                "jitter_mm": round(self.jitter_mm, 2),
                "turn_deg": round(self.turn_deg, 2),
            },
        }


def deck_layout(seed: int) -> DeckLayout:
    """The deck of ``seed`` as a player lays it to teach the scanner (docs/teach-deck.md): all 18 cards,
    any order and either way round, six a row with gaps laid by hand, photographed a little askew."""
    rng = np.random.default_rng([seed, 18])
    order = [int(n) for n in rng.permutation(sorted(LAYOUTS))]
    cards = tuple((n, bool(rng.random() < 0.5)) for n in order)
    gap, jitter, turn = rng.uniform(5.0, 12.0), rng.uniform(0.0, 2.0), rng.uniform(-12.0, 12.0)
    return DeckLayout(seed, cards, 6, float(gap), float(jitter), float(turn))


def render_deck(
    seed: int, ppm: float = 3.0, edition: CityEdition | None = None
) -> tuple[np.ndarray, dict[str, Any]]:
    """The deck photo of ``seed`` (RGB, top-down at ``ppm`` px/mm, the art of :func:`deck_art` for the
    same seed and ``edition``) and its truth (:meth:`DeckLayout.truth`, with the ``edition`` when one is
    given). The same arguments give the same pixels."""
    edition = check_city_edition(edition)
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number ≥ 0, got {seed!r}")
    if not 1.5 <= ppm <= 12:
        raise ValueError(f"a deck photo is drawn at 1.5..12 px per mm, got {ppm:g}")
    lay = deck_layout(seed)
    flat = deck_photo(
        deck_art(seed, ppm, edition),
        lay.cards,
        cols=lay.cols,
        gap_mm=lay.gap_mm,
        ppm=ppm,
        seed=seed,
        jitter_mm=lay.jitter_mm,
    )
    rgb = _askew(flat, lay.turn_deg, ppm, seed)
    truth = lay.truth(rgb.shape[1], rgb.shape[0], ppm)
    if edition is not None:
        truth["edition"] = edition.to_json()
    return rgb, truth


def _askew(flat: np.ndarray, turn_deg: float, ppm: float, seed: int) -> np.ndarray:
    """``flat`` turned by ``turn_deg`` on a table of its own, framed to the turned photo's middle: the
    cards with some table round them and no corner left bare."""
    h, w = flat.shape[:2]
    t = np.radians(turn_deg)
    # The turned cards' bounding box with 20 mm of table round them (the flat photo has 30 mm).
    inner_w, inner_h = w - 2 * 10 * ppm, h - 2 * 10 * ppm
    out_w = int(abs(inner_w * np.cos(t)) + abs(inner_h * np.sin(t)))
    out_h = int(abs(inner_w * np.sin(t)) + abs(inner_h * np.cos(t)))
    table = _canvas(out_w / ppm, out_h / ppm, 0.0, ppm, seed + 1)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), turn_deg, 1.0)
    turn[:, 2] += ((table.shape[1] - w) / 2, (table.shape[0] - h) / 2)
    cv2.warpAffine(
        flat, turn, table.shape[1::-1], dst=table, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT
    )
    return table
