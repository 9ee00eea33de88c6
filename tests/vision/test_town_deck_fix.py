"""Correcting a taught Circle the Wagons deck without the photo (vision.towns.deck.fix): the player's word
on a place ("card 9 turned", "not a card") read from the command line's and the service's forms, checked
as a Sprawlopolis deck's corrections are, and the deck rebuilt from the territories it kept, so what a town
scan reads changes with it. The deck and town are those of tests/vision/test_town_deck.py (town seed
9 500 017, its art drawn twice as widely as in training), rendered once a module."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.test_town_deck import TOWN_SEED, right, taught, town
from vision.deck import DeckFileError, DeckFixError, card_from_meta
from vision.towns.arbitrate import Reader
from vision.towns.deck import (
    TownFix,
    load_town_deck,
    parse_town_fix,
    relabel_town_deck,
    taught_reader,
    town_fix_from_json,
)
from vision.towns.scan import TownScan, scan_town, shipped_reader


def test_a_correction_is_read_as_the_player_counts_with_none_for_not_a_card() -> None:
    assert parse_town_fix("2,3=9r") == TownFix(0, 1, 2, 9, True)
    assert parse_town_fix("2,1,4=0") == TownFix(1, 0, 3, 0, False)
    assert parse_town_fix("1,1=None") == TownFix(0, 0, 0, None)
    assert town_fix_from_json({"row": 1, "col": 2, "card": 17, "rotated": True}, "c") == TownFix(
        0, 1, 2, 17, True
    )
    assert town_fix_from_json({"photo": 1, "row": 0, "col": 0, "card": None}, "c") == TownFix(1, 0, 0, None)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1,1=18", "'1,1=18': '18' is not a Circle the Wagons card: give a card 0 to 17"),
        ("1,1=wrecktar", "'wrecktar' is not a Circle the Wagons card"),
        ("1,1", "write a correction as ROW,COL=CARD"),
        ("0,1=3", "photos, rows and cards count from 1"),
    ],
)
def test_a_bad_correction_text_is_refused_naming_it(text: str, words: str) -> None:
    with pytest.raises(DeckFixError, match=words.replace("(", r"\(")):
        parse_town_fix(text)


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"row": 0, "col": 0, "card": 18}, "c: card 18 is not one of the Circle the Wagons cards 0 to 17"),
        ({"row": 0, "col": 0, "card": True}, "c: card True is not one"),
        ({"row": 0, "col": 0, "extra": "poi"}, "c: extra: a Circle the Wagons deck has no expansion cards"),
        ({"row": 0, "col": 0}, "c: card: give a card 0 to 17"),
        ({"row": 0, "card": 1}, "c: col must be a whole number from 0"),
        ({"row": 0, "col": 0, "card": 1, "turned": True}, "c: unknown field 'turned'"),
        ([1, 2], "c: a correction is an object"),
    ],
)
def test_a_bad_correction_object_is_refused_naming_the_field(obj: object, words: str) -> None:
    with pytest.raises(DeckFixError, match=words):
        town_fix_from_json(obj, "c")


@pytest.mark.slow
def _truth_weight(scan: TownScan, reader: Reader) -> float:
    """The weight ``reader`` gives each territory of the town ``scan`` read, summed over the town."""
    readings = reader(scan.geometry.view, scan.geometry.lattice)
    r0, c0 = scan.origin
    return sum(
        readings[r + r0][c + c0].get(t.token(), 0.0)
        for r, row in enumerate(scan.town.grid)
        for c, t in enumerate(row)
        if t is not None
    )


def test_correcting_a_wagons_deck_changes_what_a_town_scan_reads_and_correcting_back_restores_it() -> None:
    rgb, truth = town()
    base = shipped_reader()
    deck = taught(TOWN_SEED)
    cells = sum(t is not None for row in truth.grid for t in row)
    scan = scan_town(rgb, reader=taught_reader(deck, base))
    assert right(scan.town, truth) == cells
    seen = [card_from_meta(m) for m in deck.seen]
    # Every card taken for the next one (a valid deck: each card once), as a teaching mixed up would be.
    mixed = relabel_town_deck(
        deck, [TownFix(c.photo, c.row, c.col, (c.card + 1) % 18, c.rotated) for c in seen]
    )
    assert [m["card"] for m in mixed.seen] == [(c.card + 1) % 18 for c in seen]
    # The mixed-up deck pulls the town's territories towards other labels (the classifier may still be
    # sure enough to read them right).
    right_weight = _truth_weight(scan, taught_reader(deck, base))
    assert _truth_weight(scan, taught_reader(mixed, base)) < right_weight - 1.0
    again = load_town_deck(mixed.to_bytes(), "mixed.deck")  # corrected in its file, as deck fix writes it
    back = relabel_town_deck(again, [TownFix(c.photo, c.row, c.col, c.card, c.rotated) for c in seen])
    assert np.abs(back.prototypes - deck.prototypes).max() < 2e-2
    assert _truth_weight(scan, taught_reader(back, base)) == pytest.approx(right_weight, abs=0.05)
    assert right(scan_town(rgb, reader=taught_reader(back, base)).town, truth) == cells


@pytest.mark.slow
def test_corrections_that_break_the_deck_are_refused_naming_the_cards_and_change_nothing() -> None:
    deck = taught(TOWN_SEED)
    seen = [card_from_meta(m) for m in deck.seen]
    a, b = seen[0], seen[1]
    with pytest.raises(DeckFixError, match=rf"card {b.card} would lie twice \(row 1 card 1, row 1 card 2\)"):
        relabel_town_deck(deck, [TownFix(0, 0, 0, b.card)], name="w.deck")
    with pytest.raises(DeckFixError, match=rf"w.deck: not corrected: missing: card {a.card}"):
        relabel_town_deck(deck, [TownFix(0, 0, 0, None)], name="w.deck")
    with pytest.raises(DeckFixError, match="w.deck: no card at row 5 card 1"):
        relabel_town_deck(deck, [TownFix(0, 4, 0, 3)], name="w.deck")
    assert [m["card"] for m in deck.seen] == [c.card for c in seen]
    old = replace(deck, patches=None)  # a version-1 file kept no territories
    with pytest.raises(DeckFixError, match="taught before corrections were kept"):
        relabel_town_deck(old, [TownFix(0, 0, 0, a.card)], name="old.deck")


@pytest.mark.slow
def test_a_place_said_to_hold_no_card_teaches_nothing_and_the_file_keeps_it() -> None:
    deck = taught(TOWN_SEED)
    seen = [card_from_meta(m) for m in deck.seen]
    # A deck with one place more than the 18 (a stray card in the photo), said to hold no card.
    stray = replace(seen[0], row=9, col=0)
    extra = replace(
        deck, seen=(*deck.seen, stray.to_meta()), patches=np.concatenate([deck.patches, deck.patches[:4]])
    )
    fixed = relabel_town_deck(extra, [TownFix(0, 9, 0, None)])
    assert fixed.seen[-1]["card"] is None and card_from_meta(fixed.seen[-1]).label() == "-"
    assert np.abs(fixed.prototypes - deck.prototypes).max() < 1e-5  # the 18 cards teach as before
    assert load_town_deck(fixed.to_bytes()).seen[-1]["card"] is None


@pytest.mark.slow
def test_a_wagons_deck_file_with_damaged_cards_or_patches_is_refused_naming_it() -> None:
    deck = taught(TOWN_SEED)
    bad_card = replace(deck, seen=({**deck.seen[0], "card": 18}, *deck.seen[1:]))
    with pytest.raises(DeckFileError, match="w.deck: damaged taught deck \\(card 1 found: card 18\\)"):
        load_town_deck(bad_card.to_bytes(), "w.deck")
    short = replace(deck, patches=deck.patches[:8])
    with pytest.raises(DeckFileError, match="w.deck: damaged taught deck \\(patches"):
        load_town_deck(short.to_bytes(), "w.deck")
