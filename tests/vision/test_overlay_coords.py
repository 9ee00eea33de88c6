"""The overlay ``scan --overlay`` writes carries the page's coordinates: column letters beside the first row,
row numbers beside the first column, each block named with its zone, all placed where the page's overlay
(api/web/static/overlay.js) places them on the same cell outlines."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from models.synth.scene import render_photo
from scoring.city_text import parse_city
from vision.city.labels import COORD
from vision.city.overlay import (
    CELL_AT,
    COLUMN_AT,
    ROW_AT,
    label_layout,
    overlay_base,
    quad_point,
)
from vision.pipeline import scan_image

OVERLAY_JS = Path(__file__).resolve().parents[2] / "api" / "web" / "static" / "overlay.js"
CITY = parse_city("R:EW  P  .\nC*  .  I:NS\n")


def _grid_outlines(rows: int, cols: int, turned: bool = False) -> dict[tuple[int, int], list[list[float]]]:
    """Cells 0.1 × 0.05 of the photo from (0.2, 0.3); ``turned``: the grid a quarter turn clockwise, so
    that its rows run down the photo and its first row lies on the right."""
    out = {}
    for r in range(rows):
        for c in range(cols):
            x, y = 0.2 + 0.1 * c, 0.3 + 0.05 * r
            quad = [[x, y], [x + 0.1, y], [x + 0.1, y + 0.05], [x, y + 0.05]]
            if turned:  # (x, y) → (0.8 - y, x): a quarter turn clockwise about (0.55, 0.25)
                quad = [[round(0.8 - qy, 6), qx] for qx, qy in quad]
            out[(r, c)] = quad
    return out


def test_the_layout_names_columns_above_the_first_row_and_rows_left_of_the_first_column() -> None:
    labels = label_layout(CITY, _grid_outlines(2, 3))
    columns = [(lb.text, round(lb.x, 4), round(lb.y, 4)) for lb in labels if lb.kind == "column"]
    rows = [(lb.text, round(lb.x, 4), round(lb.y, 4)) for lb in labels if lb.kind == "row"]
    # Column c's letter over its middle, 0.45 of a cell above the grid (y 0.3 - 0.0225).
    assert columns == [("A", 0.25, 0.2775), ("B", 0.35, 0.2775), ("C", 0.45, 0.2775)]
    # Row r's number 0.3 of a cell left of the grid (x 0.2 - 0.03), at its middle.
    assert rows == [("1", 0.17, 0.325), ("2", 0.17, 0.375)]


def test_each_block_is_named_with_its_zone_and_marks_not_its_road() -> None:
    labels = [lb for lb in label_layout(CITY, _grid_outlines(2, 3)) if lb.kind == "cell"]
    assert [(lb.text, lb.cell) for lb in labels] == [
        ("A1 R", (0, 0)),
        ("B1 P", (0, 1)),
        ("A2 C*", (1, 0)),
        ("C2 I", (1, 2)),
    ]
    a1 = labels[0]
    assert (round(a1.x, 4), round(a1.y, 4)) == (0.25, 0.315)  # above the centre: 0.3 of the cell down


def test_on_a_turned_lattice_the_coordinates_follow_the_lattice_not_the_photo() -> None:
    labels = label_layout(CITY, _grid_outlines(2, 3, turned=True))
    a = next(lb for lb in labels if lb.text == "A")
    one = next(lb for lb in labels if lb.text == "1")
    a1 = next(lb for lb in labels if lb.text == "A1 R")
    # The first row lies along the right edge: column letters to its right, row numbers above the grid.
    assert a.x > a1.x and abs(a.y - a1.y) < 0.01
    assert one.y < a1.y and abs(one.x - 0.8 + 0.325) < 1e-6


def test_the_anchors_are_the_pages() -> None:
    js = OVERLAY_JS.read_text(encoding="utf-8")
    column = re.search(r"label\(quad, ([-\d.]+), ([-\d.]+), columnName\(c\)\)", js)
    row = re.search(r"label\(quad, ([-\d.]+), ([-\d.]+), String\(r \+ 1\)\)", js)
    assert column and row, "overlay.js no longer draws its coordinates as this test reads them"
    assert (float(column[1]), float(column[2])) == COLUMN_AT
    assert (float(row[1]), float(row[2])) == ROW_AT
    assert 0 < CELL_AT[0] < 1 and 0 < CELL_AT[1] < 1  # a cell's own label lies inside it


# ---- on a scanned photo ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scanned() -> tuple[Any, dict]:
    photo = render_photo(1, long_side=2016, partial=False)
    result = scan_image(photo.jpeg, overlay=True)
    return result, result.to_json()


def _near(canvas: np.ndarray, x: float, y: float, colour: tuple[int, int, int], radius: int) -> int:
    """How many pixels within ``radius`` of (x, y) are within 40 of ``colour``."""
    h, w = canvas.shape[:2]
    box = canvas[max(0, int(y) - radius) : int(y) + radius + 1, max(0, int(x) - radius) : int(x) + radius + 1]
    return int((np.abs(box.astype(int) - colour).max(axis=2) < 40).sum())


@pytest.mark.slow
def test_the_written_overlay_shows_each_coordinate_where_the_layout_puts_it(scanned) -> None:
    result, out = scanned
    outlines = {(c["row"], c["col"]): c["outline"] for c in out["cells"]}
    labels = label_layout(result.city, outlines)
    coords = [lb for lb in labels if lb.kind != "cell"]
    assert len(coords) == result.city.n_rows + result.city.n_cols
    canvas = result.overlay
    base, _ = overlay_base(result.geometry.photo, max(canvas.shape[:2]))
    h, w = canvas.shape[:2]
    radius = max(3, round(max(h, w) / 250))
    for lb in coords:
        drawn = _near(canvas, lb.x * w, lb.y * h, COORD, radius)
        assert drawn >= 4 and drawn > 2 * _near(base, lb.x * w, lb.y * h, COORD, radius), lb.text
    # Half a cell off the anchor, a letter is not where the layout says it is: the check can fail.
    a = coords[0]
    off = quad_point(outlines[(0, 0)], COLUMN_AT[0], COLUMN_AT[1] + 1.5)
    assert _near(canvas, off[0] * w, off[1] * h, COORD, radius) < _near(
        canvas, a.x * w, a.y * h, COORD, radius
    )


@pytest.mark.slow
def test_the_page_and_the_overlay_name_the_same_cells_at_the_same_places(scanned) -> None:
    result, out = scanned
    labels = label_layout(result.city, {(c["row"], c["col"]): c["outline"] for c in out["cells"]})
    by_cell = {lb.cell: lb for lb in labels if lb.cell}
    columns = {lb.text: lb for lb in labels if lb.kind == "column"}
    for cell in out["cells"]:  # what the page is sent: each cell's name and outline
        if cell["label"] != ".":
            label = by_cell[(cell["row"], cell["col"])]
            assert label.text.split(" ")[0] == cell["name"]
            assert (label.x, label.y) == pytest.approx(quad_point(cell["outline"], *CELL_AT))
        if cell["row"] == 0:
            letters = cell["name"][:-1]
            x, y = quad_point(cell["outline"], *COLUMN_AT)  # where overlay.js writes columnName(c)
            assert (columns[letters].x, columns[letters].y) == pytest.approx((x, y))


@pytest.mark.browser
def test_the_pages_cell_names_are_the_scans(scanned, page) -> None:
    _, out = scanned
    source = (OVERLAY_JS.parent / "city.js").read_text(encoding="utf-8")
    cells = [[c["row"], c["col"]] for c in out["cells"]] + [[0, 25], [0, 26], [3, 51]]
    names = page.evaluate(
        """async ([source, cells]) => {
          const m = await import("data:text/javascript;base64," + btoa(unescape(encodeURIComponent(source))));
          return cells.map(([r, c]) => m.cellName(r, c));
        }""",
        [source, cells],
    )
    from scoring.city import cell_name

    assert names[: len(out["cells"])] == [c["name"] for c in out["cells"]]
    assert names == [cell_name(r, c) for r, c in cells]
