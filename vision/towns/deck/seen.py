"""What a Circle the Wagons deck file keeps of each card found, checked when the file is read (shared by
:mod:`vision.towns.deck`, which reads the file, and :mod:`vision.towns.deck.fix`, which corrects it)."""

from __future__ import annotations

from scoring.wagons.cards import CARDS
from vision.deck import is_place_index

__all__ = ["seen_problem"]


def seen_problem(m: object) -> str | None:
    """What is wrong with one card a deck file kept (None when it is well-formed)."""
    if not isinstance(m, dict):
        return "not an object"
    for key in ("photo", "row", "col"):
        if not is_place_index(m.get(key)):
            return f"{key} {m.get(key)!r}"
    card = m.get("card")
    if (card is not None and card not in CARDS) or isinstance(card, bool) or m.get("extra") is not None:
        return f"card {card!r}"
    if not isinstance(m.get("rotated"), bool):
        return "rotated"
    read = m.get("read")
    if (
        not isinstance(read, list)
        or len(read) != 4
        or not all(isinstance(t, str) and len(t) < 8 for t in read)
    ):
        return f"territories {read!r}"
    return None
