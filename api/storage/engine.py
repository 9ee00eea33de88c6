"""The database engine behind the service and the CLI (SQLAlchemy 2), and its migrations.

One schema for both back ends: a SQLite file by default (no setup; :func:`default_database_path` is per
user) and PostgreSQL when a database URL is set (``SPRAWLSCAN_DATABASE_URL``). The schema is owned by the
Alembic migrations in ``api/storage/migrations``; :func:`migrate` applies the pending ones (the service does
so at start-up, under a lock so that several workers starting together do not race).
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

__all__ = [
    "MIGRATIONS",
    "DatabaseUnavailable",
    "connect",
    "database_url",
    "default_database_path",
    "failure_reason",
    "migrate",
    "open_database",
    "open_schema",
    "sqlite_file",
]

MIGRATIONS = Path(__file__).with_name("migrations")


def default_database_path() -> Path:
    """The per-user SQLite file: ``$XDG_DATA_HOME/sprawlscan/sprawlscan.db``, where ``XDG_DATA_HOME``
    defaults to ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sprawlscan" / "sprawlscan.db"


def database_url(url: str = "", path: str = "") -> str:
    """The SQLAlchemy URL to use: ``url`` when given (``postgresql://`` picks the psycopg 3 driver), else a
    SQLite file at ``path`` or at :func:`default_database_path`."""
    if url:
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        return parsed.render_as_string(hide_password=False)
    file = Path(path).expanduser() if path else default_database_path()
    return f"sqlite:///{file}"


def connect(url: str) -> Engine:
    """An engine for ``url`` (nothing is opened yet). On SQLite every connection waits for locks (several
    worker processes share one file) and uses write-ahead logging so that readers never block."""
    if make_url(url).get_backend_name() != "sqlite":
        # A server that does not answer is an error within seconds, not a hang.
        return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 10})
    engine = create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Apply the pending migrations (from an empty database: all of them), one process at a time."""
    from alembic import command  # loaded only when a database is migrated (start-up, `games`)
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    database = _sqlite_file(engine)
    if database:
        if Path(database).is_dir():
            raise IsADirectoryError(errno.EISDIR, "it is a folder, not a database file", database)
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    with _migration_lock(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7215001)"))  # held until this commit
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


class DatabaseUnavailable(OSError):
    """The database cannot be opened or brought up to date: a folder, a server that does not answer, a
    file that cannot be made. An environment fault (hence ``OSError``) that is said in one line, naming the
    database (password hidden) and the driver's reason, never with a traceback."""

    def __init__(self, shown: str, reason: str) -> None:
        super().__init__(f"cannot open the database {shown}: {reason}")
        self.shown = shown
        self.reason = reason


def open_schema(engine: Engine) -> None:
    """:func:`migrate`, with a database that cannot be opened raised as :class:`DatabaseUnavailable`."""
    try:
        migrate(engine)
    except (SQLAlchemyError, OSError) as exc:
        shown = engine.url.render_as_string(hide_password=True)
        raise DatabaseUnavailable(shown, failure_reason(exc)) from exc


def open_database(url: str) -> Engine:
    """An engine for ``url`` with its schema up to date (:func:`open_schema`); a URL no engine can be made
    for is :class:`DatabaseUnavailable` too."""
    try:
        engine = connect(url)
    except (SQLAlchemyError, OSError, ValueError) as exc:
        shown = make_url(url).render_as_string(hide_password=True)
        raise DatabaseUnavailable(shown, failure_reason(exc)) from exc
    open_schema(engine)
    return engine


def _sqlite_file(engine: Engine) -> str | None:
    return sqlite_file(engine.url)


def sqlite_file(url: str | URL) -> str | None:
    """The file of a SQLite database URL (``file:PATH?mode=ro&uri=true`` too); ``None`` for any other.

    >>> sqlite_file("sqlite:////tmp/x.db"), sqlite_file("postgresql://db/x"), sqlite_file("sqlite://")
    ('/tmp/x.db', None, None)
    """
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if parsed.query.get("uri") == "true":
        database = database.removeprefix("file:")
    return database


def failure_reason(exc: BaseException) -> str:
    """One line saying why the database failed: the driver's own first line (no SQL, no traceback)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    cause = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return lines[0] if lines else type(cause).__name__


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """An exclusive file lock next to a SQLite database (PostgreSQL uses an advisory lock instead)."""
    database = _sqlite_file(engine)
    if not database:
        yield
        return
    import fcntl  # POSIX only: a lock file elsewhere would need another lock

    with open(f"{database}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
