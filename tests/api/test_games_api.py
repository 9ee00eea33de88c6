"""The saved-games endpoints through FastAPI's test client, on a SQLite file and on a real PostgreSQL.

Stored scores are compared with ``/api/v1/score`` for the same city (never hard-coded); the device-token
tests check that one device can neither list, read, change nor delete another device's game.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.web import Settings, create_app
from tests.conftest import CARDS, CITY, TOWN, assert_error, engine_json


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=db_url))) as c:
        yield c


def device(client: TestClient) -> dict[str, str]:
    resp = client.post("/api/v1/devices")
    assert resp.status_code == 201
    token = resp.json()["device_token"]
    assert len(token) >= 43
    return {"Authorization": f"Bearer {token}"}


def save(client: TestClient, auth: dict[str, str], **body: object) -> dict:
    resp = client.post("/api/v1/games", json={"city": CITY, "cards": CARDS, **body}, headers=auth)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_save_list_read_change_delete(client: TestClient) -> None:
    auth = device(client)
    game = save(client, auth, label="Sunday", players=["Ann", "Bo"], played_at="2026-11-29T18:30:00+01:00")
    expected = engine_json(CITY, CARDS)
    assert game["breakdown"] == expected
    assert (game["total"], game["target"], game["won"]) == (
        expected["total"],
        expected["target"],
        expected["won"],
    )
    assert game["cards"] == CARDS and game["city"] == expected["city"] and game["label"] == "Sunday"
    assert game["played_at"] == "2026-11-29T17:30:00+00:00"
    assert len(game["id"]) == 22 and "owner" not in game

    listed = client.get("/api/v1/games", headers=auth).json()
    assert listed["count"] == 1 and [g["id"] for g in listed["games"]] == [game["id"]]
    assert "breakdown" not in listed["games"][0] and listed["games"][0]["total"] == expected["total"]
    assert client.get(f"/api/v1/games/{game['id']}", headers=auth).json() == game

    resp = client.patch(f"/api/v1/games/{game['id']}", json={"label": "Sunday night"}, headers=auth)
    assert resp.status_code == 200 and resp.json()["label"] == "Sunday night"
    assert resp.json()["players"] == ["Ann", "Bo"] and resp.json()["total"] == game["total"]
    resp = client.patch(f"/api/v1/games/{game['id']}", json={"total": 99}, headers=auth)
    assert_error(resp, 422, "invalid_request", "total")

    assert client.delete(f"/api/v1/games/{game['id']}", headers=auth).status_code == 204
    assert_error(client.get(f"/api/v1/games/{game['id']}", headers=auth), 404, "game_not_found")
    assert client.get("/api/v1/games", headers=auth).json()["count"] == 0


def test_another_device_cannot_list_read_change_or_delete_a_game(client: TestClient) -> None:
    owner, other = device(client), device(client)
    game = save(client, owner, label="mine")
    url = f"/api/v1/games/{game['id']}"
    assert client.get("/api/v1/games", headers=other).json() == {
        "games": [],
        "count": 0,
        "limit": 50,
        "offset": 0,
    }
    assert_error(client.get(url, headers=other), 404, "game_not_found")
    assert_error(client.patch(url, json={"label": "theirs"}, headers=other), 404, "game_not_found")
    assert_error(client.delete(url, headers=other), 404, "game_not_found")
    assert client.get("/api/v1/stats", headers=other).json() == {"games": 0, "sections": []}
    assert client.get("/api/v1/games/export", headers=other).json()["games"] == []
    # Untouched for its owner.
    assert client.get(url, headers=owner).json()["label"] == "mine"
    assert client.get("/api/v1/stats", headers=owner).json()["games"] == 1


def test_device_token_is_required_and_checked(client: TestClient) -> None:
    assert_error(client.get("/api/v1/games"), 401, "device_token_required", "Authorization: Bearer")
    for bad in ("Bearer short", "Basic " + "a" * 40, "Bearer " + "a.b" * 20, "Bearer"):
        assert_error(
            client.get("/api/v1/stats", headers={"Authorization": bad}), 401, "device_token_required"
        )
    resp = client.post("/api/v1/games", json={"city": CITY})
    assert_error(resp, 401, "device_token_required")


def test_bad_games_are_refused_with_what_was_wrong(client: TestClient) -> None:
    auth = device(client)
    post = client.post
    assert_error(
        post("/api/v1/games", json={"city": "P  Q\n"}, headers=auth), 400, "malformed_city", "column 4"
    )
    assert_error(post("/api/v1/games", json={"city": CITY, "cards": [99]}, headers=auth), 400, "unknown_card")
    resp = post("/api/v1/games", json={"city": CITY, "label": "x" * 201}, headers=auth)
    assert_error(resp, 422, "invalid_request", "label")
    resp = post("/api/v1/games", json={"city": CITY, "players": ["p"] * 9}, headers=auth)
    assert_error(resp, 422, "invalid_request", "players")
    resp = post("/api/v1/games", json={"city": CITY, "players": ["n" * 61]}, headers=auth)
    assert_error(resp, 422, "invalid_request", "60 characters")
    resp = post("/api/v1/games", json={"city": CITY, "played_at": "yesterday"}, headers=auth)
    assert_error(resp, 422, "invalid_request", "played_at")
    assert_error(client.get("/api/v1/games?limit=0", headers=auth), 422, "invalid_request", "limit")
    assert_error(client.get("/api/v1/games?limit=501", headers=auth), 422, "invalid_request", "limit")
    assert client.get("/api/v1/games", headers=auth).json()["count"] == 0  # nothing half-saved


def test_statistics_per_combination_and_card(client: TestClient) -> None:
    auth = device(client)
    games = [save(client, auth), save(client, auth, cards=[17, 8, 7]), save(client, auth, cards=[1, 2, 3])]
    wagons = save(
        client, auth, game="wagons", city=TOWN, cards=None, options={"goals": ["cool-water", "badlands"]}
    )
    assert wagons["game"] == "wagons" and wagons["cards"] == ["cool-water", "badlands"]
    stats = client.get("/api/v1/stats", headers=auth).json()
    assert stats["games"] == 4
    sections = {s["game"]: s for s in stats["sections"]}
    sprawl = sections["sprawlopolis"]
    totals = [g["total"] for g in games]
    assert sprawl["overall"]["games"] == 3 and sprawl["overall"]["best"] == max(totals)
    assert sprawl["overall"]["won"] == sum(1 for g in games if g["won"])
    assert sprawl["overall"]["mean"] == round(sum(totals) / 3, 2)
    combos = {tuple(c["cards"]): c for c in sprawl["combinations"]}
    assert combos[(7, 8, 17)]["games"] == 2 and combos[(1, 2, 3)]["games"] == 1
    assert {c["card"]: c["games"] for c in sprawl["cards"]}[17] == 2
    assert sections["wagons"]["combinations"][0]["cards"] == ["badlands", "cool-water"]
    assert sections["wagons"]["overall"]["best"] == wagons["total"]


def test_export_then_import_on_another_device(client: TestClient) -> None:
    first, second = device(client), device(client)
    save(client, first, label="a", players=["Ann"])
    save(client, first, game="wagons", city=TOWN, cards=None, options={"goals": ["cool-water"]}, label="b")
    document = client.get("/api/v1/games/export", headers=first).json()
    assert document["format"] == "sprawlscan-games" and len(document["games"]) == 2
    resp = client.post("/api/v1/games/import", json=document, headers=second)
    assert resp.status_code == 201 and resp.json()["imported"] == 2
    again = client.get("/api/v1/games/export", headers=second).json()["games"]
    keys = ("game", "city", "cards", "total", "won", "label", "players", "played_at", "breakdown", "options")
    assert [{k: g[k] for k in keys} for g in again] == [{k: g[k] for k in keys} for g in document["games"]]
    assert not {g["id"] for g in again} & {g["id"] for g in document["games"]}


def test_bad_imports_name_the_game_and_store_nothing(client: TestClient) -> None:
    auth = device(client)
    post = client.post
    assert_error(post("/api/v1/games/import", json={"games": []}, headers=auth), 400, "bad_import", "format")
    doc = {"format": "sprawlscan-games", "version": 1, "games": [{"city": CITY}, {"city": "P  Q\n"}]}
    assert_error(
        post("/api/v1/games/import", json=doc, headers=auth), 400, "bad_import", "games[1]", "column 4"
    )
    doc["games"] = [{"city": CITY}, {"city": CITY, "label": 5}]
    assert_error(post("/api/v1/games/import", json=doc, headers=auth), 400, "bad_import", "games[1]", "label")
    doc["games"] = [{"city": CITY}] * 1001
    assert_error(post("/api/v1/games/import", json=doc, headers=auth), 400, "bad_import", "at most 1000")
    assert client.get("/api/v1/games", headers=auth).json()["count"] == 0


def test_a_scan_stored_by_one_replica_is_served_by_another(db_url: str) -> None:
    first, second = create_app(Settings(database_url=db_url)), create_app(Settings(database_url=db_url))
    with TestClient(first) as a, TestClient(second) as b:
        result = {**engine_json(CITY, CARDS), "scan_id": "s1", "overlay": "/api/v1/scans/s1/overlay"}
        first.state.services.scans.put("s1", result, CITY, b"\xff\xd8\xff fake jpeg")
        assert b.get("/api/v1/scans/s1").json() == result
        assert b.get("/api/v1/scans/s1/overlay").content == b"\xff\xd8\xff fake jpeg"
        report = b.post("/api/v1/check", json={"scan_id": "s1", "cards": CARDS, "tally": "total 1"}).json()
        assert report["breakdown"]["total"] == result["total"]
        assert_error(a.get("/api/v1/scans/s1/photo"), 404, "scan_not_found", "keep_photo")


def test_an_unusable_database_stops_the_start_up_naming_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    app = create_app(Settings(database_path=str(blocker / "sprawlscan.db")))
    with pytest.raises(OSError), TestClient(app):
        pass
    assert f"cannot open the database sqlite:///{blocker}/sprawlscan.db" in caplog.text
    url = "postgresql://someone:secret@127.0.0.1:1/nothing"
    with pytest.raises(Exception, match="127.0.0.1"), TestClient(create_app(Settings(database_url=url))):
        pass
    assert "someone:***@127.0.0.1:1/nothing" in caplog.text and "secret" not in caplog.text


def test_a_device_keeps_at_most_the_set_number_of_games(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(database_path=str(tmp_path / "g.db"), max_games_per_device=2))) as c:
        auth = device(c)
        save(c, auth)
        save(c, auth)
        resp = c.post("/api/v1/games", json={"city": CITY}, headers=auth)
        assert_error(resp, 409, "too_many_games", "has 2 saved games and may keep 2")
        doc = c.get("/api/v1/games/export", headers=auth).json()
        assert_error(c.post("/api/v1/games/import", json=doc, headers=auth), 409, "too_many_games")
        assert c.get("/api/v1/games", headers=auth).json()["count"] == 2
        assert save(c, device(c))["total"] == engine_json(CITY, CARDS)["total"]  # another device has room
