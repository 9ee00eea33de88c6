"""The deck photo of the 18 Circle the Wagons cards, as a player lays them to teach the scanner: face up,
portrait, six a row with gaps laid by hand, either way round, photographed a little askew (as the
Sprawlopolis deck photo of :mod:`models.synth.deck`, whose table and framing it reuses).

The deck of seed ``s`` is print ``s`` (:func:`~models.synth.wagons.look.sample_look`): a town photo made
with ``look=s`` shows the same printed cards. ``edition`` draws another printing of them
(:mod:`~models.synth.wagons.edition`); the default is the boxed print, as before editions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from models.synth.deck import DeckLayout, _askew, _canvas
from models.synth.wagons.card import CARD_H, CARD_W, render_wagons_card
from models.synth.wagons.edition import Edition, check_edition
from models.synth.wagons.look import sample_look
from scoring.wagons.cards import CARDS


def wagons_deck_layout(seed: int) -> DeckLayout:
    """The 18 cards of ``seed``'s deck photo: any order, either way round, six a row."""
    rng = np.random.default_rng([seed, 1829])
    order = [int(n) for n in rng.permutation(sorted(CARDS))]
    cards = tuple((n, bool(rng.random() < 0.5)) for n in order)
    gap, jitter, turn = rng.uniform(5.0, 12.0), rng.uniform(0.0, 2.0), rng.uniform(-12.0, 12.0)
    return DeckLayout(seed, cards, 6, float(gap), float(jitter), float(turn))


def render_wagons_deck(
    seed: int, ppm: float = 3.0, art_spread: float = 1.0, edition: Edition | None = None
) -> tuple[np.ndarray, dict[str, Any]]:
    """The deck photo of ``seed`` (RGB, top-down at ``ppm`` px/mm) and its truth (``DeckLayout.truth``
    with ``"game": "wagons"``, the print's ``look`` and, for any but the boxed print, its ``edition``).
    The same arguments give the same pixels."""
    edition = check_edition(edition)
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number ≥ 0, got {seed!r}")
    if not 1.5 <= ppm <= 12:
        raise ValueError(f"a deck photo is drawn at 1.5..12 px per mm, got {ppm:g}")
    lay = wagons_deck_layout(seed)
    look = sample_look(seed, art_spread)
    rows = -(-len(lay.cards) // lay.cols)
    margin = 30.0 + lay.jitter_mm
    w_mm = lay.cols * CARD_W + (lay.cols - 1) * lay.gap_mm
    flat = _canvas(w_mm, rows * CARD_H + (rows - 1) * lay.gap_mm, margin, ppm, seed)
    shifts = np.random.default_rng([seed, 99]).uniform(-lay.jitter_mm, lay.jitter_mm, (len(lay.cards), 2))
    for k, (number, turned) in enumerate(lay.cards):
        r, c = divmod(k, lay.cols)
        art = render_wagons_card(number, look, ppm, edition=edition)
        img = art.rgb[::-1, ::-1] if turned else art.rgb
        mask = (art.mask[::-1, ::-1] if turned else art.mask)[..., None] > 127
        x = int(round((margin + c * (CARD_W + lay.gap_mm) + shifts[k, 0]) * ppm))
        y = int(round((margin + r * (CARD_H + lay.gap_mm) + shifts[k, 1]) * ppm))
        roi = flat[y : y + img.shape[0], x : x + img.shape[1]]
        roi[:] = np.where(mask, img, roi)
    rgb = _askew(flat, lay.turn_deg, ppm, seed)
    truth = {"game": "wagons", **lay.truth(rgb.shape[1], rgb.shape[0], ppm), "look": look.to_json()}
    if not edition.boxed:
        truth["edition"] = edition.to_json()
    return rgb, truth
