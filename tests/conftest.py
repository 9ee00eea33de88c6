"""Shared test setup: every database the tests open by default lives in a temporary folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pgserver import PostgresServer

# Before api.app is imported: its module-level app, and every server a test starts, would otherwise use the
# per-user database of whoever runs the tests.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="sprawlscan-tests-")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server of the test run's own (started on first use, stopped at the end)."""
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: a SQLite file, or a fresh database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sprawlscan.db'}"
    return request.getfixturevalue("postgres").new_database()
