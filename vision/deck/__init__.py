"""A player's taught deck: their own 18 cards' look, taught from photos and used in a scan.

``taught`` is the deck and its file, ``outlines`` finds the cards of a deck photo, ``teach`` makes a deck
from photos, ``corrections`` relabels it, ``draw`` pictures it for the player, ``use`` reads it alongside the
classifier in a scan. Other rooms use only the names below.
"""

from vision.deck.corrections import (
    EXTRA_KINDS,
    card_from_meta,
    correction_from_json,
    describe,
    parse_correction,
    relabel,
)
from vision.deck.taught import MAX_FILE_BYTES, DeckError, TaughtDeck, load_deck
from vision.deck.teach import teach_deck
from vision.deck.use import use_deck

__all__ = [
    "DeckError",
    "EXTRA_KINDS",
    "MAX_FILE_BYTES",
    "TaughtDeck",
    "card_from_meta",
    "correction_from_json",
    "describe",
    "load_deck",
    "parse_correction",
    "relabel",
    "teach_deck",
    "use_deck",
]
