"""The HiGHS calls of the card program (:mod:`vision.cards.program`): a model with the options it is solved
with, and its relaxation solved with bounds changed for one solve, stopped early, or with one more row.

Every solve starts from the basis the last one left (only bounds change in between, or a row is added
and removed), so where a solve stops early, and which of two equally good solutions it finds, depends on
what was solved before on the same model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import highspy
import numpy as np
from highspy._core import _Highs

__all__ = ["OPTIMAL", "bounded", "new_highs", "solve", "using", "using_solution"]

OPTIMAL = highspy.HighsModelStatus.kOptimal


def new_highs() -> _Highs:
    """An empty HiGHS model with the options the card program is solved with."""
    # The core class, not highspy.Highs: the wrapper prints a banner on creation whatever the options, and
    # adds the callback machinery we do not use.
    h = _Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    # Presolve costs more than it saves on these small programs, solved again and again warm.
    h.setOptionValue("presolve", "off")
    return h


def solve(
    h: _Highs, forbid: Sequence[int], force: Sequence[int] = (), values: bool = False
) -> tuple[float, np.ndarray | None] | None:
    """The relaxation's optimum on ``h`` with ``forbid`` at 0 and ``force`` at 1 (bounds restored after),
    and its values when asked for (fetching them costs more than a short solve); None when infeasible."""
    forbid = np.asarray(list(forbid), np.int32)
    force = np.asarray(list(force), np.int32)
    if len(forbid):
        h.changeColsBounds(len(forbid), forbid, np.zeros(len(forbid)), np.zeros(len(forbid)))
    if len(force):
        h.changeColsBounds(len(force), force, np.ones(len(force)), np.ones(len(force)))
    h.run()
    status = h.getModelStatus()
    solution = h.getSolution()
    valid = solution.value_valid
    x = np.array(solution.col_value) if valid and values else None
    objective = -float(h.getInfo().objective_function_value)
    for fixed in (forbid, force):
        if len(fixed):
            h.changeColsBounds(len(fixed), fixed, np.zeros(len(fixed)), np.ones(len(fixed)))
    if not valid or status not in (OPTIMAL, highspy.HighsModelStatus.kObjectiveBound):
        return None
    return objective, x


def bounded(h: _Highs, forbid: Sequence[int], stop_below: float) -> float | None:
    """An upper bound on the optimum on ``h`` with ``forbid`` at 0: the optimum, or once that is known to
    lie below ``stop_below``, the bound the dual simplex has reached by then."""
    if stop_below > -math.inf:
        h.setOptionValue("objective_bound", -stop_below)  # HiGHS minimises the negated objective
    try:
        solved = solve(h, forbid)
    finally:
        h.setOptionValue("objective_bound", highspy.kHighsInf)
    return None if solved is None else solved[0]


def using(h: _Highs, xs: Sequence[int], stop_below: float | None = None) -> float | None:
    """The relaxation's optimum on ``h`` with at least one of ``xs`` placed (None when none can be), or
    with ``stop_below``, once it is known to lie below that, the bound reached by then."""
    if stop_below is None:
        solved = using_solution(h, xs, values=False)
        return None if solved is None else solved[0]
    if not xs:
        return None
    h.addRow(1.0, highspy.kHighsInf, len(xs), np.array(xs, np.int32), np.ones(len(xs)))
    try:
        return bounded(h, (), stop_below)
    finally:
        h.deleteRows(1, np.array([h.getNumRow() - 1], np.int32))


def using_solution(
    h: _Highs, xs: Sequence[int], values: bool = True, forbid: Sequence[int] = ()
) -> tuple[float, np.ndarray | None] | None:
    """:func:`using` solved to the optimum, with its values (and ``forbid`` at 0)."""
    if not xs:
        return None
    h.addRow(1.0, highspy.kHighsInf, len(xs), np.array(xs, np.int32), np.ones(len(xs)))
    try:
        return solve(h, forbid, values=values)
    finally:
        h.deleteRows(1, np.array([h.getNumRow() - 1], np.int32))
