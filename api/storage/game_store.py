"""Saved games in the database: add, list, read, change and delete one device's games, and their statistics.

Every call takes the ``owner`` (the SHA-256 of a device token, see :mod:`api.core.saved_games`) and only
ever touches that owner's rows, so a game id alone never reaches another device's game. ``owner=None``
(the CLI's view of the whole database) is allowed only where a function says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, and_, case, delete, false, func, insert, select, text, update

from api.storage.tables import aware, games, new_id, now
from api.storage.write_check import writing

# What a history row shows; the breakdown, city and options only come with one game.
SUMMARY_COLUMNS = (
    games.c.id,
    games.c.game,
    games.c.cards,
    games.c.expansions,
    games.c.variant,
    games.c.total,
    games.c.target,
    games.c.won,
    games.c.played_at,
    games.c.label,
    games.c.players,
)
EDITABLE = ("label", "players", "played_at")


class DeviceFull(Exception):
    """Storing the games would take a device past its limit (the service answers 409)."""

    def __init__(self, have: int, limit: int) -> None:
        super().__init__(
            f"this device has {have} saved games and may keep {limit}: delete or export some first"
        )
        self.have = have
        self.limit = limit


@dataclass(frozen=True)
class Page:
    """One page of a device's history (newest first) and how many games it has in all."""

    games: list[dict[str, Any]]
    count: int


class GameStore:
    """Games on ``engine``, each row belonging to one owner."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, owner: str, record: dict[str, Any], limit: int | None = None) -> dict[str, Any]:
        """Store a scored game (the columns of :data:`api.storage.tables.games` but id, owner, times)."""
        return self.add_many(owner, [record], limit)[0]

    def add_many(
        self, owner: str, records: list[dict[str, Any]], limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Store several games in one transaction (an import): all of them or none. With ``limit``, the
        owner's games are counted inside that transaction, under a lock that concurrent saves of the same
        owner wait for, so that saves racing each other never take it past ``limit`` (:class:`DeviceFull`)."""
        stamp = now()
        rows = [
            {
                "played_at": stamp,
                **r,
                "id": new_id(),
                "owner": owner,
                "created_at": stamp,
                "updated_at": stamp,
            }
            for r in records
        ]
        if rows:
            with writing("the game" if len(rows) == 1 else "the games"), self.engine.begin() as conn:
                if limit is not None:
                    _lock_owner(conn, owner)
                    have = int(
                        conn.execute(select(func.count()).select_from(games).where(_mine(owner))).scalar_one()
                    )
                    if have + len(rows) > limit:
                        raise DeviceFull(have, limit)
                conn.execute(insert(games), rows)
        return [_public(row) for row in rows]

    def count(self, owner: str) -> int:
        """How many games the owner has."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games).where(_mine(owner))).scalar_one())

    def page(self, owner: str | None, limit: int = 50, offset: int = 0) -> Page:
        """Games newest first; ``owner=None``: every device's (the CLI reading its own database)."""
        where = _mine(owner)
        query = select(*SUMMARY_COLUMNS).where(where).order_by(games.c.played_at.desc(), games.c.id.desc())
        with self.engine.connect() as conn:
            rows = conn.execute(query.limit(limit).offset(offset)).mappings().all()
            count = conn.execute(select(func.count()).select_from(games).where(where)).scalar_one()
        return Page([_public(dict(r)) for r in rows], int(count))

    def get(self, owner: str, game_id: str) -> dict[str, Any] | None:
        """The whole game (with its breakdown), or ``None`` when it is not this owner's."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(_one(owner, game_id))).mappings().first()
        return None if row is None else _public(dict(row))

    def update(self, owner: str, game_id: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        """Change the label, players or time of play; ``None`` when the game is not this owner's."""
        values = {k: v for k, v in changes.items() if k in EDITABLE}
        with writing("the change"), self.engine.begin() as conn:
            done = conn.execute(update(games).where(_one(owner, game_id)).values(**values, updated_at=now()))
        return self.get(owner, game_id) if done.rowcount else None

    def delete(self, owner: str, game_id: str) -> bool:
        """Delete one of this owner's games; False when there is none with that id."""
        with writing("the deletion"), self.engine.begin() as conn:
            return bool(conn.execute(delete(games).where(_one(owner, game_id))).rowcount)

    def export(self, owner: str | None) -> list[dict[str, Any]]:
        """Every game of the owner (``None``: all), oldest first, with everything stored about it."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games).where(_mine(owner)).order_by(games.c.played_at, games.c.id))
            return [_public(dict(r)) for r in rows.mappings()]

    def stats(self, owner: str | None) -> dict[str, Any]:
        """Per game: games, won, mean, best and worst score overall and per combination of scoring cards
        (goal cards in Circle the Wagons), and per card the games and won games it was in."""
        won = func.sum(case((games.c.won.is_(True), 1), else_=0))
        query = (
            select(
                games.c.game,
                games.c.combo,
                func.count().label("games"),
                won.label("won"),
                func.sum(games.c.total).label("sum"),
                func.max(games.c.total).label("best"),
                func.min(games.c.total).label("worst"),
            )
            .where(_mine(owner))
            .group_by(games.c.game, games.c.combo)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return _summarise(rows)


def _lock_owner(conn: Connection, owner: str) -> None:
    """Serialise this transaction with every other one that locks the same owner, until it ends."""
    if conn.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(owner.encode()).digest()[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
    else:
        # SQLite has one writer at a time: a write (that changes nothing) takes the database's write lock
        # before the count, so the count cannot be stale when the insert comes.
        conn.execute(update(games).where(false()).values(owner=games.c.owner))


def _mine(owner: str | None) -> Any:
    return games.c.owner == owner if owner is not None else games.c.id.is_not(None)


def _one(owner: str, game_id: str) -> Any:
    return and_(games.c.owner == owner, games.c.id == game_id)


def _public(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the API shows it: no owner hash, ISO times, the combination left out (cards say it)."""
    out = {k: v for k, v in row.items() if k not in ("owner", "combo")}
    for key in ("played_at", "created_at", "updated_at"):
        if isinstance(out.get(key), datetime):
            out[key] = aware(out[key]).isoformat()
    return out


def _summarise(rows: Any) -> dict[str, Any]:
    """Fold the per-combination rows into each game's overall line and per-card counts."""
    sections: dict[str, dict[str, Any]] = {}
    for game, combo, n, won, total, best, worst in rows:
        section = sections.get(game)
        if section is None:
            section = sections[game] = {
                "game": game,
                "combinations": [],
                "_sum": [0, 0, 0, best, worst],
                "_cards": {},
            }
        won = int(won or 0)
        cards = [int(c) if c.isdigit() else c for c in combo.split()]
        section["combinations"].append(_line(n, won, total, best, worst, cards=cards))
        acc = section["_sum"]
        acc[0] += n
        acc[1] += won
        acc[2] += total
        acc[3] = max(acc[3], best)
        acc[4] = min(acc[4], worst)
        per_card = section["_cards"]
        for card in cards:
            entry = per_card.get(card)
            if entry is None:
                entry = per_card[card] = {"card": card, "games": 0, "won": 0}
            entry["games"] += n
            entry["won"] += won
    out = []
    for game in sorted(sections):
        section = sections[game]
        section["overall"] = _line(*section.pop("_sum"))
        section["combinations"].sort(key=lambda c: (-c["games"], c["cards"]))  # one game: all int or all str
        section["cards"] = sorted(
            section.pop("_cards").values(), key=lambda c: (-c["won"], -c["games"], c["card"])
        )
        out.append(section)
    return {"games": sum(s["overall"]["games"] for s in out), "sections": out}


def _line(n: int, won: int, total: int, best: int, worst: int, **extra: Any) -> dict[str, Any]:
    line = {"games": n, "won": won, "mean": round(total / n, 2), "best": best, "worst": worst}
    return {**extra, **line}
