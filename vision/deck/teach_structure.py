"""Teach a Sprawlopolis deck of a print the shipped classifier cannot name at all: the cards found by
their outlines, tried with the table-coloured lines between blocks bridged more and more, and named by the
deck's structure (:mod:`vision.deck.by_structure`).

A print may outline every block in a colour near the table's: the cards then fall apart into blocks or
pieces of them, and the shipped path (which needs the classifier to read the cards) refuses the photo. Here
each photo's cards are sought with growing bridges (and, failing all, with a pixel taken for card nearer
the table's colours) until one finds exactly the 18 cards (every region a card) that the structure names;
their patches, outlines and the look make the deck. Where none does, the cards found are placed in their
grid and the places it shows empty filled (:func:`vision.deck.outlines.on_grid`): random city edition
37 043's dark blue industrial blocks lie near its dark blue cloth, and no bridge found all 18 cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, partial

import numpy as np

from scoring.layouts import card_blocks
from vision.cells import Classifier
from vision.deck.by_structure import PITCH, StructureCards, name_by_structure
from vision.deck.features import block_features
from vision.deck.outlines import CARD_DISTANCE, DeckMosaic, find_cards, on_grid
from vision.deck.seen import CardSeen
from vision.deck.taught import CARDS, DeckError

__all__ = ["BRIDGES", "DISTANCES", "cards_by_structure", "whole_decks"]

# The bridges tried (pixels of the small copy, about 0.5 mm each in a deck photo): none, then wider.
BRIDGES = (None, 3, 5, 7, 9, 11)
# How unlike the table's colours a pixel must be to be card (weighted Lab), tried in turn when no bridge
# finds the 18 cards the structure names: the outlines' own, then less. A print's road or blocks near the
# table's colour (a dark grey road and a grey-blue block on a navy cloth: 11-18 from it) cut every card
# into pieces that no bridge joins without joining the cards too; the table's own grain lies within 5.
DISTANCES = (CARD_DISTANCE, 12.0, 9.0)


def whole_decks(rgb: np.ndarray, distance: float) -> list[DeckMosaic]:
    """The photo's cards found with each bridge that gives exactly the 18 cards, a pixel card from
    ``distance`` from the table's colours on, those with fewer regions left in doubt first."""
    return _whole(_found(rgb, distance))


def _found(rgb: np.ndarray, distance: float) -> list[DeckMosaic]:
    """The photo's cards found with each bridge in turn, a pixel card from ``distance`` on (where any)."""
    return [m for bridge in BRIDGES if (m := find_cards(rgb, bridge, distance)) is not None]


def _whole(found: list[DeckMosaic]) -> list[DeckMosaic]:
    """Those of ``found`` that are exactly the 18 cards, fewer regions left in doubt first."""
    return sorted((m for m in found if len(m.places) == len(CARDS)), key=lambda m: m.doubtful)


def _gridded(rgb: np.ndarray, found: list[DeckMosaic]) -> list[DeckMosaic]:
    """Those of ``found`` with fewer than the 18 cards whose grid places the rest
    (:func:`vision.deck.outlines.on_grid`), fewer regions left in doubt first."""
    short = (on_grid(rgb, m, len(CARDS)) for m in found if len(m.places) < len(CARDS))
    return sorted((m for m in short if m is not None), key=lambda m: m.doubtful)


def _tokens(card: CardSeen) -> tuple[str, ...]:
    (tl, tr), (bl, br) = card_blocks(card.card, card.rotated)  # type: ignore[arg-type]
    return tuple(b.token() for b in (tl, tr, bl, br))


def cards_by_structure(
    rgbs: Sequence[np.ndarray], label: str, classify: Classifier
) -> tuple[list[CardSeen], np.ndarray, StructureCards]:
    """The cards of one deck photo's working copy named by structure, with their blocks' patches (4 a
    card, as they lay) and the naming; raises :class:`~vision.deck.taught.DeckError` when no bridge finds
    the 18 cards the structure names."""
    if len(rgbs) != 1:
        raise DeckError(
            f"{label}: a print the scanner does not know is taught from one photo of all 18 cards"
        )
    rgb = rgbs[0]
    refusal = DeckError(f"{label}: the 18 cards could not be told apart (lay them face up with gaps, on a "
                        "plain table of another colour than the cards)")  # fmt: skip
    # Each bridge and distance is tried once: the cards found whole first, then those the grid completes.
    found = cache(partial(_found, rgb))
    whole = (m for distance in DISTANCES for m in _whole(found(distance)))
    gridded = (m for distance in DISTANCES for m in _gridded(rgb, found(distance)))
    for mosaic in itertools.chain(whole, gridded):
        places: list[tuple[int | None, int, int]] = [(None, r, c) for r, c in mosaic.places]
        try:
            named = name_by_structure([mosaic], places, label, classify)
        except DeckError as exc:
            refusal = exc
            continue
        size = np.array(rgb.shape[1::-1], float)
        seen = [
            replace(
                card,
                read=_tokens(card),
                outline=tuple((round(x, 4), round(y, 4)) for x, y in (q / size).tolist()),
            )
            for card, q in zip(named.cards, mosaic.corners, strict=True)
        ]
        patches = block_features(mosaic.view.balanced, mosaic.block_centres(), *PITCH)
        return seen, patches, named
    raise refusal
