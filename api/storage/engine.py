"""The database behind the service and the CLI: recent scans and saved games, on SQLAlchemy 2.

One schema for both back ends: a SQLite file by default (no setup; :func:`default_database_path` is per
user) and PostgreSQL when a database URL is set (``SPRAWLSCAN_DATABASE_URL``). The schema is owned by the
Alembic migrations in ``api/migrations``; :func:`migrate` applies the pending ones (the service does so at
start-up, under a lock so that several workers starting together do not race). Because every process reads
scans from here, any worker or replica answers a scan's follow-ups (overlay image, tally check by id).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Engine,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
)
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).with_name("migrations")
ID_CHARS = 22  # secrets.token_urlsafe(16): 128 random bits

metadata = MetaData(
    naming_convention={"ix": "ix_%(table_name)s_%(column_0_N_name)s", "pk": "pk_%(table_name)s"}
)

scans = Table(
    "scans",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False, index=True),
    Column("result", JSON, nullable=False),
    Column("city", Text, nullable=False),
    Column("overlay", LargeBinary, nullable=True),
    Column("overlay_type", String(32), nullable=False),
    Column("photo", LargeBinary, nullable=True),  # only when the user asked to keep it
    Column("photo_type", String(32), nullable=True),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),  # SHA-256 of the device token, never the token itself
    Column("game", String(16), nullable=False),
    Column("combo", String(200), nullable=False),  # the scoring cards (or goals), sorted: "7 8 17"
    Column("city", Text, nullable=False),
    Column("cards", JSON, nullable=False),
    Column("expansions", JSON, nullable=False),
    Column("variant", String(32), nullable=True),
    Column("options", JSON, nullable=False),
    Column("breakdown", JSON, nullable=False),
    Column("total", Integer, nullable=False),
    Column("target", Integer, nullable=True),
    Column("won", Boolean, nullable=True),  # None: no target to win against
    Column("played_at", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("label", String(200), nullable=False),
    Column("players", JSON, nullable=False),
    Column("scan_id", String(32), nullable=True),
    Index("ix_games_owner_played_at", "owner", "played_at", "id"),  # the history's order
    # Covers the statistics query: it is answered from the index alone.
    Index("ix_games_owner_stats", "owner", "game", "combo", "won", "total"),
)

# A taught deck per device (``sprawlscan teach``'s file and the cards it found), used by its scans.
decks = Table(
    "decks",
    metadata,
    Column("owner", String(64), primary_key=True),  # SHA-256 of the device token, as for games
    Column("deck", LargeBinary, nullable=False),  # the .deck file (vision.deck): block prototypes only
    Column("cards", JSON, nullable=False),  # the assignment the player was shown
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def new_id() -> str:
    """A fresh unguessable id for a scan or a game (22 URL-safe characters, 128 random bits)."""
    return secrets.token_urlsafe(16)


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; every stored one is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


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
    from alembic import command
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


def _sqlite_file(engine: Engine) -> str | None:
    """The file of a SQLite database (``file:PATH?mode=ro&uri=true`` too); ``None`` for any other."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    if engine.url.query.get("uri") == "true":
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
    import fcntl

    with open(f"{database}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@dataclass(frozen=True)
class StoredScan:
    """One scan result: the JSON answer (breakdown, cells, warnings), the city text and the overlay."""

    scan_id: str
    result: dict[str, Any]
    city: str
    overlay: bytes | None
    overlay_type: str
    photo: bytes | None
    photo_type: str | None
    created: datetime


class ScanStore:
    """Scans kept for ``ttl_s`` seconds in the database; expired ones are purged as new ones arrive."""

    def __init__(self, engine: Engine, ttl_s: float = 86400.0) -> None:
        self.engine = engine
        self.ttl_s = ttl_s

    new_id = staticmethod(new_id)

    def put(
        self,
        scan_id: str,
        result: dict[str, Any],
        city: str,
        overlay: bytes | None,
        overlay_type: str = "image/jpeg",
        photo: bytes | None = None,
        photo_type: str | None = None,
    ) -> None:
        """Store a scan under ``scan_id`` and purge the expired ones."""
        created = now()
        row = {
            "id": scan_id,
            "created_at": created,
            "expires_at": created + timedelta(seconds=self.ttl_s),
            "result": result,
            "city": city,
            "overlay": overlay,
            "overlay_type": overlay_type,
            "photo": photo,
            "photo_type": photo_type,
        }
        with self.engine.begin() as conn:
            conn.execute(delete(scans).where(scans.c.expires_at < created))
            conn.execute(insert(scans).values(**row))

    def get(self, scan_id: str) -> StoredScan | None:
        """The stored scan, or ``None`` when it is unknown or has expired."""
        if len(scan_id) > 32:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(scans).where(scans.c.id == scan_id)).mappings().first()
        if row is None or aware(row["expires_at"]) <= now():
            return None
        return StoredScan(
            row["id"],
            row["result"],
            row["city"],
            row["overlay"],
            row["overlay_type"],
            row["photo"],
            row["photo_type"],
            aware(row["created_at"]),
        )

    def purge(self) -> int:
        """Delete every expired scan now; return how many went."""
        with self.engine.begin() as conn:
            return conn.execute(delete(scans).where(scans.c.expires_at <= now())).rowcount
