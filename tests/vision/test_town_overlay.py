"""The picture of what a town scan read (vision.towns.overlay), on the rendered rulebook town read by the
stand-in that knows the truth (tests.vision.test_town_scan), and its labels on hand-made outlines."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scoring.wagons import Territory, Town
from tests.vision.test_town_scan import rulebook_scan
from vision.city.labels import LOW
from vision.city.overlay import lattice_outlines
from vision.towns.doubt import CellDoubt
from vision.towns.overlay import TERRAIN_RGB, draw_town_overlay, town_labels
from vision.towns.scan import TownScan

B3 = (2, 1)  # the rulebook town's B3 (M/f), marked doubtful by hand below
DOUBT = CellDoubt("B3", "M/f", (("M/w", None),), "read otherwise by the territory reader", 0.5, 2, 1)


def cell_quads(scan: TownScan, shape: tuple[int, ...]) -> dict[tuple[int, int], np.ndarray]:
    """Each town cell's outline (TL, TR, BR, BL) in pixels of a picture of ``shape``."""
    g, (h, w) = scan.geometry, shape[:2]
    grid = (scan.town.n_rows, scan.town.n_cols)
    outlines = lattice_outlines(g.to_view, g.photo.shape, g.lattice, scan.origin, grid)
    return {where: np.array(quad) * (w, h) for where, quad in outlines.items()}


def cell_mask(quad: np.ndarray, shape: tuple[int, ...], grow: int = 0) -> np.ndarray:
    """The pixels inside ``quad`` on a picture of ``shape``, grown (``grow`` > 0) or shrunk by ``grow`` px."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [quad.round().astype(np.int32)], 1)
    kernel = np.ones((2 * abs(grow) + 1,) * 2, np.uint8)
    mask = cv2.dilate(mask, kernel) if grow > 0 else cv2.erode(mask, kernel) if grow < 0 else mask
    return mask.astype(bool)


def red(picture: np.ndarray) -> np.ndarray:
    """Where the picture shows the doubt colour (LOW), give or take anti-aliasing."""
    return np.all(np.abs(picture.astype(int) - LOW) < 40, axis=2)


@pytest.mark.slow
def test_the_picture_has_the_photos_aspect_and_the_long_side_asked_for() -> None:
    scan = rulebook_scan(0.0)
    h, w = scan.geometry.photo.shape[:2]
    for long_side in (1400, 700):
        picture = draw_town_overlay(scan, long_side=long_side)
        assert picture.dtype == np.uint8 and picture.shape[2] == 3
        assert max(picture.shape[:2]) == long_side
        assert picture.shape[1] / picture.shape[0] == pytest.approx(w / h, rel=0.01)


@pytest.mark.slow
def test_a_doubtful_cell_is_marked_in_the_doubt_colour_and_a_sure_one_is_not() -> None:
    sure = rulebook_scan(0.0)
    assert sure.doubt == () and sure.town.grid[B3[0]][B3[1]] == Territory("M", "f")
    doubtful = replace(sure, doubt=(DOUBT,))
    marked, plain = draw_town_overlay(doubtful), draw_town_overlay(sure)
    quads = cell_quads(sure, marked.shape)
    line = max(1, round(max(marked.shape[:2]) / 700))  # the picture's line width
    around = cell_mask(quads[B3], marked.shape, grow=3 * line)  # the outline lies on the cell's edge
    # Red all round B3, twice the line wide (and on its token): at least the outline's length × the line.
    red_there = red(marked)[around].sum()
    assert red_there > cv2.arcLength(quads[B3].astype(np.float32), True) * line
    assert red(plain)[around].sum() < 0.05 * red_there
    # No other cell is marked: away from their edges (which B3 may share), none is red.
    for where, quad in quads.items():
        if where != B3:
            assert red(marked)[cell_mask(quad, marked.shape, grow=-6 * line)].sum() < 20, where


@pytest.mark.slow
def test_each_territory_is_tinted_towards_its_terrains_colour() -> None:
    scan = rulebook_scan(0.0)
    picture = draw_town_overlay(scan)
    base = cv2.resize(scan.geometry.photo, picture.shape[1::-1], interpolation=cv2.INTER_AREA)
    for (r, c), quad in cell_quads(scan, picture.shape).items():
        mask = cell_mask(quad, picture.shape)
        territory = scan.town.grid[r][c]
        if territory is None:
            continue
        target = np.array(TERRAIN_RGB[territory.terrain], float)
        before = np.linalg.norm(base[mask].mean(axis=0) - target)
        after = np.linalg.norm(picture[mask].mean(axis=0) - target)
        assert after < before, (r, c, territory)


def square_outlines(rows: int, cols: int) -> dict[tuple[int, int], list[list[float]]]:
    """Cells 0.1 × 0.2 of the photo from (0.2, 0.2), upright."""
    out = {}
    for r in range(rows):
        for c in range(cols):
            x, y = 0.2 + 0.1 * c, 0.2 + 0.2 * r
            out[(r, c)] = [[x, y], [x + 0.1, y], [x + 0.1, y + 0.2], [x, y + 0.2]]
    return out


def test_a_towns_labels_are_its_column_letters_row_numbers_and_each_territorys_token_in_its_cell() -> None:
    town = Town(
        ((Territory("D", "w"), None, Territory("W", "b")), (Territory("S", "g"), Territory("F", "c"), None))
    )
    labels = town_labels(town, square_outlines(2, 3))
    assert [lb.text for lb in labels if lb.kind == "column"] == ["A", "B", "C"]
    assert [lb.text for lb in labels if lb.kind == "row"] == ["1", "2"]
    tokens = {lb.cell: lb for lb in labels if lb.kind == "cell"}
    assert {where: lb.text for where, lb in tokens.items()} == {
        (0, 0): "D/w", (0, 2): "W/b", (1, 0): "S/g", (1, 1): "F/c"
    }  # fmt: skip
    for (r, c), lb in tokens.items():  # inside its own cell, in its upper half (clear of the icon)
        assert 0.2 + 0.1 * c < lb.x < 0.3 + 0.1 * c and 0.2 + 0.2 * r < lb.y < 0.3 + 0.2 * r
