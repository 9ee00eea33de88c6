"""Taught decks in the database, on a SQLite file and on a real PostgreSQL (``db_url``): one per device and
game (both games' decks side by side), each replaced by a new teaching of its game and removable on its
own, never visible to another device; and a database of the one-deck-per-device schema (migration 0002)
migrated with its decks kept, an old file without a game as Sprawlopolis's."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import numpy as np
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from api.storage.deck_store import DeckStore
from api.storage.engine import MIGRATIONS, connect, database_url, migrate


@pytest.fixture()
def store(db_url: str):  # type: ignore[no-untyped-def]
    engine = connect(database_url(db_url))
    migrate(engine)
    yield DeckStore(engine)
    engine.dispose()


def test_a_deck_is_kept_per_owner_and_game_replaced_and_removed(store: DeckStore) -> None:
    assert "decks" in inspect(store.engine).get_table_names()
    cards = [{"photo": 0, "row": 0, "col": 0, "card": 7, "rotated": True}]
    assert store.get("a" * 64, "sprawlopolis") is None and store.kept("a" * 64) == []
    first = store.put("a" * 64, b"\x00deck one\xff", cards, game="sprawlopolis")
    got = store.get("a" * 64, "sprawlopolis")
    assert got is not None and got.deck == b"\x00deck one\xff" and got.cards == cards
    assert got.created == first.created and got.to_json()["bytes"] == len(b"\x00deck one\xff")
    assert got.to_json()["game"] == "sprawlopolis"
    assert store.get("b" * 64, "sprawlopolis") is None  # another device sees nothing
    store.put("a" * 64, b"deck two", [], game="sprawlopolis")
    again = store.get("a" * 64, "sprawlopolis")
    assert again is not None and again.deck == b"deck two" and again.cards == []
    assert not store.delete("b" * 64, "sprawlopolis")
    assert store.delete("a" * 64, "sprawlopolis")
    assert store.get("a" * 64, "sprawlopolis") is None
    assert not store.delete("a" * 64, "sprawlopolis")


def test_both_games_decks_are_kept_side_by_side_and_forgetting_one_keeps_the_other(store: DeckStore) -> None:
    store.put("a" * 64, b"sprawl", [{"card": 1}], game="sprawlopolis")
    store.put("a" * 64, b"wagons", [{"card": 0}], game="wagons")
    assert [d.game for d in store.kept("a" * 64)] == ["wagons", "sprawlopolis"]  # the newest first
    store.put("a" * 64, b"wagons again", [], game="wagons")  # a new teaching replaces its own game only
    sprawl, wagons = store.get("a" * 64, "sprawlopolis"), store.get("a" * 64, "wagons")
    assert sprawl is not None and sprawl.deck == b"sprawl"
    assert wagons is not None and wagons.deck == b"wagons again" and wagons.game == "wagons"
    assert store.delete("a" * 64, "wagons")
    assert [d.deck for d in store.kept("a" * 64)] == [b"sprawl"]


def _deck_file(meta: dict) -> bytes:
    out = io.BytesIO()
    np.savez_compressed(out, meta=np.array(json.dumps(meta)), prototypes=np.zeros((1, 1), np.float16))
    return out.getvalue()


def _alembic(engine, revision: str, down: bool = False) -> None:  # type: ignore[no-untyped-def]
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(config, revision)


def test_a_store_of_one_deck_per_device_migrates_keeping_an_old_deck_as_sprawlopolis(db_url: str) -> None:
    engine = connect(database_url(db_url))
    try:
        _alembic(engine, "0002")
        old = _deck_file({"format": "sprawlscan-deck", "version": 2})  # written before decks had a game
        wagons = _deck_file({"format": "sprawlscan-deck", "game": "wagons", "version": 1})
        stamp = datetime(2026, 11, 30, tzinfo=UTC)
        insert = text("INSERT INTO decks (owner, deck, cards, created_at) VALUES (:o, :d, :c, :t)")
        with engine.begin() as conn:
            for owner, data in (("a" * 64, old), ("b" * 64, wagons), ("c" * 64, b"not a deck")):
                conn.execute(insert, {"o": owner, "d": data, "c": json.dumps([{"card": 7}]), "t": stamp})
        migrate(engine)
        store = DeckStore(engine)
        kept = store.get("a" * 64, "sprawlopolis")
        assert kept is not None and kept.deck == old and kept.cards == [{"card": 7}]
        assert kept.created == stamp and store.get("a" * 64, "wagons") is None
        assert store.get("b" * 64, "wagons") is not None and store.get("b" * 64, "sprawlopolis") is None
        assert store.get("c" * 64, "sprawlopolis") is not None  # unreadable: still the device's (old) deck
        store.put("a" * 64, wagons, [], game="wagons")  # the new key takes a second deck
        assert len(store.kept("a" * 64)) == 2
        _alembic(engine, "0002", down=True)  # back to one deck a device: the Sprawlopolis one stays
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT owner, deck FROM decks ORDER BY owner")).all()
        assert [(r[0][0], bytes(r[1])) for r in rows] == [("a", old), ("b", wagons), ("c", b"not a deck")]
    finally:
        engine.dispose()
