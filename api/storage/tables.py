"""The tables, in SQLAlchemy Core: recent scans, saved games and taught decks (the Alembic migrations in
``api/storage/migrations`` create them), and the ids and times stored in them."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = [
    "ID_CHARS",
    "aware",
    "decks",
    "devices",
    "games",
    "issuances",
    "metadata",
    "new_id",
    "now",
    "scans",
]

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
    # SHA-256 of the device token the scan was made with; None: an anonymous scan, read by its id alone.
    Column("owner", String(64), nullable=True),
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

# A taught deck per device and game (``sprawlscan teach``'s file and the cards it found), used by its scans
# of that game: a household playing both games keeps both decks.
decks = Table(
    "decks",
    metadata,
    Column("owner", String(64), primary_key=True),  # SHA-256 of the device token, as for games
    Column("game", String(16), primary_key=True),  # "sprawlopolis" or "wagons" (the deck file's own game)
    Column("deck", LargeBinary, nullable=False),  # the .deck file (vision.deck): block prototypes only
    Column("cards", JSON, nullable=False),  # the assignment the player was shown
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# The device tokens the service issued, by owner key (SHA-256): only these open games, decks and scans.
devices = Table(
    "devices",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Recent issuances per client (the SHA-256 of its address key), kept only for the issuance window: they
# bound how many tokens one address mints, and are never linked to the token they issued.
issuances = Table(
    "issuances",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("client", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Index("ix_issuances_client_created_at", "client", "created_at"),
)


def new_id() -> str:
    """A fresh unguessable id for a scan or a game (22 URL-safe characters, 128 random bits)."""
    return secrets.token_urlsafe(16)


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; every stored one is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
