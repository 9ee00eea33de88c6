"""Editions of Sprawlopolis (``models.synth.city_edition``): the shipped look stays the default byte for
byte, an edition's zones wear its colours (textured or flat), random editions keep their zones and road
apart, and the deck and city photos draw them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from models.synth.art import render_city_card
from models.synth.blocks import BLOCK_H, BLOCK_W
from models.synth.city_edition import (
    BLUE_MAGENTA,
    MIN_ROAD_DELTA_E,
    MIN_ZONE_DELTA_E,
    ZONES,
    CityEdition,
    city_edition_from_json,
    random_city_edition,
)
from models.synth.deck import city_photo, deck_art, render_deck
from models.synth.palette import GROUND, lab, min_delta_e
from models.synth.scene import render_photo
from scoring.layouts import card_blocks

PPM = 3.0


def _editions(n: int) -> list[CityEdition]:
    return [random_city_edition(np.random.default_rng([seed, 38])) for seed in range(n)]


def _block_median(rgb: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """The median CIELAB of block (dr, dc), 3 mm in from its edges."""
    x0, y0 = int((dc * BLOCK_W + 3) * PPM), int((dr * BLOCK_H + 3) * PPM)
    x1, y1 = int(((dc + 1) * BLOCK_W - 3) * PPM), int(((dr + 1) * BLOCK_H - 3) * PPM)
    median = np.median(rgb[y0:y1, x0:x1].reshape(-1, 3), axis=0)
    return lab(tuple(int(v) for v in median))


def test_a_render_without_an_edition_is_the_shipped_look_byte_for_byte() -> None:
    blocks = card_blocks(3)
    plain = render_city_card(blocks, np.random.default_rng(5), PPM).rgb
    assert np.array_equal(plain, render_city_card(blocks, np.random.default_rng(5), PPM, None).rgb)
    deck, truth = render_deck(2, ppm=1.5)
    again, truth_again = render_deck(2, ppm=1.5, edition=None)
    assert np.array_equal(deck, again) and truth == truth_again and "edition" not in truth
    photo, same = render_photo(8, long_side=400), render_photo(8, long_side=400, edition=None)
    assert photo.jpeg == same.jpeg and "edition" not in photo.truth.conditions
    assert json.dumps(photo.truth.to_json()) == json.dumps(same.truth.to_json())


def test_blue_magenta_residential_blocks_are_blue_and_parks_magenta() -> None:
    rgb = render_city_card(card_blocks(1), np.random.default_rng(1), PPM, BLUE_MAGENTA).rgb  # C P / I R
    park, residential = _block_median(rgb, 0, 1), _block_median(rgb, 1, 1)
    assert park[1] > 20 and park[2] < 0, park  # magenta: red-purple
    assert residential[2] < -15, residential  # blue
    shipped = render_city_card(card_blocks(1), np.random.default_rng(1), PPM).rgb
    assert _block_median(shipped, 0, 1)[1] < -5  # the shipped park is green


def test_a_flat_edition_paints_each_block_its_zones_ground() -> None:
    edition = next(e for e in _editions(10) if not e.textured)
    rgb = render_city_card(card_blocks(4), np.random.default_rng(2), PPM, edition).rgb  # P C / R I
    park = rgb[int(4 * PPM) : int(12 * PPM), int(4 * PPM) : int(16 * PPM)].reshape(-1, 3).astype(float)
    assert park.std(axis=0).max() < 5  # flat: one colour
    assert np.linalg.norm(lab(tuple(int(v) for v in park.mean(axis=0))) - lab(edition.grounds["P"])) < 6


def test_random_city_editions_keep_their_zones_and_road_apart() -> None:
    editions = _editions(40)
    shuffled = [e for e in editions if set(e.grounds.values()) == set(GROUND.values())]
    drawn = [tuple(e.grounds[z] for z in ZONES) for e in editions if e not in shuffled]
    assert shuffled and len(set(drawn)) == len(drawn) == len(editions) - len(shuffled)
    for e in editions:
        grounds = [e.grounds[z] for z in ZONES]
        assert min_delta_e(grounds) >= min(MIN_ZONE_DELTA_E, min_delta_e(list(GROUND.values())))
        assert min(float(np.linalg.norm(lab(e.road) - lab(g))) for g in grounds) >= MIN_ROAD_DELTA_E
    for e in shuffled:  # the shipped colours dealt to other zones: none keeps its own
        assert all(e.grounds[z] != GROUND[z] for z in ZONES)
    assert {e.textured for e in editions} == {True, False}
    assert {e.road_dash is None for e in editions} == {True, False}


def test_deck_and_city_photos_render_for_random_editions() -> None:
    for k, edition in enumerate(_editions(5)):
        deck, truth = render_deck(k, ppm=1.5, edition=edition)
        assert deck.ndim == 3 and truth["edition"] == edition.to_json()
        photo = render_photo(k, long_side=400, n_cards=3, edition=edition)
        assert photo.truth.conditions["edition"]["grounds"]["R"] == list(edition.grounds["R"])
    art = deck_art(3, 1.5, edition)
    city = city_photo(art, [(1, False), (2, True)], cols=2, ppm=1.5)
    assert not np.array_equal(art[1], deck_art(3, 1.5)[1]) and city.shape[2] == 3


def test_something_that_is_not_a_city_edition_is_refused() -> None:
    with pytest.raises(ValueError, match="CityEdition"):
        render_deck(0, ppm=1.5, edition="blue")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="CityEdition"):
        render_photo(0, long_side=400, edition={"R": (0, 0, 255)})  # type: ignore[arg-type]


def test_a_city_edition_read_back_from_its_json_is_the_same_edition() -> None:
    for edition in [BLUE_MAGENTA, *_editions(10)]:
        again = city_edition_from_json(json.loads(json.dumps(edition.to_json())))
        assert again == edition and hash(again) == hash(edition)
    with pytest.raises(ValueError, match="missing"):
        city_edition_from_json({"name": "x", "grounds": {"R": [1, 2, 3]}})
