"""The taught-deck endpoints: ``/api/v1/deck`` (teach with POST, look with GET, remove with DELETE).

A device teaches the scanner its own cards by uploading one photo of the 18 cards face up in a grid (or
two, in fields ``image`` and ``image2``, for a big table); the answer is the assignment the player should
check (each card's place, number and turn). The taught deck is kept with the device's games (its owner
key, :mod:`api.storage_decks`) and every later scan sent with that device token reads with it, until it
is removed or taught again. Teaching is as heavy as a scan, so it shares the scans' upload limits and
worker threads.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Request, Response

from api.errors import ServiceBusy
from api.games import owner_of
from api.service import ScannerUnavailable
from api.service_errors import ServiceError
from api.settings import Settings
from api.storage_decks import DeckStore
from api.uploads import read_scan_form

DECK_PATH = "/api/v1/deck"
Auth = Annotated[
    str | None, Header(description="'Bearer <device token>' (POST /api/v1/devices makes a token)")
]


class DeckNotFound(ServiceError):
    code = "deck_not_found"
    status = 404


def deck_router(
    store: DeckStore,
    settings: Settings,
    limiter: anyio.CapacityLimiter,
    admit: Callable[[int], Any],
) -> APIRouter:
    """The routes, keeping decks in ``store``; ``admit(bytes)`` is the scans' admission (an async context
    manager that refuses with 503 when too many uploads are in flight)."""
    router = APIRouter(prefix="/api/v1", tags=["deck"])

    @router.post("/deck", status_code=201)
    async def teach(request: Request, authorization: Auth = None) -> dict[str, Any]:
        """Teach the scanner this device's deck from a photo of the 18 cards face up in a grid (field
        ``image``; a second photo in ``image2``). 422 names the cards missing, doubled or unreadable."""
        owner = owner_of(authorization)
        limit = 2 * settings.max_upload_bytes
        async with admit(limit):
            form = await read_scan_form(
                request.headers.get("content-type"),
                request.headers.get("content-length"),
                request.stream(),
                max_body_bytes=limit,
                max_parts=4,
                image_fields=("image", "image2"),
            )
            photos = [form.image, *form.more.values()]
            del form
            teaching = await anyio.to_thread.run_sync(_teach, photos, limiter=limiter)
        cards = [c.to_json() for c in teaching.cards]
        stored = await anyio.to_thread.run_sync(store.put, owner, teaching.deck.to_bytes(), cards)
        return {**stored.to_json(), "grid": teaching.describe(), "seconds": round(teaching.seconds, 2)}

    @router.get("/deck")
    def get_deck(authorization: Auth = None) -> dict[str, Any]:
        """This device's taught deck: the cards it was taught from and when (404 when it has none)."""
        stored = store.get(owner_of(authorization))
        if stored is None:
            raise DeckNotFound("this device has no taught deck (POST a photo of the deck to teach one)")
        return stored.to_json()

    @router.delete("/deck", status_code=204)
    def delete_deck(authorization: Auth = None) -> Response:
        """Remove this device's taught deck: its scans read as before it was taught."""
        if not store.delete(owner_of(authorization)):
            raise DeckNotFound("this device has no taught deck")
        return Response(status_code=204)

    return router


def _teach(photos: list[bytes]) -> Any:
    try:
        from vision.deck_teach import teach_deck
    except ImportError as exc:
        raise ScannerUnavailable("the photo scanner is not available in this build") from exc
    names = ["deck photo"] if len(photos) == 1 else [f"deck photo {k + 1}" for k in range(len(photos))]
    return teach_deck(photos, names=names)


def deck_of(store: DeckStore, authorization: str | None) -> Any:
    """The taught deck of the device that sent a scan, or ``None`` (no token, or no deck taught)."""
    if not authorization:
        return None
    stored = store.get(owner_of(authorization))
    if stored is None:
        return None
    from vision.deck import load_deck

    return load_deck(stored.deck, name="the device's taught deck")


def admission(settings: Settings, pending: dict[str, int]) -> Callable[[int], Any]:
    """The scans' admission for another heavy upload: reserve ``bytes`` (and one upload) or refuse."""

    @asynccontextmanager
    async def admit(reserved: int) -> AsyncIterator[None]:
        if (
            pending["scans"] >= settings.max_pending_scans
            or pending["bytes"] + reserved > settings.max_pending_bytes
        ):
            raise ServiceBusy(f"the server is handling {pending['scans']} uploads; try again in a moment")
        pending["scans"] += 1
        pending["bytes"] += reserved
        try:
            yield
        finally:
            pending["scans"] -= 1
            pending["bytes"] -= reserved

    return admit


__all__ = ["DECK_PATH", "DeckNotFound", "admission", "deck_of", "deck_router"]
