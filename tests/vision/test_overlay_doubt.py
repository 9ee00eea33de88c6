"""The overlay's red is the doubt list: the cells outlined in red are exactly the scan's doubtful cells,
whatever the classifier's confidence elsewhere, and a key on the picture says what the red means
(vision.city.overlay.draw_overlay, vision.city.labels.draw_legend)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from models.synth.scene import render_photo
from vision.city.doubt import CellDoubt
from vision.city.labels import INK_LIGHT, LOW, draw_legend, legend_text
from vision.city.result import with_overlay
from vision.pipeline import scan_image


def _red(canvas: np.ndarray) -> np.ndarray:
    return np.abs(canvas.astype(int) - LOW).max(axis=2) < 40


def _sides_red(canvas: np.ndarray, outline: list[list[float]]) -> float:
    """The least share of red pixels along any of a cell's four sides (its outline in fractions of the
    canvas; the band looked at is wider than the line drawn): a cell outlined in red has every side red, a
    neighbour of one at most a side."""
    h, w = canvas.shape[:2]
    pts = (np.array(outline) * (w, h)).round().astype(np.int32)
    red, shares = _red(canvas), []
    for i in range(4):
        mask = np.zeros((h, w), np.uint8)
        cv2.line(
            mask,
            tuple(map(int, pts[i])),
            tuple(map(int, pts[(i + 1) % 4])),
            1,
            max(3, round(max(h, w) / 400)),
        )
        shares.append(float(red[mask.astype(bool)].mean()))
    return min(shares)


@pytest.fixture(scope="module")
def scanned() -> Any:
    return scan_image(render_photo(3, long_side=1600, partial=False).jpeg)


@pytest.mark.slow
def test_the_cells_outlined_in_red_are_exactly_the_doubt_list(scanned) -> None:
    blocks = [cell for cell in scanned.cells if cell.label != "."]
    chosen = [blocks[0], blocks[len(blocks) // 2]]
    doubts = tuple(
        CellDoubt(c.row, c.col, c.label, ("P",), "read with 40% confidence", ("classifier",)) for c in chosen
    )
    # Every other cell counts as surely read by the classifier's confidence or not: the list alone decides.
    result = with_overlay(replace(scanned, doubts=doubts, cells=[replace(c) for c in scanned.cells]))
    share = {(c.row, c.col): _sides_red(result.overlay, c.outline) for c in result.cells}
    outlined = {rc for rc, s in share.items() if s > 0.15}
    assert outlined == {(d.row, d.col) for d in doubts}
    assert max(s for rc, s in share.items() if rc not in outlined) < 0.05


@pytest.mark.slow
def test_the_overlay_carries_a_key_for_its_red_beside_the_city(scanned) -> None:
    doubt = next(c for c in scanned.cells if c.label != ".")
    doubts = (CellDoubt(doubt.row, doubt.col, doubt.label, ("P",), "low", ("classifier",)),)
    marked = with_overlay(replace(scanned, doubts=doubts, cells=[replace(c) for c in scanned.cells]))
    plain = with_overlay(replace(scanned, doubts=(), cells=[replace(c) for c in scanned.cells]))
    h, w = marked.overlay.shape[:2]
    quads = np.array([c.outline for c in marked.cells]) * (w, h)
    pitch = float(np.median(np.hypot(*(quads[:, 1] - quads[:, 0]).T)))
    lo, hi = quads.reshape(-1, 2).min(axis=0) - pitch, quads.reshape(-1, 2).max(axis=0) + pitch
    away = np.ones((h, w), bool)  # the frame away from the city, its labels and its coordinates
    away[max(0, int(lo[1])) : int(hi[1]), max(0, int(lo[0])) : int(hi[0])] = False
    assert _red(marked.overlay)[away].sum() > 20  # the key's red square
    assert _red(plain.overlay)[away].sum() == 0  # nothing in doubt: no red anywhere off the city


def test_the_key_names_how_many_cells_are_in_doubt_and_points_at_the_list() -> None:
    assert legend_text(4) == "red: in doubt (4) - see the list"
    assert legend_text(0) == "no cell in doubt"


def test_the_key_is_drawn_dark_with_a_red_square_in_a_corner_clear_of_the_city() -> None:
    canvas = np.full((400, 600, 3), 180, np.uint8)
    city = (0, 200, 300, 400)  # the lower left is taken: the key goes to the next corner, the upper left
    x0, y0, x1, y1 = draw_legend(canvas, 3, city, 1)
    assert (x0, y0) == (0, 0) and x1 <= 300 and y1 < 200
    key = canvas[y0:y1, x0:x1]
    assert _red(key).sum() > 20
    white = (np.abs(key.astype(int) - INK_LIGHT).max(axis=2) < 60).sum()
    assert white > 50  # the text
    assert np.all(canvas[y1:, x1:] == 180)  # drawn nowhere else
