"""The saved-games endpoints: ``/api/v1/devices``, ``/api/v1/games…`` and ``/api/v1/stats``.

Every games endpoint needs ``Authorization: Bearer <device token>`` and sees only that device's games: a
game of another device answers 404 exactly like one that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Response
from fastapi.responses import JSONResponse

from api.core.saved_games import (
    GameIn,
    GameNotFound,
    GamePatch,
    TooManyGames,
    export_document,
    import_records,
    new_device_token,
    owner_of,
    scored_record,
)
from api.storage.game_store import DeviceFull, GameStore

Auth = Annotated[
    str | None, Header(description="'Bearer <device token>' (POST /api/v1/devices makes a token)")
]


def games_router(store: GameStore, max_games: int) -> APIRouter:
    """The routes, reading and writing games in ``store``; a device keeps at most ``max_games``."""

    def add(owner: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # The limit is checked in the insert's transaction (concurrent saves cannot all pass it).
        try:
            return store.add_many(owner, records, max_games)
        except DeviceFull as exc:
            raise TooManyGames(str(exc)) from None

    # Read endpoints answer with JSONResponse: validating a 10 000-game export against a model costs more
    # than the query.
    router = APIRouter(prefix="/api/v1", tags=["games"])

    @router.post("/devices", status_code=201)
    def new_device() -> dict[str, str]:
        """A new random device token. Keep it: it is the only key to the games saved with it."""
        return {"device_token": new_device_token()}

    @router.post("/games", status_code=201)
    def save_game(body: GameIn, authorization: Auth = None) -> dict[str, Any]:
        """Score the city (as ``/score`` does) and save the game with its label, players and time."""
        owner = owner_of(authorization)
        return add(owner, [scored_record(body)])[0]

    @router.get("/games")
    def list_games(
        authorization: Auth = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    ) -> JSONResponse:
        """This device's games, newest first (without breakdowns), and how many there are in all."""
        page = store.page(owner_of(authorization), limit, offset)
        return JSONResponse({"games": page.games, "count": page.count, "limit": limit, "offset": offset})

    @router.get("/games/export")
    def export_games(authorization: Auth = None) -> JSONResponse:
        """Every game of this device, with its breakdown, as one JSON document (see ``/games/import``)."""
        return JSONResponse(export_document(store.export(owner_of(authorization))))

    @router.post("/games/import", status_code=201)
    def import_games(
        document: Annotated[dict[str, Any], Body()], authorization: Auth = None
    ) -> dict[str, Any]:
        """Add the games of an export document to this device (each scored again; all or none)."""
        owner = owner_of(authorization)
        records = import_records(document)
        saved = add(owner, records)
        return {"imported": len(saved), "ids": [g["id"] for g in saved]}

    @router.get("/games/{game_id}")
    def get_game(game_id: str, authorization: Auth = None) -> dict[str, Any]:
        """One game of this device, with its city and breakdown."""
        return _found(store.get(owner_of(authorization), game_id), game_id)

    @router.patch("/games/{game_id}")
    def change_game(game_id: str, body: GamePatch, authorization: Auth = None) -> dict[str, Any]:
        """Change a game's label, players or time of play."""
        return _found(store.update(owner_of(authorization), game_id, body.changes()), game_id)

    @router.delete("/games/{game_id}", status_code=204)
    def delete_game(game_id: str, authorization: Auth = None) -> Response:
        """Delete one game of this device."""
        if not store.delete(owner_of(authorization), game_id):
            raise GameNotFound(f"no game with id {game_id!r} on this device")
        return Response(status_code=204)

    @router.get("/stats")
    def stats(authorization: Auth = None) -> JSONResponse:
        """This device's statistics: per game overall and per combination of scoring cards (games, won,
        mean, best, worst), and per card how many games and won games it was in."""
        return JSONResponse(store.stats(owner_of(authorization)))

    return router


def _found(game: dict[str, Any] | None, game_id: str) -> dict[str, Any]:
    if game is None:
        raise GameNotFound(f"no game with id {game_id!r} on this device")
    return game
