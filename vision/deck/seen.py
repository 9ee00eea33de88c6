"""The cards a teaching found, as the player checks them: where each lay (photo, card row, card column),
what it was taken for (one of the 18 with its turn, or an expansion card), and the grid they are shown as."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["EXTRA_SHORT", "CardSeen", "card_from_meta", "describe", "name_of", "place_name"]


# How an expansion card is shown in the grid and on the overlay.
EXTRA_SHORT = {"wrecktar": "W", "poi": "POI", "construction": "CZ"}


@dataclass(frozen=True)
class CardSeen:
    """One card of the deck photos: its place (card row and column in photo ``photo``), the layout it was
    given and its turn (``card`` None for an expansion card, ``extra`` its kind), how well its blocks fit
    that layout (mean log-probability per block; None once the player corrected it), the classifier's
    labels of its four blocks as it lay (TL, TR, BL, BR) and its outline (TL, TR, BR, BL as fractions of
    the photo's width and height)."""

    row: int
    col: int
    card: int | None
    rotated: bool
    fit: float | None = None
    photo: int = 0
    extra: str | None = None
    read: tuple[str, ...] = ()
    outline: tuple[tuple[float, float], ...] | None = None

    @property
    def place(self) -> tuple[int, int, int]:
        return (self.photo, self.row, self.col)

    def label(self) -> str:
        """``7``, ``7r`` (card 7 turned by 180°), the expansion's short name (``W``, ``POI``, ``CZ``) or
        ``-`` (a place the player said holds no card, in a Circle the Wagons deck)."""
        if self.extra is not None:
            return EXTRA_SHORT[self.extra]
        if self.card is None:
            return "-"
        return f"{self.card}{'r' if self.rotated else ''}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "photo": self.photo,
            "row": self.row,
            "col": self.col,
            "card": self.card,
            "rotated": self.rotated,
            "extra": self.extra,
        }
        if self.outline is not None:
            out["outline"] = [list(p) for p in self.outline]
        return out

    def to_meta(self) -> dict[str, Any]:
        """What the deck file keeps of the card."""
        return {**self.to_json(), "fit": self.fit, "read": list(self.read)}


def place_name(place: tuple[int | None, int, int]) -> str:
    """A card's place as the player counts it: ``photo 2 row 1 card 3`` (no photo for one photo)."""
    photo = "" if place[0] is None else f"photo {place[0] + 1} "
    return f"{photo}row {place[1] + 1} card {place[2] + 1}"


def name_of(seen: Sequence[CardSeen], card: CardSeen) -> str:
    many = len({c.photo for c in seen}) > 1
    return place_name((card.photo if many else None, card.row, card.col))


def describe(seen: Sequence[CardSeen]) -> str:
    """The cards as a grid of labels per photo (``7r``: card 7 turned by 180°; ``W``: Wrecktar)."""
    out = []
    photos = sorted({c.photo for c in seen})
    for photo in photos:
        cards = [c for c in seen if c.photo == photo]
        rows = max(c.row for c in cards) + 1
        cols = max(c.col for c in cards) + 1
        grid = [["  . "] * cols for _ in range(rows)]
        for c in cards:
            text = c.label()
            grid[c.row][c.col] = f"{text[:-1]:>3}r" if text.endswith("r") else f"{text:>3} "
        if len(photos) > 1:
            out.append(f"photo {photo + 1}:")
        out += [" ".join(row).rstrip() for row in grid]
    return "\n".join(out)


def card_from_meta(m: dict[str, Any]) -> CardSeen:
    outline = m.get("outline")
    return CardSeen(
        m["row"],
        m["col"],
        m["card"],
        m["rotated"],
        m.get("fit"),
        m["photo"],
        m.get("extra"),
        tuple(m.get("read", ())),
        tuple((float(x), float(y)) for x, y in outline) if outline is not None else None,
    )
