"""Colour statistics of rendered blocks, to compare with the scans' table in ``real-cards.md``.

The table gives, per zone, CIELAB 10th / 50th / 90th percentiles over whole blocks, buildings (and roads)
included; :func:`block_lab_percentiles` measures the same thing on freshly drawn cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.synth.art import render_city_card
from models.synth.blocks import BLOCK_H, BLOCK_W
from scoring.layouts import LAYOUTS, card_blocks

#: the measured colours of the real cards (``models/MODEL_CARD.md``):
#: zone → ((L10, L50, L90), (a10, a50, a90), (b10, b50, b90)).
REFERENCE_LAB: dict[str, tuple[tuple[float, float, float], ...]] = {
    "R": ((42, 58, 73), (1, 10, 17), (2, 20, 32)),
    "C": ((44, 58, 71), (-10, -4, 4), (-22, -10, 2)),
    "I": ((45, 60, 73), (-1, 2, 4), (-5, -1, 4)),
    "P": ((63, 72, 79), (-42, -21, -14), (15, 22, 35)),
}


def rgb_to_lab(pixels: np.ndarray) -> np.ndarray:
    """N×3 ``uint8`` sRGB → N×3 float CIELAB (D65; L* 0–100)."""
    f = pixels.reshape(1, -1, 3).astype(np.float32) / 255
    return cv2.cvtColor(f, cv2.COLOR_RGB2LAB).reshape(-1, 3)


def block_lab_percentiles(
    rng: np.random.Generator, repeats: int = 3, ppm: float = 4.0
) -> dict[str, np.ndarray]:
    """Per zone a 3×3 array (rows L*, a*, b*; columns 10th, 50th, 90th percentile) over the pixels of every
    block of all 18 cards drawn ``repeats`` times each (alternately turned by 180°) at ``ppm`` px/mm. A
    2-pixel border is dropped from each block so that neighbours and the card's rounded corners do not leak
    in."""
    pixels: dict[str, list[np.ndarray]] = {z: [] for z in "RCIP"}
    bw, bh = int(BLOCK_W * ppm), int(BLOCK_H * ppm)
    for number in sorted(LAYOUTS):
        for rep in range(repeats):
            blocks = card_blocks(number, rep % 2 == 1)
            art = render_city_card(blocks, rng, ppm)
            for dr in (0, 1):
                for dc in (0, 1):
                    sub = art.rgb[dr * bh + 2 : (dr + 1) * bh - 2, dc * bw + 2 : (dc + 1) * bw - 2]
                    pixels[blocks[dr][dc].zone or "R"].append(sub.reshape(-1, 3))
    return {
        z: np.percentile(rgb_to_lab(np.concatenate(p)), [10, 50, 90], axis=0).T for z, p in pixels.items()
    }
