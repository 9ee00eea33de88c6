"""A Circle the Wagons deck photo in which the cards' outlines do not stand out from the table: edition 7022
of the renderer (models.synth.wagons.edition) outlines every territory and the card's edge in a blue-grey,
and its dark grey fill lies near the navy table of its deck photo, so the cards found by their outlines
against the table fall apart into their territories (65 regions for 18 cards). More cards than a deck holds
are pieces: the cards are sought again with the lines bridged (vision.towns.deck.teach._whole_cards).

Fewer cards than the grid can place are pieces too: edition 7072's dark blue and dark grey territories lie
near its dark blue cloth, so its cards fall into 11 regions, and the grid fills only 4 of the 7 places
left; three cards whose territories are all dark were never found, and the photo was refused.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from models.synth.wagons.deck import render_wagons_deck
from models.synth.wagons.edition import random_edition
from scoring.wagons.cards import CARDS
from vision.deck import find_cards
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.deck import read_deck_photo, teach_town_deck
from vision.towns.scan import shipped_reader

from .test_town_deck import jpeg

EDITION_SEED = 7022


DARK_SEED = 7072


@cache
def parted_deck(seed: int = EDITION_SEED) -> tuple[bytes, dict]:
    edition = random_edition(np.random.default_rng(seed))
    rgb, truth = render_wagons_deck(seed, ppm=3.0, edition=edition)
    return jpeg(rgb), truth


def test_the_outlines_alone_part_this_deck_photo_into_more_pieces_than_a_deck_has_cards() -> None:
    rgb = decode_image(parted_deck()[0], long_side=WORK_LONG_SIDE).rgb
    found = find_cards(rgb)
    assert found is not None and len(found.places) > len(CARDS)


@pytest.mark.slow
def test_a_deck_photo_whose_outlines_lie_near_the_tables_colour_finds_the_18_cards() -> None:
    cards = read_deck_photo(parted_deck()[0], "deck photo", shipped_reader())
    assert len(cards.places) == len(CARDS)
    assert len(set(cards.places)) == len(CARDS)


@pytest.mark.slow
def test_a_deck_photo_whose_outlines_lie_near_the_tables_colour_teaches_all_18_cards() -> None:
    photo, truth = parted_deck()
    teaching = teach_town_deck(photo, reader=shipped_reader())
    assert teaching.describe() == truth["grid"]


def test_the_outlines_alone_find_fewer_cards_than_a_deck_has_in_a_dark_deck_on_a_dark_cloth() -> None:
    rgb = decode_image(parted_deck(DARK_SEED)[0], long_side=WORK_LONG_SIDE).rgb
    found = find_cards(rgb)
    assert found is not None and len(found.places) < len(CARDS) - 3


@pytest.mark.slow
def test_a_deck_photo_of_cards_the_colour_of_the_cloth_teaches_all_18_cards() -> None:
    photo, truth = parted_deck(DARK_SEED)
    teaching = teach_town_deck(photo, reader=shipped_reader())
    assert teaching.describe() == truth["grid"]
