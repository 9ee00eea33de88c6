"""The database: one schema on SQLite (a file per user, by default) or PostgreSQL, owned by the Alembic
migrations in ``migrations/``, with a store for each thing kept: recent scans, saved games, taught decks.

``engine``       connect, pick the database from the settings, migrate; ``tables``: the schema in code;
``scan_store``, ``game_store``, ``deck_store``, ``device_store`` (the issued device tokens): what the
service and the CLI read and write;
``write_check``  whether the database takes writes now (a 503 rather than a 500 when it does not).
"""

from __future__ import annotations

from api.storage.deck_store import DeckStore, StoredDeck
from api.storage.device_store import DeviceStore, IssuanceLimit
from api.storage.engine import (
    DatabaseUnavailable,
    connect,
    database_url,
    default_database_path,
    failure_reason,
    migrate,
    open_database,
    open_schema,
    sqlite_file,
)
from api.storage.game_store import DeviceFull, GameStore
from api.storage.scan_store import ScanStore, StoredScan
from api.storage.write_check import StoreUnavailable, WriteCheck, writing

__all__ = [
    "DatabaseUnavailable",
    "DeckStore",
    "DeviceFull",
    "DeviceStore",
    "GameStore",
    "IssuanceLimit",
    "ScanStore",
    "StoreUnavailable",
    "StoredDeck",
    "StoredScan",
    "WriteCheck",
    "connect",
    "database_url",
    "default_database_path",
    "failure_reason",
    "migrate",
    "open_database",
    "open_schema",
    "sqlite_file",
    "writing",
]
