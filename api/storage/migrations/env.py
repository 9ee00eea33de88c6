"""Alembic environment: runs the migrations on the connection :func:`api.storage.migrate` hands over, or
on ``sqlalchemy.url`` when Alembic is run by hand (``alembic -x`` is not needed)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from api.storage.tables import metadata

config = context.config
connection = config.attributes.get("connection")


def _run(conn: object) -> None:
    # Batch mode lets later migrations alter SQLite tables (which cannot ALTER most things in place).
    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:
    with create_engine(config.get_main_option("sqlalchemy.url") or "").connect() as conn:
        _run(conn)
