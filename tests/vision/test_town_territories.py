"""The territory reader (vision.towns.territories) on rendered top-down towns and tables."""

from __future__ import annotations

import numpy as np
import pytest

from models.augment import table_texture
from models.territoryset import MARGIN_MM, render_view
from vision.lattice import PX_PER_MM, Lattice
from vision.towns import TOKENS
from vision.towns import territories as terr
from vision.towns.territories import ModelError, TerritoryClassifier, read_territories

SEED = 20_004  # a town showing all six types, from seeds never trained on (training: 3 000 000 on)


def _town() -> tuple[np.ndarray, Lattice, list[list[str]]]:
    """A clean top-down town view, its lattice (centres on the territories) and the true token grid."""
    view, cells, (px, py) = render_view(SEED, (1.2, 1.2))
    rows, cols = max(r for r, *_ in cells) + 1, max(c for _, c, *_ in cells) + 1
    origin = (MARGIN_MM * PX_PER_MM, MARGIN_MM * PX_PER_MM)
    offsets = np.zeros((rows, cols, 2))
    truth = [["."] * cols for _ in range(rows)]
    for r, c, x, y, token in cells:
        offsets[r, c] = (x - origin[0] - (c + 0.5) * px, y - origin[1] - (r + 0.5) * py)
        truth[r][c] = token
    return view, Lattice(origin, px, py, rows, cols, offsets), truth


def test_every_territory_of_a_rendered_town_reads_its_type_and_icon() -> None:
    view, lattice, truth = _town()
    assert {t[0] for row in truth for t in row if t != "."} == set("DFMPSW")
    read = read_territories(view, lattice)
    assert len(read) == lattice.rows and all(len(row) == lattice.cols for row in read)
    best = [[max(cell, key=cell.get) for cell in row] for row in read]
    assert best == truth


def test_a_town_turned_by_180_degrees_reads_the_same_labels() -> None:
    view, lattice, truth = _town()
    h, w = view.shape[:2]
    centres = lattice.centres()[::-1, ::-1]
    offsets = np.stack([w - centres[..., 0], h - centres[..., 1]], axis=-1)
    shape = (lattice.pitch_x, lattice.pitch_y, lattice.rows, lattice.cols)
    nominal = Lattice((0.0, 0.0), *shape).centres()
    turned = Lattice((0.0, 0.0), *shape, offsets - nominal)
    read = read_territories(np.ascontiguousarray(view[::-1, ::-1]), turned)
    best = [[max(cell, key=cell.get) for cell in row] for row in read]
    assert best == [row[::-1] for row in truth[::-1]]


def test_a_bare_table_reads_as_table_and_each_cell_is_a_distribution() -> None:
    rng = np.random.default_rng(5)
    for kind in ("wood", "white", "dark", "blue_cloth"):
        view = table_texture(rng, 300, 260, kind)
        read = read_territories(view, Lattice((20.0, 20.0), 64.0, 89.0, 2, 2))
        for cell in (c for row in read for c in row):
            assert tuple(cell) == TOKENS
            assert sum(cell.values()) == pytest.approx(1.0, abs=1e-4)
            assert max(cell, key=cell.get) == ".", kind


def test_a_missing_model_is_a_clear_build_error(tmp_path) -> None:
    with pytest.raises(ModelError, match="territory classifier not found.*models.train_territories"):
        TerritoryClassifier(tmp_path / "territories.onnx", tmp_path / "territories.json")


def test_read_territories_says_so_when_the_shipped_model_is_missing(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(terr, "_shipped", terr.ProcessWide(lambda: TerritoryClassifier(tmp_path / "x.onnx")))
    with pytest.raises(ModelError, match="not found"):
        read_territories(np.zeros((200, 200, 3), np.uint8), Lattice((10.0, 10.0), 64.0, 89.0, 1, 1))


def test_a_malformed_view_or_lattice_is_refused_naming_the_problem() -> None:
    lattice = Lattice((10.0, 10.0), 64.0, 89.0, 1, 1)
    with pytest.raises(ValueError, match="RGB uint8"):
        read_territories(np.zeros((200, 200), np.uint8), lattice)
    with pytest.raises(TypeError, match="Lattice"):
        read_territories(np.zeros((200, 200, 3), np.uint8), (10, 10, 64, 89))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no cells"):
        read_territories(np.zeros((200, 200, 3), np.uint8), Lattice((10.0, 10.0), 64.0, 89.0, 0, 1))
