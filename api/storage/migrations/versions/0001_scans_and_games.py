"""Scans (kept for a while) and saved games.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scans",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("city", sa.Text(), nullable=False),
        sa.Column("overlay", sa.LargeBinary(), nullable=True),
        sa.Column("overlay_type", sa.String(32), nullable=False),
        sa.Column("photo", sa.LargeBinary(), nullable=True),
        sa.Column("photo_type", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_scans"),
    )
    op.create_index("ix_scans_expires_at", "scans", ["expires_at"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("combo", sa.String(200), nullable=False),
        sa.Column("city", sa.Text(), nullable=False),
        sa.Column("cards", sa.JSON(), nullable=False),
        sa.Column("expansions", sa.JSON(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("breakdown", sa.JSON(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("scan_id", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_owner_played_at", "games", ["owner", "played_at", "id"])
    op.create_index("ix_games_owner_stats", "games", ["owner", "game", "combo", "won", "total"])


def downgrade() -> None:
    op.drop_table("games")
    op.drop_table("scans")
