"""The issued device tokens and the scans' owners on both back ends (a SQLite file and a real PostgreSQL
server): the bound per client holds under concurrent issuance, says when the next token comes and forgets
clients after the window; the migration keeps every device that already had games or a deck; a stored scan
is its owner's."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import insert, inspect

from api.core import new_device_token, owner_of_token
from api.storage import DeviceStore, IssuanceLimit, ScanStore
from api.storage.engine import MIGRATIONS, connect, database_url, migrate
from api.storage.tables import decks, games


@pytest.fixture()
def engine(db_url: str) -> Any:
    engine = connect(database_url(db_url))
    migrate(engine)
    yield engine
    engine.dispose()


def _issue(store: DeviceStore, client: str) -> str:
    try:
        store.issue(owner_of_token(new_device_token()), client)
    except IssuanceLimit:
        return "refused"
    return "issued"


def test_concurrent_issuance_never_takes_a_client_past_its_bound(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=3, window_s=3600)
    with ThreadPoolExecutor(10) as pool:
        answers = sorted(pool.map(lambda _: _issue(store, "203.0.113.7"), range(10)))
    assert answers == ["issued"] * 3 + ["refused"] * 7
    assert store.count() == 3
    assert _issue(store, "203.0.113.8") == "issued"  # another client has its own bound


def test_the_refusal_says_when_the_next_token_comes_and_the_window_frees_it(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=2, window_s=2)
    assert [_issue(store, "c"), _issue(store, "c")] == ["issued", "issued"]
    with pytest.raises(IssuanceLimit) as refused:
        store.issue(owner_of_token(new_device_token()), "c")
    assert 1 <= refused.value.retry_after_s <= 2
    time.sleep(2.2)
    assert _issue(store, "c") == "issued"


def test_only_issued_tokens_are_known_and_a_known_one_stays_known(engine: Any) -> None:
    store = DeviceStore(engine, max_per_client=5, window_s=60)
    token = new_device_token()
    assert not store.issued(owner_of_token(token))
    store.issue(owner_of_token(token), "c")
    fresh = DeviceStore(engine, max_per_client=5, window_s=60)  # another worker: read from the database
    assert fresh.issued(owner_of_token(token)) and store.issued(owner_of_token(token))
    assert not fresh.issued(owner_of_token(new_device_token()))


def test_the_upgrade_issues_every_device_that_kept_games_or_a_deck(db_url: str) -> None:
    engine = connect(database_url(db_url))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
    gamer, teacher, stranger = (owner_of_token(c * 43) for c in "gts")
    stamp = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(insert(games).values(_game_row(gamer, stamp)))
        row = {"owner": teacher, "game": "wagons", "deck": b"x", "cards": [], "created_at": stamp}
        conn.execute(insert(decks).values(**row))
    migrate(engine)
    devices = DeviceStore(engine, 1, 60)
    assert devices.issued(gamer) and devices.issued(teacher) and not devices.issued(stranger)
    assert devices.count() == 2
    engine.dispose()


def test_the_upgrade_goes_down_and_up_again_keeping_the_schema(db_url: str) -> None:
    engine = connect(database_url(db_url))
    migrate(engine)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0003")
    assert {"devices", "issuances"}.isdisjoint(inspect(engine).get_table_names())
    assert "owner" not in {c["name"] for c in inspect(engine).get_columns("scans")}
    migrate(engine)
    assert "owner" in {c["name"] for c in inspect(engine).get_columns("scans")}
    engine.dispose()


def test_a_stored_scan_is_its_owners_and_an_anonymous_one_anyones(db_url: str) -> None:
    engine = connect(database_url(db_url))
    migrate(engine)
    store = ScanStore(engine)
    mine, other = owner_of_token("m" * 43), owner_of_token("o" * 43)
    store.put("private", {"total": 1}, "P\n", None, owner=mine)
    store.put("anonymous", {"total": 2}, "P\n", None)
    assert store.get("private", mine) is not None
    assert store.get("private", other) is None and store.get("private") is None
    assert store.get("anonymous") is not None and store.get("anonymous", other) is not None
    engine.dispose()


def _game_row(owner: str, stamp: datetime) -> dict[str, object]:
    return {
        "id": "g1",
        "owner": owner,
        "game": "sprawlopolis",
        "combo": "",
        "city": "P\n",
        "cards": [],
        "expansions": [],
        "options": {},
        "breakdown": {},
        "total": 0,
        "played_at": stamp,
        "created_at": stamp,
        "updated_at": stamp,
        "label": "",
        "players": [],
    }
