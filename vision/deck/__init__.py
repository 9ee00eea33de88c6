"""A player's taught deck: their own 18 cards' look, taught from photos and used in a scan.

``taught`` is the deck and its file, ``outlines`` finds the cards of a deck photo and ``grid`` places them
in the deck's grid (filling the places of cards it missed), ``teach`` makes a deck from photos,
``corrections`` relabels it, ``draw`` pictures it for the player, ``use`` reads it alongside the classifier
in a scan; a print the classifier does not know is taught by the deck's structure
(``by_structure``, ``teach_structure``) and read by its look (``look``, ``look_reader``). A deck file
records its game (:func:`deck_game`); the Circle the Wagons deck (:mod:`vision.towns.deck`) is taught and
used with the names below. Other rooms use only these.
"""

from vision.deck.assign import FITS, assign_cards
from vision.deck.corrections import (
    EXTRA_KINDS,
    card_from_meta,
    correction_from_json,
    describe,
    json_place,
    parse_correction,
    relabel,
    text_place,
)
from vision.deck.draw import draw_deck_overlay
from vision.deck.features import SLIDE, block_features, centre_windows, normalise, sliding_windows
from vision.deck.grid import completed, places_of, portrait
from vision.deck.look_reader import LOOK_DOUBT_MARGIN, LookClassifier, refit_gains
from vision.deck.outlines import CARD_DISTANCE, DeckMosaic, border_table, find_cards, table_distance
from vision.deck.seen import CardSeen
from vision.deck.structure import colour_groups
from vision.deck.taught import (
    DECK_FORMAT,
    MAX_FILE_BYTES,
    DeckError,
    DeckFileError,
    DeckFixError,
    TaughtDeck,
    deck_game,
    is_place_index,
    load_deck,
    read_archive,
    write_archive,
)
from vision.deck.teach import Teaching, teach_deck
from vision.deck.teach_structure import DISTANCES, whole_decks
from vision.deck.use import use_deck

__all__ = [
    "whole_decks",
    "border_table",
    "table_distance",
    "LOOK_DOUBT_MARGIN",
    "CARD_DISTANCE",
    "DISTANCES",
    "DeckMosaic",
    "colour_groups",
    "DECK_FORMAT",
    "CardSeen",
    "DeckError",
    "DeckFileError",
    "DeckFixError",
    "EXTRA_KINDS",
    "FITS",
    "LookClassifier",
    "MAX_FILE_BYTES",
    "SLIDE",
    "TaughtDeck",
    "Teaching",
    "assign_cards",
    "block_features",
    "card_from_meta",
    "centre_windows",
    "deck_game",
    "draw_deck_overlay",
    "find_cards",
    "normalise",
    "is_place_index",
    "json_place",
    "read_archive",
    "refit_gains",
    "completed",
    "places_of",
    "portrait",
    "text_place",
    "write_archive",
    "sliding_windows",
    "correction_from_json",
    "describe",
    "load_deck",
    "parse_correction",
    "relabel",
    "teach_deck",
    "use_deck",
]
