"""Issued device tokens, the recent issuances per client, and the device a scan belongs to.

Until now any well-formed token was accepted; from here only a token the service issued opens games,
decks and scans. The devices that already keep games or a deck were issued their tokens before this
existed, so their owner keys are entered as issued: no player loses their games to the upgrade. Scans
stored so far have no owner (anonymous: read by their id alone, as before).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    devices = op.create_table(
        "devices",
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name="pk_devices"),
    )
    op.create_table(
        "issuances",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_issuances"),
    )
    op.create_index("ix_issuances_created_at", "issuances", ["created_at"])
    op.create_index("ix_issuances_client_created_at", "issuances", ["client", "created_at"])
    op.add_column("scans", sa.Column("owner", sa.String(64), nullable=True))
    conn = op.get_bind()
    kept = sa.text("SELECT owner FROM games UNION SELECT owner FROM decks")
    owners = [row[0] for row in conn.execute(kept)]
    if owners:
        stamp = datetime.now(UTC)
        conn.execute(devices.insert(), [{"owner": owner, "created_at": stamp} for owner in owners])


def downgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        batch.drop_column("owner")
    op.drop_index("ix_issuances_client_created_at", table_name="issuances")
    op.drop_index("ix_issuances_created_at", table_name="issuances")
    op.drop_table("issuances")
    op.drop_table("devices")
