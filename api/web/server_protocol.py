"""uvicorn's HTTP/1.1 protocol with a deadline on the request headers.

uvicorn has no such deadline: a client that opens a connection and sends nothing, or trickles its headers a
byte at a time, keeps the connection (and, behind a proxy that forwards early, a slot) forever; its
keep-alive timeout only runs between requests and is reset by every byte. Here the request line and headers
must be complete within ``header_timeout_s`` of the connection opening (or of the first byte of the next
request on a kept-alive connection); otherwise the client gets a 408 JSON error and the connection closes.
The body's own deadline is kept by :class:`api.web.guards.BodyGuard`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from api.web.settings import Settings

log = logging.getLogger("sprawlscan.api")


class HeaderDeadlineProtocol(H11Protocol):
    """:class:`H11Protocol` enforcing :attr:`header_timeout_s` (``SPRAWLSCAN_HEADER_TIMEOUT_S``); a
    module-level class, so that uvicorn can hand it to ``--workers`` processes."""

    _header_timer: asyncio.TimerHandle | None = None

    @property
    def header_timeout_s(self) -> float:
        return _header_timeout_s()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is None and not self._in_request():
            self._arm()  # the first byte of a further request on a kept-alive connection
        super().data_received(data)
        if self._in_request():
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self._in_request():
            return
        timeout = self.header_timeout_s
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        log.info("client fault: %s sent no complete headers within %g s: 408", client, timeout)
        message = f"the request headers did not arrive within {timeout:g} s"
        body = json.dumps({"error": {"code": "request_timeout", "message": message}}).encode()
        # Written as bytes: h11 cannot answer a request whose headers it has not seen.
        head = (
            "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


@functools.cache
def _header_timeout_s() -> float:
    # Read on the first connection, not at import: `sprawlscan serve` checks the settings first, in one line.
    return Settings.from_env().header_timeout_s


def server_options() -> dict[str, Any]:
    """uvicorn settings of this service: the header deadline and a short keep-alive."""
    return {"http": HeaderDeadlineProtocol, "timeout_keep_alive": 5}
