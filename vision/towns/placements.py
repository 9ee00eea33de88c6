"""Where a Circle the Wagons card lies in a town: its number, its turn and its top-left cell; and a town
laid from such placements (later ones on top), as the rules play it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.wagons.cards import CARDS, CardGrid, card_grid
from scoring.wagons.town import Territory

__all__ = ["TownPlacement", "connected", "deck_grids", "lay_town"]


@dataclass(frozen=True)
class TownPlacement:
    """One card in the town: its number (``scoring.wagons.cards``), whether it lies turned by 180°, and
    the lattice cell of its top-left territory as it lies."""

    card: int
    rotated: bool
    row: int
    col: int

    def cells(self, deck: Mapping[int, CardGrid] | None = None) -> list[tuple[tuple[int, int], Territory]]:
        """The card's four cells with the territory each shows, TL, TR, BL, BR as it lies."""
        (tl, tr), (bl, br) = (
            card_grid(self.card, self.rotated) if deck is None else _turned(deck[self.card], self.rotated)
        )
        r, c = self.row, self.col
        return [((r, c), tl), ((r, c + 1), tr), ((r + 1, c), bl), ((r + 1, c + 1), br)]


def _turned(grid: CardGrid, rotated: bool) -> CardGrid:
    (tl, tr), (bl, br) = grid
    return ((br, bl), (tr, tl)) if rotated else grid


def deck_grids() -> dict[int, CardGrid]:
    """The 18 cards as they lie unturned, ``((TL, TR), (BL, BR))``."""
    return {n: card_grid(n) for n in CARDS}


def lay_town(placements: Sequence[TownPlacement]) -> dict[tuple[int, int], tuple[Territory, int]]:
    """The cells a town laid card by card shows (each later card on top of the earlier ones), each with
    the card showing it.

    >>> shown = lay_town([TownPlacement(0, False, 0, 0), TownPlacement(1, True, 1, 1)])
    >>> shown[(0, 0)], shown[(1, 1)]
    ((Territory(terrain='P', icon='c'), 0), (Territory(terrain='M', icon='w'), 1))
    """
    shown: dict[tuple[int, int], tuple[Territory, int]] = {}
    for placement in placements:
        for rc, territory in placement.cells():
            shown[rc] = (territory, placement.card)
    return shown


def connected(placements: Sequence[TownPlacement]) -> bool:
    """Whether the cards form one town: each touches another by overlapping it or along a side (the
    rules forbid a card that meets the town at a corner only, or not at all).

    >>> connected([TownPlacement(0, False, 0, 0), TownPlacement(1, False, 2, 1)])
    True
    >>> connected([TownPlacement(0, False, 0, 0), TownPlacement(1, False, 2, 2)])
    False
    """
    if not placements:
        return True
    seen, todo = {0}, [0]
    while todo:
        a = placements[todo.pop()]
        for j, b in enumerate(placements):
            dr, dc = abs(a.row - b.row), abs(a.col - b.col)
            if j not in seen and max(dr, dc) <= 2 and min(dr, dc) <= 1:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(placements)
