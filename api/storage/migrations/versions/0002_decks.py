"""A taught deck per device.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "decks",
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("deck", sa.LargeBinary(), nullable=False),
        sa.Column("cards", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name="pk_decks"),
    )


def downgrade() -> None:
    op.drop_table("decks")
