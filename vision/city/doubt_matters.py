"""Which of a city's doubts a player needs to hear of: those whose other reading changes what is scored.

:func:`vision.city.doubt.find_doubts` names every cell that could reasonably be otherwise. A line "D4 read as
R:EW: if it is R:NS the total is 35" beside a total of 35 asks the player to look at a cell that changes
nothing, and such lines drown the ones that matter: the list under the score, and the red on the overlay,
keep only the alternatives that change the breakdown the player is shown (a largest group, the roads, a
scoring card's points), and a cell only while a reason to doubt it stands (two cards the other way round,
where that changes nothing scored, is no reason). With the scoring cards unknown, an alternative matters
when it changes what any of the 18 cards would score, since any three of them may be the game's. A road of
the same block that scores the same still matters where the doubt is about that very road
(:attr:`vision.city.doubt.CellDoubt.seen`): the overlay draws it, and a wrong one is a wrong reading the
player sees (a real industrial curve read straight, devset comp012 D2, was named nowhere in 13 of the 13
perturbed readings for scoring the same).

A scoring card taken from the city alone (no back read it, the player gave none) rests on every block the
decoding was given: with a doubt left in the city, a misread block may have moved a card, and following
such a suggestion scores a wrong total. :func:`unsure_city_cards` takes those cards back.
"""

from __future__ import annotations

from dataclasses import replace

from scoring.base import base_items
from scoring.cards import card_item
from scoring.city import City, cell_names, parse_cell
from scoring.errors import InputError
from scoring.placement import ALL_CARDS
from vision.backs import ScoringCards
from vision.city.doubt import MAX_ALTERNATIVES, CellDoubt

__all__ = ["doubts_that_matter", "scored_lines", "unsure_city_cards"]

Lines = tuple[tuple[str, int], ...]
# Stands in for a reason taken out of a doubt's words (no reason holds this character).
MOOT = "\0"


def scored_lines(city: City, cards: tuple[int, ...] | None) -> Lines:
    """What the player is shown of ``city``'s score: each line of the breakdown and its points (the
    largest groups, the roads and each of ``cards``, or of all 18 cards when ``cards`` is None)."""
    items = [*base_items(city), *(card_item(city, n) for n in (ALL_CARDS if cards is None else cards))]
    return tuple((item.key, item.points) for item in items)


def _changes(city: City, doubt: CellDoubt, label: str, cards: tuple[int, ...] | None, lines: Lines) -> bool:
    try:
        other = city.with_cell(doubt.row, doubt.col, parse_cell(label))
        return scored_lines(other, cards) != lines
    except InputError:  # a reading these rules cannot score: the player should look at it
        return True


def _changes_beside(
    city: City, doubt: CellDoubt, label: str, cards: tuple[int, ...] | None, doubts: tuple[CellDoubt, ...]
) -> bool:
    """Whether ``label`` changes what is scored once a doubt beside it (a side shared) is read as one of its
    alternatives, for a cell read as table: two blocks missed side by side can each change nothing alone, a
    road running through both (random city edition 37 040: a commercial curve read as table beside an
    industrial straight read as table, the latter in doubt, the former dropped for changing nothing, and
    the total wrong). Blocks read otherwise are left to their own alternatives: two overlapping cards'
    cells in doubt together (``order``) change together as the other card, which their alternatives say,
    and any road of one with any road of the other named 0.04 more right cells a reading on the devset
    (312 perturbed readings)."""
    if doubt.reading != ".":
        return False
    for near in doubts:
        if abs(near.row - doubt.row) + abs(near.col - doubt.col) != 1:
            continue
        for other in near.alternatives:
            try:
                with_near = city.with_cell(near.row, near.col, parse_cell(other))
            except InputError:
                continue
            if _changes(with_near, doubt, label, cards, scored_lines(with_near, cards)):
                return True
    return False


def doubts_that_matter(
    city: City, doubts: tuple[CellDoubt, ...], cards: tuple[int, ...] | None, seen: bool = True
) -> tuple[CellDoubt, ...]:
    """``doubts`` with only the alternatives that change :func:`scored_lines` of ``city`` (scored with
    ``cards``, or with every card when unknown), alone or with a doubt beside them read otherwise too, or
    with ``seen`` the road drawn where the doubt is about that road
    (:attr:`vision.city.doubt.CellDoubt.seen`); a doubt left with none is dropped."""
    if not doubts:
        return ()
    lines = scored_lines(city, cards)
    out = []
    for doubt in doubts:
        alternatives = tuple(
            a
            for a in doubt.alternatives
            if (seen and a in doubt.seen)
            or _changes(city, doubt, a, cards, lines)
            or _changes_beside(city, doubt, a, cards, doubts)
        )
        alternatives = alternatives[:MAX_ALTERNATIVES]  # a cell under glare comes with all its runners-up
        kept = _without_moot(doubt, alternatives) if alternatives else None
        if kept is not None:
            out.append(kept)
    return tuple(out)


def _without_moot(doubt: CellDoubt, alternatives: tuple[str, ...]) -> CellDoubt | None:
    """``doubt`` with ``alternatives`` and without its reasons that rest on an alternative no longer among
    them (:attr:`vision.city.doubt.CellDoubt.named`); None when no reason is left: a cell in doubt only
    because two cards could lie the other way round, where that changes nothing scored, is not in doubt."""
    moot = [(source, why) for source, why, alt in doubt.named if alt not in alternatives]
    if not moot:
        return replace(doubt, alternatives=alternatives)
    # Whole reasons are taken out before the rest is split: a reason may hold a "; " of its own.
    left = doubt.why
    for _, why in moot:
        left = left.replace(why, MOOT)
    reasons = [r for r in left.split("; ") if r and r != MOOT]
    if not reasons:
        return None
    sources = tuple(s for s in doubt.sources if s not in {source for source, _ in moot})
    named = tuple(n for n in doubt.named if n[0] in sources)
    return replace(doubt, alternatives=alternatives, why="; ".join(reasons), sources=sources, named=named)


def city_alone(scoring: ScoringCards) -> tuple[int, ...]:
    """The scoring cards chosen that only the city names: no back read them and the player gave none."""
    if scoring.cards is None or scoring.source == "given":
        return ()
    backs = {b.number for b in scoring.backs if b.number is not None}
    return tuple(n for n in scoring.cards if n not in backs)


def unsure_city_cards(scoring: ScoringCards, doubts: tuple[CellDoubt, ...]) -> ScoringCards | None:
    """``scoring`` without the cards: when some of them come from the city alone (:func:`city_alone`) and
    the city has cells in doubt (``doubts``, those that matter with the cards unknown), a warning that
    names the cells and asks for the cards, suggesting none; None when the choice stands."""
    alone = city_alone(scoring)
    if not alone or not doubts:
        return None
    read = sorted(n for n in scoring.cards or () if n not in alone)
    seen = f"read {', '.join(map(str, read))} on their backs" if read else "not read from their backs"
    others = {0: "them", 1: "the other two", 2: "the third"}[len(read)]
    cells = cell_names([(d.row, d.col) for d in doubts])
    warning = (
        f"scoring cards {seen}, and the city that would tell {others} has cells in doubt ({cells}): "
        "give the scoring cards to score them"
    )
    return replace(scoring, cards=None, source=None, in_doubt=(), warnings=(warning,))
