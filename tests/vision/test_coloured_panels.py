"""Issue 39: a panel of coloured tiles with the table around it (fewer cells than the count bounds refuse)
is refused by its colours when its region is located and rectified, before any lattice is fitted or read
(the service's way and the town's: tests/vision/test_patterned_photos.py, beside the mosaic's); the cards of
honest cities and towns show few colours."""

from __future__ import annotations

import numpy as np
import pytest

import vision.city.geometry
import vision.towns.geometry
from models.synth.scene import render_photo
from models.synth.wagons.photo import render_town_photo
from tests.pathological import PHOTOS, counting, jpeg
from vision.city.geometry import small_copy
from vision.lattice import TooManyCards, locate_city
from vision.lattice.bounds import GAME_CELLS, TooManyColours, check_region
from vision.lattice.colours import COLOUR_BIN, MAX_CARD_COLOURS, region_colours
from vision.photo.decode import decode_image
from vision.pipeline import WORK_LONG_SIDE, scan_image


def _located_colours(data: bytes) -> int:
    small, _ = small_copy(decode_image(data, long_side=WORK_LONG_SIDE).rgb)
    return locate_city(small).colours


def test_a_regions_colours_are_the_fewest_that_cover_four_fifths_of_it() -> None:
    image = np.zeros((100, 200, 3), np.uint8)
    image[:, :100] = (200, 40, 40)  # red
    image[:, 100:] = (40, 40, 200)  # blue
    mask = np.full((100, 200), 255, np.uint8)
    assert region_colours(image, mask) == 2
    image[:, 150:] = (40, 200, 40)  # green, a quarter: red and blue cover 75 %, short of 80 %
    assert region_colours(image, mask) == 3
    mask[:, :] = 0
    mask[:, :100] = 255  # the red half alone
    assert region_colours(image, mask) == 1
    assert region_colours(image, np.zeros_like(mask)) == 0


def test_a_region_of_many_random_colours_counts_many() -> None:
    rng = np.random.default_rng(0)
    tiles = rng.integers(0, 256, (10, 10, 3), dtype=np.uint8)
    image = np.kron(tiles, np.ones((20, 20, 1), np.uint8))  # 100 tiles of 20 × 20 px
    colours = region_colours(image, np.full(image.shape[:2], 255, np.uint8))
    assert colours > MAX_CARD_COLOURS and COLOUR_BIN == 12


def test_a_region_in_more_colours_than_cards_show_is_refused_whatever_its_cells() -> None:
    mask = np.zeros((500, 500), np.uint8)
    mask[100:400, 100:400] = 255
    cell_mm = (15.0, 15.0)  # 30 × 30 px: 100 cells, 25 at half the scale
    check_region(mask, np.eye(3), cell_mm, colours=MAX_CARD_COLOURS)
    with pytest.raises(TooManyColours) as refused:
        check_region(mask, np.diag([0.5, 0.5, 1.0]), cell_mm, colours=MAX_CARD_COLOURS + 1)
    assert refused.value.cells == 25 and refused.value.colours == MAX_CARD_COLOURS + 1
    assert refused.value.code == "too_many_cards" and isinstance(refused.value, TooManyCards)
    assert "41 different colours" in str(refused.value) and "at most 18 cards" in str(refused.value)


def test_the_cards_of_an_honest_city_and_town_show_a_few_colours() -> None:
    for data in (render_photo(3).jpeg, render_town_photo(7).jpeg):
        assert 1 <= _located_colours(data) <= MAX_CARD_COLOURS // 2


@pytest.mark.parametrize("name", ["framed tiles", "small panel"])
def test_a_panel_of_tiles_on_a_table_is_refused_before_any_lattice_is_fitted_or_read(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fits = counting(monkeypatch, vision.city.geometry, "fit_lattice")
    timings: dict[str, float] = {}
    with pytest.raises(TooManyColours) as refused:
        scan_image(jpeg(PHOTOS[name]()), timings=timings)
    assert refused.value.colours > MAX_CARD_COLOURS
    assert fits == [] and set(timings) == {"decode", "locate", "rectify"}


def test_the_small_panel_holds_fewer_cells_than_a_game_so_only_its_colours_refuse_it() -> None:
    with pytest.raises(TooManyColours) as refused:
        scan_image(jpeg(PHOTOS["small panel"]()))
    assert refused.value.cells <= GAME_CELLS
