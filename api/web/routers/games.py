"""The saved-games endpoints: ``/api/v1/devices``, ``/api/v1/games…`` and ``/api/v1/stats``.

Every games endpoint needs ``Authorization: Bearer <device token>``, a token this service issued, and sees
only that device's games: a game of another device answers 404 exactly like one that does not exist. A
token is issued by ``POST /api/v1/devices``, at most ``max_devices_per_client`` to one client address in
``device_window_s`` (429 ``too_many_devices`` past it), which bounds what one address can store: that many
devices of ``max_games_per_device`` games each. Saving and importing score the games again, on the JSON
requests' worker (:class:`api.web.admission.JsonWork`), never on the event loop's threads.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.responses import JSONResponse

from api.core import (
    GameIn,
    GameNotFound,
    GamePatch,
    TooManyGames,
    export_document,
    import_records,
    new_device_token,
    owner_of_token,
    scored_record,
)
from api.storage import DeviceFull, GameStore, IssuanceLimit
from api.web.admission import ClientBusy, client_of
from api.web.deps import DeviceDep, DeviceStoreDep, GameStoreDep, JsonWorkDep, SettingsDep

__all__ = ["router"]

# Read endpoints answer with JSONResponse: validating a 10 000-game export against a model costs more
# than the query.
router = APIRouter(prefix="/api/v1", tags=["games"])


class TooManyDevices(ClientBusy):
    """This client address was issued as many device tokens as it may be in the window (429)."""

    code = "too_many_devices"

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


def _add(store: GameStore, owner: str, records: list[dict[str, Any]], max_games: int) -> list[dict[str, Any]]:
    # The limit is checked in the insert's transaction (concurrent saves cannot all pass it).
    try:
        return store.add_many(owner, records, max_games)
    except DeviceFull as exc:
        raise TooManyGames(str(exc)) from None


@router.post("/devices", status_code=201)
async def new_device(request: Request, devices: DeviceStoreDep) -> dict[str, str]:
    """A new random device token, recorded as issued (only issued tokens open games, decks and scans).
    Keep it: it is the only key to the games saved with it. 429 ``too_many_devices`` when this client
    address was issued its share lately (``Retry-After`` says when the next one comes)."""
    token = new_device_token()
    try:
        await anyio.to_thread.run_sync(devices.issue, owner_of_token(token), client_of(request))
    except IssuanceLimit as exc:
        raise TooManyDevices(str(exc), exc.retry_after_s) from None
    return {"device_token": token}


@router.post("/games", status_code=201)
async def save_game(
    request: Request,
    body: GameIn,
    owner: DeviceDep,
    store: GameStoreDep,
    settings: SettingsDep,
    work: JsonWorkDep,
) -> dict[str, Any]:
    """Score the city (as ``/score`` does) and save the game with its label, players and time."""
    limit = settings.max_games_per_device
    saved = await work.run(request, lambda: _add(store, owner, [scored_record(body)], limit))
    return saved[0]


@router.get("/games")
def list_games(
    owner: DeviceDep,
    store: GameStoreDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> JSONResponse:
    """This device's games, newest first (without breakdowns), and how many there are in all."""
    page = store.page(owner, limit, offset)
    return JSONResponse({"games": page.games, "count": page.count, "limit": limit, "offset": offset})


@router.get("/games/export")
def export_games(owner: DeviceDep, store: GameStoreDep) -> JSONResponse:
    """Every game of this device, with its breakdown, as one JSON document (see ``/games/import``)."""
    return JSONResponse(export_document(store.export(owner)))


@router.post("/games/import", status_code=201)
async def import_games(
    request: Request,
    document: Annotated[dict[str, Any], Body()],
    owner: DeviceDep,
    store: GameStoreDep,
    settings: SettingsDep,
    work: JsonWorkDep,
) -> dict[str, Any]:
    """Add the games of an export document to this device (each scored again; all or none; at most
    1000 games and 60 000 cells in all, else 413 ``import_too_large``)."""
    limit = settings.max_games_per_device
    saved = await work.run(request, lambda: _add(store, owner, import_records(document), limit))
    return {"imported": len(saved), "ids": [g["id"] for g in saved]}


@router.get("/games/{game_id}")
def get_game(game_id: str, owner: DeviceDep, store: GameStoreDep) -> dict[str, Any]:
    """One game of this device, with its city and breakdown."""
    return _found(store.get(owner, game_id), game_id)


@router.patch("/games/{game_id}")
def change_game(game_id: str, body: GamePatch, owner: DeviceDep, store: GameStoreDep) -> dict[str, Any]:
    """Change a game's label, players or time of play."""
    return _found(store.update(owner, game_id, body.changes()), game_id)


@router.delete("/games/{game_id}", status_code=204)
def delete_game(game_id: str, owner: DeviceDep, store: GameStoreDep) -> Response:
    """Delete one game of this device."""
    if not store.delete(owner, game_id):
        raise GameNotFound(f"no game with id {game_id!r} on this device")
    return Response(status_code=204)


@router.get("/stats")
def stats(owner: DeviceDep, store: GameStoreDep) -> JSONResponse:
    """This device's statistics: per game overall and per combination of scoring cards (games, won,
    mean, best, worst), and per card how many games and won games it was in."""
    return JSONResponse(store.stats(owner))


def _found(game: dict[str, Any] | None, game_id: str) -> dict[str, Any]:
    if game is None:
        raise GameNotFound(f"no game with id {game_id!r} on this device")
    return game
