"""The scanner's helper threads, owned by whoever runs scans rather than made at import.

A scan reads the scoring cards' backs (and shrinks the overlay's picture) on threads of their own while the
cells are read, and the card decoding solves copies of its program beside its own solve: OpenCV,
onnxruntime and HiGHS let go of the interpreter, so the work overlaps on a machine with two cores.
:class:`Workers` holds those two pools. The web service makes one with the app and shuts it down with it,
``sprawlscan`` one per command; a scan uses the one passed to it, else the one made :meth:`Workers.active`
by its caller, else :func:`default_workers` (made on first use, for library callers).

The decoding that solves on these threads lies several calls below the pipeline, so the pool it uses is
found through :func:`current_workers` (a context variable, set for the scan) rather than passed down through
every stage of the card stack.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType

__all__ = ["Workers", "current_workers", "default_workers", "serving"]


class Workers:
    """Two thread pools: ``backs`` (the backs and the overlay's picture, beside the cells) and ``solves``
    (the card decoding's extra solves). Pools start on first use; :meth:`close` shuts them down (used again
    afterwards, they start anew)."""

    def __init__(self, backs: int = 2, solves: int = 2) -> None:
        self._sizes = {"backs": backs, "solves": solves}
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()

    def _pool(self, name: str) -> ThreadPoolExecutor:
        with self._lock:
            pool = self._pools.get(name)
            if pool is None:
                pool = ThreadPoolExecutor(self._sizes[name], thread_name_prefix=f"sprawlscan-{name}")
                self._pools[name] = pool
            return pool

    @property
    def backs(self) -> ThreadPoolExecutor:
        return self._pool("backs")

    @property
    def solves(self) -> ThreadPoolExecutor:
        return self._pool("solves")

    def close(self) -> None:
        """Shut the pools down, waiting for the work they hold."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=True)

    @contextmanager
    def active(self) -> Iterator[Workers]:
        """Within this block (on this thread), scans and decodings that are given no pools use these."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


_CURRENT: ContextVar[Workers | None] = ContextVar("sprawlscan_workers", default=None)
_DEFAULT: Workers | None = None
_DEFAULT_LOCK = threading.Lock()


def default_workers() -> Workers:
    """The process's own pools for callers that bring none (made on first use; their threads end with the
    interpreter)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Workers()
        return _DEFAULT


def current_workers() -> Workers:
    """The pools made :meth:`Workers.active` here, else :func:`default_workers`."""
    return _CURRENT.get() or default_workers()


@contextmanager
def serving(workers: Workers | None) -> Iterator[Workers]:
    """``workers`` made active for a block (``None``: the :func:`current_workers`, as they are)."""
    if workers is None:
        yield current_workers()
        return
    with workers.active():
        yield workers
