"""A taught deck compares the cells of the card region and beside it even where the shipped classifier reads
them surely empty: a block of a print it never saw, the colour of the cloth under it, reads surely empty to
it. Random city edition 37 087 (taught from its deck photo, with the player's one tap): blue industrial
blocks with their roads on a blue cloth were read as the table, 0.99 surely, and two of them were named
nowhere."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from games import GameRequest, scan_photo
from scoring.city_text import parse_city
from tests.evaluate import compare_cities
from vision.city.result import ScanResult
from vision.deck.use import _near_cards

from .city_editions import edition_city, taught_city_deck

pytestmark = pytest.mark.slow

SEED = 37_087


@cache
def _scan() -> tuple[ScanResult, str]:
    photo = edition_city(SEED)
    scan = scan_photo(photo.jpeg, GameRequest(), decks=[taught_city_deck(SEED)]).scan
    assert isinstance(scan, ScanResult)
    return scan, photo.truth.city


def test_blocks_the_colour_of_the_cloth_are_read_or_named_in_doubt_with_a_taught_deck() -> None:
    scan, truth_text = _scan()
    truth = parse_city(truth_text)
    score = compare_cities(truth, scan.city)
    doubted = {score.to_truth(scan.city, d.row, d.col) for d in scan.doubts}
    blocks_as_table = [rc for rc, want, got in score.wrong if got == "." and want != "."]
    assert score.right >= score.cells - 2
    assert all(rc in doubted for rc in blocks_as_table)


def test_the_cells_compared_beside_the_card_region_are_those_sharing_a_side_with_it() -> None:
    occupied = np.zeros((4, 4), bool)
    occupied[1, 1] = True
    assert _near_cards(occupied).astype(int).tolist() == [
        [0, 1, 0, 0],
        [1, 1, 1, 0],
        [0, 1, 0, 0],
        [0, 0, 0, 0],
    ]
