"""``sprawlscan serve``: run the web service with uvicorn.

``--workers N`` starts N processes (each with its own scanner model session; scans and games are in the
shared database, so any of them answers any request); uvicorn imports the app by name
(``api.web.asgi:app``) in every worker.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from api.cli.argtypes import whole
from api.storage import DatabaseUnavailable, database_url, open_database
from scoring.errors import InputError

if TYPE_CHECKING:
    from api.web import Settings


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
    parser.add_argument("--port", type=whole("port", 1, 65535), default=8000, help="TCP port (default 8000)")
    parser.add_argument("--workers", type=whole("workers", 1), default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="uvicorn log level (default info)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns uvicorn's exit status (0 on a clean shutdown). Bad
    ``SPRAWLSCAN_*`` settings and a database that cannot be opened are refused here, before uvicorn
    starts, in one line (exit 2)."""
    import logging

    import uvicorn  # the web stack loads for `serve` only, not for every command

    from api.web import Settings, SettingsError, limit_arenas, server_options  # (the same)

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        raise InputError(str(exc)) from None
    # The service's own lines (one per client fault, tracebacks of server faults) beside uvicorn's.
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    # Alembic announces each of its internal plugins at INFO on every start: noise, not news.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    os.environ["SPRAWLSCAN_SERVE_HOST"] = args.host  # its workers answer to this host (api.web's HostGuard)
    _open_database(settings)  # its migrations are logged as the workers' would be
    limit_arenas()  # this process serves when --workers is 1: before any of its threads allocate
    uvicorn.run(
        "api.web.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        proxy_headers=True,
        **server_options(),
    )
    return 0


def _open_database(settings: Settings) -> None:
    """Open the service's database and bring its schema up to date once, before any worker starts: a
    folder, a server that does not answer or a file that cannot be made is one line naming it, not a
    worker's start-up traceback. (A database that opens but cannot be written still serves, degraded.)"""
    try:
        open_database(database_url(settings.database_url, settings.database_path)).dispose()
    except DatabaseUnavailable as exc:
        raise InputError(str(exc)) from None
