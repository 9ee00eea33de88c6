"""A taught print's reader tells a block from the table by the road it shows, not by its ground alone
(vision.deck.look_reader)."""

from __future__ import annotations

import numpy as np

from vision.deck.look import apartness, to_lab
from vision.deck.look_reader import block_probability, road_shown

ROAD_SCALE = 15.0


def _cell(ground: tuple[int, int, int], road: bool) -> np.ndarray:
    cell = np.full((64, 89, 3), ground, np.uint8)
    if road:
        cell[27:37, :] = 70  # a dark road piece from the west edge to the east edge
    return cell


def _probability(ground: tuple[int, int, int], table: tuple[int, int, int], road: bool) -> float:
    lab = to_lab(_cell(ground, road))
    own = np.median(lab.reshape(-1, 3), axis=0).astype(np.float32)
    table_lab = to_lab(np.array([[table]], np.uint8))[0]
    shown = road_shown(apartness(lab, own)) / ROAD_SCALE
    return block_probability(0.5, table_lab, own, shown)


def test_a_road_piece_shows_on_its_two_ends_and_not_on_the_table() -> None:
    ground = to_lab(np.array([[(150, 130, 130)]], np.uint8))[0, 0]
    assert road_shown(apartness(to_lab(_cell((150, 130, 130), True)), ground)) > 20
    assert road_shown(np.zeros(4, np.float32)) == 0.0


def test_a_grey_block_with_a_road_on_a_grey_table_is_more_likely_a_block_than_the_bare_ground() -> None:
    # A zone's ground as near the table's colour as a block's own spread: the ground alone leaves it
    # half table; the road the table never draws makes it a block.
    ground, table = (150, 132, 132), (140, 138, 138)
    bare = _probability(ground, table, road=False)
    with_road = _probability(ground, table, road=True)
    assert bare < 0.7
    assert with_road > 0.8 and with_road > bare + 0.25
