"""The web service: scan a photo, score a city, check a hand tally, and serve the mobile page.

``create_app()`` builds a FastAPI application; the module-level ``app`` is what ``uvicorn api.app:app``
and ``sprawlscan serve`` run. Every client mistake becomes a 4xx JSON error ``{"error": {"code",
"message"}}``; only real server faults are 5xx (still JSON). Photo scans are CPU- and memory-heavy, so they
run off the event loop in worker threads, at most ``scan_workers`` at a time, with at most
``max_pending_scans`` uploads accepted at once (the rest get 503 with ``Retry-After``).
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import service
from api.models import (
    ERROR_RESPONSES,
    BreakdownOut,
    CheckOut,
    CheckRequest,
    Health,
    ScanOut,
    ScoreRequest,
)
from api.routes_games import games_router
from api.storage import ScanStore, connect, database_url, migrate
from api.storage_games import GameStore
from api.uploads import read_scan_form, sniff_image_type
from scoring.errors import InputError

log = logging.getLogger("sprawlscan.api")
STATIC_DIR = Path(__file__).with_name("static")


class ScanNotFound(InputError):
    code = "scan_not_found"
    status = 404


class ServiceBusy(Exception):
    """Too many uploads in flight: the client should retry shortly (503, not a client mistake)."""


@dataclass(frozen=True)
class Settings:
    """Service limits; :meth:`from_env` reads ``SPRAWLSCAN_<NAME>`` environment variables."""

    max_upload_bytes: int = 25_000_000
    scan_workers: int = field(default_factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    max_pending_scans: int = 32
    scan_ttl_s: float = 86400.0
    overlay_long_side: int = 1600
    max_json_bytes: int = 1_000_000
    database_url: str = ""  # e.g. postgresql://user:password@host/sprawlscan; empty: a SQLite file
    database_path: str = ""  # that SQLite file; empty: api.storage.default_database_path()
    max_games_per_device: int = 100_000

    @classmethod
    def from_env(cls) -> Settings:
        """Defaults overridden by ``SPRAWLSCAN_MAX_UPLOAD_BYTES`` etc.; raises ValueError naming a bad one."""
        values: dict[str, Any] = {}
        for name, default in cls().__dict__.items():
            key = f"SPRAWLSCAN_{name.upper()}"
            raw = os.environ.get(key)
            if raw is None:
                continue
            if isinstance(default, str):
                values[name] = raw
                continue
            try:
                value = type(default)(raw)
            except ValueError:
                kind = "whole number" if isinstance(default, int) else "number"
                raise ValueError(f"{key} must be a {kind}, got {raw!r}") from None
            if value <= 0 and name != "max_pending_scans":
                raise ValueError(f"{key} must be positive, got {raw!r}")
            values[name] = value
        return cls(**values)


class _BodyLimit:
    """ASGI middleware: refuse request bodies over ``max_bytes`` (413) on every path but the photo upload,
    which streams its body and enforces its own, larger limit. JSON bodies are parsed in memory, so without
    this a client could make the service buffer an arbitrarily large one."""

    def __init__(self, app: ASGIApp, max_bytes: int, exempt: tuple[str, ...]) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.exempt:
            await self.app(scope, receive, send)
            return
        too_large = f"the request body is larger than {self.max_bytes:,} bytes"
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await _error(413, "too_large", too_large)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise StarletteHTTPException(413, too_large)
            return message

        await self.app(scope, limited, send)


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
}


def _validation_message(exc: RequestValidationError) -> str:
    """One line naming each bad field, e.g. ``body.cards.0: Input should be a valid integer``."""
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        if err.get("type") == "json_invalid":
            ctx = err.get("ctx") or {}
            parts.append(f"the body is not valid JSON ({ctx.get('error', 'parse error')})")
        else:
            msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
            parts.append(f"{where}: {msg}")
    return "; ".join(parts) or "invalid request"


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return _error(exc.status, exc.code, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, "invalid_request", _validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such page or endpoint: {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return _error(exc.status_code, code, message, getattr(exc, "headers", None))

    @app.exception_handler(service.ScannerUnavailable)
    async def _no_scanner(request: Request, exc: service.ScannerUnavailable) -> JSONResponse:
        return _error(503, "scanner_unavailable", str(exc))

    @app.exception_handler(ServiceBusy)
    async def _busy(request: Request, exc: ServiceBusy) -> JSONResponse:
        return _error(503, "busy", str(exc), {"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def _server_fault(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return _error(500, "internal_error", "the server failed to handle this request; it has been logged")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service with the given limits (default: :meth:`Settings.from_env`)."""
    settings = settings or Settings.from_env()
    engine = connect(database_url(settings.database_url, settings.database_path))
    store = ScanStore(engine, settings.scan_ttl_s)
    limiter = anyio.CapacityLimiter(settings.scan_workers)
    pending = {"scans": 0}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Bring the schema up to date (one process at a time), and load the scanner (and its model
        # session) once per process, before the first request needs it.
        try:
            await anyio.to_thread.run_sync(migrate, engine)
        except Exception as exc:  # unreachable or unwritable: say which database, then fail the start-up
            log.error("cannot open the database %s: %s", engine.url.render_as_string(hide_password=True), exc)
            raise
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
    )
    app.state.settings = settings
    app.state.store = store
    app.state.games = GameStore(engine)
    _install_error_handlers(app)
    app.add_middleware(_BodyLimit, max_bytes=settings.max_json_bytes, exempt=("/api/v1/scans",))

    @app.get("/healthz", response_model=Health, tags=["service"])
    def healthz() -> dict[str, Any]:
        """Liveness: the process answers and says whether photo scanning is available."""
        return {"status": "ok", "version": _version(), "scanner": service.scanner_available()}

    @app.get("/api/v1/meta", tags=["scoring"])
    def meta() -> dict[str, Any]:
        """The cards, expansions and variants the page offers (see service.metadata), and the upload limit."""
        return {**service.metadata(), "max_upload_bytes": settings.max_upload_bytes}

    @app.post(
        "/api/v1/scans",
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
        if pending["scans"] >= settings.max_pending_scans:
            raise ServiceBusy(f"the server is handling {pending['scans']} uploads; try again in a moment")
        pending["scans"] += 1
        try:
            form = await read_scan_form(
                request.headers.get("content-type"),
                request.headers.get("content-length"),
                request.stream(),
                max_body_bytes=settings.max_upload_bytes,
            )
            opts = service.ScoreOptions.from_form(form.fields)
            opts.check()
            # The photo itself is kept only when the user asks (keep_photo=1).
            keep = form.fields.get("keep_photo", "").strip().lower() in ("1", "true", "yes", "on")
            photo = form.image if keep else None
            run = partial(service.scan_and_score, form.image, opts, settings.overlay_long_side)
            del form  # the worker holds the only reference to the photo bytes from here on
            scanned = await anyio.to_thread.run_sync(run, limiter=limiter)
        finally:
            pending["scans"] -= 1
        scan_id = store.new_id()
        overlay_url = f"/api/v1/scans/{scan_id}/overlay" if scanned.overlay else None
        result = {**scanned.result, "scan_id": scan_id, "overlay": overlay_url}
        photo_type = f"image/{sniff_image_type(photo[:32])}" if photo else None
        put = partial(
            store.put, scan_id, result, scanned.city, scanned.overlay, "image/jpeg", photo, photo_type
        )
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
            headers={
                "Cache-Control": "no-cache",
                "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
                "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
            },
        )

    app.include_router(games_router(app.state.games, settings.max_games_per_device))

    # The service worker is served from the root so that its scope covers the page at "/".
    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        return FileResponse(
            STATIC_DIR / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
        )

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "icon-192.png", media_type="image/png")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


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


app = create_app()

__all__ = ["Settings", "app", "create_app"]
