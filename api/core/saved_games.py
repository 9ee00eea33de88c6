"""Saved games, free of HTTP: device tokens, what a saved game holds, and the JSON export format.

There are no accounts. A device (the page in one browser, or a script) keeps a random token and sends it as
``Authorization: Bearer <token>``; its games are stored under the token's SHA-256, so the database never
holds a token and a game id alone never opens another device's game. A saved game is always scored again
here: what is stored (breakdown, total, target, won or lost) is the engine's answer for the city sent.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from api.core.errors import ServiceError
from api.core.schemas import ScoreRequest
from api.core.scoring import score_request
from games import Game, GameOptionError, game_named, game_names
from scoring.errors import InputError

TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32,128}")
EXPORT_FORMAT = "sprawlscan-games"
EXPORT_VERSION = 1
MAX_IMPORT_GAMES = 1000
# The cells an import may hold in all (each game's city tokens or rows' cells): scoring costs about 30 µs
# a cell, so an import is at most ~2 s of CPU; 48 towns of 64 × 64 (196 608 cells, 4.4 s) are refused.
MAX_IMPORT_CELLS = 60_000
MAX_PLAYERS = 8


class DeviceTokenRequired(ServiceError):
    code = "device_token_required"
    status = 401


class DeviceTokenUnknown(ServiceError):
    """A well-formed token the service never issued (or one of another server's database)."""

    code = "device_token_unknown"
    status = 401


class GameNotFound(ServiceError):
    code = "game_not_found"
    status = 404


class BadImport(InputError):
    code = "bad_import"


class ImportTooLarge(ServiceError):
    """An import whose games hold more cells than one request may score: split the file."""

    code = "import_too_large"
    status = 413


class TooManyGames(ServiceError):
    code = "too_many_games"
    status = 409


def new_device_token() -> str:
    """A fresh device token (43 URL-safe characters, 256 random bits)."""
    return secrets.token_urlsafe(32)


def owner_of(authorization: str | None) -> str:
    """The owner key of a request's ``Authorization: Bearer <token>`` header (the token's SHA-256)."""
    if not authorization:
        raise DeviceTokenRequired(
            "this needs a device token: send 'Authorization: Bearer <token>' (POST /api/v1/devices makes one)"
        )
    scheme, _, token = authorization.strip().partition(" ")
    return owner_of_token(token.strip() if scheme.lower() == "bearer" else "")


def owner_of_token(token: str) -> str:
    """The owner key of a device token; refuses tokens too short to be unguessable."""
    if not TOKEN_RE.fullmatch(token):
        raise DeviceTokenRequired(
            "the device token must be 32–128 letters, digits, '-' or '_' (POST /api/v1/devices makes one)"
        )
    return hashlib.sha256(token.encode()).hexdigest()


def _in_utc(moment: datetime) -> datetime:
    """A time without a zone is read as UTC; every time is stored in UTC (SQLite keeps no zone). A time
    whose UTC falls outside the years 1–9999 (``9999-12-31T23:00-05:00``) is refused, not a server fault."""
    try:
        return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    except OverflowError:
        raise ValueError(f"{moment.isoformat()} is outside the years 1–9999 once converted to UTC") from None


UtcTime = Annotated[datetime, AfterValidator(_in_utc)]
Players = Annotated[list[Annotated[str, StringConstraints(max_length=60)]], Field(max_length=MAX_PLAYERS)]


class GameIn(ScoreRequest):
    """``POST /api/v1/games``: the city and how it was scored (as for ``/score``) plus what to remember."""

    label: str = Field("", max_length=200, description="Free text, e.g. 'Sunday at Anna's'.")
    players: Players = Field(
        default_factory=list, description="Who played (at most 8 names of 60 characters)."
    )
    played_at: UtcTime | None = Field(None, description="When it was played (default: now), ISO 8601.")
    scan_id: str | None = Field(None, max_length=32, description="The scan the city came from, if any.")


class GamePatch(BaseModel):
    """``PATCH /api/v1/games/{id}``: what may change after the game (its score may not: save it anew)."""

    model_config = ConfigDict(extra="forbid")

    label: str | None = Field(None, max_length=200)
    players: Players | None = None
    played_at: UtcTime | None = None

    def changes(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True, exclude_none=True)


def scored_record(body: GameIn) -> dict[str, Any]:
    """The row to store for a game: the request's city scored by the engine, and the request's extras."""
    breakdown = score_request(body)
    cards, won = game_named(breakdown["game"]).played_with(breakdown)
    record: dict[str, Any] = {
        "game": breakdown["game"],
        "combo": " ".join(sorted((str(c) for c in cards), key=lambda c: (len(c), c))),
        "city": breakdown["city"],
        "cards": cards,
        "expansions": list(body.expansions or []),
        "variant": body.variant,
        "options": dict(body.options),
        "breakdown": breakdown,
        "total": int(breakdown["total"]),
        "target": breakdown.get("target"),
        "won": won,
        "label": body.label,
        "players": list(body.players),
        "scan_id": body.scan_id,
    }
    if body.played_at is not None:
        record["played_at"] = body.played_at
    return record


def export_document(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON export of a device's games (what :func:`import_records` reads back)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "games": games,
    }


def import_records(document: Any) -> list[dict[str, Any]]:
    """The rows to store for an export document, each game scored again; the first bad game is named."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise BadImport(f'not a sprawlscan games export: expected an object with "format": "{EXPORT_FORMAT}"')
    if document.get("version") != EXPORT_VERSION:
        raise BadImport(
            f"export version {document.get('version')!r} is not known (this reads {EXPORT_VERSION})"
        )
    items = document.get("games")
    if not isinstance(items, list):
        raise BadImport("'games' must be a list of games")
    if len(items) > MAX_IMPORT_GAMES:
        raise BadImport(f"at most {MAX_IMPORT_GAMES} games at a time, got {len(items)}: split the file")
    bodies = []
    for i, item in enumerate(items):
        try:
            bodies.append(_game_in(item))
        except InputError as exc:
            raise BadImport(f"games[{i}]: {exc}") from None
    cells = sum(cell_count(body) for body in bodies)
    if cells > MAX_IMPORT_CELLS:
        raise ImportTooLarge(
            f"these {len(bodies)} games hold {cells:,} cells; one import scores at most "
            f"{MAX_IMPORT_CELLS:,}: split the file"
        )
    records = []
    for i, body in enumerate(bodies):
        try:
            records.append(scored_record(body))
        except InputError as exc:
            raise BadImport(f"games[{i}]: {exc}") from None
    return records


def cell_count(body: ScoreRequest) -> int:
    """The cells a game's city holds, counted before it is parsed: its ``rows``' cells, or the words of its
    text's lines but the header lines (``goals: …``, whose first word ends with a colon).

    >>> cell_count(ScoreRequest(city="cards: 8 7 17\\nR:EW  P\\nC:NS  ."))
    4
    """
    if body.rows is not None:
        return sum(len(row) for row in body.rows)
    words = (line.split() for line in (body.city or "").splitlines())
    return sum(len(w) for w in words if w and not w[0].endswith(":"))


def _game_in(item: Any) -> GameIn:
    if not isinstance(item, dict):
        raise BadImport("expected a game object")
    fields = {
        k: item[k]
        for k in (
            "game",
            "city",
            "expansions",
            "variant",
            "options",
            "label",
            "players",
            "played_at",
            "scan_id",
        )
        if item.get(k) is not None
    }
    if item.get("cards") and _game_of(item).owns("cards"):
        fields["cards"] = item["cards"]  # a game whose cards are not a choice keeps them in the options
    try:
        return GameIn(**fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "game"
        raise BadImport(f"{where}: {str(err.get('msg', 'invalid')).removeprefix('Value error, ')}") from None


def _game_of(item: dict[str, Any]) -> Game:
    """The game an exported item names (the first registered when it names none); an unknown one is a
    :class:`BadImport`."""
    try:
        return game_named(str(item.get("game") or game_names()[0]))
    except GameOptionError as exc:
        raise BadImport(f"game: {exc}") from None
