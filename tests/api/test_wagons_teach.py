"""Teaching a Circle the Wagons deck from the command line and the service, and which scans use it: the
photo of the 18 cards (models.synth.wagons.deck, the print of the town photo of tests/api/
test_town_scan_cli.py) is told from a Sprawlopolis deck photo on its own, saved with its game, and used
for town photos only; a Sprawlopolis deck is never used for a town, nor a wagons deck for a city. A player
of both games keeps both decks (two deck files given to ``scan``; one per device and game on the service),
each used for its own game's photos, forgets one keeping the other, and corrects a wagons deck as a
Sprawlopolis one is corrected."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from models.synth.deck import city_photo, deck_art, deck_photo, png
from models.synth.wagons.deck import render_wagons_deck
from tests.api.test_town_scan_cli import SEED, grid_rows, town_photo, truth_rows
from tests.conftest import Cli, assert_error

pytestmark = pytest.mark.slow

SPRAWL_DECK = [(n, n % 3 == 0) for n in (4, 11, 2, 17, 8, 15, 1, 6, 13, 18, 9, 3, 12, 5, 16, 7, 14, 10)]
TABLE = np.full((400, 600, 3), (52, 70, 96), np.uint8)
UNUSED_SPRAWL = "the taught deck holds Sprawlopolis cards; this Circle the Wagons town was read without it"
UNUSED_WAGONS = "the taught deck holds Circle the Wagons cards; this Sprawlopolis city was read without it"


@cache
def wagons_deck_jpeg() -> bytes:
    """The deck photo of the town photo's print (seed 501), at 2 px/mm."""
    rgb, _ = render_wagons_deck(SEED, ppm=2.0)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


@cache
def sprawl_photos() -> tuple[bytes, bytes]:
    """A Sprawlopolis deck photo and a city of ten of its cards, in one print."""
    art = deck_art(4, 3.0)
    return png(deck_photo(art, SPRAWL_DECK, ppm=3.0)), png(city_photo(art, SPRAWL_DECK[:10], ppm=3.0))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("wagons-teach")
    out = {
        "deck": folder / "wagons-deck.jpg",
        "town": folder / "town.jpg",
        "table": folder / "table.png",
        "sprawl": folder / "sprawl-deck.png",
    }
    out["deck"].write_bytes(wagons_deck_jpeg())
    out["town"].write_bytes(town_photo().jpeg)
    out["table"].write_bytes(png(TABLE))
    out["sprawl"].write_bytes(sprawl_photos()[0])
    return out


def test_teach_tells_a_wagons_deck_photo_and_saves_a_deck_that_records_its_game(
    cli: Cli, files: dict[str, Path], tmp_path: Path
) -> None:
    from games import load_any_deck

    out = tmp_path / "mine.deck"
    code, printed, err = cli("teach", str(files["deck"]), "--out", str(out), "--format", "json")
    assert code == 0, err
    answer = json.loads(printed)
    assert answer["game"] == "wagons"
    assert sorted(c["card"] for c in answer["cards"]) == list(range(18))
    assert load_any_deck(out.read_bytes(), "mine.deck").game == "wagons"
    code, printed, err = cli("deck", "show", str(out))
    assert code == 0 and len(printed.splitlines()) == 4  # three rows of six and the line naming it


def _card_at(cards: list[dict], row: int, col: int) -> dict:
    return next(c for c in cards if (c["row"], c["col"]) == (row, col))


def test_deck_fix_corrects_a_wagons_deck_and_refuses_bad_corrections_in_one_line(
    cli: Cli, files: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "w.deck"
    code, printed, err = cli("teach", str(files["deck"]), "--out", str(out), "--format", "json")
    assert code == 0, err
    cards = json.loads(printed)["cards"]
    a, b = _card_at(cards, 0, 0), _card_at(cards, 0, 1)
    swap = [f"1,1={b['card']}{'r' * b['rotated']}", f"1,2={a['card']}{'r' * a['rotated']}"]
    code, printed, err = cli("deck", "fix", str(out), *swap, "--format", "json")
    assert code == 0, err
    fixed = json.loads(printed)["cards"]
    assert _card_at(fixed, 0, 0)["card"] == b["card"] and _card_at(fixed, 0, 1)["card"] == a["card"]
    before = out.read_bytes()
    for bad, words in (
        ("1,1=18", "'18' is not a Circle the Wagons card"),
        ("1,1=wrecktar", "not a Circle the Wagons card"),
        ("1,1=none", f"missing: card {b['card']}"),
        (f"1,1={a['card']}", f"card {a['card']} would lie twice (row 1 card 1, row 1 card 2)"),
        ("9,1=3", "no card at row 9 card 1"),
        ("1-1=3", "write a correction as ROW,COL=CARD"),
    ):
        code, printed, err = cli("deck", "fix", str(out), bad)
        assert code == 2 and printed == "" and err.count("\n") == 1 and words in err, (bad, err)
    assert out.read_bytes() == before  # a refused correction leaves the file as it was


def test_teach_refuses_a_photo_that_is_not_a_deck_and_a_sprawlopolis_deck_called_wagons_in_one_line(
    cli: Cli, files: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "x.deck"
    code, printed, err = cli("teach", str(files["table"]), "--out", str(out), "--game", "wagons")
    assert code == 2 and printed == "" and err.count("\n") == 1 and "table.png: no cards found" in err
    code, printed, err = cli("teach", str(files["sprawl"]), "--out", str(out), "--game", "wagons")
    assert code == 2 and err.count("\n") == 1
    assert "do not look like Circle the Wagons cards" in err
    assert not out.exists()


def test_a_town_scan_uses_a_taught_wagons_deck_but_not_a_sprawlopolis_one(
    cli: Cli, files: dict[str, Path], tmp_path: Path
) -> None:
    wagons, sprawl = tmp_path / "w.deck", tmp_path / "s.deck"
    assert cli("teach", str(files["deck"]), "--out", str(wagons))[0] == 0
    code, printed, err = cli("teach", str(files["sprawl"]), "--out", str(sprawl))
    assert code == 0 and "18 Sprawlopolis cards taught" in printed, err
    code, printed, err = cli("scan", str(files["town"]), "--deck", str(wagons), "--format", "json")
    assert code == 0, err
    assert grid_rows(json.loads(printed)["city"]) == truth_rows()
    assert "read without it" not in err
    code, printed, err = cli("scan", str(files["town"]), "--deck", str(sprawl), "--format", "json")
    assert code == 0, err
    assert grid_rows(json.loads(printed)["city"]) == truth_rows()
    assert UNUSED_SPRAWL in err and UNUSED_SPRAWL in json.loads(printed)["warnings"]


# ---- the service ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from api.web import Settings, create_app

    db = tmp_path_factory.mktemp("decks") / "decks.db"
    with TestClient(create_app(Settings(database_path=str(db), max_upload_bytes=4_000_000))) as c:
        yield c


def test_the_service_teaches_a_wagons_deck_and_reads_towns_with_it_and_cities_without_it(
    client: TestClient,
) -> None:
    auth = {"Authorization": f"Bearer {client.post('/api/v1/devices').json()['device_token']}"}
    photo = {"image": ("deck.jpg", wagons_deck_jpeg(), "image/jpeg")}
    resp = client.post("/api/v1/deck", files=photo, headers=auth)
    assert resp.status_code == 201, resp.text
    assert resp.json()["game"] == "wagons" and len(resp.json()["cards"]) == 18
    assert client.get("/api/v1/deck", headers=auth).json()["game"] == "wagons"
    town = client.post(
        "/api/v1/scans", files={"image": ("town.jpg", town_photo().jpeg, "image/jpeg")}, headers=auth
    )
    assert town.status_code in (200, 201), town.text
    assert town.json()["game"] == "wagons" and town.json()["taught_deck"] is True
    assert grid_rows(town.json()["city"]) == truth_rows()
    city = client.post(
        "/api/v1/scans", files={"image": ("city.png", sprawl_photos()[1], "image/png")}, headers=auth
    )
    assert city.status_code in (200, 201), city.text
    assert city.json()["taught_deck"] is False and UNUSED_WAGONS in city.json()["warnings"]


def test_scan_takes_a_deck_of_each_game_and_uses_each_for_its_own_games_photos(
    cli: Cli, files: dict[str, Path], tmp_path: Path
) -> None:
    wagons, sprawl = tmp_path / "w.deck", tmp_path / "s.deck"
    assert cli("teach", str(files["deck"]), "--out", str(wagons))[0] == 0
    assert cli("teach", str(files["sprawl"]), "--out", str(sprawl))[0] == 0
    city = tmp_path / "city.png"
    city.write_bytes(sprawl_photos()[1])
    code, printed, err = cli("scan", str(city), "--deck", str(wagons), "--format", "json")
    assert code == 0 and UNUSED_WAGONS in json.loads(printed)["warnings"]  # the town deck alone: unused
    both = ("--deck", str(sprawl), "--deck", str(wagons), "--format", "json")
    code, printed, err = cli("scan", str(city), *both)
    assert code == 0 and not any("read without it" in w for w in json.loads(printed)["warnings"])
    code, printed, err = cli("scan", str(files["town"]), *both)
    assert code == 0 and "read without it" not in err
    assert json.loads(printed)["game"] == "wagons" and grid_rows(json.loads(printed)["city"]) == truth_rows()
    code, printed, err = cli("scan", str(files["town"]), "--deck", str(wagons), "--deck", str(wagons))
    assert (
        code == 2 and err.count("\n") == 1 and "are both Circle the Wagons decks: give one deck a game" in err
    )


def _auth(client: TestClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.post('/api/v1/devices').json()['device_token']}"}


def _scan(client: TestClient, auth: dict[str, str], name: str, data: bytes) -> dict:
    resp = client.post("/api/v1/scans", files={"image": (name, data, "image/png")}, headers=auth)
    assert resp.status_code in (200, 201), resp.text
    return resp.json()


def test_a_device_keeps_a_deck_of_each_game_uses_each_for_its_game_and_forgets_one_keeping_the_other(
    client: TestClient,
) -> None:
    auth = _auth(client)
    sprawl = client.post(
        "/api/v1/deck", files={"image": ("s.png", sprawl_photos()[0], "image/png")}, headers=auth
    )
    assert sprawl.status_code == 201 and sprawl.json()["game"] == "sprawlopolis"
    wagons = client.post(
        "/api/v1/deck", files={"image": ("w.jpg", wagons_deck_jpeg(), "image/jpeg")}, headers=auth
    )
    assert wagons.status_code == 201, wagons.text
    assert [d["game"] for d in wagons.json()["kept"]] == ["wagons", "sprawlopolis"]  # the first one stays
    kept = client.get("/api/v1/deck?game=sprawlopolis", headers=auth).json()
    assert kept["cards"] == sprawl.json()["cards"] and len(kept["kept"]) == 2
    town = _scan(client, auth, "town.jpg", town_photo().jpeg)
    assert (
        town["game"] == "wagons" and town["taught_deck"] is True and grid_rows(town["city"]) == truth_rows()
    )
    city = _scan(client, auth, "city.png", sprawl_photos()[1])
    assert city["taught_deck"] is True and not any("read without it" in w for w in city["warnings"])
    for bad in (
        client.delete("/api/v1/deck", headers=auth),
        client.patch("/api/v1/deck", json={"corrections": [{"row": 0, "col": 0, "card": 3}]}, headers=auth),
    ):
        assert_error(bad, 422, "invalid_request", "game:", "?game=wagons")  # two kept: say which
    assert_error(client.get("/api/v1/deck?game=chess", headers=auth), 422, "invalid_request", "game: 'chess'")
    assert client.delete("/api/v1/deck?game=wagons", headers=auth).status_code == 204
    assert_error(
        client.get("/api/v1/deck?game=wagons", headers=auth),
        404,
        "deck_not_found",
        "no Circle the Wagons deck",
    )
    assert [d["game"] for d in client.get("/api/v1/deck", headers=auth).json()["kept"]] == ["sprawlopolis"]
    assert _scan(client, auth, "city.png", sprawl_photos()[1])["taught_deck"] is True  # the other one stays
    town = _scan(client, auth, "town.jpg", town_photo().jpeg)
    assert town["taught_deck"] is False and UNUSED_SPRAWL in town["warnings"]


def test_the_service_corrects_a_wagons_deck_and_refuses_bad_corrections_naming_the_field(
    client: TestClient,
) -> None:
    auth = _auth(client)
    taught = client.post(
        "/api/v1/deck", files={"image": ("w.jpg", wagons_deck_jpeg(), "image/jpeg")}, headers=auth
    )
    assert taught.status_code == 201, taught.text
    a, b = _card_at(taught.json()["cards"], 0, 0), _card_at(taught.json()["cards"], 0, 1)
    swap = {"corrections": [
        {"row": 0, "col": 0, "card": b["card"], "rotated": b["rotated"]},
        {"row": 0, "col": 1, "card": a["card"], "rotated": a["rotated"]},
    ]}  # fmt: skip
    fixed = client.patch("/api/v1/deck?game=wagons", json=swap, headers=auth)
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["game"] == "wagons" and _card_at(fixed.json()["cards"], 0, 0)["card"] == b["card"]
    assert client.get("/api/v1/deck", headers=auth).json()["cards"] == fixed.json()["cards"]
    for bad, words in (
        (
            {"row": 0, "col": 0, "card": 18},
            "corrections[0]: card 18 is not one of the Circle the Wagons cards",
        ),
        ({"row": 0, "col": 0, "extra": "wrecktar"}, "corrections[0]: extra: a Circle the Wagons deck has no"),
        ({"row": 0, "col": 0}, "corrections[0]: card: give a card 0 to 17"),
        ({"row": 0, "col": 0, "card": None}, f"missing: card {b['card']}"),
        ({"row": 0, "col": 0, "card": 3, "rotated": "yes"}, "corrections[0]: rotated must be true or false"),
        ({"row": -1, "col": 0, "card": 3}, "corrections[0]: row must be a whole number"),
        ({"row": 7, "col": 0, "card": 3}, "no card at row 8 card 1"),
    ):
        resp = client.patch("/api/v1/deck", json={"corrections": [bad]}, headers=auth)
        assert_error(resp, 422, "bad_deck_fix", words)
    assert client.get("/api/v1/deck", headers=auth).json()["cards"] == fixed.json()["cards"]
