"""Issue 27, the store's rows: times out of range, bounded imports, databases that cannot be opened or
written, and the per-device limit under concurrent saves (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.web import Settings, create_app
from tests.conftest import CITY, Cli, assert_error

TOKEN = "a" * 20 + "B" * 20
EDGES = ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00"]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_path=str(tmp_path / "g.db")))) as c:
        yield c


def _auth(client: TestClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.post('/api/v1/devices').json()['device_token']}"}


def _export(*games: dict) -> dict:
    return {"format": "sprawlscan-games", "version": 1, "games": list(games)}


@pytest.mark.parametrize("moment", EDGES)
def test_a_time_of_play_beyond_the_calendar_in_utc_is_a_422_naming_played_at(
    client: TestClient, moment: str
) -> None:
    auth = _auth(client)
    resp = client.post("/api/v1/games", json={"city": CITY, "played_at": moment}, headers=auth)
    assert_error(resp, 422, "invalid_request", "played_at", "UTC")
    game = client.post("/api/v1/games", json={"city": CITY}, headers=auth).json()
    resp = client.patch(f"/api/v1/games/{game['id']}", json={"played_at": moment}, headers=auth)
    assert_error(resp, 422, "invalid_request", "played_at")
    resp = client.post(
        "/api/v1/games/import", json=_export({"city": CITY, "played_at": moment}), headers=auth
    )
    assert_error(resp, 400, "bad_import", "games[0]: played_at")  # as every bad import
    assert client.get("/api/v1/games", headers=auth).json()["count"] == 1


def test_the_command_line_import_names_a_time_beyond_the_calendar(tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(_export({"city": CITY, "played_at": EDGES[0]})))
    code, _, err = cli(
        "games", "--database", str(tmp_path / "g.db"), "--import", str(path), "--device", TOKEN
    )
    assert code == 2 and err.count("\n") == 1 and "games[0]: played_at" in err, err


def test_an_endless_import_file_is_refused_past_the_size_limit(tmp_path: Path, cli: Cli) -> None:
    db = ["--database", str(tmp_path / "g.db")]
    code, _, err = cli("games", *db, "--import", "/dev/zero", "--device", TOKEN)
    assert code == 2 and err.count("\n") == 1 and "/dev/zero" in err and "larger than" in err, err


def test_a_binary_import_file_is_refused_naming_line_and_column(tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "photo.json"
    path.write_bytes(b'{"format":\n  "\xff\xd8\xff"}')
    code, _, err = cli(
        "games", "--database", str(tmp_path / "g.db"), "--import", str(path), "--device", TOKEN
    )
    assert code == 2 and err.count("\n") == 1, err
    assert "photo.json: line 2, column 4: not UTF-8 text" in err, err


@pytest.mark.parametrize("command", ["games", "stats"])
def test_a_database_that_cannot_be_opened_is_one_line_and_exit_2(
    tmp_path: Path, cli: Cli, command: str
) -> None:
    code, _, err = cli(command, "--database", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and f"cannot open the database {tmp_path}" in err, err
    assert "is a folder" in err
    code, _, err = cli(command, "--database", "postgresql://someone:secret@127.0.0.1:1/nothing")
    assert code == 2 and err.count("\n") == 1 and "cannot open the database" in err, err
    assert "someone:***@127.0.0.1:1/nothing" in err and "secret" not in err


def test_concurrent_saves_never_take_a_device_past_its_limit(db_url: str) -> None:
    # As many JSON workers and slots as saves: the saves race in the store, not in the admission's queue.
    race = {"json_workers": 20, "max_pending_json": 20, "max_client_json": 20}
    with TestClient(create_app(Settings(database_url=db_url, max_games_per_device=10, **race))) as c:
        auth = _auth(c)

        def save(_: int) -> int:
            return c.post("/api/v1/games", json={"city": CITY}, headers=auth).status_code

        with ThreadPoolExecutor(20) as pool:
            answers = sorted(pool.map(save, range(20)))
        assert answers == [201] * 10 + [409] * 10
        assert c.get("/api/v1/games", headers=auth).json()["count"] == 10
        doc = _export({"city": CITY})
        assert_error(c.post("/api/v1/games/import", json=doc, headers=auth), 409, "too_many_games", "keep 10")


def _read_only(db_url: str, token: str) -> str:
    """A URL of the database at ``db_url`` (migrated first, ``token`` issued while it could be written)
    through which nothing can be written: SQLite opened read-only (as a file that has become read-only is;
    root ignores file modes), PostgreSQL with read-only transactions (as on a standby server)."""
    from sqlalchemy import text

    from api.core import owner_of_token
    from api.storage import DeviceStore
    from api.storage.engine import connect, migrate

    engine = connect(db_url)
    migrate(engine)
    DeviceStore(engine, 1, 60).issue(owner_of_token(token), "before it became read-only")
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(text(f"ALTER DATABASE {engine.url.database} SET default_transaction_read_only = on"))
        engine.dispose()
        return db_url
    engine.dispose()
    return f"sqlite:///file:{engine.url.database}?mode=ro&uri=true"


def test_a_database_that_cannot_be_written_is_reported_and_refuses_before_the_work(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from api.web import scanning
    from tests.conftest import png_bytes

    def must_not_scan(*args: object, **kw: object) -> None:
        raise AssertionError("the photo was scanned although its result could not be stored")

    monkeypatch.setattr(scanning, "scan_and_score", must_not_scan)
    with TestClient(create_app(Settings(database_url=_read_only(db_url, TOKEN)))) as c:
        assert "cannot be written" in caplog.text  # said at start-up
        health = c.get("/healthz")
        assert health.status_code == 503, health.text
        assert health.json()["status"] == "unavailable" and "read" in health.json()["error"]["message"]
        assert_error(
            c.post("/api/v1/devices"), 503, "store_unavailable", "the device token could not be stored"
        )
        resp = c.post("/api/v1/games", json={"city": CITY}, headers={"Authorization": f"Bearer {TOKEN}"})
        assert_error(resp, 503, "store_unavailable", "the game could not be stored", "read")
        resp = c.post("/api/v1/scans", files={"image": ("city.png", png_bytes())})
        assert_error(resp, 503, "store_unavailable", "the scan could not be stored")
        assert c.post("/api/v1/score", json={"city": CITY}).status_code == 200  # scoring still works


def test_a_writable_database_is_healthy(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"
