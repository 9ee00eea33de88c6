"""Admission of the heavy uploads (scans and decks): how many may be in flight, how many of them one client
may hold, and how many of their bytes.

A size declared in ``Content-Length`` costs nothing until the bytes come: a client that declares 25 MB and
trickles holds only what it has sent, so slow clients cannot fill the budget that honest uploads need. A
slow body still holds its slot until the body deadline cuts it (up to ``BODY_TIMEOUT_S``), so one client
address may hold only a small share of the slots (``max_client_uploads``): 32 connections from one address,
each trickling just above the minimum rate, used to hold every slot and turn everyone else away (issue 39).
"""

from __future__ import annotations

import ipaddress
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.requests import Request

__all__ = ["Admission", "ClientBusy", "ServiceBusy", "client_key", "counted"]


class ServiceBusy(Exception):
    """Too many uploads in flight: the client should retry shortly (503, not a client mistake)."""


class ClientBusy(ServiceBusy):
    """This client (its address) already holds its share of the upload slots: 429 until one is done."""


def client_key(host: str) -> str:
    """The client an upload is counted against: its IPv4 address, or its IPv6 /64 (one network's
    prefix: a host given a /64 can use any of its 2⁶⁴ addresses).

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a test client's name, a Unix socket): counted as itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Admission:
    """The heavy uploads in flight (scans and decks): at most ``max_uploads`` at once, at most
    ``max_client_uploads`` of them from one client (:func:`client_key`; 429 past it), else 503 ``busy``;
    admitted by the bytes they have actually sent: those of all uploads stay within ``max_bytes`` and those
    of one client within ``max_client_bytes``, else 503 ``busy`` (at the chunk that would pass it). The
    slot and the bytes are held until the upload's scan is done."""

    def __init__(
        self, max_uploads: int, max_bytes: int, max_client_bytes: int, max_client_uploads: int
    ) -> None:
        self.max_uploads = max_uploads
        self.max_bytes = max_bytes
        self.max_client_bytes = max_client_bytes
        self.max_client_uploads = max_client_uploads
        self.uploads = 0
        self.bytes = 0
        self.by_client: dict[str, int] = {}
        self.uploads_by_client: dict[str, int] = {}

    def of(self, request: Request) -> AbstractAsyncContextManager[Callable[[int], None]]:
        """Admit ``request``'s upload, counted against its client's address (see :meth:`__call__`)."""
        return self(client_key(request.client.host if request.client else ""))

    @asynccontextmanager
    async def __call__(self, client: str) -> AsyncIterator[Callable[[int], None]]:
        """Admit one upload of ``client``; yields ``take(n)``, to call as each chunk of ``n`` bytes comes
        (:func:`counted` does)."""
        self._take_slot(client)
        held = 0

        def take(n: int) -> None:
            nonlocal held
            mine = self.by_client.get(client, 0)
            if self.bytes + n > self.max_bytes or mine + n > self.max_client_bytes:
                whose = "all uploads" if self.bytes + n > self.max_bytes else "this client's uploads"
                raise ServiceBusy(f"the server holds as many bytes of {whose} as it takes; try again soon")
            held += n
            self.bytes += n
            self.by_client[client] = mine + n

        try:
            yield take
        finally:
            self.uploads -= 1
            _drop(self.uploads_by_client, client, 1)
            self.bytes -= held
            _drop(self.by_client, client, held)

    def _take_slot(self, client: str) -> None:
        """One upload slot for ``client``, or the error saying whose limit is reached (the client's first:
        one client's flood is its own 429, not everyone's 503)."""
        mine = self.uploads_by_client.get(client, 0)
        if mine >= self.max_client_uploads:
            raise ClientBusy(
                f"this client already has {mine} uploads in progress (at most {self.max_client_uploads} at "
                "once from one address); send the next when one is done"
            )
        if self.uploads >= self.max_uploads:
            raise ServiceBusy(f"the server is handling {self.uploads} uploads; try again in a moment")
        self.uploads += 1
        self.uploads_by_client[client] = mine + 1


def _drop(counts: dict[str, int], client: str, n: int) -> None:
    """Take ``n`` from ``client``'s count, forgetting the client at zero (the maps stay as small as the
    clients in flight)."""
    left = counts.pop(client, 0) - n
    if left:
        counts[client] = left


async def counted(stream: AsyncIterator[bytes], take: Callable[[int], None]) -> AsyncIterator[bytes]:
    """``stream``, each chunk counted by ``take`` (an :class:`Admission`'s) before it is passed on."""
    async for chunk in stream:
        take(len(chunk))
        yield chunk
