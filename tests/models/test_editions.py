"""Editions of Circle the Wagons (``models.synth.wagons.edition``): the boxed print stays the default
byte for byte, the print-and-play print looks as measured, random editions are distinct printings whose
six fills a person tells apart, and every renderer draws them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from models.synth.draw import Pen
from models.synth.palette import lab, min_delta_e
from models.synth.wagons.card import CARD_H, CARD_W, TERR_H, TERR_W, render_territory, render_wagons_card
from models.synth.wagons.deck import render_wagons_deck
from models.synth.wagons.edition import (
    BOXED,
    MIN_FILL_DELTA_E,
    PRINT_AND_PLAY,
    Edition,
    edition_from_json,
    random_edition,
)
from models.synth.wagons.look import TERRAINS, sample_look
from models.synth.wagons.photo import render_town_photo
from models.synth.wagons.silhouettes import SHAPES, draw_silhouette
from scoring.wagons.cards import card_grid

PPM = 4.0


def _editions(n: int, first: int = 0) -> list[Edition]:
    return [random_edition(np.random.default_rng([seed, 37])) for seed in range(first, first + n)]


def _rim(card: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """The pixels of territory (dr, dc) in a band 2 to 4 mm inside its edge: its fill, clear of the outline
    and of the icon in the middle."""
    x0, y0 = int((dc * TERR_W + 2) * PPM), int((dr * TERR_H + 2) * PPM)
    x1, y1 = int(((dc + 1) * TERR_W - 2) * PPM), int(((dr + 1) * TERR_H - 2) * PPM)
    cell = card[y0:y1, x0:x1].astype(np.float64)
    keep = np.ones(cell.shape[:2], bool)
    b = int(2 * PPM)
    keep[b:-b, b:-b] = False
    return cell[keep]


def test_a_render_without_an_edition_is_the_boxed_print_byte_for_byte() -> None:
    look = sample_look(5)
    plain = render_wagons_card(7, look, 3.0).rgb
    assert np.array_equal(plain, render_wagons_card(7, look, 3.0, edition=None).rgb)
    assert np.array_equal(plain, render_wagons_card(7, look, 3.0, edition=BOXED).rgb)
    deck, truth = render_wagons_deck(3, ppm=1.5)
    boxed_deck, boxed_truth = render_wagons_deck(3, ppm=1.5, edition=BOXED)
    assert np.array_equal(deck, boxed_deck) and truth == boxed_truth and "edition" not in truth
    photo = render_town_photo(4, long_side=500)
    boxed = render_town_photo(4, long_side=500, edition=BOXED)
    assert photo.jpeg == boxed.jpeg
    assert json.dumps(photo.truth.to_json()) == json.dumps(boxed.truth.to_json())
    assert "edition" not in photo.truth.conditions


def test_another_edition_draws_other_pixels_from_the_same_print() -> None:
    look = sample_look(5)
    boxed = render_wagons_card(7, look, 3.0).rgb
    assert not np.array_equal(boxed, render_wagons_card(7, look, 3.0, edition=PRINT_AND_PLAY).rgb)


def test_print_and_play_territories_are_flat_with_dark_outlines_and_white_snow() -> None:
    art = render_wagons_card(3, sample_look(2), PPM, edition=PRINT_AND_PLAY).rgb  # snow, snow / snow, water
    for dr in (0, 1):
        for dc in (0, 1):
            rim = _rim(art, dr, dc)
            assert rim.std(axis=0).max() < 4.0, (dr, dc)  # flat: no texture round the icon
    assert _rim(art, 0, 0).mean(axis=0).min() > 240  # snow: the paper's white
    water = lab(tuple(int(v) for v in np.median(_rim(art, 1, 1), axis=0)))
    assert np.linalg.norm(water - lab(PRINT_AND_PLAY.fill("W"))) < 8
    # The line between the territories and round the card's edge is near black.
    mid_x, mid_y = int(TERR_W * PPM), int(TERR_H * PPM)
    assert art[int(0.25 * CARD_H * PPM), mid_x - 1 : mid_x + 1].max() < 80
    assert art[mid_y - 1 : mid_y + 1, int(0.25 * CARD_W * PPM)].max() < 80
    assert art[int(CARD_H * PPM / 2) + 20, 1].max() < 90


def test_print_and_play_icons_are_white_on_mountains_and_water_and_black_elsewhere() -> None:
    for terrain in TERRAINS:
        colour = PRINT_AND_PLAY.icon_colour(terrain)
        assert (min(colour) > 240) == (terrain in "MW"), terrain
        assert max(colour) < 40 or terrain in "MW"


def test_the_icons_of_a_silhouette_edition_are_one_colour() -> None:
    edition = PRINT_AND_PLAY
    for terrain, icon in (("D", "w"), ("M", "c"), ("F", "g")):
        img = render_territory(terrain, icon, sample_look(1), np.random.default_rng(3), PPM, edition=edition)
        px = img.reshape(-1, 3).astype(np.float64)
        fill, ink = np.array(edition.fill(terrain), float), np.array(edition.icon_colour(terrain), float)
        # Each pixel is the fill, the icon's colour or an anti-aliased blend of the two: on their segment.
        t = np.clip((px - fill) @ (ink - fill) / np.dot(ink - fill, ink - fill), 0, 1)
        off = np.linalg.norm(px - (fill + t[:, None] * (ink - fill)), axis=1)
        assert np.percentile(off, 99.9) < 6, (terrain, icon)
        assert 0.03 < float(np.mean(t > 0.9)) < 0.4  # the icon is there, a share of the territory
    boxed = render_territory("D", "w", sample_look(1), np.random.default_rng(3), PPM)
    assert len(np.unique(boxed.reshape(-1, 3) // 16, axis=0)) > 40  # the boxed icon is in full colour


def test_random_editions_differ_and_keep_six_distinguishable_fills() -> None:
    editions = _editions(30)
    fills = [tuple(e.fill(t) for t in TERRAINS) for e in editions]
    assert len(set(fills)) == len(fills)
    for e in editions:
        assert min_delta_e([e.fill(t) for t in TERRAINS]) >= MIN_FILL_DELTA_E
        assert len(set(e.shapes.values())) == 6 and set(e.shapes.values()) <= set(SHAPES)
    assert {e.textured for e in editions} == {True, False}
    assert {e.silhouette for e in editions} == {True, False}
    assert {e.line_mm > 0 for e in editions} == {True, False}
    assert any(e.fill(t) == e.paper for e in editions for t in TERRAINS)  # a terrain as white as the paper
    assert random_edition(np.random.default_rng(4)) == random_edition(np.random.default_rng(4))


def test_the_fills_of_a_flat_random_edition_stay_apart_as_printed() -> None:
    flat = [e for e in _editions(12) if not e.textured][:3]
    look = sample_look(0)
    for edition in flat:
        printed = {}
        for number in (1, 3, 0, 5, 4, 2):  # every terrain at (0, 0) or (1, 1) of one of them
            art = render_wagons_card(number, look, PPM, edition=edition).rgb
            for dr, dc in ((0, 0), (1, 1)):
                terrain = card_grid(number)[dr][dc].terrain
                printed[terrain] = tuple(int(v) for v in np.median(_rim(art, dr, dc), axis=0))
        assert set(printed) == set(TERRAINS)
        assert min_delta_e(list(printed.values())) >= 0.8 * MIN_FILL_DELTA_E


def test_deck_and_town_photos_render_for_twenty_random_editions() -> None:
    for k, edition in enumerate(_editions(20, first=100)):
        deck, truth = render_wagons_deck(k, ppm=1.5, edition=edition)
        assert (
            deck.ndim == 3
            and deck.shape[0] > 300
            and truth["edition"]["fills"]["S"] == list(edition.fill("S"))
        )
        photo = render_town_photo(k, long_side=400, n_cards=3, edition=edition)
        assert photo.image.shape[:2] == (300, 400) or photo.image.shape[:2] == (400, 300)
        assert photo.truth.conditions["edition"] == edition.to_json()
    again, _ = render_wagons_deck(19, ppm=1.5, edition=_editions(1, first=119)[0])
    assert np.array_equal(deck, again)


def test_a_silhouette_draws_every_shape_in_the_library() -> None:
    for shape in SHAPES:
        img = np.zeros((60, 60, 3), np.uint8)
        draw_silhouette(
            Pen(img, 4.0), shape, (7.5, 7.5), 10.0, (255, 255, 255), (0.0, False), np.random.default_rng(0)
        )
        covered = float((img[..., 0] > 128).mean())
        assert 0.01 < covered < 0.3, shape
    with pytest.raises(ValueError, match="no silhouette"):
        draw_silhouette(
            Pen(img, 4.0), "teapot", (7.5, 7.5), 10.0, (0, 0, 0), (0.0, False), np.random.default_rng(0)
        )


def test_something_that_is_not_an_edition_is_refused() -> None:
    with pytest.raises(ValueError, match="Edition"):
        render_wagons_card(0, sample_look(0), 2.0, edition="print-and-play")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Edition"):
        render_wagons_deck(0, ppm=1.5, edition={"fills": {}})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="boxed"):
        BOXED.fill("D")


def test_a_textured_edition_keeps_its_texture_in_the_new_colours() -> None:
    edition = next(e for e in _editions(20) if e.textured)
    art = render_wagons_card(1, sample_look(0), PPM, edition=edition).rgb
    rim = _rim(art, 0, 0)  # mountains
    assert rim.std(axis=0).max() > 8
    median = lab(tuple(int(v) for v in np.median(rim, axis=0)))
    assert np.linalg.norm(median - lab(edition.fill("M"))) < 25


def test_an_edition_read_back_from_its_json_is_the_same_edition() -> None:
    for edition in [BOXED, PRINT_AND_PLAY, *_editions(10)]:
        again = edition_from_json(json.loads(json.dumps(edition.to_json())))
        assert again == edition and hash(again) == hash(edition)
    with pytest.raises(ValueError, match="boxed"):
        edition_from_json({"name": "pastel"})
    broken = PRINT_AND_PLAY.to_json() | {"paper": [255, 255]}
    with pytest.raises(ValueError, match="three whole numbers"):
        edition_from_json(broken)
    with pytest.raises(ValueError, match="missing"):
        edition_from_json({k: v for k, v in PRINT_AND_PLAY.to_json().items() if k != "ink"})
