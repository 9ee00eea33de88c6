"""The result of scoring: line items that each explain themselves, and their total."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Provenance = str  # "printed" or "reading" (Circle the Wagons goal lines; the spec also defines "review")


@dataclass(frozen=True)
class LineItem:
    """One line of a score breakdown.

    ``key`` is stable and machine-readable (``largest:P``, ``roads``, ``card:8``, ``wrecktar``, …);
    ``detail`` says in plain words what was counted and names the cells, so a player can check it.
    """

    key: str
    label: str
    points: int
    detail: str = ""
    cells: tuple[str, ...] = ()
    provenance: Provenance | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key,
            "label": self.label,
            "points": self.points,
            "detail": self.detail,
        }
        if self.cells:
            out["cells"] = list(self.cells)
        if self.provenance:
            out["provenance"] = self.provenance
        return out


@dataclass(frozen=True)
class Breakdown:
    """A scored city: its items, total, target and whether the players won."""

    game: str
    city: str
    cards: tuple[int, ...]
    items: tuple[LineItem, ...]
    target: int | None = None
    notes: tuple[str, ...] = field(default=())  # rulings applied, unsupported rules, missing inputs
    extra: tuple[tuple[str, Any], ...] = field(default=())  # game-specific JSON fields (e.g. opponent)

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    @property
    def won(self) -> bool | None:
        return None if self.target is None else self.total >= self.target

    def item(self, key: str) -> LineItem | None:
        return next((i for i in self.items if i.key == key), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "city": self.city,
            "cards": list(self.cards),
            "items": [i.to_json() for i in self.items],
            "total": self.total,
            "target": self.target,
            "won": self.won,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        out.update(dict(self.extra))
        return out
