"""Settle the player's choices among tied readings without trying every combination of them.

Wildest West pays for each territory that scores in no other way, so among the choices that score the same
points (which of several tied largest Water groups Cool Water reads, which tied herd The Herd reads, which
tied largest group of each territory type counts) the player takes the one that leaves the fewest
territories scoring. :func:`fewest_scoring` finds that choice without trying the combinations: its work
grows with the town plus the pairs of readings that share a cell, plus the pairs of *kinds* of reading
(alike in size and in their cells per tied group) that share a tied group; it picks the very choice that
trying every combination in order would (the first, in the goal cards' order, of those with the fewest
scoring territories), which ``tests/scoring/test_wagons_fewest.py`` checks against that enumeration.

Why it gives the same answers. Let ``F`` be the cells scored by the cards that have one reading, ``A_p``
and ``B_q`` those of the two cards with tied readings (only Cool Water and The Herd have them; a missing
card counts as one empty reading), and ``A'``/``B'`` their cells outside ``F``. For a fixed pair (p, q)
with ``X = F ∪ A_p ∪ B_q`` the old code counted ``|X| + Σ_t (L_t − max_g |g ∩ X|)``: each territory type
``t`` adds the cells of its chosen tied group (size ``L_t``) not already in ``X``, and the group sharing
most cells with ``X`` is best, chosen on its own because tied groups never share a cell.

* A type with one tied group has no choice: it adds ``w + x_p + y_q`` (its cells in ``F``, ``A'_p`` and
  ``B'_q``) whatever the pair, a sum of a part for ``p`` and a part for ``q``.
* For a type with several tied groups, when no group holds cells of both ``A'_p`` and ``B'_q`` the best
  group is the best one for ``p`` alone or for ``q`` alone: ``max(M_t(p), N_t(q))``.
* So when ``A'_p`` and ``B'_q`` share no cell and no tied group, the count is ``Sep(p, q) = K + α_p + β_q −
  Σ_t max(M_t(p), N_t(q))``, and for any pair the true count is at most ``Sep(p, q)`` (sharing only saves).
  ``−max(M, N)`` is the smaller of ``−M`` and ``−N``, so over a choice ``c`` of "p's side or q's side" per
  type, ``Sep`` splits into a part for ``p`` and a part for ``q``: its least value over all pairs is the
  least, over the 2^6 choices, of (best p) + (best q), and the first pair reaching it is, over the choices
  that reach it, the first best ``p`` with the first best ``q``.
* The pairs that do share a cell or a tied group are found through an index of cells and groups and
  counted exactly; pairs sharing no cell have a count that depends only on each reading's size and cells
  per tied group, so one pair per two kinds of reading is counted. The least count is the smaller of the
  two; the pairs reaching it are the sharing pairs that reach it and, when ``Sep``'s least value equals
  it, the pairs reaching that (``true ≤ Sep``); the first of them in the enumeration's order is taken.

Given the readings, each type's group is then chosen as before: the first tied group with most overlap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from scoring.wagons.goals import GoalScore
from scoring.wagons.town import Pos

Groups = Mapping[str, Sequence[frozenset[Pos]]]


@dataclass(frozen=True)
class _Side:
    """One card's tied readings, as the sums above need them."""

    cells: tuple[frozenset[Pos], ...]  # A'_p: each reading's scoring cells outside F
    alpha: tuple[int, ...]  # |A'_p| less its cells in the types with a single tied group
    best: tuple[tuple[int, ...], ...]  # M_t(p) for each type with several tied groups


class _Tied:
    """Where the tied largest groups lie: cell → (type, group index), and each group's cells in ``F``."""

    def __init__(self, largest: Groups, fixed: frozenset[Pos]) -> None:
        self.where: dict[Pos, tuple[str, int]] = {}
        self.size: dict[str, int] = {}
        self.in_fixed: dict[tuple[str, int], int] = {}
        for t, tied in largest.items():
            if not tied:
                continue
            self.size[t] = len(tied[0])
            for k, group in enumerate(tied):
                self.where.update(dict.fromkeys(group, (t, k)))
                self.in_fixed[(t, k)] = len(group & fixed)
        self.multi = tuple(t for t, tied in largest.items() if len(tied) > 1)
        self.base = {t: max(self.in_fixed[(t, k)] for k in range(len(largest[t]))) for t in self.size}

    def counts(self, cells: frozenset[Pos]) -> dict[tuple[str, int], int]:
        """How many of ``cells`` lie in each tied group they touch."""
        out: dict[tuple[str, int], int] = {}
        for pos in cells:
            group = self.where.get(pos)
            if group is not None:
                out[group] = out.get(group, 0) + 1
        return out

    def cost(self, fixed: int, size: int, counts: Mapping[tuple[str, int], int]) -> int:
        """The exact count of scoring territories when ``size`` cells outside F score besides F, with
        ``counts`` of them in the tied groups they touch."""
        best = dict(self.base)
        for group, n in counts.items():
            best[group[0]] = max(best[group[0]], self.in_fixed[group] + n)
        return fixed + size + sum(self.size[t] - best[t] for t in self.size)

    def side(self, readings: Sequence[frozenset[Pos]]) -> _Side:
        alphas, bests = [], []
        for cells in readings:
            counts = self.counts(cells)
            best = dict(self.base)
            single = 0
            for (t, k), n in counts.items():
                if t in self.multi:
                    best[t] = max(best[t], self.in_fixed[(t, k)] + n)
                else:
                    single += n
            alphas.append(len(cells) - single)
            bests.append(tuple(best[t] for t in self.multi))
        return _Side(tuple(readings), tuple(alphas), tuple(bests))


def _contested(a: _Side, b: _Side, base: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each type with several tied groups, the sides whose best may win there: (0,) when only the
    first card's readings ever beat the type's base, (1,) when only the second's (or neither), else (0, 1)."""
    choices = []
    for k, low in enumerate(base):
        raises_a = any(ms[k] > low for ms in a.best)
        raises_b = any(ms[k] > low for ms in b.best)
        choices.append((0, 1) if raises_a and raises_b else (0,) if raises_a else (1,))
    return tuple(choices)


def _part(alpha: int, best: Sequence[int], choice: Sequence[int], side: int) -> int:
    return alpha - sum(m for m, c in zip(best, choice, strict=True) if c == side)


def _separable_best(a: _Side, b: _Side, base: Sequence[int]) -> tuple[int, tuple[int, int]]:
    """The least ``Sep − K`` over all pairs and the first pair reaching it (see the module's docstring)."""
    # Readings with the same numbers are interchangeable here: keep the first of each.
    keys_a: dict[tuple[int, tuple[int, ...]], int] = {}
    for i, key in enumerate(zip(a.alpha, a.best, strict=True)):
        keys_a.setdefault(key, i)
    keys_b: dict[tuple[int, tuple[int, ...]], int] = {}
    for j, key in enumerate(zip(b.alpha, b.best, strict=True)):
        keys_b.setdefault(key, j)
    best: tuple[int, tuple[int, int]] | None = None
    # One bit per contested territory type: at most 2^6 choices, whatever the number of readings.
    for choice in product(*_contested(a, b, base)):
        va, pa = min((_part(al, ms, choice, 0), i) for (al, ms), i in keys_a.items())
        vb, pb = min((_part(be, ns, choice, 1), j) for (be, ns), j in keys_b.items())
        if best is None or (va + vb, (pa, pb)) < best:
            best = (va + vb, (pa, pb))
    assert best is not None  # product() of no sequences still yields one choice
    return best


Profile = tuple[int, frozenset[tuple[tuple[str, int], int]]]


def _classes(side: _Side, index: _Tied) -> dict[Profile, list[int]]:
    """A card's readings by what a pair's count depends on when the pair shares no cell: the reading's
    size and its cells in each tied group (members in order). Many herds or Water groups alike are one."""
    out: dict[Profile, list[int]] = {}
    for i, cells in enumerate(side.cells):
        out.setdefault((len(cells), frozenset(index.counts(cells).items())), []).append(i)
    return out


def _sharing_best(a: _Side, b: _Side, index: _Tied, fixed: int) -> tuple[int, tuple[int, int]] | None:
    """The least exact count over the pairs whose readings share a cell or a tied group of a type with
    several, and the first such pair reaching it (``None`` when no pair shares).

    Pairs sharing a cell are counted one by one (Cool Water's Wagons and The Herd's Cows never do). The
    others are counted once per pair of classes (:func:`_classes`) sharing a group, for the class pair's
    first two members that share no cell: every such member pair has the same count.
    """
    found: list[tuple[int, tuple[int, int]]] = []
    by_cell: dict[Pos, list[int]] = {}
    for j, cells in enumerate(b.cells):
        for pos in cells:
            by_cell.setdefault(pos, []).append(j)
    for i, cells in enumerate(a.cells):
        for j in {j for pos in cells for j in by_cell.get(pos, ())}:
            union = cells | b.cells[j]
            found.append((index.cost(fixed, len(union), index.counts(union)), (i, j)))
    classes_b = _classes(b, index)
    by_group: dict[tuple[str, int], list[Profile]] = {}
    for key in classes_b:
        for group, _ in key[1]:
            if group[0] in index.multi:
                by_group.setdefault(group, []).append(key)
    for (size_a, counts_a), members_a in _classes(a, index).items():
        partners = {k for group, _ in counts_a for k in by_group.get(group, ())}
        for size_b, counts_b in partners:
            members_b = classes_b[(size_b, counts_b)]
            pair = next(((i, j) for i in members_a for j in members_b if not a.cells[i] & b.cells[j]), None)
            if pair is None:
                continue
            counts = dict(counts_a)
            for group, n in counts_b:
                counts[group] = counts.get(group, 0) + n
            found.append((index.cost(fixed, size_a + size_b, counts), pair))
    return min(found, default=None)


def fewest_scoring(
    goal_scores: Mapping[str, GoalScore], largest: Groups
) -> tuple[dict[str, GoalScore], dict[str, frozenset[Pos]], frozenset[Pos]]:
    """Settle the player's choices among tied largest groups: the goal readings and base groups to count,
    and the territories that then score (the fewest; the module's docstring says how and why)."""
    options = {g: score.readings() for g, score in goal_scores.items()}
    tied = [g for g, readings in options.items() if len(readings) > 1]
    if len(tied) > 2:  # only Cool Water and The Herd have tied readings, and no card is played twice
        raise NotImplementedError(f"tied readings on more than two goal cards: {', '.join(tied)}")
    fixed = frozenset[Pos]().union(*(r[0].scoring for g, r in options.items() if g not in tied))
    index = _Tied(largest, fixed)
    readings = [[r.scoring - fixed for r in options[g]] for g in tied] + [[frozenset()]] * (2 - len(tied))
    a, b = index.side(readings[0]), index.side(readings[1])
    single = sum(index.in_fixed[(t, 0)] for t in index.size if t not in index.multi)
    k = len(fixed) + sum(index.size.values()) - single
    value, pair = _separable_best(a, b, [index.base[t] for t in index.multi])
    choice = min(filter(None, [(k + value, pair), _sharing_best(a, b, index, len(fixed))]))
    chosen = {g: r[0] for g, r in options.items()}
    chosen.update({g: options[g][p] for g, p in zip(tied, choice[1], strict=False)})
    scored = frozenset[Pos]().union(*(r.scoring for r in chosen.values()))
    groups = {t: max(ts, key=lambda g: len(g & scored)) for t, ts in largest.items() if ts}
    return chosen, groups, scored.union(*groups.values())
