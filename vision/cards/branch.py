"""The best reading of a :class:`~vision.cards.program.CardProgram` that is a stacking of real cards.

The program's rows already keep any two cards from lying on each other (two cards can do so only where they
overlap in two cells or more: at one place, or at places side by side; see
:meth:`CardProgram._add_overlap_rows`), and on real cities its relaxation is nearly always integral and a
stacking at once. What is left is found here by a small branch and bound on the relaxation, best bound
first, in which only variable bounds change (HiGHS re-solves warm from its last basis):

* a fractional solution is split on its most fractional placement: used, or not;
* a stacking cycle of three cards or more (A on B on C on A) is cut by a row valid everywhere: not all of
  the cells that make it can be shown so.

At most :data:`MAX_NODES` relaxations are solved; the answer is then the best stacking found, or none.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence

import numpy as np

from vision.cards.program import CardProgram

__all__ = ["MAX_NODES", "best_stacking", "stacking_cycle", "two_cycles"]

# The branch and bound solves at most this many relaxations (on the real-art development set it needs
# one for nearly every city, and at most 17).
MAX_NODES = 60


def _used(program: CardProgram, x: np.ndarray) -> list[int]:
    """The placements a 0/1 solution uses."""
    return np.flatnonzero(x[program.x_vars]).tolist()


def two_cycles(program: CardProgram, x: np.ndarray) -> list[tuple[int, int]]:
    """Pairs of used placements that each show a cell of their overlap."""
    used = _used(program, x)
    showing = {p: {program.cell(y) for y in program.shown(p) if x[y]} for p in used}
    covers = {p: set(program.covers(p)) for p in used}
    out = []
    for i, p in enumerate(used):
        for q in used[i + 1 :]:
            overlap = covers[p] & covers[q]
            if overlap & showing[p] and overlap & showing[q]:
                out.append((p, q))
    return out


def stacking_cycle(program: CardProgram, x: np.ndarray) -> list[int] | None:
    """The y variables of one stacking cycle in a 0/1 solution, or None (placement p lies above q when p
    shows a cell that q covers)."""
    used = _used(program, x)
    covers = {q: set(program.covers(q)) for q in used}
    above: dict[int, list[tuple[int, int]]] = {p: [] for p in used}  # p -> (q below, y var)
    for p in used:
        for y in program.shown(p):
            if not x[y]:
                continue
            rc = program.cell(y)
            for q in used:
                if q != p and rc in covers[q]:
                    above[p].append((q, y))
    colour: dict[int, int] = {}
    stack: list[tuple[int, int]] = []

    def visit(p: int) -> list[int] | None:
        colour[p] = 1
        for q, y in above[p]:
            if colour.get(q) == 1:
                cycle = [y]
                for node, var in reversed(stack):
                    cycle.append(var)
                    if node == q:
                        break
                return cycle
            if q not in colour:
                stack.append((p, y))
                found = visit(q)
                stack.pop()
                if found:
                    return found
        colour[p] = 2
        return None

    for p in used:
        if p not in colour:
            found = visit(p)
            if found:
                return found
    return None


def _fractional_split(program: CardProgram, x: np.ndarray) -> int | None:
    """The variable to split a fractional solution on: the most fractional placement, else the most
    fractional variable; None when the solution is integral."""
    frac = np.abs(x - np.round(x))
    if frac.max() <= 1e-6:
        return None
    on_x = frac[program.x_vars]
    if on_x.max() > 1e-6:
        return int(program.x_vars[int(np.argmax(on_x))])
    return int(np.argmax(frac))


def best_stacking(program: CardProgram, forbid: Sequence[int] = ()) -> tuple[float, np.ndarray, int] | None:
    """The best 0/1 solution that is a stacking of cards, with ``forbid`` at 0: its objective, its values
    (bool) and the number of relaxations solved; None when none was found within :data:`MAX_NODES`. The
    stacking cycles cut stay in ``program.extra_rows`` (valid for every later solve)."""
    base = tuple(forbid)
    best: tuple[float, np.ndarray] | None = None
    order = itertools.count()
    # (-bound, order, variables fixed at 0, variables fixed at 1)
    heap: list[tuple[float, int, tuple[int, ...], tuple[int, ...]]] = [(-math.inf, next(order), (), ())]
    nodes = 0
    while heap and nodes < MAX_NODES:
        bound, _, zeros, ones = heapq.heappop(heap)
        if best is not None and -bound <= best[0] + 1e-9:
            break  # no node left can beat the best stacking
        solved = program.relax(base + zeros, ones)
        nodes += 1
        if solved is None or (best is not None and solved[0] <= best[0] + 1e-9):
            continue
        objective, x = solved
        split = _fractional_split(program, x)
        if split is not None:
            heapq.heappush(heap, (-objective, next(order), zeros, (*ones, split)))
            heapq.heappush(heap, (-objective, next(order), (*zeros, split), ones))
            continue
        used = np.round(x).astype(bool)
        cycle = stacking_cycle(program, used)
        if cycle is not None:
            program.extra_rows.append(({y: 1.0 for y in cycle}, -np.inf, len(cycle) - 1.0))
            heapq.heappush(heap, (-objective, next(order), zeros, ones))
            continue
        best = (objective, used)
    if best is None:
        return None
    return best[0], best[1], nodes
