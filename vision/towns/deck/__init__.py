"""A taught Circle the Wagons deck: what one photo of the player's own 18 cards showed of each territory.

``teach`` reads a deck photo and builds the deck, ``taught`` is the deck, its file and its use in a town scan
(:func:`taught_reader` reweights the territory readings by the player's own territories), ``fix`` corrects a
taught deck on the player's word without the photo, and ``seen`` checks a deck file's record of the cards it
found. Other rooms use only the names below.
"""

from vision.towns.deck.fix import NOT_A_CARD, TownFix, parse_town_fix, relabel_town_deck, town_fix_from_json
from vision.towns.deck.taught import TownDeck, load_town_deck, reweighted, taught_reader
from vision.towns.deck.teach import DeckCards, read_deck_photo, teach_town_deck, teaching_of, wagons_share

__all__ = [
    "NOT_A_CARD",
    "DeckCards",
    "TownDeck",
    "TownFix",
    "load_town_deck",
    "parse_town_fix",
    "read_deck_photo",
    "relabel_town_deck",
    "reweighted",
    "taught_reader",
    "teach_town_deck",
    "teaching_of",
    "town_fix_from_json",
    "wagons_share",
]
