"""Recent scans in the database, kept for a while (``SPRAWLSCAN_SCAN_TTL_S``) so that any worker or replica
answers a scan's follow-ups (its overlay image, its photo, a tally check by id).

A scan made with a device token belongs to that device (its owner key): asked for by another device, or
with no token, it is not found, exactly like an id never made. A scan made without a token is anonymous
and read by its id alone (128 random bits, known only to whoever made it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, delete, insert, select

from api.storage.tables import aware, new_id, now, scans

__all__ = ["ScanStore", "StoredScan"]


@dataclass(frozen=True)
class StoredScan:
    """One scan result: the JSON answer (breakdown, cells, warnings), the city text and the overlay."""

    scan_id: str
    result: dict[str, Any]
    city: str
    overlay: bytes | None
    overlay_type: str
    photo: bytes | None
    photo_type: str | None
    created: datetime
    owner: str | None = None


class ScanStore:
    """Scans kept for ``ttl_s`` seconds in the database; expired ones are purged as new ones arrive."""

    def __init__(self, engine: Engine, ttl_s: float = 86400.0) -> None:
        self.engine = engine
        self.ttl_s = ttl_s

    new_id = staticmethod(new_id)

    def put(
        self,
        scan_id: str,
        result: dict[str, Any],
        city: str,
        overlay: bytes | None,
        overlay_type: str = "image/jpeg",
        photo: bytes | None = None,
        photo_type: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Store a scan under ``scan_id`` (``owner``'s, or anonymous) and purge the expired ones."""
        created = now()
        row = {
            "id": scan_id,
            "created_at": created,
            "expires_at": created + timedelta(seconds=self.ttl_s),
            "result": result,
            "city": city,
            "overlay": overlay,
            "overlay_type": overlay_type,
            "photo": photo,
            "photo_type": photo_type,
            "owner": owner,
        }
        with self.engine.begin() as conn:
            conn.execute(delete(scans).where(scans.c.expires_at < created))
            conn.execute(insert(scans).values(**row))

    def get(self, scan_id: str, owner: str | None = None) -> StoredScan | None:
        """The stored scan as ``owner`` (a device's key, or ``None``: no token) may see it: ``None`` when it
        is unknown, has expired or belongs to another device."""
        if len(scan_id) > 32:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(scans).where(scans.c.id == scan_id)).mappings().first()
        if row is None or aware(row["expires_at"]) <= now():
            return None
        if row["owner"] is not None and row["owner"] != owner:
            return None
        return StoredScan(
            row["id"],
            row["result"],
            row["city"],
            row["overlay"],
            row["overlay_type"],
            row["photo"],
            row["photo_type"],
            aware(row["created_at"]),
            row["owner"],
        )

    def purge(self) -> int:
        """Delete every expired scan now; return how many went."""
        with self.engine.begin() as conn:
            return conn.execute(delete(scans).where(scans.c.expires_at <= now())).rowcount
