"""``sprawlscan serve``: run the web service with uvicorn.

``--workers N`` starts N processes (each with its own scanner model session; scans and games are in the
shared database, so any of them answers any request); uvicorn imports the app by name (``api.app:app``) in
every worker.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from scoring.errors import InputError


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``sprawlscan`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the web service (the mobile page and the JSON API)",
        description="Run the web service: the mobile page at / and the JSON API under /api/v1 "
        "(OpenAPI docs at /docs). Limits are read from SPRAWLSCAN_* environment variables "
        "(see docs/deployment.md).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="TCP port (default 8000)")
    parser.add_argument("--workers", type=_positive, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="uvicorn log level (default info)",
    )
    parser.set_defaults(func=run)


def _port(text: str) -> int:
    value = _int(text, "port")
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"port must be 1–65535, got {value}")
    return value


def _positive(text: str) -> int:
    value = _int(text, "workers")
    if value < 1:
        raise argparse.ArgumentTypeError(f"workers must be at least 1, got {value}")
    return value


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns uvicorn's exit status (0 on a clean shutdown). Bad
    ``SPRAWLSCAN_*`` settings are refused here, before uvicorn starts, in one line (exit 2)."""
    import logging

    import uvicorn

    from api.web.settings import Settings, SettingsError

    try:
        Settings.from_env()
    except SettingsError as exc:
        raise InputError(str(exc)) from None
    from api.web.server_protocol import server_options

    os.environ["SPRAWLSCAN_SERVE_HOST"] = args.host  # its workers answer to this host (api.app's HostGuard)

    # The service's own lines (one per client fault, tracebacks of server faults) beside uvicorn's.
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    # Alembic announces each of its internal plugins at INFO on every start: noise, not news.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    uvicorn.run(
        "api.web.app:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        proxy_headers=True,
        **server_options(),
    )
    return 0
