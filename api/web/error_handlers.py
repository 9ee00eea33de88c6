"""How the service answers what goes wrong: each error as a JSON ``{"error": {"code", "message"}}`` with its
HTTP status.

The engine's and the scanner's errors (:class:`~scoring.errors.InputError` subclasses) say what was wrong,
not how a web service answers it: :data:`ENGINE_STATUS` gives their status here (400 when not listed). The
service's own errors are :class:`ServiceError` subclasses, each with its ``status``.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from api.core import ServiceError
from api.web.admission import ClientBusy, ServiceBusy
from api.web.excerpts import bounded, excerpt
from api.web.guards import RequestTimeout, error_response
from api.web.scanning import ScannerUnavailable
from games import flag_words
from scoring.errors import InputError
from vision.deck import DeckError
from vision.lattice import NoCityFound
from vision.photo import ImageTooLarge, NotAnImage, UnsupportedImage

log = logging.getLogger("sprawlscan.api")

#: The HTTP status of each engine or scanner error that is not a plain 400 (subclasses included).
ENGINE_STATUS: dict[type[InputError], int] = {
    NotAnImage: 415,
    UnsupportedImage: 415,
    ImageTooLarge: 413,
    NoCityFound: 422,
    DeckError: 422,  # a deck photo with cards missing, doubled or unreadable
}


def http_status(exc: InputError) -> int:
    """The status the service answers ``exc`` with: a service error's own, else the engine's from
    :data:`ENGINE_STATUS` (the nearest listed base class), else 400."""
    if isinstance(exc, ServiceError):
        return exc.status
    return next((ENGINE_STATUS[c] for c in type(exc).__mro__ if c in ENGINE_STATUS), 400)


class ScanNotFound(ServiceError):
    """No stored scan with that id (unknown, or expired)."""

    code = "scan_not_found"
    status = 404


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


def _client_fault(request: Request, status: int, code: str, message: str) -> None:
    """One log line per client mistake (no traceback: the traceback is for server faults), repeating at
    most a bounded excerpt of what the client sent."""
    where = excerpt(request.url.path)
    log.info("client fault: %s %s %d %s: %s", request.method, where, status, code, bounded(message))


class ClientGone(InputError):
    """The client disconnected before its answer was ready (a phone losing signal mid-upload)."""

    code = "client_disconnected"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(InputError)
    async def _inputerror_response(request: Request, exc: InputError) -> JSONResponse:
        status, message = http_status(exc), flag_words(str(exc))  # the page rewords the flags for itself
        _client_fault(request, status, exc.code, message)
        # A slow client has not finished its body: close rather than read the rest.
        headers = {"Connection": "close"} if isinstance(exc, RequestTimeout) else None
        return error_response(status, exc.code, message, headers)

    @app.exception_handler(ClientDisconnect)
    async def _client_left(request: Request, exc: ClientDisconnect) -> JSONResponse:
        message = "the client disconnected before the request was complete"
        _client_fault(request, 400, ClientGone.code, message)
        return error_response(400, ClientGone.code, message)

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        message = _validation_message(exc)
        _client_fault(request, 422, "invalid_request", message)
        return error_response(422, "invalid_request", message)

    @app.exception_handler(StarletteHTTPException)
    async def _httperror_response(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such page or endpoint: {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        _client_fault(request, exc.status_code, code, message)
        return error_response(exc.status_code, code, message, getattr(exc, "headers", None))

    @app.exception_handler(ScannerUnavailable)
    async def _no_scanner(request: Request, exc: ScannerUnavailable) -> JSONResponse:
        log.warning("scan refused: %s", exc)
        return error_response(503, "scanner_unavailable", str(exc))

    @app.exception_handler(ServiceBusy)
    async def _busy(request: Request, exc: ServiceBusy) -> JSONResponse:
        # One client over its share of the slots is told so (429); the server full for all, 503.
        status = 429 if isinstance(exc, ClientBusy) else 503
        log.info("busy: %s %s %d: %s", request.method, excerpt(request.url.path), status, exc)
        return error_response(status, exc.code, str(exc), {"Retry-After": str(exc.retry_after_s)})
