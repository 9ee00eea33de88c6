"""A reading that is no city of the known cards: every card shows each zone once, so a city read mostly as
one zone is a print the scanner does not know (or a light it cannot read), never a score."""

from __future__ import annotations

import numpy as np

from models.synth.city_edition import random_city_edition
from models.synth.scene import render_photo
from vision.backs import ScoringCards
from vision.cards import CardReading, CardStacking
from vision.cells import CellReading
from vision.city.read_cards import CityCards
from vision.city.unexplained import one_zone_share
from vision.pipeline import scan_image


def _read_as(zones: str) -> CityCards:
    """A city read in one row of blocks, one zone letter each (``.`` for table)."""
    row = [CellReading.certain(None if z == "." else z, None if z in ".P" else "EW") for z in zones]
    as_cards = CardReading([row], [[None] * len(row)], CardStacking((), {}, 0.0, 0.0), False, [row])
    return CityCards(as_cards, ScoringCards(None, None), None, 0.0, ())


def test_a_city_read_mostly_as_one_zone_is_no_city_of_the_known_cards() -> None:
    assert one_zone_share(_read_as("R" * 17 + "C" * 3 + "...")) == ("R", 0.85, 20)


def test_a_city_of_the_four_zones_or_a_small_one_is_taken_as_read() -> None:
    assert one_zone_share(_read_as("RCIP" * 6)) is None
    assert one_zone_share(_read_as("RRCIRRRRRRRRRRR")) is None  # 15 blocks: too few to say


def test_an_untaught_print_the_shipped_classifier_reads_as_one_zone_is_sent_to_teaching() -> None:
    # Random edition 37068 (magenta, orange, cyan and teal): the shipped classifier reads its blocks as
    # residential and table, the zones' colours then too few to measure; it was scored (-21).
    photo = render_photo(37_068, edition=random_city_edition(np.random.default_rng(37_068)), wrecktar=False,
                         poi=False, construction=0)  # fmt: skip
    result = scan_image(photo.jpeg)
    assert result.needs_deck and result.retake is not None and "teach" in result.retake


def test_an_untaught_print_retaken_with_most_of_its_blocks_in_doubt_names_teaching_first() -> None:
    # Random edition 37052: the shipped classifier doubts 22 of the 34 blocks it reads, and the photo was
    # retaken for its grid alone, with no word of teaching.
    photo = render_photo(37_052, edition=random_city_edition(np.random.default_rng(37_052)), wrecktar=False,
                         poi=False, construction=0)  # fmt: skip
    result = scan_image(photo.jpeg)
    assert result.needs_deck and result.retake is not None
    assert "teach the scanner your cards" in result.retake and "take another photo" in result.retake
