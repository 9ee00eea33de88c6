"""The contact sheet shows each photo beside its truth grid."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from models.synth import palette as pal
from models.synth.sheet import draw_city, main
from scoring.city_text import parse_city


def test_truth_grid_draws_every_cell_in_its_zone_colour() -> None:
    city = parse_city("cards: 1 2 3\nR:EW  C\n.     P\nW     I:NS\n")
    img = draw_city(city, cell_px=28.0)
    cw, ch = img.shape[1] / 2, img.shape[0] / 3

    def at(r: int, c: int, fy: float = 0.25) -> np.ndarray:  # a point off the road, inside the cell
        return img[int((r + fy) * ch), int((c + 0.25) * cw)]

    assert tuple(at(0, 1)) == pal.GROUND["C"]
    assert tuple(at(1, 1)) == pal.GROUND["P"]
    assert tuple(at(1, 0)) == (255, 255, 255)  # an empty cell stays white
    assert tuple(at(0, 0, 0.5)) != pal.GROUND["R"]  # the E-W road runs through the middle


def test_sheet_module_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert main(["--out", str(out), "--count", "2", "--long-side", "320"]) == 0
    img = cv2.imread(str(out))
    assert img is not None and img.shape[0] > 300 and img.shape[1] > 600
