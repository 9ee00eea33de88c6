"""The light a taught look reads a town in (vision.towns.deck.look_reader.fitted_light) is fitted from
more than one start: edition 7022's town photo (white table, darker and its yellow paler than the deck
photo, lit unevenly) taken from no change takes its yellow mountains for the pale green plains and settles
there, its yellow gain at the bound; the light whose cells lie nearest their named fills reads it whole.
The photo's left and right edges run through the town's outer columns, so the whole reading is asked again
for the cut (the town may go on beyond the photo), not for the deck.
"""

from __future__ import annotations

import pytest

from vision.towns.deck import taught_reader, teach_town_deck
from vision.towns.scan import CUT_BY_FRAME, scan_town, shipped_reader

from .test_town_deck import right
from .test_town_deck_parted import EDITION_SEED, parted_deck
from .town_editions import edition_town


@pytest.mark.slow
def test_a_town_lit_darker_and_less_yellow_than_its_deck_photo_is_read_whole_with_the_taught_deck() -> None:
    rgb, truth = edition_town(EDITION_SEED)
    deck = teach_town_deck(parted_deck()[0], reader=shipped_reader()).deck
    scan = scan_town(rgb, reader=taught_reader(deck, shipped_reader()), taught=True)
    assert not scan.needs_deck
    assert scan.retake is not None and scan.retake.startswith(CUT_BY_FRAME.split("{")[0])
    assert right(scan.town, truth) == sum(t is not None for row in truth.grid for t in row)
