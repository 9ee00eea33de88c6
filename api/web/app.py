"""The web service's app factory: :func:`create_app` puts the routers, the guards and the error handlers
together around one :class:`~api.web.deps.Services` (settings, stores, admission, scan workers).

Every client mistake becomes a 4xx JSON error ``{"error": {"code", "message"}}``; only real server faults
are 5xx (still JSON). Photo scans are CPU- and memory-heavy, so they run off the event loop in worker
threads, at most ``scan_workers`` at a time, with at most ``max_pending_scans`` uploads (and
``max_pending_bytes`` of them) accepted at once (the rest get 503 with ``Retry-After``). The app that
``uvicorn`` and ``sprawlscan serve`` run is :mod:`api.web.asgi`'s.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.core import ERROR_RESPONSES, version
from api.storage import DatabaseUnavailable, open_schema
from api.web import docs_pages, scanning
from api.web.allocator import limit_arenas
from api.web.choices import PAGE_PREFIX
from api.web.deps import Services
from api.web.error_handlers import install_error_handlers
from api.web.guards import BodyDeadline, BodyGuard, CrossSiteGuard, SecurityHeaders, ServerFaults
from api.web.hosts import HostGuard, HostPolicy
from api.web.routers import deck, frames, games, page, scans, scoring
from api.web.settings import Settings
from games import registered

__all__ = ["create_app", "lifespan"]

log = logging.getLogger("sprawlscan.api")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service with the given limits (default: :meth:`Settings.from_env`)."""
    limit_arenas()  # before the service's threads allocate (api.web.allocator)
    services = Services.of(settings or Settings.from_env())
    app = FastAPI(
        title="sprawlscan",
        version=version(),
        description="Score Sprawlopolis and Circle the Wagons cities from a photo, a typed grid or a hand "
        'tally. Errors are JSON: {"error": {"code", "message"}}.',
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
        docs_url=None,
        redoc_url=None,
    )
    app.state.services = services  # read by the lifespan and the routes' dependencies (api.web.deps)
    install_error_handlers(app)
    docs_pages.install(app)
    _add_guards(app, services.settings)
    app.add_middleware(OneLineStartFailure)
    for router in (scoring.router, scans.router, frames.router, page.router, games.router, deck.router):
        app.include_router(router)
    for game in registered():  # each game's own page files, before the page's (the longer prefix first)
        if game.page_dir is not None:
            own = StaticFiles(directory=game.page_dir)
            app.mount(f"{PAGE_PREFIX}/{game.name}", own, name=f"page-{game.name}")
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    return app


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's start-up (:func:`_start`) and shutdown: the scanner's threads stop, connections go."""
    services: Services = app.state.services
    await _start(services)
    try:
        yield
    finally:
        services.close()


async def _start(services: Services) -> None:
    """Bring the schema up to date (one process at a time), and load the scanner (and its model session)
    once per process, before the first request needs it."""
    engine = services.engine
    try:
        await anyio.to_thread.run_sync(open_schema, engine)
    except DatabaseUnavailable as exc:  # unreachable or unwritable: say which database, fail the start-up
        log.error("%s", exc)
        raise
    # A database that opens but cannot be written (a read-only file) does not stop the service (it still
    # scores), but it is said now, /healthz answers 503 and saves and scans are refused.
    problem = await anyio.to_thread.run_sync(services.writable.problem)
    if problem is not None:
        shown = engine.url.render_as_string(hide_password=True)
        log.error("the database %s cannot be written: %s (saves and scans are refused)", shown, problem)
    await anyio.to_thread.run_sync(scanning.warm_up)


class OneLineStartFailure:
    """A start-up refused for a reason already said in one line (the database: :func:`_start`) is told
    to the server without the traceback Starlette attaches to it, so that the operator reads one line, not
    fifty; any other failure keeps its traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        held: list[Message] = []

        async def holding(message: Message) -> None:
            if message["type"] == "lifespan.startup.failed":
                held.append(message)  # sent below, once the failure's type is known
                return
            await send(message)

        try:
            await self.app(scope, receive, holding)
        except DatabaseUnavailable:
            held[:] = [{"type": "lifespan.startup.failed", "message": ""}]  # uvicorn logs none
            raise
        finally:
            for message in held:
                await send(message)


def _add_guards(app: FastAPI, settings: Settings) -> None:
    """The middleware every request passes, outermost last: every answer gets the security headers, and
    server faults are caught inside them."""
    deadline = BodyDeadline(
        settings.body_grace_s, settings.min_body_rate, settings.body_timeout_s, settings.body_rate_window_s
    )
    # Streamed, with limits of their own.
    uploads = (("POST", scans.SCANS_PATH), ("POST", deck.DECK_PATH), ("POST", frames.FRAMES_PATH))
    app.add_middleware(BodyGuard, max_bytes=settings.max_json_bytes, deadline=deadline, exempt=uploads)
    app.add_middleware(CrossSiteGuard)
    # `sprawlscan serve` passes its --host to its workers in SPRAWLSCAN_SERVE_HOST.
    hosts = HostPolicy.of(settings.allowed_hosts, os.environ.get("SPRAWLSCAN_SERVE_HOST", ""))
    app.add_middleware(HostGuard, policy=hosts)
    app.add_middleware(ServerFaults)
    app.add_middleware(SecurityHeaders)
