"""Taught decks in the database: one per device (its owner key), replaced by a new teaching, removable.

The row holds the ``.deck`` file (the blocks' prototypes, see :mod:`vision.deck`) and the cards the
teaching found; nothing else of the player's photo is kept.
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
    """A device's taught deck: the ``.deck`` file's bytes, the cards found and when it was taught."""

    deck: bytes
    cards: list[dict[str, Any]]
    created: datetime

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "taught_at": self.created.isoformat(), "bytes": len(self.deck)}


class DeckStore:
    """Taught decks on ``engine``, one per owner."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def put(self, owner: str, deck: bytes, cards: list[dict[str, Any]]) -> StoredDeck:
        """Keep ``deck`` as the owner's taught deck, replacing any earlier one (in one transaction)."""
        stamp = now()
        with writing("the taught deck"), self.engine.begin() as conn:
            conn.execute(delete(decks).where(decks.c.owner == owner))
            conn.execute(insert(decks).values(owner=owner, deck=deck, cards=cards, created_at=stamp))
        return StoredDeck(deck, cards, stamp)

    def get(self, owner: str) -> StoredDeck | None:
        """The owner's taught deck, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(decks).where(decks.c.owner == owner)).mappings().first()
        return None if row is None else StoredDeck(row["deck"], row["cards"], aware(row["created_at"]))

    def delete(self, owner: str) -> bool:
        """Remove the owner's taught deck; False when it had none."""
        with writing("the deck's removal"), self.engine.begin() as conn:
            return bool(conn.execute(delete(decks).where(decks.c.owner == owner)).rowcount)
