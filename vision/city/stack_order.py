"""What two overlapping cards say about the cells they share: which lies on top rests on the readings of
those cells, and where that is close, a cell could show the other card's block (the ``order`` source of
:mod:`vision.city.doubt`). Also the plain-words label of a reading and its weights, which both use."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scoring.city import EMPTY, block
from vision.cards import CardReading, Label, covering
from vision.cells import CellReading, Grid

__all__ = ["StackOrder", "label_text", "reading_weights", "stack_orders"]


def label_text(zone: str | None, road: str | None) -> str:
    """A (zone, road) as the city format writes it (``C:NE``, ``P``, ``.``)."""
    return (EMPTY if zone is None else block(zone, road)).token()


def reading_weights(reading: CellReading) -> dict[Label, float]:
    """The classifier's probability of each (zone, road), or of its ranked options where it kept no
    distribution."""
    return dict(reading.distribution) or {o[:2]: o[2] for o in reading.options}


@dataclass(frozen=True)
class StackOrder:
    """Another card over a cell, whose block there would show were it on top (see :func:`stack_orders`)."""

    nats: float  # how much more probable the reading makes the top card's block than this one
    label: str
    card: int
    top: int


def _log_ratio(reading: CellReading | None, a: Label, b: Label) -> float:
    if reading is None:
        return 0.0
    weights = reading_weights(reading)
    return math.log(max(weights.get(a, 0.0), 1e-9)) - math.log(max(weights.get(b, 0.0), 1e-9))


def stack_orders(as_cards: CardReading, photographed: Grid | None) -> dict[tuple[int, int], StackOrder]:
    """Per cell a card shows (grid of the readings): the likeliest other card over it with a block of the
    same zone and another road there, and how much less likely the readings make that card on top.

    Putting the other card on top changes every cell where both lie and the top one shows, so the cost
    is summed over those cells, in the colour-corrected readings and in the readings as photographed,
    and the smaller of the two kept (another look at the same pixels that finds the swap likelier is
    reason enough to doubt it)."""
    if not as_cards.used or as_cards.before is None:
        return {}
    shown = as_cards.decoding.cells
    shared: dict[tuple[int, int], list[tuple[tuple[int, int], Label, Label]]] = {}
    for rc, cards_over in covering(as_cards.decoding.placements).items():
        d = shown.get(rc)
        if d is None or d.source != "card":
            continue
        for card, label in cards_over:
            if card != d.card and label != d.label:
                shared.setdefault((d.card, card), []).append((rc, d.label, label))
    views = [g for g in (as_cards.before, photographed) if g is not None]
    out: dict[tuple[int, int], StackOrder] = {}
    for (top, under), where in shared.items():
        nats = min(sum(_log_ratio(_at(g, rc), a, b) for rc, a, b in where) for g in views)
        for rc, a, b in where:
            if a[0] == b[0] and (rc not in out or nats < out[rc].nats):
                out[rc] = StackOrder(nats, label_text(*b), under, top)
    return out


def _at(grid: Grid | None, rc: tuple[int, int]) -> CellReading | None:
    if grid is None or not 0 <= rc[0] < len(grid) or not 0 <= rc[1] < len(grid[rc[0]]):
        return None
    return grid[rc[0]][rc[1]]
