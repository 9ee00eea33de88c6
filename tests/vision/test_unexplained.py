"""A block no card explains, read again over a wider search, and the city decoded again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import numpy as np

from vision.cards.pieces import quadrants
from vision.cells.reading import CellReading
from vision.cells.topdown import TopDown
from vision.cells.white_balance import lattice_box
from vision.city.geometry import Geometry
from vision.city.read_cards import stack_city
from vision.city.unexplained import read_unexplained_again, unexplained_blocks
from vision.lattice.fit import Lattice

Label = tuple[str | None, str | None]
LABELS: list[Label] = [(z, r) for z in "RCI" for r in (None, "NS", "NE", "NW", "SE", "SW", "EW")]
LABELS += [("P", None), (None, None)]
PITCH = (89.0, 63.5)


def _reading(label: Label, p: float, hidden: Label | None = None, table: float = 1e-5) -> CellReading:
    """A reading of ``label`` at probability ``p``, of "empty" at ``table``; every other label 1e-5
    (``hidden``, which the crop does not show, 1e-6), as a sure classifier reads."""
    dist = {lab: 1e-6 if lab == hidden else 1e-5 for lab in LABELS}
    dist[(None, None)] = table
    dist[label] = p
    zone, road = label
    if zone is None:
        return CellReading(
            None, None, p, ".", ((None, None, p),), "empty", empty_probability=p, distribution=dist
        )
    token = zone if road is None else f"{zone}:{road}"
    return CellReading(zone, road, p, token, ((zone, road, p),), distribution=dist)


def _two_card_city() -> dict[tuple[int, int], Label]:
    """Cards 1 and 2 side by side (2 × 4 blocks), in lattice cells (1..2, 1..4) of a 4 × 6 lattice."""
    truth: dict[tuple[int, int], Label] = {}
    for card, col in ((1, 1), (2, 3)):
        for dr, dc, label in quadrants(card, False):
            truth[(1 + dr, col + dc)] = label
    return truth


def _geometry(lattice: Lattice, beyond: tuple[tuple[int, int], ...] = ()) -> Geometry:
    """Enough of a Geometry for the stages after the lattice fit: every cell visible and counted, but those
    ``beyond`` the photo's edge."""
    height = int(lattice.origin[1] + lattice.rows * lattice.pitch_y) + 40
    width = int(lattice.origin[0] + lattice.cols * lattice.pitch_x) + 40
    view = TopDown(np.zeros((height, width, 3), np.uint8), np.eye(3), lattice_box(lattice))
    cells = np.ones((lattice.rows, lattice.cols), bool)
    for rc in beyond:
        cells[rc] = False
    return cast(
        Geometry,
        SimpleNamespace(
            lattice=lattice, view=view, visible=cells, occupied=cells, counts=lambda readings: cells
        ),
    )


class OffsetClassifier:
    """Reads the block nearest each centre: surely within 0.12 pitch of its true centre, farther off only
    its zone (the road half seen: a label no card shows, and the true one not at all), and "empty" at
    ``table``. ``moved`` cells lie ``shift`` pitch from their lattice centres; ``calls`` counts the centres
    read."""

    def __init__(
        self,
        lattice: Lattice,
        truth: dict[tuple[int, int], Label],
        moved: dict[tuple[int, int], float],
        shift: float,
        table: float = 1e-5,
    ) -> None:
        self.lattice, self.truth, self.calls, self.table = lattice, truth, 0, table
        self.centres = {
            rc: np.add(lattice.center(*rc), (moved.get(rc, 0.0) * shift * PITCH[0], 0.0))
            for rc in [(r, c) for r in range(lattice.rows) for c in range(lattice.cols)]
        }

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        self.calls += len(centres)
        out = []
        for x, y in centres:
            rc, at = min(self.centres.items(), key=lambda kv: np.hypot(*(kv[1] - (x, y))))
            label = self.truth.get(rc, (None, None))
            if np.hypot(*(at - (x, y))) <= 0.12 * PITCH[0]:
                out.append(_reading(label, 0.9))
            else:
                zone_only = (label[0], None) if label[0] != "P" else label
                out.append(_reading(zone_only, 0.9 - self.table, hidden=label, table=self.table))
        return out

    def lattice_readings(self) -> list[list[CellReading]]:
        lat = self.lattice
        centres = np.array([lat.center(r, c) for r in range(lat.rows) for c in range(lat.cols)])
        flat = self(cast(TopDown, None), centres, PITCH)
        return [flat[r * lat.cols : (r + 1) * lat.cols] for r in range(lat.rows)]


def test_a_lone_block_read_off_its_card_is_found_by_the_wider_search() -> None:
    lattice = Lattice((40.0, 40.0), *PITCH, 4, 6)
    truth = _two_card_city()
    # Card 2's top-left block (an industrial curve) lies 0.25 pitch left of its lattice cell: read there,
    # only its zone shows ("I", a label no card has), so the cards cannot explain the cell.
    classify = OffsetClassifier(lattice, truth, {(1, 3): -1.0}, 0.25)
    readings = classify.lattice_readings()
    geometry = _geometry(lattice)
    first = stack_city(geometry, readings, [], None)
    assert readings[1][3].label == "I" and unexplained_blocks(first, readings) == [(1, 3)]
    classify.calls = 0

    again = read_unexplained_again(geometry, readings, first, classify, [], None)
    assert 0 < classify.calls <= 35  # one cell, one grid of shifts
    decoding = again.as_cards.decoding
    assert decoding.cells[(1, 3)].label == truth[(1, 3)] and decoding.cells[(1, 3)].card == 2
    assert not unexplained_blocks(again, readings)
    # The other cells read as before.
    assert all(decoding.cells[rc].label == truth[rc] for rc in truth)


def test_a_block_the_decoding_calls_table_is_searched_too() -> None:
    lattice = Lattice((40.0, 40.0), *PITCH, 4, 6)
    truth = {rc: label for rc, label in _two_card_city().items() if rc[1] <= 2}
    truth[(1, 3)] = ("I", "NW")  # one block of a card whose other blocks the photo does not show
    # Read off its centre it looks a little like table too: cheaper as table than left unexplained.
    classify = OffsetClassifier(lattice, truth, {(1, 3): -1.0}, 0.25, table=0.2)
    readings = classify.lattice_readings()
    geometry = _geometry(lattice)
    first = stack_city(geometry, readings, [], None)
    assert first.as_cards.decoding.cells[(1, 3)].source == "empty" and readings[1][3].kind == "block"
    assert unexplained_blocks(first, readings) == [(1, 3)]
    classify.calls = 0
    # Searched; but no card can show that block alone beside empty cells, so the decoding stays.
    assert read_unexplained_again(geometry, readings, first, classify, [], None) is first
    assert classify.calls == 35


def test_a_block_the_decoding_calls_table_is_found_by_the_wider_search() -> None:
    lattice = Lattice((40.0, 40.0), *PITCH, 4, 6)
    truth = _two_card_city()
    # The photo shows one block of card 2 (the rest lies beyond its edge), and read off its centre that
    # block looks a little like table too: table is cheaper than placing card 2 for a label it lacks.
    classify = OffsetClassifier(lattice, truth, {(1, 3): -1.0}, 0.25, table=0.2)
    readings = classify.lattice_readings()
    geometry = _geometry(lattice, beyond=((1, 4), (2, 3), (2, 4)))
    first = stack_city(geometry, readings, [], None)
    assert first.as_cards.decoding.cells[(1, 3)].source == "empty"
    assert unexplained_blocks(first, readings) == [(1, 3)]
    again = read_unexplained_again(geometry, readings, first, classify, [], None)
    # Explained by a card (any card with that block: the photo shows none of its others).
    assert again.as_cards.decoding.cells[(1, 3)].label == truth[(1, 3)]
    assert again.as_cards.decoding.cells[(1, 3)].source == "card"


def test_a_block_no_position_explains_leaves_the_decoding_as_it_was() -> None:
    lattice = Lattice((40.0, 40.0), *PITCH, 4, 6)
    truth = _two_card_city()
    truth[(1, 3)] = ("R", None)  # a block with no road: no known card shows one, wherever it is read
    classify = OffsetClassifier(lattice, truth, {}, 0.0)
    readings = classify.lattice_readings()
    geometry = _geometry(lattice)
    first = stack_city(geometry, readings, [], None)
    assert unexplained_blocks(first, readings) == [(1, 3)]
    classify.calls = 0
    assert read_unexplained_again(geometry, readings, first, classify, [], None) is first
    assert classify.calls == 35  # searched all the same: 7 shifts across, 5 along


def test_neighbouring_unexplained_blocks_are_a_card_we_do_not_know_and_are_not_searched() -> None:
    lattice = Lattice((40.0, 40.0), *PITCH, 4, 6)
    truth = _two_card_city()
    # Both of card 2's left blocks read as zones alone: what an expansion's card looks like.
    classify = OffsetClassifier(lattice, truth, {(1, 3): -1.0, (2, 3): -1.0}, 0.25)
    readings = classify.lattice_readings()
    geometry = _geometry(lattice)
    first = stack_city(geometry, readings, [], None)
    kept = sorted(rc for rc, d in first.as_cards.decoding.cells.items() if d.source == "kept")
    assert kept == [(1, 3), (2, 3)] and unexplained_blocks(first, readings) == []
    classify.calls = 0
    assert read_unexplained_again(geometry, readings, first, classify, [], None) is first
    assert classify.calls == 0
