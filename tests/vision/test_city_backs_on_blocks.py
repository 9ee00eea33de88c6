"""A scoring card whose paper the first reading takes for blocks is still read on its back. The shipped
classifier reads the white paper of a back beside a print it never saw as blocks, and the backs were sought
only off the cells read as blocks: on random city edition 37 036 (taught from its deck photo) one of the
three backs was never looked at, and the scan asked for the scoring cards it had in the photo."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from games import GameRequest, scan_photo
from vision.city.read_cards import backs_on_blocks
from vision.city.result import ScanResult

from .city_editions import edition_city, taught_city_deck

pytestmark = pytest.mark.slow

SEED = 37_036


def _rgb() -> np.ndarray:
    bgr = cv2.imdecode(np.frombuffer(edition_city(SEED).jpeg, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _mask_over(corners: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 255)
    return mask


def test_the_scan_reads_all_three_backs_beside_a_taught_print() -> None:
    scan = scan_photo(edition_city(SEED).jpeg, GameRequest(), decks=[taught_city_deck(SEED)]).scan
    assert isinstance(scan, ScanResult)
    want = sorted(card.number for card in edition_city(SEED).truth.scoring_cards)
    assert scan.scoring_cards is not None
    assert sorted(b.number for b in scan.scoring_cards.backs if b.number is not None) == want
    assert scan.scoring_cards.cards == tuple(want)


def test_a_back_is_kept_with_a_third_of_it_on_blocks_and_dropped_when_it_lies_wholly_on_them() -> None:
    rgb = _rgb()
    card = edition_city(SEED).truth.scoring_cards[0]
    corners = np.asarray(card.corners, np.float64)
    wholly = _mask_over(corners, rgb.shape)
    # The third of the card towards its first corner: the mask there, the rest of it off the blocks.
    third = corners.copy()
    third[1] = corners[0] + (corners[1] - corners[0]) / 3
    third[2] = corners[3] + (corners[2] - corners[3]) / 3
    partly = _mask_over(third, rgb.shape)
    others = {c.number for c in edition_city(SEED).truth.scoring_cards} - {card.number}
    assert {r.number for r in backs_on_blocks(rgb, partly, [])} == others | {card.number}
    assert {r.number for r in backs_on_blocks(rgb, wholly, [])} == others
