"""The service's ASGI application, built from the ``SPRAWLSCAN_*`` environment when this module is imported:
what ``sprawlscan serve`` (and ``uvicorn api.web.asgi:app``) runs in each worker process."""

from __future__ import annotations

import sys

from api.web.app import create_app
from api.web.settings import SettingsError

__all__ = ["app"]

try:
    app = create_app()
except SettingsError as exc:  # one line at start-up, not a traceback
    print(f"sprawlscan: error: {exc}", file=sys.stderr)
    raise SystemExit(2) from None
