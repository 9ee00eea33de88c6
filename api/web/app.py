"""The web service: scan a photo, score a city, check a hand tally, and serve the mobile page.

``create_app()`` builds a FastAPI application; the module-level ``app`` is what ``uvicorn api.app:app``
and ``sprawlscan serve`` run. Every client mistake becomes a 4xx JSON error ``{"error": {"code",
"message"}}``; only real server faults are 5xx (still JSON). Photo scans are CPU- and memory-heavy, so they
run off the event loop in worker threads, at most ``scan_workers`` at a time, with at most
``max_pending_scans`` uploads (and ``max_pending_bytes`` of them) accepted at once (the rest get 503 with
``Retry-After``).
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from api.core import scoring as service
from api.core.schemas import (
    ERROR_RESPONSES,
    BreakdownOut,
    CheckOut,
    CheckRequest,
    Health,
    ScanOut,
    ScoreRequest,
)
from api.storage.deck_store import DeckStore
from api.storage.engine import ScanStore, connect, database_url, migrate
from api.storage.game_store import GameStore
from api.storage.write_check import WriteCheck, writing
from api.web import docs_pages
from api.web.error_handlers import ClientGone, ScanNotFound, install_error_handlers
from api.web.guards import (
    BodyGuard,
    CrossSiteGuard,
    SecurityHeaders,
    ServerFaults,
)
from api.web.hosts import HostGuard, HostPolicy
from api.web.routers.deck import DECK_PATH, deck_of, deck_router
from api.web.routers.games import games_router
from api.web.settings import Settings, SettingsError
from api.web.uploads import Admission, counted, read_scan_form, sniff_image_type

log = logging.getLogger("sprawlscan.api")
# What the page (and its service worker) may load: its own files, pictures it makes, the service's API.
PAGE_CSP = (
    "default-src 'self'; img-src 'self' blob: data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
)
STATIC_DIR = Path(__file__).with_name("static")
SCANS_PATH = "/api/v1/scans"


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service with the given limits (default: :meth:`Settings.from_env`)."""
    settings = settings or Settings.from_env()
    engine = connect(database_url(settings.database_url, settings.database_path))
    store = ScanStore(engine, settings.scan_ttl_s)
    writable = WriteCheck(engine)
    limiter = anyio.CapacityLimiter(settings.scan_workers)
    # One admission for every heavy upload (scans and decks), by the bytes each has sent.
    admit = Admission(
        settings.max_pending_scans, settings.max_pending_bytes, settings.max_client_pending_bytes
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Bring the schema up to date (one process at a time), and load the scanner (and its model
        # session) once per process, before the first request needs it.
        try:
            await anyio.to_thread.run_sync(migrate, engine)
        except Exception as exc:  # unreachable or unwritable: say which database, then fail the start-up
            log.error("cannot open the database %s: %s", engine.url.render_as_string(hide_password=True), exc)
            raise
        # A database that opens but cannot be written (a read-only file) does not stop the service (it
        # still scores), but it is said now, /healthz answers 503 and saves and scans are refused.
        problem = await anyio.to_thread.run_sync(writable.problem)
        if problem is not None:
            shown = engine.url.render_as_string(hide_password=True)
            log.error("the database %s cannot be written: %s (saves and scans are refused)", shown, problem)
        await anyio.to_thread.run_sync(service.warm_up)
        yield
        engine.dispose()

    app = FastAPI(
        title="sprawlscan",
        version=_version(),
        description="Score Sprawlopolis and Circle the Wagons cities from a photo, a typed grid or a hand "
        'tally. Errors are JSON: {"error": {"code", "message"}}.',
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.games = GameStore(engine)
    app.state.decks = DeckStore(engine)
    install_error_handlers(app)
    docs_pages.install(app)
    # Outermost last: every answer gets the security headers, server faults are caught inside them.
    app.add_middleware(
        BodyGuard,
        max_bytes=settings.max_json_bytes,
        deadline=settings.deadline,
        exempt=(("POST", SCANS_PATH), ("POST", DECK_PATH)),
    )
    app.add_middleware(CrossSiteGuard)
    # `sprawlscan serve` passes its --host to its workers in SPRAWLSCAN_SERVE_HOST.
    hosts = HostPolicy.of(settings.allowed_hosts, os.environ.get("SPRAWLSCAN_SERVE_HOST", ""))
    app.add_middleware(HostGuard, policy=hosts)
    app.add_middleware(ServerFaults)
    app.add_middleware(SecurityHeaders)

    @app.get("/healthz", response_model=Health, tags=["service"])
    def healthz() -> dict[str, Any] | JSONResponse:
        """Liveness: the process answers and says whether photo scanning is available; 503 when the
        database cannot be written (nothing could be saved or scanned)."""
        health = {"status": "ok", "version": _version(), "scanner": service.scanner_available()}
        return writable.health(health)

    @app.get("/api/v1/meta", tags=["scoring"])
    def meta() -> dict[str, Any]:
        """The cards, expansions and variants the page offers (see service.metadata), and the upload limit."""
        return {**service.metadata(), "max_upload_bytes": settings.max_upload_bytes}

    @app.post(
        SCANS_PATH,
        response_class=JSONResponse,
        responses={200: {"model": ScanOut, "description": "The breakdown of the city read from the photo"}},
        tags=["scan"],
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["image"],
                            "properties": {
                                "image": {
                                    "type": "string",
                                    "format": "binary",
                                    "description": "JPEG, PNG, WebP or HEIC photo of the city",
                                },
                                "cards": {"type": "string", "description": "Scoring cards, e.g. '8 7 17'"},
                                "expansions": {"type": "string", "description": "e.g. 'wrecktar beaches'"},
                                "variant": {"type": "string"},
                                "options": {"type": "string", "description": "JSON object of options"},
                                "keep_photo": {"type": "string", "description": "1: keep the photo too"},
                            },
                        }
                    }
                },
            }
        },
    )
    async def create_scan(request: Request) -> JSONResponse:
        """Read a city from an uploaded photo and score it. The upload is streamed with a size limit; the
        result (and its overlay image) stays available under ``scan_id`` for a while."""
        try:
            async with admit(request.client.host if request.client else "") as take:
                # A scan is stored (its follow-ups read it back): refused before the work if it could not be.
                await anyio.to_thread.run_sync(writable.require, "the scan")
                form = await read_scan_form(
                    request.headers.get("content-type"),
                    request.headers.get("content-length"),
                    counted(request.stream(), take),
                    max_body_bytes=settings.max_upload_bytes,
                )
                opts = service.ScoreOptions.from_form(form.fields)
                opts.check()
                # The photo itself is kept only when the user asks (keep_photo=1).
                keep = form.fields.get("keep_photo", "").strip().lower() in ("1", "true", "yes", "on")
                photo = form.image if keep else None
                # A device that taught its deck (POST /api/v1/deck) has its scans read with it.
                deck = await anyio.to_thread.run_sync(
                    deck_of, app.state.decks, request.headers.get("authorization")
                )
                taught = {"deck": deck} if deck is not None else {}
                run = partial(service.scan_and_score, form.image, opts, settings.overlay_long_side, **taught)
                del form  # the worker holds the only reference to the photo bytes from here on
                scanned = await _scan_while_connected(request, run, limiter)
        except service.ScanCancelled:
            raise ClientGone("the client disconnected; its scan was stopped") from None
        scan_id = store.new_id()
        overlay_url = f"/api/v1/scans/{scan_id}/overlay" if scanned.overlay else None
        result = {**scanned.result, "scan_id": scan_id, "overlay": overlay_url}
        photo_type = f"image/{sniff_image_type(photo[:32])}" if photo else None
        put = partial(
            store.put, scan_id, result, scanned.city, scanned.overlay, "image/jpeg", photo, photo_type
        )
        with writing("the scan"):
            await anyio.to_thread.run_sync(put)
        return JSONResponse(result)

    @app.get("/api/v1/scans/{scan_id}", responses={200: {"model": ScanOut}}, tags=["scan"])
    def get_scan(scan_id: str) -> JSONResponse:
        """The stored result of an earlier scan (404 when unknown or expired)."""
        return JSONResponse(_stored(store, scan_id).result)

    @app.get(
        "/api/v1/scans/{scan_id}/overlay",
        response_class=Response,
        tags=["scan"],
        responses={200: {"content": {"image/jpeg": {}}, "description": "The overlay image"}},
    )
    def get_overlay(scan_id: str) -> Response:
        """The photo with what was read drawn on it."""
        item = _stored(store, scan_id)
        if item.overlay is None:
            raise ScanNotFound(f"scan {scan_id} has no overlay image")
        return Response(
            item.overlay, media_type=item.overlay_type, headers={"Cache-Control": "private, max-age=3600"}
        )

    @app.get(
        "/api/v1/scans/{scan_id}/photo",
        response_class=Response,
        tags=["scan"],
        responses={200: {"content": {"image/jpeg": {}}, "description": "The uploaded photo"}},
    )
    def get_photo(scan_id: str) -> Response:
        """The uploaded photo, when the scan was sent with ``keep_photo=1``."""
        item = _stored(store, scan_id)
        if item.photo is None:
            raise ScanNotFound(f"scan {scan_id} kept no photo (send keep_photo=1 with the upload to keep it)")
        return Response(item.photo, media_type=item.photo_type, headers={"Cache-Control": "private"})

    # The engine's JSON is returned as it is (the models document it): no field is added or dropped.
    @app.post("/api/v1/score", responses={200: {"model": BreakdownOut}}, tags=["scoring"])
    def score(body: ScoreRequest) -> JSONResponse:
        """Score a city sent as text (``city``) or as ``rows`` of cell tokens."""
        return JSONResponse(service.score_request(body))

    @app.post("/api/v1/check", responses={200: {"model": CheckOut}}, tags=["scoring"])
    def check(body: CheckRequest) -> JSONResponse:
        """Compare a hand tally with the computed score, line by line. The city comes from ``city``,
        ``rows`` or an earlier scan's ``scan_id``."""
        city_text = _stored(store, body.scan_id).city if body.scan_id is not None else None
        return JSONResponse(service.check_request(body, city_text))

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(
            STATIC_DIR / "index.html",
            headers={"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_CSP},
        )

    app.include_router(games_router(app.state.games, settings.max_games_per_device))
    app.include_router(deck_router(app.state.decks, settings, limiter, admit))

    # The service worker is served from the root so that its scope covers the page at "/".
    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        # A worker runs under its script's own policy: the API's "nothing" would stop it fetching the shell.
        return FileResponse(
            STATIC_DIR / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_CSP},
        )

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "icon-192.png", media_type="image/png")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


async def _scan_while_connected(
    request: Request, run: Callable[[threading.Event], service.Scanned], limiter: anyio.CapacityLimiter
) -> service.Scanned:
    """``run(left)`` in a worker thread; ``left`` is set when the client disconnects, and the scan stops
    at its next stage boundary (:class:`service.ScanCancelled`)."""
    left = threading.Event()
    outcome: dict[str, Any] = {}

    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass  # the body is read: the next message is the disconnect
        left.set()

    async def work() -> None:
        try:
            outcome["scanned"] = await anyio.to_thread.run_sync(run, left, limiter=limiter)
        except Exception as exc:  # re-raised below, outside the task group (no ExceptionGroup)
            outcome["error"] = exc
        finally:
            group.cancel_scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        group.start_soon(work)
    if "error" in outcome:
        raise outcome["error"]
    scanned: service.Scanned = outcome["scanned"]
    return scanned


def _stored(store: ScanStore, scan_id: str) -> Any:
    item = store.get(scan_id)
    if item is None:
        raise ScanNotFound(f"no scan with id {scan_id!r} (unknown, or expired)")
    return item


def _version() -> str:
    try:
        return importlib.metadata.version("sprawlscan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


try:
    app = create_app()
except SettingsError as exc:  # one line at start-up, not a traceback
    print(f"sprawlscan: error: {exc}", file=sys.stderr)
    raise SystemExit(2) from None

__all__ = ["Settings", "SettingsError", "app", "create_app"]
