"""Labels drawn on a scan's picture so that they read on any art: a cell's in white over a dark halo, or
near-black over a white one where white would not read (snow, paper, pale desert), by WCAG's contrast; the
doubtful cells' in red; the coordinates in the page's colour; a key that says what the red means.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

__all__ = [
    "COORD",
    "INK_LIGHT",
    "LOW",
    "WHITE_READS",
    "Label",
    "contrast",
    "draw_labels",
    "draw_legend",
    "legend_text",
    "halo_text",
    "label_ink",
]

LOW = (255, 40, 40)
COORD = (242, 193, 78)  # the column letters and row numbers, in the page's colour (.ov-coord)
INK_LIGHT = (255, 255, 255)  # a cell's label on dark art, over a dark halo
INK_DARK = (20, 20, 20)  # on light art (snow, paper, desert), over a white halo
WHITE_READS = 3.0  # WCAG's least contrast for large text: white labels keep to art that gives them this


@dataclass(frozen=True)
class Label:
    """Text drawn centred on (``x``, ``y``), fractions of the photo's width and height: a ``column``
    letter, a ``row`` number or a ``cell``'s name and zone (``cell``: its row and column then)."""

    text: str
    x: float
    y: float
    kind: Literal["column", "row", "cell"]
    cell: tuple[int, int] | None = None


def halo_text(
    canvas: np.ndarray,
    text: str,
    org: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
    thickness: int,
    halo: int,
) -> None:
    """``text`` at ``org`` (its baseline's left end) in ``colour`` over a dark halo ``halo`` px thick:
    readable on any art."""
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), halo, cv2.LINE_AA)
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


def _luminance(rgb: Sequence[float]) -> float:
    """WCAG's relative luminance of an sRGB colour (0 black … 1 white)."""
    c = np.asarray(rgb, np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ (0.2126, 0.7152, 0.0722))


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG's contrast ratio of two colours: 1 (the same) … 21 (black on white); text wants 4.5."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def label_ink(background: Sequence[float]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A cell label's colour and its halo's on ``background`` (RGB): white over black, as the page draws
    them, unless white falls under WCAG's 3 : 1 for large text there and near-black reads better (a white
    label on snow, paper or pale desert cannot be read); then near-black over white."""
    light = contrast(INK_LIGHT, background)
    if light >= WHITE_READS or light >= contrast(INK_DARK, background):
        return INK_LIGHT, (0, 0, 0)
    return INK_DARK, (255, 255, 255)


def _background(canvas: np.ndarray, org: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """The mean colour under a label's box (``org``: its baseline's left end, ``size``: its width and
    height), before it is drawn."""
    (x, y), (tw, th) = org, size
    h, w = canvas.shape[:2]
    box = canvas[max(0, y - th) : min(h, y + 1), max(0, x) : min(w, x + tw)]
    return box.reshape(-1, 3).mean(axis=0) if box.size else np.zeros(3)


def draw_labels(
    canvas: np.ndarray, labels: list[Label], cell_w: float, doubtful: Collection[tuple[int, int]], line: int
) -> None:
    """The labels centred on their places, the cells' sized to fit ``cell_w`` in the colour that reads on
    the art under each (:func:`label_ink`; those of the ``doubtful`` cells in red), the coordinates larger,
    in the page's colour."""
    h, w = canvas.shape[:2]
    font = cv2.FONT_HERSHEY_SIMPLEX
    widest = max((cv2.getTextSize(lb.text, font, 1.0, line)[0][0] for lb in labels if lb.cell), default=1)
    # The widest label with its halo spans at most 0.85 of a cell: neighbours' labels never touch.
    cell_scale = float(np.clip((0.85 * cell_w - 3 * line) / widest, 0.25, 0.45 * line))
    coord_scale = float(np.clip(0.4 * cell_w / 22.0, 0.4, 0.6 * line))  # 22 px: a capital at scale 1
    for lb in labels:
        if lb.cell is not None:
            scale, thick, halo = cell_scale, line, 3 * line
        else:
            scale, colour, thick = coord_scale, COORD, max(line, round(2 * coord_scale))
            halo = thick + 2 * line
        (tw, th), _ = cv2.getTextSize(lb.text, font, scale, thick)
        org = (int(lb.x * w - tw / 2), int(lb.y * h + th / 2))
        if lb.cell is None:
            halo_text(canvas, lb.text, org, scale, colour, thick, halo)
        elif lb.cell in doubtful:
            halo_text(canvas, lb.text, org, scale, LOW, thick, halo)
        else:
            ink, rim = label_ink(_background(canvas, org, (tw, th)))
            _ringed_text(canvas, lb.text, org, scale, ink, rim, thick, halo)


def _ringed_text(
    canvas: np.ndarray,
    text: str,
    org: tuple[int, int],
    scale: float,
    ink: tuple[int, int, int],
    rim: tuple[int, int, int],
    thickness: int,
    halo: int,
) -> None:
    """``text`` in ``ink`` over a halo of ``rim`` ``halo`` px thick (:func:`halo_text` with its halo's
    colour chosen)."""
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, rim, halo, cv2.LINE_AA)
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thickness, cv2.LINE_AA)


def legend_text(in_doubt: int) -> str:
    """The overlay's key: what its red marks, and how many cells it marks (those of the scan's doubt list,
    which the text under the score names one by one)."""
    if not in_doubt:
        return "no cell in doubt"
    return f"red: in doubt ({in_doubt}) - see the list"


def draw_legend(
    canvas: np.ndarray, in_doubt: int, avoid: tuple[int, int, int, int], line: int
) -> tuple[int, int, int, int]:
    """The key (:func:`legend_text`) in a dark box at a corner of ``canvas`` clear of ``avoid`` (x0, y0,
    x1, y1: the city's box, pixels), the lower left where it can be: a red square, then the text.
    Returns the box drawn (x0, y0, x1, y1)."""
    h, w = canvas.shape[:2]
    text, scale, thick = legend_text(in_doubt), 0.55 * line, max(1, line)
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    pad, square = 6 * line, th + base
    bw, bh = min(w, tw + square + 3 * pad), min(h, th + base + 2 * pad)
    corners = [(0, h - bh), (0, 0), (w - bw, h - bh), (w - bw, 0)]
    x, y = next((c for c in corners if not _overlaps((c[0], c[1], c[0] + bw, c[1] + bh), avoid)), corners[0])
    box = canvas[y : y + bh, x : x + bw]
    box[:] = (box.astype(np.float32) * 0.3).astype(np.uint8)  # darkened: the key reads on any table
    colour = LOW if in_doubt else INK_LIGHT
    top = (y + pad, x + pad)
    cv2.rectangle(canvas, (top[1], top[0]), (top[1] + square, top[0] + square), colour, 2 * line)
    org = (x + 2 * pad + square, y + pad + th)
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, INK_LIGHT, thick, cv2.LINE_AA)
    return x, y, x + bw, y + bh


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
