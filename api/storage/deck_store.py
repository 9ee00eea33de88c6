"""Taught decks in the database: one per device (its owner key) and game, each replaced by a new teaching
of its game and removable on its own, so a device that plays both games keeps both decks.

The row holds the ``.deck`` file (the prototypes, see :mod:`vision.deck`), its game and the cards the
teaching found; nothing else of the player's photo is kept. Rows from before decks were kept per game are
Sprawlopolis's unless their file records another game (migration ``0003``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, insert, select

from api.storage.tables import aware, decks, now
from api.storage.write_check import writing


@dataclass(frozen=True)
class StoredDeck:
    """A device's taught deck of one game: the ``.deck`` file's bytes, the cards found and when it was
    taught."""

    deck: bytes
    cards: list[dict[str, Any]]
    created: datetime
    game: str

    def summary(self) -> dict[str, Any]:
        """What the page lists of a kept deck: its game, when it was taught and its size."""
        return {"game": self.game, "taught_at": self.created.isoformat(), "bytes": len(self.deck)}

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, **self.summary()}


class DeckStore:
    """Taught decks on ``engine``, one per owner and game."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def put(self, owner: str, deck: bytes, cards: list[dict[str, Any]], game: str) -> StoredDeck:
        """Keep ``deck`` as the owner's taught deck of ``game``, replacing any earlier one of that game (in
        one transaction); the other game's deck stays."""
        stamp = now()
        mine = (decks.c.owner == owner) & (decks.c.game == game)
        with writing("the taught deck"), self.engine.begin() as conn:
            conn.execute(delete(decks).where(mine))
            row = {"owner": owner, "game": game, "deck": deck, "cards": cards, "created_at": stamp}
            conn.execute(insert(decks).values(**row))
        return StoredDeck(deck, cards, stamp, game)

    def get(self, owner: str, game: str) -> StoredDeck | None:
        """The owner's taught deck of ``game``, or ``None``."""
        mine = (decks.c.owner == owner) & (decks.c.game == game)
        with self.engine.connect() as conn:
            r = conn.execute(select(decks).where(mine)).mappings().first()
        return None if r is None else StoredDeck(r["deck"], r["cards"], aware(r["created_at"]), r["game"])

    def kept(self, owner: str) -> list[StoredDeck]:
        """Every deck the owner keeps, the most recently taught first (at most one per game)."""
        query = select(decks).where(decks.c.owner == owner).order_by(decks.c.created_at.desc(), decks.c.game)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [StoredDeck(r["deck"], r["cards"], aware(r["created_at"]), r["game"]) for r in rows]

    def delete(self, owner: str, game: str) -> bool:
        """Remove the owner's taught deck of ``game`` (the other game's stays); False when it had none."""
        mine = (decks.c.owner == owner) & (decks.c.game == game)
        with writing("the deck's removal"), self.engine.begin() as conn:
            return bool(conn.execute(delete(decks).where(mine)).rowcount)
