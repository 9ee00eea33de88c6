"""Issued device tokens: which owner keys the service handed out, and how many one client was handed lately.

A token is only ever known by its owner key (its SHA-256, :mod:`api.core.saved_games`); a well-formed
token the service never issued opens nothing. Issuance is bounded per client (the SHA-256 of its address
key, :func:`api.web.admission.client_key`): at most ``max_per_client`` tokens in any ``window_s``, counted
inside the insert's transaction under a lock per client, so concurrent requests cannot pass the bound
together. The issuance rows say only "this client was issued a token then", never which token, and go once
the window has passed.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from math import ceil

from sqlalchemy import Connection, Engine, delete, false, func, insert, select, text, update

from api.storage.tables import aware, devices, issuances, now
from api.storage.write_check import writing

__all__ = ["DeviceStore", "IssuanceLimit"]

# Owner keys known to be issued, kept in memory (a token is never withdrawn, so a yes stays a yes).
KNOWN_CACHE = 10_000


class IssuanceLimit(Exception):
    """The client was issued its ``limit`` tokens within the window; the next one in ``retry_after_s``."""

    def __init__(self, limit: int, window_s: float, retry_after_s: int) -> None:
        super().__init__(
            f"this client was issued {limit} device tokens in the last {window_s / 3600:g} h (the most one "
            f"address gets); keep the token you have, or try again in {retry_after_s} s"
        )
        self.limit = limit
        self.window_s = window_s
        self.retry_after_s = retry_after_s


class DeviceStore:
    """Device tokens issued on ``engine``: at most ``max_per_client`` to one client in ``window_s``."""

    def __init__(self, engine: Engine, max_per_client: int, window_s: float) -> None:
        self.engine = engine
        self.max_per_client = max_per_client
        self.window_s = window_s
        self._known: dict[str, None] = {}

    def issue(self, owner: str, client: str) -> None:
        """Record ``owner`` as issued to ``client`` (:class:`IssuanceLimit` past the client's bound)."""
        stamp = now()
        since = stamp - timedelta(seconds=self.window_s)
        who = hashlib.sha256(client.encode()).hexdigest()
        with writing("the device token"), self.engine.begin() as conn:
            _lock_client(conn, who)
            conn.execute(delete(issuances).where(issuances.c.created_at <= since))
            recent = select(func.count(), func.min(issuances.c.created_at)).where(issuances.c.client == who)
            count, oldest = conn.execute(recent).one()
            if count >= self.max_per_client:
                raise IssuanceLimit(self.max_per_client, self.window_s, self._wait(oldest, stamp))
            conn.execute(insert(issuances).values(client=who, created_at=stamp))
            conn.execute(insert(devices).values(owner=owner, created_at=stamp))
        self._remember(owner)

    def enrol(self, owner: str) -> None:
        """Record ``owner`` as issued by whoever runs this database (``sprawlscan games --import --device
        TOKEN`` on the server's own machine), so the service hears the token; no client bound applies."""
        if self.issued(owner):
            return
        with writing("the device token"), self.engine.begin() as conn:
            conn.execute(insert(devices).values(owner=owner, created_at=now()))
        self._remember(owner)

    def issued(self, owner: str) -> bool:
        """Whether ``owner`` is the key of a token this service issued."""
        if owner in self._known:
            return True
        with self.engine.connect() as conn:
            found = conn.execute(select(devices.c.owner).where(devices.c.owner == owner)).first()
        if found is not None:
            self._remember(owner)
        return found is not None

    def count(self) -> int:
        """How many tokens were issued in all."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(devices)).scalar_one())

    def _remember(self, owner: str) -> None:
        if len(self._known) >= KNOWN_CACHE:
            self._known.clear()
        self._known[owner] = None

    def _wait(self, oldest: datetime | None, stamp: datetime) -> int:
        """Seconds until the client's oldest issuance in the window leaves it (at least 1)."""
        if oldest is None:
            return 1
        return max(1, ceil((aware(oldest) + timedelta(seconds=self.window_s) - stamp).total_seconds()))


def _lock_client(conn: Connection, client: str) -> None:
    """Serialise this transaction with every other issuance to the same client, until it ends."""
    if conn.dialect.name == "postgresql":
        key = int.from_bytes(bytes.fromhex(client)[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    else:
        # SQLite has one writer at a time: a write that changes nothing takes the write lock first.
        conn.execute(update(issuances).where(false()).values(client=issuances.c.client))
