"""A Circle the Wagons town read from a photo: the room of the territory reader, the town's geometry and
its decoding as a stack of the 18 known cards.

``geometry`` finds the top-down view and its lattice of portrait cells; ``territories`` is the shipped
territory reader; ``evidence`` takes the readings, ``placements`` says where a card lies, ``program`` is the
integer program (the Sprawlopolis decoding's model and search, :mod:`vision.cards`, reused for territory
cards), ``decode`` finds the town and each cell's margin, ``text`` writes it for ``scoring.wagons``;
``detect`` measures how well the town cards explain a photo (for telling the game), ``scan`` reads the
town (:func:`scan_town`), with ``doubt``; ``overlay`` draws it; ``deck`` teaches a print's look from a
photo of the 18 cards and ``goals`` reads the goal cards beside the town. Other rooms use only the names
below.
"""

from vision.towns.deck import (
    TownDeck,
    TownFix,
    load_town_deck,
    parse_town_fix,
    read_deck_photo,
    relabel_town_deck,
    taught_reader,
    teaching_of,
    town_fix_from_json,
    wagons_share,
)
from vision.towns.decode import DOUBT_MARGIN, UNEXPLAINED_COST, TownCell, TownDecoding, decode_town
from vision.towns.detect import TownEvidence, town_game_evidence
from vision.towns.doubt import CellDoubt
from vision.towns.evidence import LABELS, TOKENS, TownEvidenceError, label_index, town_evidence
from vision.towns.geometry import CELL_MM, RING, WIDE_RING, find_town_cards
from vision.towns.goals import read_goal_cards
from vision.towns.overlay import draw_town_overlay
from vision.towns.placements import TownPlacement, connected, lay_town
from vision.towns.scan import TownScan, scan_town, shipped_reader
from vision.towns.territories import CONTEXT, CROP_H, CROP_W, ICON_CLASSES, TERRAIN_CLASSES
from vision.towns.text import decoded_town, town_text

__all__ = [
    "CONTEXT",
    "CROP_H",
    "CROP_W",
    "ICON_CLASSES",
    "TERRAIN_CLASSES",
    "TownDeck",
    "TownFix",
    "load_town_deck",
    "parse_town_fix",
    "read_deck_photo",
    "relabel_town_deck",
    "teaching_of",
    "town_fix_from_json",
    "wagons_share",
    "DOUBT_MARGIN",
    "LABELS",
    "CELL_MM",
    "RING",
    "TOKENS",
    "UNEXPLAINED_COST",
    "WIDE_RING",
    "CellDoubt",
    "TownCell",
    "TownDecoding",
    "TownEvidence",
    "TownEvidenceError",
    "TownPlacement",
    "TownScan",
    "connected",
    "decode_town",
    "decoded_town",
    "draw_town_overlay",
    "find_town_cards",
    "label_index",
    "lay_town",
    "read_goal_cards",
    "scan_town",
    "shipped_reader",
    "taught_reader",
    "town_evidence",
    "town_game_evidence",
    "town_text",
]
