"""Issue 39: a photo of a patterned surface (a mosaic of card-like tiles, a tiled floor) is refused by the
rectification's count of its cells, before any lattice is fitted or read, on the city's way and the
town's; an honest photo's card region holds far fewer cells than the bound."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vision.city.geometry
import vision.towns.arbitrate as support
import vision.towns.geometry
from games import GameRequest, scan_photo
from models.synth.scene import render_photo
from tests.pathological import PHOTOS, counting, jpeg
from vision.city.geometry import small_copy
from vision.lattice import (
    BLOCK_H_MM,
    BLOCK_W_MM,
    MAX_REGION_CELLS,
    PX_PER_MM,
    TooManyCards,
    locate_city,
    measure_periods,
    rectify_city,
)
from vision.lattice.bounds import GAME_CELLS, MAX_CARDS, TooManyColours, check_region, region_cells
from vision.photo.decode import decode_image
from vision.pipeline import WORK_LONG_SIDE, scan_image
from vision.towns import town_game_evidence
from vision.towns.geometry import MAX_TOWN_CELLS
from vision.towns.scan import shipped_reader


def test_a_card_region_is_counted_in_cells_of_the_top_down_view() -> None:
    mask = np.zeros((300, 400), np.uint8)
    mask[50:250, 100:300] = 255  # 200 × 200 px at 1 px a pixel of the view
    cell_mm = (20.0, 25.0)  # 40 × 50 px at PX_PER_MM = 2
    assert PX_PER_MM == 2.0
    assert region_cells(mask, np.eye(3), cell_mm) == 20
    assert region_cells(mask, np.diag([2.0, 2.0, 1.0]), cell_mm) == 80  # the view twice as large each way


def test_a_region_of_more_cells_than_every_card_of_a_game_at_half_pitch_is_refused() -> None:
    assert MAX_REGION_CELLS == 4 * GAME_CELLS == 4 * 4 * MAX_CARDS
    mask = np.zeros((500, 500), np.uint8)
    mask[50:450, 50:450] = 255  # 64 % of the photo: table around it
    tiny = (10.0, 10.0)  # 400 cells of 20 × 20 px
    with pytest.raises(TooManyCards) as refused:
        check_region(mask, np.eye(3), tiny)
    assert refused.value.cells == 400 and refused.value.code == "too_many_cards"
    assert "at most 18 cards" in str(refused.value)
    check_region(mask, np.diag([0.5, 0.5, 1.0]), tiny)  # 100 cells: a game's lattice at half pitch


def test_a_region_filling_the_photo_is_held_to_a_whole_games_cells() -> None:
    tiny = (10.0, 10.0)
    edge_to_edge = np.full((400, 400), 255, np.uint8)
    with pytest.raises(TooManyCards):
        check_region(edge_to_edge, np.diag([0.5, 0.5, 1.0]), tiny)  # 100 cells, no table seen
    check_region(edge_to_edge, np.diag([0.4, 0.4, 1.0]), tiny)  # 64 cells: no more than a game has
    framed = np.zeros((400, 400), np.uint8)
    framed[20:380, 20:380] = 255  # 81 % of the photo, table around it: 81 cells pass
    check_region(framed, np.diag([0.5, 0.5, 1.0]), tiny)


@pytest.mark.parametrize("name", ["mosaic", "tile floor", "two cities"])
def test_a_patterned_photo_is_refused_before_any_lattice_is_fitted_or_read(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fits = counting(monkeypatch, vision.city.geometry, "fit_lattice")
    timings: dict[str, float] = {}
    with pytest.raises(TooManyCards) as refused:
        scan_image(jpeg(PHOTOS[name]()), timings=timings)
    assert refused.value.cells > GAME_CELLS
    assert fits == []
    assert set(timings) == {"decode", "locate", "rectify"}  # no lattice, classify or arbitrate stage


# A mosaic is refused by its cells, a panel of coloured tiles on a table by its colours.
REFUSED = [("mosaic", TooManyCards), ("framed tiles", TooManyColours)]


@pytest.mark.parametrize(("name", "refusal"), REFUSED)
def test_the_service_path_refuses_a_pattern_without_looking_for_a_town(
    name: str, refusal: type[TooManyCards], monkeypatch: pytest.MonkeyPatch
) -> None:
    town_fits = counting(monkeypatch, vision.towns.geometry, "fit_lattice")
    timings: dict[str, float] = {}
    with pytest.raises(refusal):
        scan_photo(jpeg(PHOTOS[name]()), GameRequest(), timings=timings)
    assert "game" not in timings and town_fits == []


@pytest.mark.parametrize(("name", "refusal"), REFUSED)
def test_a_pattern_named_a_town_is_refused_before_any_town_lattice_is_fitted(
    name: str, refusal: type[TooManyCards], monkeypatch: pytest.MonkeyPatch
) -> None:
    town_fits = counting(monkeypatch, vision.towns.geometry, "fit_lattice")
    timings: dict[str, float] = {}
    with pytest.raises(refusal):
        scan_photo(jpeg(PHOTOS[name]()), GameRequest(game="wagons"), timings=timings)
    assert town_fits == [] and "town" not in timings


def test_an_honest_citys_region_holds_far_fewer_cells_than_the_bound() -> None:
    rgb = decode_image(render_photo(3).jpeg, long_side=WORK_LONG_SIDE).rgb
    small, _ = small_copy(rgb)
    located = locate_city(small)
    periods = measure_periods(located, small)
    rect = rectify_city(located, small, periods=periods)
    cells = region_cells(located.mask, rect.homography, (BLOCK_W_MM, BLOCK_H_MM))
    assert 20 <= cells <= MAX_REGION_CELLS // 3


def test_a_town_lattice_of_more_cells_than_18_cards_show_is_never_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[int] = []
    real = support.read_and_decode

    def recorded(geometry: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(int(geometry.occupied.sum()))
        return real(geometry, *args, **kwargs)

    monkeypatch.setattr(support, "read_and_decode", recorded)
    panel = decode_image(jpeg(PHOTOS["framed tiles"]()), long_side=WORK_LONG_SIDE).rgb
    evidence = town_game_evidence(panel, shipped_reader())
    assert evidence.explained < 0.5  # no town in a panel of tiles
    assert all(cells <= MAX_TOWN_CELLS for cells in read)
