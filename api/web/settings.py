"""The service's limits and deadlines, read from ``SPRAWLSCAN_*`` environment variables and checked once,
at start-up (docs/deployment.md lists them)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

from scoring.numbers import whole_number

_TEXT_SETTINGS = frozenset({"database_url", "database_path", "allowed_hosts"})


class SettingsError(ValueError):
    """A ``SPRAWLSCAN_*`` setting that cannot be used; the message is one line naming it."""


@dataclass(frozen=True)
class Settings:
    """Service limits; :meth:`from_env` reads ``SPRAWLSCAN_<NAME>`` environment variables."""

    max_upload_bytes: int = 25_000_000
    scan_workers: int = field(default_factory=lambda: max(1, min(2, os.cpu_count() or 1)))
    max_pending_scans: int = 32
    max_pending_bytes: int = 160_000_000
    max_client_pending_bytes: int = 50_000_000
    max_client_uploads: int = 4  # of max_pending_scans: one address holds at most an eighth of the slots
    scan_ttl_s: float = 86400.0
    overlay_long_side: int = 1600
    max_json_bytes: int = 1_000_000
    header_timeout_s: float = 10.0
    body_grace_s: float = 10.0
    min_body_rate: int = 16_000
    body_rate_window_s: float = 10.0
    body_timeout_s: float = 120.0
    database_url: str = ""  # e.g. postgresql://user:password@host/sprawlscan; empty: a SQLite file
    database_path: str = ""  # that SQLite file; empty: api.storage.default_database_path()
    max_games_per_device: int = 100_000
    # Device tokens one client address is issued per window (its storage: these × max_games_per_device).
    max_devices_per_client: int = 20
    device_window_s: float = 86400.0
    # The CPU-heavy JSON requests (import, score, check, save): threads, and how many may wait or run.
    json_workers: int = 1
    max_pending_json: int = 8
    max_client_json: int = 4
    # Host names the service answers to besides the loopback ones and the host given to `serve` ("*": any).
    allowed_hosts: str = ""

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if name in _TEXT_SETTINGS:
                if not isinstance(value, str):
                    raise SettingsError(f"setting {name} must be text, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise SettingsError(f"setting {name} must be a number, got {value!r}")
            if value <= 0:
                raise SettingsError(f"SPRAWLSCAN_{name.upper()} must be positive, got {value!r}")
        if self.max_pending_bytes < self.max_upload_bytes:
            raise SettingsError(
                f"SPRAWLSCAN_MAX_PENDING_BYTES ({self.max_pending_bytes}) must be at least "
                f"SPRAWLSCAN_MAX_UPLOAD_BYTES ({self.max_upload_bytes}), or no large upload is ever accepted"
            )

        if self.max_client_pending_bytes < 2 * self.max_upload_bytes:
            raise SettingsError(
                f"SPRAWLSCAN_MAX_CLIENT_PENDING_BYTES ({self.max_client_pending_bytes}) must be at least "
                f"twice SPRAWLSCAN_MAX_UPLOAD_BYTES ({self.max_upload_bytes}): a deck is taught from 2 photos"
            )

    @classmethod
    def from_env(cls) -> Settings:
        """Defaults overridden by ``SPRAWLSCAN_MAX_UPLOAD_BYTES`` etc.; raises :class:`SettingsError`
        naming a bad one."""
        values: dict[str, Any] = {}
        for name, default in cls().__dict__.items():
            key = f"SPRAWLSCAN_{name.upper()}"
            raw = os.environ.get(key)
            if raw is None:
                continue
            if name in _TEXT_SETTINGS:
                values[name] = raw
                continue
            try:
                if isinstance(default, int):
                    values[name] = whole_number(raw, lo=1)
                else:
                    values[name] = float(raw)
            except ValueError:
                kind = "whole number" if isinstance(default, int) else "number"
                raise SettingsError(f"{key} must be a positive {kind}, got {raw!r}") from None
            if not math.isfinite(values[name]) or values[name] <= 0:
                raise SettingsError(f"{key} must be a positive number, got {raw!r}")
        return cls(**values)
