"""A taught Circle the Wagons deck: a rendered deck photo of the 18 cards (models.synth.wagons.deck) taught
card by card, kept in its file with its game, used by a town scan (the player's print read better than the
look-alike art's centre the classifier learned), and never used for the other game's photos.

The deck photos are drawn at 2–3 px/mm and the town photo at 1000 px on its long side, each once a module.
Town seed 9 500 017 is the benchmark's (tests/bench/bench_wagons.py), its art drawn twice as widely as in
training: the shipped classifier misreads one of its 33 territories without the deck.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np
import pytest

from models.synth.deck import deck_art, deck_photo, png
from models.synth.wagons.deck import render_wagons_deck
from models.synth.wagons.photo import render_town_photo
from scoring.wagons import parse_town
from vision.deck import DeckError, DeckFileError, load_deck
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.deck import TownDeck, load_town_deck, reweighted, taught_reader, teach_town_deck
from vision.towns.scan import scan_town, shipped_reader

pytestmark = pytest.mark.slow

TOWN_SEED = 9_500_017
SPREAD = 2.0


def jpeg(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


@cache
def wagons_deck(seed: int, ppm: float = 2.0) -> tuple[bytes, dict]:
    """The deck photo of print ``seed`` (the town photo of the same seed shows the same printed cards)."""
    rgb, truth = render_wagons_deck(seed, ppm=ppm, art_spread=SPREAD)
    return jpeg(rgb), truth


@cache
def taught(seed: int) -> TownDeck:
    return teach_town_deck(wagons_deck(seed)[0], reader=shipped_reader()).deck


@cache
def town(seed: int = TOWN_SEED):  # type: ignore[no-untyped-def]
    photo = render_town_photo(seed, art_spread=SPREAD, long_side=1000)
    return decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb, parse_town(photo.truth.city)


def right(read, truth) -> int:  # type: ignore[no-untyped-def]
    """Territories of ``truth`` read right, the read town laid over it either way round at any shift."""
    want = {(r, c): t for r, c, t in _cells(truth.grid)}
    best = 0
    for grid in (read.grid, tuple(tuple(reversed(row)) for row in reversed(read.grid))):
        got = list(_cells(grid))
        for dr in range(-len(grid), len(truth.grid) + 1):
            for dc in range(-len(grid[0]), len(truth.grid[0]) + 1):
                best = max(best, sum(want.get((r + dr, c + dc)) == t for r, c, t in got))
    return best


def _cells(grid):  # type: ignore[no-untyped-def]
    return [(r, c, t) for r, row in enumerate(grid) for c, t in enumerate(row) if t is not None]


def test_a_rendered_wagons_deck_photo_is_taught_card_by_card_with_each_turn() -> None:
    photo, truth = wagons_deck(TOWN_SEED, 3.0)
    teaching = teach_town_deck(photo, reader=shipped_reader())
    assert teaching.deck.game == "wagons"
    assert teaching.describe() == truth["grid"]  # each card's number and turn where it lies
    assert sorted(c.card for c in teaching.cards) == list(range(18))
    assert len(teaching.overlay(0, 800)) > 0


def test_a_wagons_deck_survives_its_file_which_names_its_game_and_a_sprawlopolis_reader_refuses() -> None:
    deck = taught(TOWN_SEED)
    data = deck.to_bytes()
    again = load_town_deck(data, "mine.deck")
    assert np.abs(again.prototypes - deck.prototypes).max() < 1e-2 and again.calibration == deck.calibration
    assert [m["card"] for m in again.seen] == [m["card"] for m in deck.seen]
    with pytest.raises(
        DeckFileError, match=r"mine.deck: a taught deck of another game \(wagons\), not a Sprawl"
    ):
        load_deck(data, "mine.deck")
    sprawl = teach_sprawl_deck()
    with pytest.raises(
        DeckFileError, match=r"s.deck: a taught deck of another game \(sprawlopolis\), not a Circle"
    ):
        load_town_deck(sprawl.to_bytes(), "s.deck")


@cache
def teach_sprawl_deck():  # type: ignore[no-untyped-def]
    from vision.deck import teach_deck

    rng = np.random.default_rng(5)
    cards = [(int(n), bool(rng.random() < 0.5)) for n in rng.permutation(np.arange(1, 19))]
    return teach_deck(png(deck_photo(deck_art(2, 3.0), cards, ppm=3.0))).deck


def test_a_photo_of_a_table_is_refused_naming_it() -> None:
    table = np.full((400, 600, 3), (52, 70, 96), np.uint8)
    with pytest.raises(DeckError, match="table photo: no cards found"):
        teach_town_deck(jpeg(table), names=["table photo"], reader=shipped_reader())


def test_evidence_moves_the_territories_within_their_share_and_the_table_only_on_a_clear_match() -> None:
    reading = {"D/w": 0.5, "D/b": 0.2, "M/w": 0.1, ".": 0.2}
    moved = reweighted(reading, {"D/w": -2.0, "D/b": 3.0, "M/w": -2.0})
    assert max(moved, key=moved.__getitem__) == "D/b"
    assert moved["."] < 0.2 * math.exp(-3.0) * 1.3  # a clear match (3 nats): a card is there
    assert sum(moved.values()) == pytest.approx(1.0)
    unmoved = reweighted(reading, {"D/w": -4.0, "D/b": -4.0, "M/w": -4.0})  # another print: nothing fits
    assert unmoved == pytest.approx(reading)
    floor = reweighted(reading, {"D/b": 1.0, "M/w": -1.0})  # a label no card shows gets the weakest
    assert floor["D/w"] / floor["M/w"] == pytest.approx(5.0)


def test_a_town_of_art_far_from_the_classifiers_centre_reads_at_least_as_well_with_the_taught_deck() -> None:
    rgb, truth = town()
    base = shipped_reader()
    without = right(scan_town(rgb, reader=base).town, truth)
    with_deck = scan_town(rgb, reader=taught_reader(taught(TOWN_SEED), base))
    assert right(with_deck.town, truth) >= without
    assert with_deck.town.grid in (truth.grid, tuple(tuple(reversed(r)) for r in reversed(truth.grid)))


def test_a_deck_of_another_print_costs_the_town_at_most_one_territory() -> None:
    rgb, truth = town()
    base = shipped_reader()
    without = scan_town(rgb, reader=base).town
    other = scan_town(rgb, reader=taught_reader(taught(TOWN_SEED + 1), base)).town
    assert right(other, truth) >= right(without, truth) - 1
