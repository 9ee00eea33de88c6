"""Taught decks in the database, on a SQLite file and on a real PostgreSQL (``db_url``): one per device,
replaced by a new teaching, removable, and never visible to another device."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from api.storage.deck_store import DeckStore
from api.storage.engine import connect, database_url, migrate


@pytest.fixture()
def store(db_url: str):  # type: ignore[no-untyped-def]
    engine = connect(database_url(db_url))
    migrate(engine)
    yield DeckStore(engine)
    engine.dispose()


def test_a_deck_is_kept_per_owner_replaced_and_removed(store: DeckStore) -> None:
    assert "decks" in inspect(store.engine).get_table_names()
    cards = [{"photo": 0, "row": 0, "col": 0, "card": 7, "rotated": True}]
    assert store.get("a" * 64) is None
    first = store.put("a" * 64, b"\x00deck one\xff", cards)
    got = store.get("a" * 64)
    assert got is not None and got.deck == b"\x00deck one\xff" and got.cards == cards
    assert got.created == first.created and got.to_json()["bytes"] == len(b"\x00deck one\xff")
    assert store.get("b" * 64) is None  # another device sees nothing
    store.put("a" * 64, b"deck two", [])
    again = store.get("a" * 64)
    assert again is not None and again.deck == b"deck two" and again.cards == []
    assert not store.delete("b" * 64)
    assert store.delete("a" * 64)
    assert store.get("a" * 64) is None
    assert not store.delete("a" * 64)
