"""A Circle the Wagons town read as a stack of the 18 known cards, jointly, from the classifier's
per-cell readings; and the decoded town in the town text format, for the scorer.

``evidence`` takes the readings, ``placements`` says where a card lies, ``program`` is the integer
program (the Sprawlopolis decoding's model and search, :mod:`vision.cards`, reused for territory cards),
``decode`` finds the town and each cell's margin, ``text`` writes it for ``scoring.wagons``. Other rooms
use only the names below.

The photo stages are entered by their own modules, which need the heavier vision stages and the
territory reader (itself a user of the names below): ``geometry`` (the top-down view and its lattice of
portrait cells), ``scan`` (:func:`vision.towns.scan.scan_town`, a town from a photo, with ``doubt`` and
``scan_support``) and ``detect`` (:func:`vision.towns.detect.which_game`, a city or a town).
"""

from vision.towns.decode import DOUBT_MARGIN, UNEXPLAINED_COST, TownCell, TownDecoding, decode_town
from vision.towns.evidence import LABELS, TOKENS, TownEvidenceError, label_index, town_evidence
from vision.towns.placements import TownPlacement, connected, lay_town
from vision.towns.text import decoded_town, town_text

__all__ = [
    "DOUBT_MARGIN",
    "LABELS",
    "TOKENS",
    "UNEXPLAINED_COST",
    "TownCell",
    "TownDecoding",
    "TownEvidenceError",
    "TownPlacement",
    "connected",
    "decode_town",
    "decoded_town",
    "label_index",
    "lay_town",
    "town_evidence",
    "town_text",
]
