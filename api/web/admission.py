"""Admission of the heavy uploads (scans and decks): how many may be in flight, and how many of their bytes.

A size declared in ``Content-Length`` costs nothing until the bytes come: a client that declares 25 MB and
trickles holds only what it has sent, so slow clients cannot fill the budget that honest uploads need.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.requests import Request

__all__ = ["Admission", "counted"]


class Admission:
    """The heavy uploads in flight (scans and decks), admitted by the bytes they have actually sent: at
    most ``max_uploads`` at once; the bytes received by all of them stay within ``max_bytes`` and those of
    one client (its address) within ``max_client_bytes``, else 503 ``busy`` (at the chunk that would pass
    it). The bytes are held until the upload's scan is done."""

    def __init__(self, max_uploads: int, max_bytes: int, max_client_bytes: int) -> None:
        self.max_uploads = max_uploads
        self.max_bytes = max_bytes
        self.max_client_bytes = max_client_bytes
        self.uploads = 0
        self.bytes = 0
        self.by_client: dict[str, int] = {}

    def of(self, request: Request) -> AbstractAsyncContextManager[Callable[[int], None]]:
        """Admit ``request``'s upload, counted against its client's address (see :meth:`__call__`)."""
        return self(request.client.host if request.client else "")

    @asynccontextmanager
    async def __call__(self, client: str) -> AsyncIterator[Callable[[int], None]]:
        """Admit one upload of ``client``; yields ``take(n)``, to call as each chunk of ``n`` bytes comes
        (:func:`counted` does)."""
        from api.web.error_handlers import ServiceBusy

        if self.uploads >= self.max_uploads:
            raise ServiceBusy(f"the server is handling {self.uploads} uploads; try again in a moment")
        self.uploads += 1
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
            self.bytes -= held
            left = self.by_client.pop(client, 0) - held
            if left:
                self.by_client[client] = left


async def counted(stream: AsyncIterator[bytes], take: Callable[[int], None]) -> AsyncIterator[bytes]:
    """``stream``, each chunk counted by ``take`` (an :class:`Admission`'s) before it is passed on."""
    async for chunk in stream:
        take(len(chunk))
        yield chunk
