"""ASGI middleware that every request passes: body deadlines and size, JSON sanity, cross-site posts,
security headers, and one clean answer for real server faults.

Pure ASGI classes rather than Starlette's ``BaseHTTPMiddleware``, so a streamed photo upload is never
buffered and a timed-out ``receive`` can be told apart from the application's own errors.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import urlsplit

import anyio
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.core import ServiceError
from api.web.excerpts import bounded, excerpt
from scoring.numbers import JSONError, load_json

log = logging.getLogger("sprawlscan.api")

SECURITY_HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"x-frame-options": b"DENY",
    b"cross-origin-resource-policy": b"same-origin",
}
# What an API answer may load: nothing (pages with their own policy keep it).
DEFAULT_CSP = b"default-src 'none'; frame-ancestors 'none'"
_UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The service's error shape: ``{"error": {"code", "message"}}``; the message repeats at most a
    bounded excerpt of what the client sent (:func:`~api.web.excerpts.bounded`)."""
    body = {"error": {"code": code, "message": bounded(message)}}
    return JSONResponse(body, status_code=status, headers=headers)


class RequestTimeout(ServiceError):
    """The client sent its request body too slowly; the connection is closed after the answer."""

    code = "request_timeout"
    status = 408


@dataclass(frozen=True)
class BodyDeadline:
    """How fast a request body must arrive: by ``grace_s + received / min_rate`` seconds after the
    headers (a trickling client falls behind within ``grace_s``); once ``grace_s + window_s`` have passed,
    also ``min_rate`` averaged over the last ``window_s`` (a burst then a stall is cut a window later, not
    when the burst's credit runs out); and within ``total_s`` in all."""

    grace_s: float = 10.0
    min_rate: float = 16_000.0  # bytes per second
    total_s: float = 120.0
    window_s: float = 10.0

    def seconds_left(self, started: float, received: int, now: float) -> float:
        allowed = min(self.total_s, self.grace_s + received / self.min_rate)
        return started + allowed - now

    def window_left(
        self, started: float, samples: deque[tuple[float, int]], received: int, now: float
    ) -> float:
        """Seconds until the last ``window_s`` hold fewer than ``min_rate × window_s`` bytes if nothing
        more comes; ``samples`` are (time, bytes so far) from the headers on (pruned here)."""
        need = self.min_rate * self.window_s
        while len(samples) > 1 and samples[1][0] <= now - self.window_s:
            samples.popleft()  # the last one at or before the window's start still counts as its base
        first = next((t for t, total in samples if total > received - need), now)
        return max(first, started + self.grace_s) + self.window_s - now

    def describe(self) -> str:
        return (
            f"the request body must keep up {self.min_rate / 1000:g} kB/s after the first "
            f"{self.grace_s:g} s (over any {self.window_s:g} s after that) and arrive within "
            f"{self.total_s:g} s"
        )


def deadline_receive(receive: Receive, deadline: BodyDeadline) -> Receive:
    """``receive`` that raises :class:`RequestTimeout` when the body falls behind ``deadline``; once the
    body is complete it passes through (later calls wait for the client to disconnect)."""
    started = time.monotonic()
    received = 0
    done = False
    samples: deque[tuple[float, int]] = deque([(started, 0)])

    async def timed() -> Message:
        nonlocal received, done
        if done:
            return await receive()
        now = time.monotonic()
        left = min(
            deadline.seconds_left(started, received, now),
            deadline.window_left(started, samples, received, now),
        )
        message: Message | None = None
        with anyio.move_on_after(max(0.0, left)):
            message = await receive()
        if message is None:
            raise RequestTimeout(f"the request took too long to arrive: {deadline.describe()}")
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            done = not message.get("more_body", False)
            samples.append((time.monotonic(), received))
        return message

    return timed


class BodyGuard:
    """Deadlines on every request body; on every request but the streamed photo uploads (``exempt``:
    their method and path), also a size limit (``max_bytes``, 413) and, for a JSON body, a nesting limit
    and finite numbers (422), checked on the buffered body before the application parses it."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, deadline: BodyDeadline, exempt: tuple[tuple[str, str], ...]
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.deadline = deadline
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        timed = deadline_receive(receive, self.deadline)
        if (scope["method"], scope["path"]) in self.exempt:
            await self.app(scope, timed, send)
            return
        too_large = f"the request body is larger than {self.max_bytes:,} bytes"
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and (len(length) > 15 or int(length) > self.max_bytes):
            await error_response(413, "too_large", too_large)(scope, receive, send)
            return
        try:
            body = await _read_body(timed, self.max_bytes)
        except RequestTimeout as exc:
            log.info("client fault: %s %s 408 request_timeout", scope["method"], excerpt(scope["path"]))
            await error_response(408, exc.code, str(exc), {"Connection": "close"})(scope, receive, send)
            return
        if body is None:
            await error_response(413, "too_large", too_large)(scope, receive, send)
            return
        problem = _json_problem(body)
        if problem is not None:
            where = excerpt(scope["path"])
            log.info("client fault: %s %s 422 invalid_request: %s", scope["method"], where, bounded(problem))
            await error_response(422, "invalid_request", problem)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await timed()

        await self.app(scope, replay, send)


async def _read_body(receive: Receive, max_bytes: int) -> bytes | None:
    """The whole body, or ``None`` once it passes ``max_bytes``; a disconnect ends it early."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _json_problem(body: bytes) -> str | None:
    """Why ``body`` is unusable JSON (too deep, a number that is not finite or too long), else ``None``;
    syntax errors are left to the application's own message."""
    if not body.strip():
        return None
    try:
        load_json(body)
    except JSONError as exc:
        return f"the body is not usable JSON: {exc}"
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return None


class CrossSiteGuard:
    """Refuse state-changing requests that a browser sends on behalf of another site (403).

    A plain HTML form on any web page can post multipart data here without a CORS preflight; browsers label
    such requests with ``Sec-Fetch-Site: cross-site`` and an ``Origin`` of the other site. The service's own
    page sends ``same-origin``; the CLI, curl and scripts send neither header and are let through.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE_METHODS:
            headers = dict(scope["headers"])
            reason = cross_site_reason(headers)
            if reason is not None:
                log.info(
                    "client fault: %s %s 403 cross_site_request", scope["method"], excerpt(scope["path"])
                )
                message = f"cross-site requests are refused ({reason}); use the page this server serves"
                await error_response(403, "cross_site_request", message)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def cross_site_reason(headers: dict[bytes, bytes]) -> str | None:
    """Why a request with these headers comes from another site, or ``None`` when it does not."""
    fetch_site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
    if fetch_site in ("cross-site", "same-site"):
        return f"Sec-Fetch-Site: {fetch_site}"
    origin = headers.get(b"origin")
    if origin is None:
        return None
    text = origin.decode("latin-1")
    host = headers.get(b"host", b"").decode("latin-1").lower()
    if text == "null" or urlsplit(text).netloc.lower() != host:
        return f"Origin {text} is not this server ({host or 'no Host header'})"
    return None


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every response, and :data:`DEFAULT_CSP` where none is set."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS.items() if k not in present]
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", DEFAULT_CSP))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class ServerFaults:
    """The outermost guard: a real server fault is logged once with its traceback and answered with a
    500 JSON error (Starlette's own handler would log it a second time through the server)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            log.exception("unhandled error on %s %s", scope["method"], excerpt(scope["path"]))
            if not started:
                message = "the server failed to handle this request; it has been logged"
                await error_response(500, "internal_error", message)(scope, receive, send)
