"""The three goal cards that compare two towns: One Too Many, Claim Jumpers, Smalltown Charm.

Each takes the two sides' :class:`Holdings` (a grid :class:`~scoring.wagons.town.Town` or an opponent
:class:`~scoring.wagons.pile.Pile`; only counts matter) and returns both sides' points with the reason.
"Player" is the town being scored; "opponent" is the other town or the Lone Cowboy pile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol


class Holdings(Protocol):
    """What a two-town card reads of a side: its icon and territory counts."""

    @property
    def n_territories(self) -> int: ...

    def icon_counts(self) -> Counter[str]: ...


@dataclass(frozen=True)
class DuelScore:
    """Both sides' points from one two-town card, and a detail naming the counts compared."""

    player: int
    opponent: int
    detail: str


def one_too_many(player: Holdings, opponent: Holdings, *, opponent_can_lose: bool = True) -> DuelScore:
    """The side with strictly more Beers loses 1 per Beer the other side has; equal counts cost nothing.

    ``opponent_can_lose=False`` is Out-Drink the Competition's "cannot lose points from One Too Many".
    """
    mine, theirs = player.icon_counts()["b"], opponent.icon_counts()["b"]
    counts = f"Beers: you {mine}, opponent {theirs}"
    if mine > theirs:
        return DuelScore(-theirs, 0, f"{counts}; you have more, −1 per opponent Beer")
    if theirs > mine:
        if not opponent_can_lose:
            return DuelScore(0, 0, f"{counts}; the opponent has more but cannot lose points from this card")
        return DuelScore(0, -mine, f"{counts}; the opponent has more, −1 per Beer of yours")
    return DuelScore(0, 0, f"{counts}; equal, nobody has the most")


def claim_jumpers(player: Holdings, opponent: Holdings, *, opponent_extra_guns: int = 0) -> DuelScore:
    """The side with strictly more Mines gains 9; if the other side has strictly more Guns, 5 of those 9
    go to it instead. ``opponent_extra_guns`` is Gold Rush's "opponent starts with 2 Guns"."""
    p_icons, o_icons = player.icon_counts(), opponent.icon_counts()
    p_mines, o_mines = p_icons["m"], o_icons["m"]
    p_guns, o_guns = p_icons["g"], o_icons["g"] + opponent_extra_guns
    extra = f" (incl. {opponent_extra_guns} to start)" if opponent_extra_guns else ""
    counts = f"Mines: you {p_mines}, opponent {o_mines}; Guns: you {p_guns}, opponent {o_guns}{extra}"
    if p_mines > o_mines:
        if o_guns > p_guns:
            return DuelScore(4, 5, f"{counts}; you have more Mines, the opponent more Guns: 4 / 5")
        return DuelScore(9, 0, f"{counts}; you have more Mines: 9")
    if o_mines > p_mines:
        if p_guns > o_guns:
            return DuelScore(5, 4, f"{counts}; the opponent has more Mines, you more Guns: 5 / 4")
        return DuelScore(0, 9, f"{counts}; the opponent has more Mines: 9 to them")
    return DuelScore(0, 0, f"{counts}; equal Mines, nobody gains")


def smalltown_charm(player: Holdings, opponent: Holdings) -> DuelScore:
    """The side with fewer territories gains the difference; equal sizes gain nothing."""
    mine, theirs = player.n_territories, opponent.n_territories
    counts = f"territories: you {mine}, opponent {theirs}"
    if mine < theirs:
        return DuelScore(theirs - mine, 0, f"{counts}; yours is smaller by {theirs - mine}")
    if theirs < mine:
        return DuelScore(0, mine - theirs, f"{counts}; the opponent's is smaller by {mine - theirs}")
    return DuelScore(0, 0, f"{counts}; equal")
