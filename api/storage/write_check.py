"""Whether the database can be written: checked at start-up, by ``/healthz`` and before a scan's work.

A database can open and read while refusing every write (a SQLite file that became read-only, a full disk,
a PostgreSQL server in read-only mode). :class:`WriteCheck` finds that out with a write that changes
nothing, rolled back, and :func:`writing` turns a write that fails that way into a 503
(:class:`StoreUnavailable`) with the database's reason, never a 500.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from sqlalchemy import Connection, Engine, false, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from api.core import ServiceError
from api.storage.engine import failure_reason
from api.storage.tables import scans


class StoreUnavailable(ServiceError):
    """The database cannot store anything now (a fault of the server, not of the request)."""

    code = "store_unavailable"
    status = 503


def probe_write(conn: Connection) -> None:
    """A write that changes no row but needs the right to write (SQLite's write lock, a PostgreSQL
    transaction that is not read-only, the table's UPDATE privilege)."""
    conn.execute(update(scans).where(false()).values(id=scans.c.id))


@contextlib.contextmanager
def writing(what: str) -> Iterator[None]:
    """Run a write; a database error other than a broken constraint becomes :class:`StoreUnavailable`
    saying ``what`` could not be stored and why."""
    try:
        yield
    except IntegrityError:
        raise
    except SQLAlchemyError as exc:
        raise StoreUnavailable(
            f"{what} could not be stored: the database cannot be written ({failure_reason(exc)})"
        ) from None


class WriteCheck:
    """Whether ``engine`` takes writes; the answer is kept ``every_s`` seconds (a health check or a scan
    does not probe the database each time)."""

    def __init__(self, engine: Engine, every_s: float = 2.0) -> None:
        self.engine = engine
        self.every_s = every_s
        self._lock = threading.Lock()
        self._checked = -float("inf")
        self._problem: str | None = None

    def problem(self) -> str | None:
        """Why the database cannot be written now, or ``None`` when it can."""
        with self._lock:
            if time.monotonic() - self._checked < self.every_s:
                return self._problem
            try:
                with self.engine.connect() as conn, conn.begin() as tx:
                    probe_write(conn)
                    tx.rollback()
                self._problem = None
            except SQLAlchemyError as exc:
                self._problem = failure_reason(exc)
            self._checked = time.monotonic()
            return self._problem

    def require(self, what: str) -> None:
        """Raise :class:`StoreUnavailable` before work whose result (``what``) could not be stored."""
        problem = self.problem()
        if problem is not None:
            raise StoreUnavailable(
                f"{what} could not be stored: the database cannot be written ({problem}); try again later"
            )
