"""The storage module against both back ends: a SQLite file and a real PostgreSQL server (``db_url``).

Migrations run from an empty database and must produce exactly the schema the code uses; scans expire and
are purged; games are kept per owner; statistics are checked against sums computed here from the games.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text, update

from api.storage import engine as storage
from api.storage.engine import MIGRATIONS, connect, database_url, migrate
from api.storage.game_store import GameStore
from api.storage.scan_store import ScanStore
from api.storage.tables import ID_CHARS, metadata, scans


@pytest.fixture()
def engine(db_url: str):  # type: ignore[no-untyped-def]
    engine = connect(database_url(db_url))
    migrate(engine)
    yield engine
    engine.dispose()


def test_migrations_from_empty_database_give_the_schema_the_code_uses(db_url: str) -> None:
    engine = connect(database_url(db_url))
    try:
        assert inspect(engine).get_table_names() == []
        migrate(engine)
        migrate(engine)  # nothing pending: a second start-up changes nothing
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head
        assert {"scans", "games", "alembic_version"} <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_database_url_defaults_and_driver(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url() == f"sqlite:///{tmp_path / 'data' / 'sprawlscan' / 'sprawlscan.db'}"
    assert database_url(path=str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    url = database_url("postgresql://u:secret@db.example:5433/games")
    assert url == "postgresql+psycopg://u:secret@db.example:5433/games"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert (
        storage.default_database_path()
        == tmp_path / "home" / ".local" / "share" / "sprawlscan" / "sprawlscan.db"
    )


def test_scans_are_stored_expire_and_are_purged(engine) -> None:  # type: ignore[no-untyped-def]
    store = ScanStore(engine, ttl_s=3600)
    ids = [store.new_id() for _ in range(3)]
    assert len(set(ids)) == 3 and all(len(i) == ID_CHARS for i in ids)
    store.put(
        ids[0],
        {"total": 4, "cells": []},
        "P  P\n",
        b"\xff\xd8\xffjpeg",
        photo=b"photo",
        photo_type="image/png",
    )
    store.put(ids[1], {"total": 1}, "P\n", None)
    first = store.get(ids[0])
    assert first is not None and first.result == {"total": 4, "cells": []} and first.city == "P  P\n"
    assert (
        first.overlay == b"\xff\xd8\xffjpeg" and first.photo == b"photo" and first.photo_type == "image/png"
    )
    second = store.get(ids[1])
    assert second is not None and second.overlay is None and second.photo is None
    assert store.get(ids[2]) is None and store.get("x" * 500) is None
    # Age the first scan past its time: it is no longer served, and the next scan purges it.
    with engine.begin() as conn:
        conn.execute(
            update(scans)
            .where(scans.c.id == ids[0])
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    assert store.get(ids[0]) is None
    store.put(ids[2], {}, "P\n", None)
    with engine.connect() as conn:
        assert {r[0] for r in conn.execute(scans.select().with_only_columns(scans.c.id))} == {ids[1], ids[2]}
    assert store.purge() == 0


def _record(total: int, cards: list[int], won: bool | None, **extra: object) -> dict:
    combo = " ".join(str(c) for c in sorted(cards))
    return {
        "game": "sprawlopolis",
        "combo": combo,
        "city": "P\n",
        "cards": cards,
        "expansions": [],
        "variant": None,
        "options": {},
        "breakdown": {"total": total},
        "total": total,
        "target": 20,
        "won": won,
        "label": "",
        "players": [],
        **extra,
    }


def test_games_belong_to_their_owner(engine) -> None:  # type: ignore[no-untyped-def]
    store = GameStore(engine)
    mine = store.add("a" * 64, _record(25, [8, 7, 17], True, label="first"))
    theirs = store.add("b" * 64, _record(10, [1, 2, 3], False))
    assert "owner" not in mine and len(mine["id"]) == ID_CHARS
    assert store.get("a" * 64, mine["id"])["label"] == "first"
    assert store.get("a" * 64, theirs["id"]) is None
    assert store.update("a" * 64, theirs["id"], {"label": "stolen"}) is None
    assert store.delete("a" * 64, theirs["id"]) is False
    assert store.get("b" * 64, theirs["id"])["label"] == ""
    assert [g["id"] for g in store.page("a" * 64).games] == [mine["id"]]
    assert store.page(None).count == 2  # the CLI's view of the whole database
    changed = store.update("a" * 64, mine["id"], {"label": "renamed", "players": ["Ann"], "owner": "b" * 64})
    assert changed["label"] == "renamed" and changed["players"] == ["Ann"]
    assert store.page("b" * 64).count == 1  # 'owner' is not an editable field
    assert store.delete("a" * 64, mine["id"]) is True and store.get("a" * 64, mine["id"]) is None


def test_history_is_newest_first_and_paged(engine) -> None:  # type: ignore[no-untyped-def]
    store = GameStore(engine)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    owner = "c" * 64
    saved = store.add_many(
        owner, [_record(i, [1, 2, 3], None, played_at=start + timedelta(days=i)) for i in range(7)]
    )
    page = store.page(owner, limit=3, offset=2)
    assert page.count == 7
    assert [g["total"] for g in page.games] == [4, 3, 2]
    assert page.games[0]["played_at"] == (start + timedelta(days=4)).isoformat()
    assert {g["id"] for g in saved} == {g["id"] for g in store.export(owner)}
    assert [g["total"] for g in store.export(owner)] == list(range(7))  # export: oldest first


def test_statistics_match_the_games(engine) -> None:  # type: ignore[no-untyped-def]
    store = GameStore(engine)
    owner = "d" * 64
    games = [
        _record(30, [8, 7, 17], True),
        _record(12, [17, 8, 7], False),
        _record(22, [8, 7, 17], True),
        _record(-3, [1, 2, 3], False),
        _record(5, [], None),
    ]
    store.add_many(owner, games)
    store.add("e" * 64, _record(99, [8, 7, 17], True))  # another device's game counts nowhere
    stats = store.stats(owner)
    assert stats["games"] == 5
    (section,) = stats["sections"]
    assert section["overall"] == {"games": 5, "won": 2, "mean": round(66 / 5, 2), "best": 30, "worst": -3}
    combos = {tuple(c["cards"]): c for c in section["combinations"]}
    assert combos[(7, 8, 17)] == {
        "cards": [7, 8, 17],
        "games": 3,
        "won": 2,
        "mean": 21.33,
        "best": 30,
        "worst": 12,
    }
    assert combos[(1, 2, 3)]["games"] == 1 and combos[()]["won"] == 0
    cards = {c["card"]: c for c in section["cards"]}
    assert cards[8] == {"card": 8, "games": 3, "won": 2} and cards[1] == {"card": 1, "games": 1, "won": 0}
    assert section["cards"][0]["won"] == 2
    assert store.stats("f" * 64) == {"games": 0, "sections": []}
