"""Per-photo zone colour normalisation, on rendered cities given the zone-dependent shift real photos show."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from models.synth.art import render_city_topdown
from scoring.placement import simulate_play
from vision.cells.classify import classify_cells
from vision.cells.white_balance import balance_whites, lattice_box
from vision.cells.zone_colour import REFERENCE_AB, apply_zone_map, cell_ab, fit_zone_map, worth_applying
from vision.lattice.fit import PX_PER_MM, Lattice

# b* shift per zone measured in a real photo under warm light, after the white balance (real-cards.md).
WARM_INKS = {"R": 1.0, "C": 9.5, "I": 9.5, "P": 6.0}


def _city(seed: int):
    play = simulate_play(random.Random(seed), 15)
    td = render_city_topdown(play, np.random.default_rng(seed), PX_PER_MM, table="dark")
    return td, balance_whites(td.image, lattice_box(td.lattice))


def _with_shift(td, image: np.ndarray, shift: dict[str, float]) -> np.ndarray:
    """``image`` with each block's b* raised by its zone's shift."""
    lab = cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)
    lat = td.lattice
    for r, c, cell in td.city.blocks():
        x, y = lat.center(r, c)
        x0, x1 = int(x - lat.pitch_x / 2), int(x + lat.pitch_x / 2)
        y0, y1 = int(y - lat.pitch_y / 2), int(y + lat.pitch_y / 2)
        lab[y0:y1, x0:x1, 2] += shift[cell.zone or "P"]
    rgb = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    return np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def _zones_right(td, predictions) -> tuple[int, int]:
    right = total = 0
    for r, c, cell in td.city.blocks():
        total += 1
        right += predictions[r][c].zone == cell.zone
    return right, total


def _fit(td, image: np.ndarray, predictions):
    cells = [(r, c) for r, c, _ in td.city.blocks() if predictions[r][c].zone]
    return fit_zone_map(cell_ab(image, td.lattice, cells), [predictions[r][c].zone for r, c in cells])


@pytest.mark.parametrize("seed", [70_000_011, 70_000_012])
def test_a_zone_dependent_shift_is_taken_out_and_commercial_reads_as_commercial_again(seed: int) -> None:
    td, balanced = _city(seed)
    shifted = _with_shift(td, balanced, WARM_INKS)
    first = classify_cells(shifted, td.lattice, balance=False)
    zone_map = _fit(td, shifted, first)
    assert zone_map is not None and worth_applying(zone_map)
    again = classify_cells(apply_zone_map(shifted, zone_map), td.lattice, balance=False)
    before, total = _zones_right(td, first)
    after, _ = _zones_right(td, again)
    clean, _ = _zones_right(td, classify_cells(balanced, td.lattice, balance=False))
    assert after >= clean - 1  # back to (about) what the unshifted city reads
    assert after >= before
    # The commercial centre found in the photo sits where the shift put it, and the map takes it home.
    c_found = np.array(zone_map.centres["C"])
    assert abs(zone_map(c_found[None])[0] - REFERENCE_AB["C"]).max() < 4.0


def test_a_city_without_a_shift_is_left_as_it_is() -> None:
    td, balanced = _city(70_000_013)
    first = classify_cells(balanced, td.lattice, balance=False)
    zone_map = _fit(td, balanced, first)
    if zone_map is not None and worth_applying(zone_map):  # a small map must not change the reading
        again = classify_cells(apply_zone_map(balanced, zone_map), td.lattice, balance=False)
        assert _zones_right(td, again)[0] >= _zones_right(td, first)[0] - 1


def test_the_reference_colours_are_where_the_renderer_puts_the_zones() -> None:
    found: dict[str, list[np.ndarray]] = {z: [] for z in "RCIP"}
    for seed in range(90_000_000, 90_000_006):
        play = simulate_play(random.Random(seed), 15)
        td = render_city_topdown(play, np.random.default_rng(seed), PX_PER_MM)
        balanced = balance_whites(td.image, lattice_box(td.lattice))
        cells = [(r, c) for r, c, _ in td.city.blocks()]
        for (r, c), ab in zip(cells, cell_ab(balanced, td.lattice, cells), strict=True):
            found[td.city.cell(r, c).zone or "P"].append(ab)
    for zone, values in found.items():
        assert np.abs(np.median(values, axis=0) - REFERENCE_AB[zone]).max() < 3.0, zone


def test_too_few_zones_fit_no_map() -> None:
    ab = np.array([REFERENCE_AB["R"]] * 5 + [REFERENCE_AB["P"]] * 5)
    assert fit_zone_map(ab, ["R"] * 5 + ["P"] * 5) is None


def test_an_implausible_map_is_refused() -> None:
    # "Commercial" and "industrial" far from where any print or light puts them: a misreading, not a photo.
    ab = np.array(
        [REFERENCE_AB["R"]] * 4 + [(60.0, 60.0)] * 4 + [(-60.0, 60.0)] * 4 + [REFERENCE_AB["P"]] * 4
    )
    assert fit_zone_map(ab, ["R"] * 4 + ["C"] * 4 + ["I"] * 4 + ["P"] * 4) is None


def test_cell_colours_and_the_map_are_the_per_cell_float32_computation_to_the_bit() -> None:
    rng = np.random.default_rng(4)
    image = rng.integers(0, 256, (300, 420, 3), dtype=np.uint8)
    # Pitch and offsets that give cores of several shapes, some cut by the image's edge, one too small.
    offsets = rng.uniform(-6, 6, (5, 5, 2))
    offsets[4, 4] = (120.0, 0.0)
    lattice = Lattice((-20.0, -10.0), 88.9, 63.3, 5, 5, offsets)
    cells = [(r, c) for r in range(5) for c in range(5)]
    hx, hy = 0.35 * lattice.pitch_x, 0.35 * lattice.pitch_y
    expected = np.zeros((len(cells), 2), np.float32)
    for i, (r, c) in enumerate(cells):
        cx, cy = lattice.center(r, c)
        x0, x1, y0, y1 = (
            int(max(0, cx - hx)),
            int(min(420, cx + hx)),
            int(max(0, cy - hy)),
            int(min(300, cy + hy)),
        )
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            core = np.ascontiguousarray(image[y0:y1:2, x0:x1:2]).astype(np.float32) / 255.0
            expected[i] = np.median(cv2.cvtColor(core, cv2.COLOR_RGB2LAB)[..., 1:].reshape(-1, 2), axis=0)
    got = cell_ab(image, lattice, cells)
    assert np.array_equal(got, expected) and not got[-1].any()
    zone_map = fit_zone_map(
        np.array([np.add(REFERENCE_AB[z], (1.0, 6.0)) for z in "RCIP" for _ in range(4)]),
        [*"RRRRCCCCIIIIPPPP"],
    )
    affine = np.zeros((3, 4), np.float32)
    affine[0, 0], affine[1:, 1:3], affine[1:, 3] = 1.0, zone_map.matrix, zone_map.offset
    lab = cv2.transform(cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB), affine)
    plain = np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    assert np.array_equal(apply_zone_map(image, zone_map), plain)
