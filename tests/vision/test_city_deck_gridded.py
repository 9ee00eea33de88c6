"""A Sprawlopolis deck photo in which no bridge finds the 18 cards whole: random city edition 37 043's dark
blue industrial blocks lie near its dark blue cloth, so every card falls apart at them, and the photo was
refused ("card 1 appears twice"). The cards found are placed in their grid and the places it shows empty
filled (vision.deck.outlines.on_grid): the deck is taught, after the one tap that settles the zones' cycle."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from models.synth.city_edition import random_city_edition
from models.synth.deck import render_deck
from vision.deck import DISTANCES, card_from_meta, find_cards, whole_decks
from vision.deck.seen import describe
from vision.deck.teach_structure import BRIDGES
from vision.photo.decode import WORK_LONG_SIDE, decode_image

from .city_editions import taught_city_deck
from .test_town_deck import jpeg

pytestmark = pytest.mark.slow

SEED = 37_043


@cache
def _deck_photo() -> tuple[np.ndarray, dict]:
    rgb, truth = render_deck(SEED, ppm=3.0, edition=random_city_edition(np.random.default_rng(SEED)))
    return decode_image(jpeg(rgb), long_side=WORK_LONG_SIDE).rgb, truth


def test_no_bridge_finds_this_decks_18_cards_whole() -> None:
    rgb, _ = _deck_photo()
    assert all(whole_decks(rgb, distance) == [] for distance in DISTANCES)
    counts = [len(m.places) for b in BRIDGES[1:] if (m := find_cards(rgb, b, DISTANCES[1])) is not None]
    assert 17 in counts


def test_the_grid_places_the_cards_missed_and_the_deck_is_taught() -> None:
    _, truth = _deck_photo()
    deck = taught_city_deck(SEED)
    assert describe([card_from_meta(m) for m in deck.seen]) == truth["grid"]
