"""The saved-games endpoints: ``/api/v1/devices``, ``/api/v1/games…`` and ``/api/v1/stats``.

Every games endpoint needs ``Authorization: Bearer <device token>`` and sees only that device's games: a
game of another device answers 404 exactly like one that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response
from fastapi.responses import JSONResponse

from api.core import (
    GameIn,
    GameNotFound,
    GamePatch,
    TooManyGames,
    export_document,
    import_records,
    new_device_token,
    scored_record,
)
from api.storage import DeviceFull, GameStore
from api.web.deps import DeviceDep, GameStoreDep, SettingsDep

__all__ = ["router"]

# Read endpoints answer with JSONResponse: validating a 10 000-game export against a model costs more
# than the query.
router = APIRouter(prefix="/api/v1", tags=["games"])


def _add(store: GameStore, owner: str, records: list[dict[str, Any]], max_games: int) -> list[dict[str, Any]]:
    # The limit is checked in the insert's transaction (concurrent saves cannot all pass it).
    try:
        return store.add_many(owner, records, max_games)
    except DeviceFull as exc:
        raise TooManyGames(str(exc)) from None


@router.post("/devices", status_code=201)
def new_device() -> dict[str, str]:
    """A new random device token. Keep it: it is the only key to the games saved with it."""
    return {"device_token": new_device_token()}


@router.post("/games", status_code=201)
def save_game(body: GameIn, owner: DeviceDep, store: GameStoreDep, settings: SettingsDep) -> dict[str, Any]:
    """Score the city (as ``/score`` does) and save the game with its label, players and time."""
    return _add(store, owner, [scored_record(body)], settings.max_games_per_device)[0]


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
def import_games(
    document: Annotated[dict[str, Any], Body()], owner: DeviceDep, store: GameStoreDep, settings: SettingsDep
) -> dict[str, Any]:
    """Add the games of an export document to this device (each scored again; all or none)."""
    saved = _add(store, owner, import_records(document), settings.max_games_per_device)
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
