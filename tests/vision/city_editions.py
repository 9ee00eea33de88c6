"""A city photo of one of the renderer's random Sprawlopolis editions (models.synth.city_edition) and its
deck taught from one photo, as a player would (naming the first card when asked), for the tests of a
taught print's cities: rendered and taught once per seed."""

from __future__ import annotations

from functools import cache

import numpy as np

from games import teach_photos
from models.synth.city_edition import random_city_edition
from models.synth.deck import render_deck
from models.synth.scene import SynthPhoto, render_photo
from vision.deck import TaughtDeck
from vision.deck.corrections import parse_correction, relabel

from .test_town_deck import jpeg


@cache
def edition_city(seed: int) -> SynthPhoto:
    """Edition ``seed``'s city photo (photo seed ``seed``, no expansion), with its truth."""
    edition = random_city_edition(np.random.default_rng(seed))
    return render_photo(seed, edition=edition, wrecktar=False, poi=False, construction=0)


@cache
def taught_city_deck(seed: int) -> TaughtDeck:
    """Edition ``seed``'s deck taught from one photo of it; where teaching asks, the player names the
    first card (the one tap that settles the zones' cycle)."""
    edition = random_city_edition(np.random.default_rng(seed))
    deck_rgb, truth = render_deck(seed, ppm=3.0, edition=edition)
    teaching = teach_photos([jpeg(deck_rgb)], names=["deck photo"])
    if teaching.ask is None:
        return teaching.deck
    first = teaching.cards[0]
    card = next(c for c in truth["cards"] if (c["row"], c["col"]) == (first.row, first.col))
    tap = f"{first.row + 1},{first.col + 1}={card['card']}{'r' * card['rotated']}"
    return relabel(teaching.deck, [parse_correction(tap)])
