"""Saved games in the database: add, list, read, change and delete one device's games, and their statistics.

Every call takes the ``owner`` (the SHA-256 of a device token, see :mod:`api.games`) and only ever touches
that owner's rows, so a game id alone never reaches another device's game. ``owner=None`` (the CLI's view
of the whole database) is allowed only where a function says so.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, case, delete, func, insert, select, update

from api.storage import aware, games, new_id, now

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


@dataclass(frozen=True)
class Page:
    """One page of a device's history (newest first) and how many games it has in all."""

    games: list[dict[str, Any]]
    count: int


class GameStore:
    """Games on ``engine``, each row belonging to one owner."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, owner: str, record: dict[str, Any]) -> dict[str, Any]:
        """Store a scored game (the columns of :data:`api.storage.games` but id, owner and timestamps)."""
        return self.add_many(owner, [record])[0]

    def add_many(self, owner: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store several games in one transaction (an import): all of them or none."""
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
            with self.engine.begin() as conn:
                conn.execute(insert(games), rows)
        return [_public(row) for row in rows]

    def page(self, owner: str | None, limit: int = 50, offset: int = 0) -> Page:
        """Games newest first; ``owner=None``: every device's (the CLI reading its own database)."""
        where = _mine(owner)
        query = select(*SUMMARY_COLUMNS).where(where).order_by(games.c.played_at.desc(), games.c.id)
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
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(_one(owner, game_id)).values(**values, updated_at=now()))
        return self.get(owner, game_id) if done.rowcount else None

    def delete(self, owner: str, game_id: str) -> bool:
        """Delete one of this owner's games; False when there is none with that id."""
        with self.engine.begin() as conn:
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
            rows = conn.execute(query).mappings().all()
        return _summarise(rows)


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
    sections: dict[str, dict[str, Any]] = {}
    totals: dict[str, dict[str, int]] = defaultdict(lambda: {"games": 0, "won": 0, "sum": 0})
    best: dict[str, int] = {}
    worst: dict[str, int] = {}
    per_card: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for r in rows:
        game = r["game"]
        section = sections.setdefault(game, {"game": game, "combinations": []})
        n, w = int(r["games"]), int(r["won"] or 0)
        cards = [int(c) if c.isdigit() else c for c in r["combo"].split()]
        section["combinations"].append({"cards": cards, **_line(n, w, int(r["sum"]), r["best"], r["worst"])})
        t = totals[game]
        t["games"], t["won"], t["sum"] = t["games"] + n, t["won"] + w, t["sum"] + int(r["sum"])
        best[game] = max(best.get(game, r["best"]), r["best"])
        worst[game] = min(worst.get(game, r["worst"]), r["worst"])
        for card in cards:
            entry = per_card[game].setdefault(str(card), {"card": card, "games": 0, "won": 0})  # type: ignore[dict-item]
            entry["games"] += n
            entry["won"] += w
    out = []
    for game, section in sorted(sections.items()):
        t = totals[game]
        section["overall"] = _line(t["games"], t["won"], t["sum"], best[game], worst[game])
        section["combinations"].sort(key=lambda c: (-c["games"], str(c["cards"])))
        section["cards"] = sorted(
            per_card[game].values(),
            key=lambda c: (-c["won"], -c["games"], len(str(c["card"])), str(c["card"])),
        )
        out.append(section)
    return {"games": sum(t["games"] for t in totals.values()), "sections": out}


def _line(n: int, won: int, total: int, best: int, worst: int) -> dict[str, Any]:
    return {"games": n, "won": won, "mean": round(total / n, 2), "best": int(best), "worst": int(worst)}
