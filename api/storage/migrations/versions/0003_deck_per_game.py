"""A taught deck per device and game: the ``decks`` table keyed by (owner, game).

A device that plays both games keeps a Sprawlopolis deck and a Circle the Wagons deck side by side. The
rows kept so far get the game their ``.deck`` file records (a file without one is Sprawlopolis's, as the
scanner reads it; one that cannot be read at all too: the scanner refuses it either way).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import io
import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _columns(with_game: bool) -> list[sa.Column]:
    game = [sa.Column("game", sa.String(16), nullable=False)] if with_game else []
    return [
        sa.Column("owner", sa.String(64), nullable=False),
        *game,
        sa.Column("deck", sa.LargeBinary(), nullable=False),
        sa.Column("cards", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    ]


def file_game(data: bytes) -> str:
    """The game a ``.deck`` file records (``meta.game``; none, or no readable meta: Sprawlopolis)."""
    import numpy as np  # only this migration reads deck files: the others need no numpy

    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
    except Exception:  # noqa: BLE001  (a damaged file stays a Sprawlopolis row; the scanner refuses it)
        return "sprawlopolis"
    game = meta.get("game") if isinstance(meta, dict) else None
    return game if game in ("sprawlopolis", "wagons") else "sprawlopolis"


def _copy(old: str, new: sa.Table, keep_game: bool) -> None:
    conn = op.get_bind()
    source = sa.Table(old, sa.MetaData(), *_columns(keep_game))  # typed: SQLite's times come back as times
    rows = conn.execute(sa.select(source)).mappings().all()
    sprawl = {r["owner"] for r in rows if keep_game and r["game"] == "sprawlopolis"}
    for row in rows:
        values = {k: row[k] for k in ("owner", "deck", "cards", "created_at")}
        if not keep_game:
            values["game"] = file_game(bytes(row["deck"]))
        elif row["game"] != "sprawlopolis" and row["owner"] in sprawl:
            continue  # down to one deck a device: its Sprawlopolis one, when it keeps both
        conn.execute(new.insert().values(**values))


def _set_aside(name: str) -> None:
    """Rename the table ``decks`` to ``name`` (its primary key too: PostgreSQL's names are the schema's)."""
    op.rename_table("decks", name)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {name} RENAME CONSTRAINT pk_decks TO pk_{name}")


def upgrade() -> None:
    _set_aside("decks_0002")
    new = op.create_table("decks", *_columns(True), sa.PrimaryKeyConstraint("owner", "game", name="pk_decks"))
    _copy("decks_0002", new, keep_game=False)
    op.drop_table("decks_0002")


def downgrade() -> None:
    _set_aside("decks_0003")
    new = op.create_table("decks", *_columns(False), sa.PrimaryKeyConstraint("owner", name="pk_decks"))
    _copy("decks_0003", new, keep_game=True)
    op.drop_table("decks_0003")
