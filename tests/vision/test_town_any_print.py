"""Any print of Circle the Wagons: a deck photo of a print nobody designed for (a random edition of the
renderer, models.synth.wagons.edition) teaches the scanner from the 18 cards' structure alone, its towns are
then read by the look it learned, and without the deck the same town is not scored (needs_deck).

Edition seed 701 draws flat fills, outlines and silhouettes unlike the boxed look the shipped reader
learned; its deck photo is drawn at 3 px/mm and the town photo at 1000 px on its long side, once a module.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from models.synth.wagons.deck import render_wagons_deck
from models.synth.wagons.edition import random_edition
from models.synth.wagons.photo import render_town_photo
from scoring.wagons import parse_town
from scoring.wagons.cards import CARDS, card_grid
from scoring.wagons.town import TERRAINS
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.deck import load_town_deck, taught_reader, teach_town_deck
from vision.towns.deck.structure import NoStructure, learn_look, name_fills
from vision.towns.scan import scan_town, shipped_reader

from .test_town_deck import jpeg, right

EDITION_SEED = 701


@cache
def edition_deck() -> tuple[bytes, dict]:
    rgb, truth = render_wagons_deck(
        EDITION_SEED, ppm=3.0, edition=random_edition(np.random.default_rng(EDITION_SEED))
    )
    return jpeg(rgb), truth


@cache
def edition_town():  # type: ignore[no-untyped-def]
    edition = random_edition(np.random.default_rng(EDITION_SEED))
    photo = render_town_photo(10 * EDITION_SEED, look=EDITION_SEED, edition=edition, long_side=1000)
    return decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb, parse_town(photo.truth.city)


def _layout_groups(naming: str) -> np.ndarray:
    """Each card's four territories (TL, TR, BL, BR) as fill groups: group ``naming.index(terrain)``."""
    return np.array([naming.index(t.terrain) for n in sorted(CARDS) for t in CARDS[n]])


def test_the_one_naming_of_six_fill_groups_that_makes_every_card_a_known_one_is_found() -> None:
    naming = "WSPMFD"  # group 0 is water, group 1 snow, ...
    found, named, runner_up = name_fills(_layout_groups(naming))
    assert (found, named) == (naming, 18)
    assert runner_up < 18  # no other naming explains the whole deck


def test_cards_turned_by_180_degrees_are_named_as_well() -> None:
    naming = "DFMPSW"
    groups = []
    for n in sorted(CARDS):
        (tl, tr), (bl, br) = card_grid(n, rotated=n % 2 == 1)
        groups += [naming.index(t.terrain) for t in (tl, tr, bl, br)]
    assert name_fills(np.array(groups))[:2] == (naming, 18)


def test_fills_of_no_structure_are_refused_with_a_reason() -> None:
    rng = np.random.default_rng(0)
    fills = rng.uniform(0, 100, (72, 3)).astype(np.float32)
    masks = rng.uniform(0, 1, (72, 16, 16)).astype(np.float32)
    with pytest.raises(NoStructure, match="do not match the 18 cards' territories"):
        learn_look(fills, masks)


def test_every_terrain_layout_is_a_different_card_either_way_round() -> None:
    layouts = [
        tuple(t.terrain for row in card_grid(n, turned) for t in row)
        for n, turned in itertools.product(sorted(CARDS), (False, True))
    ]
    assert len(set(layouts)) == len(layouts) == 36
    assert set(TERRAINS) == {t for layout in layouts for t in layout}


@pytest.mark.slow
def test_a_deck_photo_of_an_edition_nobody_designed_for_teaches_all_18_cards_by_their_structure() -> None:
    photo, truth = edition_deck()
    teaching = teach_town_deck(photo, reader=shipped_reader())
    assert teaching.describe() == truth["grid"]  # each card's number and turn where it lies
    assert teaching.deck.source["named_by"] == "structure"
    assert teaching.deck.look is not None


@pytest.mark.slow
def test_the_taught_look_survives_the_deck_file() -> None:
    deck = teach_town_deck(edition_deck()[0], reader=shipped_reader()).deck
    again = load_town_deck(deck.to_bytes(), "mine.deck")
    assert again.look is not None and deck.look is not None
    assert np.abs(again.look.fills - deck.look.fills).max() < 0.1
    assert (again.look.icon_of == deck.look.icon_of).all() and again.look.aliases == deck.look.aliases


@pytest.mark.slow
def test_a_town_of_that_edition_is_read_whole_with_the_taught_deck() -> None:
    rgb, truth = edition_town()
    deck = teach_town_deck(edition_deck()[0], reader=shipped_reader()).deck
    scan = scan_town(rgb, reader=taught_reader(deck, shipped_reader()), taught=True)
    assert scan.retake is None and not scan.needs_deck
    assert right(scan.town, truth) == sum(t is not None for row in truth.grid for t in row)
    assert scan.to_json()["total"] is not None


@pytest.mark.slow
def test_the_same_town_without_its_deck_is_not_scored_and_names_teaching() -> None:
    rgb, _ = edition_town()
    scan = scan_town(rgb)
    assert scan.needs_deck
    assert scan.retake is not None and "sprawlscan teach" in scan.retake
    out = scan.to_json()
    assert out["total"] is None and out["items"] == [] and out["needs_deck"] is True
