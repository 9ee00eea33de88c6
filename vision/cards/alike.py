"""The same blocks explained by other cards: the scoring cards choose among readings, they never change one.

A city's blocks often do not decide which cards lie in it: two cards whose visible quadrants show the same
blocks swap for free (on the real-art development set, with every block read right, the city alone names
its three missing cards on 7 of 17 photos where all 15 cards show). The scoring cards, given or read from
their backs, say which: the city is decoded again without them, every cell held to the label the city's own
decoding gave it. When that costs (almost) nothing, it is the same city told with the right cards; when it
costs much, the city contradicts them, and the caller says so instead of moving a block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vision.cards.branch import best_stacking
from vision.cards.program import CardProgram
from vision.cards.stacking import EMPTY_LABEL, CardStacking, cell_margins, explain_solution, placements_of
from vision.cards.variables import U

__all__ = ["cards_alike", "same_blocks"]


def same_blocks(program: CardProgram, like: CardStacking, exclude: Sequence[int]) -> CardStacking | None:
    """The best stacking of ``program`` without the cards ``exclude`` that reads every cell as ``like``
    does (a cell ``like`` leaves unexplained may be explained by a card, or left so), or None when none is.

    Its cells keep ``like``'s labels; which card shows each, the objective, and the margins of the cells
    ``like`` checked change: those are found again without ``exclude`` (a block that another reading
    with a scoring card explained as well is surer once that card is known to lie beside the city)."""
    excluded = program.card_vars(exclude)
    solved = best_stacking(program, forbid=excluded + _other_labels(program, like))
    if solved is None:
        return None
    objective, x, rounds = solved
    found = explain_solution(program, x)
    cells = {
        rc: replace(d, card=found[rc].card, source=found[rc].source) if rc in found else d
        for rc, d in like.cells.items()
    }
    checked = [(0.0, rc) for rc, d in cells.items() if d.margin is not None]
    margins = cell_margins(program, cells, checked, excluded, objective)
    cells = {rc: replace(d, margin=margins[rc]) if rc in margins else d for rc, d in cells.items()}
    blocks = [rc for rc, d in cells.items() if d.label != EMPTY_LABEL and not _wrecktar(program, rc)]
    explained = sum(cells[rc].source == "card" for rc in blocks) / max(1, len(blocks))
    return CardStacking(placements_of(program, x), cells, objective, explained, rounds, like.checks)


def _wrecktar(program: CardProgram, rc: tuple[int, int]) -> bool:
    ev = program.grid[rc[0]][rc[1]]
    return ev is not None and ev.wrecktar


def _other_labels(program: CardProgram, like: CardStacking) -> list[int]:
    """The variables that would read a cell otherwise than ``like`` (Wrecktar's cells aside: what shows
    there is the expansion's, not a label)."""
    out: list[int] = []
    for rc, d in like.cells.items():
        ev = program.grid[rc[0]][rc[1]]
        if ev is None or ev.wrecktar or rc not in program.at_cell:
            continue
        allowed = set(program.label_vars(rc, d.label))
        if d.source == "kept":
            allowed.update(i for i in program.at_cell[rc] if program.kind[i] == U)
        out.extend(i for i in program.at_cell[rc] if i not in allowed)
    return out


def cards_alike(
    program: CardProgram, decoding: CardStacking, known: Sequence[int], within: float
) -> tuple[tuple[int, ...], ...]:
    """The cards the city cannot tell apart, as one group (none when it can), ``known`` cards lying beside
    the city aside: those ``decoding`` leaves out that a reading placing them explains less than
    ``within`` nats worse, with the placed cards a reading without them explains as nearly as well.

    Bounds from the relaxation, as the left-out cards' margin is (:mod:`vision.cards.stacking`): a card
    named here may, rarely, be a little surer than that, never the other way, so the group holds every
    card the city could lack."""
    left_out = [card for card in decoding.missing_cards() if card not in known]
    unsure: set[int] = set()
    for card in left_out:
        best = program.best_using_without(card, known)
        if best is not None and decoding.objective - best < within:
            unsure.add(card)
    if not unsure:
        return ()
    forbid = program.card_vars(known)
    floor = decoding.objective - within
    for placed in sorted({p.card for p in decoding.placements}):
        bound = program.relaxed_best([*program.card_vars([placed]), *forbid], stop_below=floor)
        if bound is None or bound > floor:
            unsure.add(placed)
    return (tuple(sorted(unsure)),)
