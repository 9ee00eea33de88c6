"""Teach your deck: a rendered deck photo (our own look-alike art) taught, used, refused and removed."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from models.synth.deck import city_photo, deck_art, deck_photo, png
from scoring.city import format_city, parse_city
from scoring.layouts import card_blocks
from vision.deck import DeckError, DeckFileError, TaughtDeck, load_deck
from vision.deck_teach import teach_deck
from vision.evaluate import compare_cities
from vision.pipeline import scan_image

pytestmark = pytest.mark.slow

_rng = np.random.default_rng(7)
DECK = [(int(n), bool(_rng.random() < 0.5)) for n in _rng.permutation(np.arange(1, 19))]


def _true_city(cards: list[tuple[int, bool]], cols: int = 5) -> object:
    """The city :func:`city_photo` lays out, in the city format."""
    rows = -(-len(cards) // cols)
    grid = [["."] * (2 * cols) for _ in range(2 * rows)]
    for i, (n, turned) in enumerate(cards):
        r, c = divmod(i, cols)
        for dr, line in enumerate(card_blocks(n, turned)):
            for dc, cell in enumerate(line):
                grid[2 * r + dr][2 * c + dc] = cell.zone + (f":{cell.road}" if cell.road else "")
    return parse_city("\n".join(" ".join(row) for row in grid) + "\n")


@pytest.fixture(scope="module")
def art() -> dict:
    return deck_art(3)


@pytest.fixture(scope="module")
def taught(art):
    return teach_deck(png(deck_photo(art, DECK)))


def test_a_rendered_deck_is_assigned_card_by_card_with_its_turn(taught) -> None:
    got = {(c.row, c.col): (c.card, c.rotated) for c in taught.cards}
    want = {divmod(i, 6): card for i, card in enumerate(DECK)}
    turned = {(2 - r, 5 - c): (n, not t) for (r, c), (n, t) in want.items()}
    assert got in (want, turned)
    assert len(taught.describe().splitlines()) == 3


def test_the_taught_deck_reads_a_city_of_the_same_cards(art, taught) -> None:
    city = _true_city(DECK[:15])
    photo = png(city_photo(art, DECK[:15]))
    plain = scan_image(photo, cards=[n for n, _ in DECK[15:]])
    with_deck = scan_image(photo, cards=[n for n, _ in DECK[15:]], deck=taught.deck)
    assert compare_cities(city, with_deck.city).exact
    assert compare_cities(city, with_deck.city).right >= compare_cities(city, plain.city).right
    assert with_deck.timings["deck"] > plain.timings.get("deck", 0.0)
    # Removing the deck: the next scan without it is the untaught one, nothing kept in between.
    assert format_city(scan_image(photo, cards=[n for n, _ in DECK[15:]]).city) == format_city(plain.city)


def test_a_deck_taught_on_other_prints_does_no_harm(taught) -> None:
    other = deck_art(11)  # the same 18 layouts, drawn anew: another print of the cards
    cards = DECK[3:18]
    city = _true_city(cards)
    photo = png(city_photo(other, cards, seed=5))
    plain = compare_cities(city, scan_image(photo).city)
    with_deck = compare_cities(city, scan_image(photo, deck=taught.deck).city)
    assert with_deck.right >= plain.right


def test_a_deck_photo_with_a_card_missing_names_it(art) -> None:
    with pytest.raises(DeckError, match=r"17 of the 18 cards found; missing: card 9\b"):
        teach_deck(png(deck_photo(art, [c for c in DECK if c[0] != 9])))


def test_a_deck_photo_with_a_card_twice_names_both_places_and_the_missing_one(art) -> None:
    twice = [(4, False) if n == 12 else (n, t) for n, t in DECK]
    with pytest.raises(
        DeckError, match=r"card 4 appears twice \(row \d card \d, row \d card \d\).*missing: card 12"
    ):
        teach_deck(png(deck_photo(art, twice)))


def test_a_taught_deck_survives_its_file_and_bad_files_are_named(taught) -> None:
    data = taught.deck.to_bytes()
    again = load_deck(data)
    assert np.allclose(again.prototypes, taught.deck.prototypes, atol=1e-2)
    assert again.calibration == pytest.approx(taught.deck.calibration)
    with pytest.raises(DeckFileError, match="my.deck: not a taught deck file"):
        load_deck(b"not a deck", name="my.deck")
    with pytest.raises(DeckFileError, match="more than a taught deck"):
        load_deck(b"0" * 2_000_000)
    for meta, match in (({"version": 99}, "version 99"), ({"calibration": [-1, 0]}, "calibration")):
        out = io.BytesIO()
        base = json.loads(str(np.load(io.BytesIO(data))["meta"]))
        np.savez(
            out,
            meta=np.array(json.dumps({**base, **meta})),
            prototypes=np.load(io.BytesIO(data))["prototypes"],
        )
        with pytest.raises(DeckFileError, match=match):
            load_deck(out.getvalue())
    short = TaughtDeck(taught.deck.prototypes[:10]).to_bytes()
    with pytest.raises(DeckFileError, match="damaged"):
        load_deck(short)


def test_the_command_line_teaches_and_scans_with_a_deck(art, tmp_path, capsys) -> None:
    from api.cli import main

    photo = tmp_path / "deck.png"
    photo.write_bytes(png(deck_photo(art, DECK)))
    out = tmp_path / "mine.deck"
    assert main(["teach", str(photo), "--out", str(out)]) == 0
    assert "18 cards taught" in capsys.readouterr().out
    city = tmp_path / "city.png"
    city.write_bytes(png(city_photo(art, DECK[:15])))
    assert main(["scan", str(city), "--deck", str(out), "--cards", "1", "2", "3", "--format", "city"]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.deck"
    bad.write_bytes(b"junk")
    assert main(["scan", str(city), "--deck", str(bad)]) == 2
    assert "bad.deck: not a taught deck file" in capsys.readouterr().err
    missing = tmp_path / "short.png"
    missing.write_bytes(png(deck_photo(art, DECK[:17])))
    assert main(["teach", str(missing), "--out", str(tmp_path / "x.deck")]) == 2
    assert "missing: card" in capsys.readouterr().err
    assert not (tmp_path / "x.deck").exists()
