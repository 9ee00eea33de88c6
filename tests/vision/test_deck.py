"""Teach your deck: a rendered deck photo (our own look-alike art) found card by card, taught, used,
refused and removed, from Python, the command line and the service.

The art is rendered at 3 px/mm (the scanner reads at 2 px/mm), once per module, and the deck photo is
taught once and shared; the service tests teach through HTTP themselves.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import numpy as np
import pytest
from fastapi.testclient import TestClient

from models.synth.deck import city_photo, city_truth, deck_art, deck_photo, png
from scoring.city_text import parse_city
from tests.conftest import assert_error
from tests.evaluate import compare_cities
from vision.deck.outlines import find_cards
from vision.deck.taught import DeckError, DeckFileError, TaughtDeck, load_deck
from vision.deck.teach import teach_deck
from vision.pipeline import scan_image

pytestmark = pytest.mark.slow

_rng = np.random.default_rng(7)
DECK = [(int(n), bool(_rng.random() < 0.5)) for n in _rng.permutation(np.arange(1, 19))]
PPM = 3.0
# Laid by hand and photographed askew: gaps of 9 mm give or take 2.5, the whole grid turned by 25°.
HAND_LAID = {"gap_mm": 9.0, "jitter_mm": 2.5, "turn_deg": 25.0}
TABLE = np.full((400, 600, 3), (52, 70, 96), np.uint8)  # a photo of the table and no card


def _in_grid(cards: list[dict]) -> bool:
    """The cards (row, col, card, rotated) are DECK in reading order, the grid as laid or turned by 180°."""
    want = {divmod(i, 6): card for i, card in enumerate(DECK)}
    turned = {(2 - r, 5 - c): (n, not t) for (r, c), (n, t) in want.items()}
    got = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in cards}
    return got in (want, turned)


@pytest.fixture(scope="module")
def art() -> dict:
    return deck_art(3, PPM)


@pytest.fixture(scope="module")
def deck_png(art) -> bytes:
    return png(deck_photo(art, DECK, ppm=PPM, **HAND_LAID))


@pytest.fixture(scope="module")
def taught(deck_png):
    return teach_deck(deck_png)


@pytest.fixture(scope="module")
def city_png(art) -> bytes:
    return png(city_photo(art, DECK[:10], ppm=PPM))


def test_cards_with_wide_uneven_gaps_are_found_one_by_one(art) -> None:
    for layout in (HAND_LAID, {"gap_mm": 14.0, "jitter_mm": 3.0, "turn_deg": -80.0}):
        found = find_cards(deck_photo(art, DECK, ppm=PPM, **layout))
        assert found is not None and len(found.places) == 18, layout
        assert sorted(found.places) == [divmod(i, 6) for i in range(18)], layout
        assert found.block_centres().shape == (72, 2)
    assert find_cards(TABLE) is None


def test_a_rendered_deck_is_assigned_card_by_card_with_its_turn(taught) -> None:
    assert _in_grid([c.to_json() for c in taught.cards])
    assert len(taught.describe().splitlines()) == 3


def test_the_taught_deck_reads_a_city_of_the_same_cards(taught, city_png) -> None:
    city = city_truth(DECK[:10])
    plain = scan_image(city_png, cards=[n for n, _ in DECK[15:]])
    with_deck = scan_image(city_png, cards=[n for n, _ in DECK[15:]], deck=taught.deck)
    assert compare_cities(city, with_deck.city).exact
    assert compare_cities(city, with_deck.city).right >= compare_cities(city, plain.city).right
    assert with_deck.timings["deck"] > plain.timings.get("deck", 0.0)


def test_a_deck_taught_on_other_prints_does_no_harm(taught) -> None:
    other = deck_art(11, PPM)  # the same 18 layouts, drawn anew: another print of the cards
    cards = DECK[5:15]
    city = city_truth(cards)
    photo = png(city_photo(other, cards, ppm=PPM, seed=5))
    plain = compare_cities(city, scan_image(photo).city)
    with_deck = compare_cities(city, scan_image(photo, deck=taught.deck).city)
    assert with_deck.right >= plain.right


def test_a_deck_photo_with_a_card_missing_names_it(art) -> None:
    with pytest.raises(DeckError, match=r"17 of the 18 cards found; missing: card 9\b"):
        teach_deck(png(deck_photo(art, [c for c in DECK if c[0] != 9], ppm=PPM)))


def test_a_deck_photo_with_a_card_twice_names_both_places_and_the_missing_one(art) -> None:
    twice = [(4, False) if n == 12 else (n, t) for n, t in DECK]
    with pytest.raises(
        DeckError, match=r"card 4 appears twice \(row \d card \d, row \d card \d\).*missing: card 12"
    ):
        teach_deck(png(deck_photo(art, twice, ppm=PPM)))


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


def test_the_command_line_teaches_and_scans_with_a_deck(deck_png, city_png, tmp_path, capsys) -> None:
    from api.cli import main

    photo = tmp_path / "deck.png"
    photo.write_bytes(deck_png)
    out = tmp_path / "mine.deck"
    assert main(["teach", str(photo), "--out", str(out), "--format", "json"]) == 0
    assert _in_grid(json.loads(capsys.readouterr().out)["cards"])
    city = tmp_path / "city.png"
    city.write_bytes(city_png)
    assert main(["scan", str(city), "--deck", str(out), "--cards", "1", "2", "3", "--format", "city"]) == 0
    assert parse_city(capsys.readouterr().out).cards == (1, 2, 3)
    bad = tmp_path / "bad.deck"
    bad.write_bytes(b"junk")
    assert main(["scan", str(city), "--deck", str(bad)]) == 2
    assert "bad.deck: not a taught deck file" in capsys.readouterr().err
    table = tmp_path / "table.png"
    table.write_bytes(png(TABLE))
    assert main(["teach", str(table), "--out", str(tmp_path / "x.deck")]) == 2
    assert "table.png: no cards found" in capsys.readouterr().err
    assert not (tmp_path / "x.deck").exists()


# ---- the service: POST/GET/DELETE /api/v1/deck, and scans of a device that taught its deck ---------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from api.web import Settings, create_app

    db = tmp_path_factory.mktemp("decks") / "decks.db"
    with TestClient(create_app(Settings(database_path=str(db), max_upload_bytes=4_000_000))) as c:
        yield c


def _device(client: TestClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.post('/api/v1/devices').json()['device_token']}"}


def test_the_service_teaches_uses_and_removes_a_devices_deck(client, deck_png, city_png) -> None:
    auth, other = _device(client), _device(client)
    assert_error(client.get("/api/v1/deck", headers=auth), 404, "deck_not_found", "no taught deck")
    resp = client.post("/api/v1/deck", files={"image": ("deck.png", deck_png, "image/png")}, headers=auth)
    assert resp.status_code == 201, resp.text
    assert _in_grid(resp.json()["cards"]) and len(resp.json()["grid"].splitlines()) == 3
    assert client.get("/api/v1/deck", headers=auth).json()["cards"] == resp.json()["cards"]
    assert_error(client.get("/api/v1/deck", headers=other), 404, "deck_not_found")
    photo = {"image": ("city.png", city_png, "image/png")}
    taught = client.post("/api/v1/scans", files=photo, headers=auth).json()
    assert taught["taught_deck"] is True and taught["timings"]["deck"] > 0
    assert compare_cities(city_truth(DECK[:10]), parse_city(taught["city"])).exact
    assert client.post("/api/v1/scans", files=photo, headers=other).json()["taught_deck"] is False
    assert client.delete("/api/v1/deck", headers=auth).status_code == 204
    assert_error(client.delete("/api/v1/deck", headers=auth), 404, "deck_not_found")
    assert client.post("/api/v1/scans", files=photo, headers=auth).json()["taught_deck"] is False


def test_the_service_refuses_bad_teaching_requests_naming_the_problem(client) -> None:
    auth = _device(client)
    table = {"image": ("table.png", png(TABLE), "image/png")}
    assert_error(client.post("/api/v1/deck", files=table), 401, "device_token_required", "device token")
    assert_error(
        client.post("/api/v1/deck", files=table, headers=auth), 422, "bad_deck_photo", "no cards found"
    )
    text = {"image": ("notes.txt", b"hello, not a photo", "text/plain")}
    resp = client.post("/api/v1/deck", files=text, headers=auth)
    assert 400 <= resp.status_code < 500 and "error" in resp.json()
    big = {"image": ("big.png", b"\x89PNG" + b"0" * 9_000_000, "image/png")}
    assert_error(client.post("/api/v1/deck", files=big, headers=auth), 413, "too_large", "larger than")
    three = {f: (f"{f}.png", png(TABLE), "image/png") for f in ("image", "image2", "image3")}
    assert_error(client.post("/api/v1/deck", files=three, headers=auth), 400, "bad_upload", "image3")
    assert_error(
        client.get("/api/v1/deck", headers={"Authorization": "Bearer short"}), 401, "device_token_required"
    )
