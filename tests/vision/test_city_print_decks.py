"""Deck photos of editions that are hard to see (issue 37): a print whose road and blocks lie near the
table's colour is still cut into its 18 cards, and a print that shows the shipped zone drawings in the
shipped colours dealt to other zones is named by the shipped classifier's cue without asking, and one whose
cue leads by little asks for one card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from games import teach_photos
from models.synth import palette as pal
from models.synth.city_edition import CityEdition, random_city_edition
from models.synth.deck import render_deck
from vision.deck import DeckError, teach_deck
from vision.deck.by_structure import settle_cycle
from vision.deck.outlines import CARD_DISTANCE, find_cards
from vision.deck.seen import describe
from vision.photo.decode import WORK_LONG_SIDE, decode_image

# The shipped grounds dealt to other zones, the drawings kept; a wide near-black road and dark outlines,
# on the deck photo's navy cloth.
DEALT = {"R": pal.GROUND["I"], "C": pal.GROUND["P"], "I": pal.GROUND["C"], "P": pal.GROUND["R"]}
DARK_ROAD = CityEdition(
    "dark road", DEALT, textured=True, outline_mm=0.46, line=(14, 51, 72), road=(69, 69, 69), road_mm=7.2,
    road_edge=None, road_dash=None, road_outline=None,
)  # fmt: skip
SEED = 37_002


def _jpeg(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def test_a_dark_road_on_a_navy_cloth_cuts_the_cards_at_the_outlines_own_distance() -> None:
    rgb, _ = render_deck(SEED, ppm=3.0, edition=DARK_ROAD)
    photo = decode_image(_jpeg(rgb), long_side=WORK_LONG_SIDE).rgb
    counts = [len(m.places) if m else 0 for m in (find_cards(photo, b, CARD_DISTANCE) for b in (3, 5, 7, 9))]
    assert 18 not in counts  # the road parts every card, and no bridge joins them without the gaps
    assert len(find_cards(photo, 5, 12.0).places) == 18  # type: ignore[union-attr]


def test_a_dark_road_deck_teaches_all_18_cards_named_by_the_shipped_drawings() -> None:
    rgb, truth = render_deck(SEED, ppm=3.0, edition=DARK_ROAD)
    teaching = teach_deck(_jpeg(rgb))
    assert teaching.deck.source["named_by"] == "structure"
    assert teaching.ask is None  # the drawings named the zones' cycle
    assert describe(teaching.cards) == truth["grid"]


def test_a_print_the_shipped_classifier_fits_one_turn_of_the_cycle_round_asks_for_one_card() -> None:
    # Random edition 37033: cyan residential, brown commercial, pink industrial, teal parks, each with the
    # zone's drawings. The shipped classifier fits every card surely, as the card one turn of the zones'
    # cycle round (all 18 wrong), and the drawings' cue leads the wrong naming by little: teaching names
    # the cards by structure, and asks the player to name one card rather than settle the cycle.
    edition = random_city_edition(np.random.default_rng(37_033))
    rgb, truth = render_deck(37_033, ppm=3.0, edition=edition)
    teaching = teach_deck(_jpeg(rgb))
    assert teaching.deck.source["named_by"] == "structure"
    assert teaching.ask is not None
    want = {(c["row"], c["col"]): c["card"] for c in truth["cards"]}
    first = teaching.cards[0]
    answered = settle_cycle(
        teaching.deck, teaching.cards, (first.photo, first.row, first.col), want[(first.row, first.col)],
        next(c["rotated"] for c in truth["cards"] if (c["row"], c["col"]) == (first.row, first.col)),
    )  # fmt: skip
    assert answered is not None and describe(answered[0]) == truth["grid"]


def test_a_naming_the_cue_leads_by_less_than_its_own_doubt_asks_for_one_card() -> None:
    # Random edition 37091: a pale cyan road on pale blue residential blocks. The drawings' cue leads a
    # wrong turn of the cycle by 0.54 nats a block, its blocks read at 0.61 on average (a doubt of 0.50):
    # settling on that lead named all 18 cards wrong without a word; it asks for one card instead.
    edition = random_city_edition(np.random.default_rng(37_091))
    rgb, _ = render_deck(37_091, ppm=3.0, edition=edition)
    teaching = teach_deck(_jpeg(rgb))
    assert teaching.deck.source["named_by"] == "structure"
    assert teaching.ask is not None and teaching.deck.source["cycle"] == "open"


def test_a_deck_photo_neither_way_can_teach_says_what_a_print_the_scanner_has_not_seen_needs() -> None:
    # The deck photo cut to its left half: neither the shipped print's cards nor the structure's 18 are
    # there, and the refusal goes on to what teaching an unseen print needs, not only what the shipped
    # print's cards lacked.
    rgb, _ = render_deck(SEED, ppm=3.0, edition=DARK_ROAD)
    with pytest.raises(DeckError) as refused:
        teach_deck(_jpeg(np.ascontiguousarray(rgb[:, : rgb.shape[1] // 2])))
    assert "as a print the scanner has not seen: the 18 cards could not be told apart" in str(refused.value)


def test_a_deck_photo_the_town_cards_finding_finds_nothing_in_is_still_taught_as_the_city_cards_it_is() -> (
    None
):
    # Random edition 37070 on a navy speckled cloth: the town cards' finding (no bridge) finds no card, and
    # telling the game from the photo stopped there; the Sprawlopolis structure finds the 18.
    edition = random_city_edition(np.random.default_rng(37_070))
    rgb, _ = render_deck(37_070, ppm=3.0, edition=edition)
    teaching = teach_photos([_jpeg(rgb)], names=["deck photo"])
    assert teaching.deck.game == "sprawlopolis" and len(teaching.cards) == 18
