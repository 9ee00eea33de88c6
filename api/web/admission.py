"""Admission of the heavy requests: the uploads (scans and decks), how many may be in flight, how many of
them one client may hold, and how many of their bytes; and the CPU-heavy JSON requests (an import, a score,
a tally check, a saved game), how many may wait and run at once (:class:`JsonWork`).

A size declared in ``Content-Length`` costs nothing until the bytes come: a client that declares 25 MB and
trickles holds only what it has sent, so slow clients cannot fill the budget that honest uploads need. A
slow body still holds its slot until the body deadline cuts it (up to ``BODY_TIMEOUT_S``), so one client
address may hold only a small share of the slots (``max_client_uploads``): 32 connections from one address,
each trickling just above the minimum rate, used to hold every slot and turn everyone else away (issue 39).

A JSON request is small (``MAX_JSON_BYTES``) but scoring it is pure Python: an import of 48 towns of 64 × 64
cells took 4.4 s of CPU, and four of them on the request threads took 23 s, held the interpreter so that an
honest scan took 13.6 s and ``/healthz`` 1.2 s. Such requests now run on a worker thread of their own (one
by default, apart from the scans'), at most ``max_pending`` waiting or running and ``max_client`` of them
one client's; their work per request is bounded where it is read (:mod:`api.core.saved_games`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import TypeVar

import anyio
from starlette.requests import Request

__all__ = ["Admission", "ClientBusy", "ClientWorkBusy", "JsonWork", "ServiceBusy", "client_key", "counted"]

T = TypeVar("T")


class ServiceBusy(Exception):
    """Too many requests in flight: the client should retry shortly (503 ``busy``, not a client mistake)."""

    code = "busy"
    retry_after_s = 2


class ClientBusy(ServiceBusy):
    """This client (its address) already holds its share of the upload slots: 429 until one is done."""

    code = "too_many_uploads"


class ClientWorkBusy(ClientBusy):
    """This client already has its share of the JSON requests waiting or running: 429 until one is done."""

    code = "too_many_requests"


def client_of(request: Request) -> str:
    """The :func:`client_key` of the client that sent ``request``."""
    return client_key(request.client.host if request.client else "")


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
        return self(client_of(request))

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


class JsonWork:
    """The CPU-heavy JSON requests: run on ``workers`` threads of their own (a pure-Python job holds the
    interpreter, so more would only slow the event loop and the scans), at most ``max_pending`` waiting or
    running (503 ``busy`` past it) and ``max_client`` of them from one client (429 ``too_many_requests``)."""

    def __init__(self, workers: int, max_pending: int, max_client: int) -> None:
        self.limiter = anyio.CapacityLimiter(workers)
        self.max_pending = max_pending
        self.max_client = max_client
        self.pending = 0
        self.by_client: dict[str, int] = {}

    async def run(self, request: Request, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on one of these threads once one is free, counted against ``request``'s client."""
        with self._slot(client_of(request)):
            return await anyio.to_thread.run_sync(work, *args, limiter=self.limiter)

    @contextmanager
    def _slot(self, client: str) -> Iterator[None]:
        mine = self.by_client.get(client, 0)
        if mine >= self.max_client:
            raise ClientWorkBusy(
                f"this client already has {mine} requests waiting or being scored (at most {self.max_client} "
                "at once from one address); send the next when one is answered"
            )
        if self.pending >= self.max_pending:
            raise ServiceBusy(f"the server is scoring {self.pending} requests; try again in a moment")
        self.pending += 1
        self.by_client[client] = mine + 1
        try:
            yield
        finally:
            self.pending -= 1
            _drop(self.by_client, client, 1)
