"""What a real city makes likely, weighed in the card decoding: a table cell with blocks on all four sides
is rare (vision.cards.city.ENCLOSED_HOLE_COST, measured on simulated games here)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from scoring.city import City
from scoring.placement import simulate_play
from vision.cards import city as city_cards
from vision.cells import CellReading

EMPTY = (None, None)


def _reading(
    label: tuple[str | None, str | None], p: float, other: tuple[str | None, str | None]
) -> CellReading:
    """A reading of ``label`` at probability ``p``, the rest on ``other``."""
    kind = "empty" if label == EMPTY else "block"
    options = [(label[0], label[1], p), (other[0], other[1], 1 - p)]
    base = CellReading.from_options(options, kind)
    return replace(base, distribution={label: p, other: 1 - p}, empty_probability=p if kind == "empty" else 0)


def _readings(city: City, table_at: tuple[int, int]) -> list[list[CellReading]]:
    """The city (with a ring of table) read surely, except ``table_at`` (city coordinates): read as table
    at 98 % whatever lies there, its true block the 2 % left."""
    rows, cols = city.n_rows + 2, city.n_cols + 2
    out = [[_reading(EMPTY, 0.99, ("P", None)) for _ in range(cols)] for _ in range(rows)]
    for r, c, cell in city.cells():
        label = (cell.zone, cell.road) if cell.is_block else EMPTY
        other = ("P", None) if label == EMPTY else EMPTY
        if (r, c) == table_at:
            out[r + 1][c + 1] = _reading(EMPTY, 0.98, label if label != EMPTY else ("P", None))
        else:
            out[r + 1][c + 1] = _reading(label, 0.97, other)
    return out


def _enclosed_cells(city: City, holes: bool) -> list[tuple[int, int]]:
    """Cells with blocks on all four sides that are (``holes``) or are not table."""
    grid = city.grid
    return [
        (r, c)
        for r in range(1, city.n_rows - 1)
        for c in range(1, city.n_cols - 1)
        if all(grid[rr][cc].is_block for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        and grid[r][c].is_block != holes
    ]


def _decoded_label(readings: list[list[CellReading]], at: tuple[int, int]) -> str:
    shape = (len(readings), len(readings[0]))
    counts = np.ones(shape, bool)
    decoded = city_cards.read_as_cards(
        [list(row) for row in readings], readings, counts, counts, fresh=True
    ).readings
    cell = decoded[at[0] + 1][at[1] + 1]
    assert cell is not None
    return cell.label


def _city_with(holes: bool) -> tuple[City, tuple[int, int]]:
    for seed in range(200):
        city = simulate_play(random.Random(seed)).city
        cells = _enclosed_cells(city, holes)
        if cells:
            return city, cells[0]
    raise AssertionError("no simulated city has such a cell")


def test_an_enclosed_block_read_as_table_surely_is_read_as_the_block_its_card_shows() -> None:
    city, at = _city_with(holes=False)
    true = city.grid[at[0]][at[1]].token()
    assert _decoded_label(_readings(city, at), at) == true


def test_without_the_prior_the_same_enclosed_block_stays_table(monkeypatch: pytest.MonkeyPatch) -> None:
    city, at = _city_with(holes=False)
    monkeypatch.setattr(city_cards, "ENCLOSED_HOLE_COST", 0.0)
    assert _decoded_label(_readings(city, at), at) == "."


def test_a_true_hole_with_blocks_on_all_four_sides_stays_table() -> None:
    city, at = _city_with(holes=True)
    assert _decoded_label(_readings(city, at), at) == "."


def test_the_hole_cost_is_the_prior_measured_on_simulated_games_less_the_classifiers_own() -> None:
    enclosed = holes = 0
    for seed in range(400):
        city = simulate_play(random.Random(seed)).city
        enclosed += len(_enclosed_cells(city, holes=False)) + len(_enclosed_cells(city, holes=True))
        holes += len(_enclosed_cells(city, holes=True))
    prior = math.log((enclosed - holes) / holes)
    classifier_own = math.log(3.0)  # a quarter of its training crops are empty (models/cellset.py)
    assert pytest.approx(prior - classifier_own, abs=0.5) == city_cards.ENCLOSED_HOLE_COST
