"""A bounded, thread-safe, in-memory cache of recent scan results.

Each scan gets a random id; its JSON result and overlay image stay available for ``ttl_s`` seconds so the
page can show the overlay by URL and a tally check can refer to the scan. The cache is bounded both in
entries and in overlay bytes: the least recently used results are dropped first. It lives in one process,
so the service stays stateless apart from it (see ``docs/deployment.md`` for running several replicas).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StoredScan:
    """One scan result: the JSON answer (breakdown, cells, warnings), the city text and the overlay."""

    scan_id: str
    result: dict[str, Any]
    city: str
    overlay: bytes | None
    overlay_type: str
    created: float


class ScanStore:
    """LRU cache of :class:`StoredScan` with a time-to-live, at most ``max_entries`` results and
    ``max_bytes`` overlay bytes in total."""

    def __init__(
        self,
        max_entries: int = 256,
        max_bytes: int = 256 * 1024 * 1024,
        ttl_s: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.ttl_s = ttl_s
        self._clock = clock
        self._items: OrderedDict[str, StoredScan] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        """A fresh unguessable scan id (22 URL-safe characters)."""
        return secrets.token_urlsafe(16)

    def put(
        self,
        scan_id: str,
        result: dict[str, Any],
        city: str,
        overlay: bytes | None,
        overlay_type: str = "image/jpeg",
    ) -> StoredScan:
        """Store a result under ``scan_id`` (replacing any older one) and evict what no longer fits."""
        item = StoredScan(scan_id, result, city, overlay, overlay_type, self._clock())
        with self._lock:
            old = self._items.pop(scan_id, None)
            if old is not None:
                self._bytes -= _size(old)
            self._items[scan_id] = item
            self._bytes += _size(item)
            self._evict()
        return item

    def get(self, scan_id: str) -> StoredScan | None:
        """The stored scan, or ``None`` when it is unknown or has expired."""
        with self._lock:
            item = self._items.get(scan_id)
            if item is None:
                return None
            if self._clock() - item.created > self.ttl_s:
                self._remove(scan_id)
                return None
            self._items.move_to_end(scan_id)
            return item

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    @property
    def total_bytes(self) -> int:
        with self._lock:
            return self._bytes

    def _remove(self, scan_id: str) -> None:
        item = self._items.pop(scan_id)
        self._bytes -= _size(item)

    def _evict(self) -> None:
        now = self._clock()
        for key in [k for k, v in self._items.items() if now - v.created > self.ttl_s]:
            self._remove(key)
        # Keep the newest entry even when it alone is over the byte budget: its overlay was just promised.
        while len(self._items) > 1 and (len(self._items) > self.max_entries or self._bytes > self.max_bytes):
            self._remove(next(iter(self._items)))


def _size(item: StoredScan) -> int:
    # The overlay dominates; the JSON result and city text are a few kilobytes at most.
    return len(item.overlay or b"") + len(item.city)
