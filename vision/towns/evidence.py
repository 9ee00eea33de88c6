"""The classifier's readings of a Circle the Wagons town grid, as the card decoding takes them.

Every cell of the lattice (portrait cells, row by row) carries a probability distribution over the 37
labels of :data:`LABELS`: the 36 territories (6 types × 6 icons) and the table. A cell's distribution is
given either as a mapping from tokens (``"D/w"``, ``"."`` for the table; :class:`Territory` and ``None``
work too) to probabilities, labels left out counting as :data:`PROBABILITY_FLOOR`, or as a sequence of 37
probabilities in the order of :data:`LABELS`. Nothing is normalised: a distribution that sums to more
than one, or holds a negative or non-finite number, is refused, naming its cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from scoring.city import cell_name
from scoring.wagons.town import ICONS, TERRAINS, Territory

__all__ = [
    "LABELS",
    "LOG_FLOOR",
    "PROBABILITY_FLOOR",
    "TABLE",
    "TOKENS",
    "CellProbabilities",
    "TownEvidenceError",
    "label_index",
    "town_evidence",
]

#: The labels a cell may be read as: the 36 territories (type-major, in the order of ``TERRAINS`` and
#: ``ICONS``), then the table (``None``).
LABELS: tuple[Territory | None, ...] = (*(Territory(t, i) for t in TERRAINS for i in ICONS), None)
TOKENS: tuple[str, ...] = tuple("." if label is None else label.token() for label in LABELS)
#: The index of the table in :data:`LABELS`.
TABLE = len(LABELS) - 1
# Probabilities below this are floored before taking logs (a softmax underflows): a label the classifier
# gave nothing can still be what a card shows, at a cost of 13.8 nats.
PROBABILITY_FLOOR = 1e-6
LOG_FLOOR = math.log(PROBABILITY_FLOOR)
# A distribution may sum to a little more than one (float32 softmax) but no more.
_SUM_SLACK = 1e-3

CellProbabilities = Mapping[str | Territory | None, float] | Sequence[float]
_INDEX = {token: i for i, token in enumerate(TOKENS)}


class TownEvidenceError(ValueError):
    """Readings the decoder cannot take; the message names the cell (``A1`` is the top-left one)."""


def label_index(label: str | Territory | None) -> int:
    """The index in :data:`LABELS` of a token (``"D/w"``, ``"."``), a :class:`Territory` or ``None``.

    >>> label_index("D/b"), label_index(Territory("W", "w")), label_index(None)
    (0, 35, 36)
    """
    token = "." if label is None else label.token() if isinstance(label, Territory) else label
    if token not in _INDEX:
        raise TownEvidenceError(f"unknown label {label!r} (expected a territory such as 'D/w', or '.')")
    return _INDEX[token]


def _cell_line(cell: CellProbabilities, where: str) -> np.ndarray:
    """One cell's 37 probabilities, in the order of :data:`LABELS`."""
    line = np.zeros(len(LABELS))
    if isinstance(cell, Mapping):
        for label, p in cell.items():
            try:
                line[label_index(label)] = float(p)
            except TownEvidenceError as exc:
                raise TownEvidenceError(f"cell {where}: {exc}") from None
            except (TypeError, ValueError):
                raise TownEvidenceError(f"cell {where}: probability of {label!r} is not a number") from None
    else:
        try:
            values = np.asarray(cell, dtype=np.float64)
        except (TypeError, ValueError):
            raise TownEvidenceError(f"cell {where}: probabilities are not numbers") from None
        if values.shape != (len(LABELS),):
            raise TownEvidenceError(
                f"cell {where}: expected {len(LABELS)} probabilities (36 territories and the table), "
                f"got shape {values.shape}"
            )
        line[:] = values
    if not np.isfinite(line).all() or (line < 0).any():
        raise TownEvidenceError(f"cell {where}: probabilities must be finite and not negative")
    total = float(line.sum())
    if total <= 0 or total > 1 + _SUM_SLACK:
        raise TownEvidenceError(
            f"cell {where}: probabilities sum to {total:.4g} (expected more than 0, at most 1)"
        )
    return line


def town_evidence(readings: Sequence[Sequence[CellProbabilities]]) -> np.ndarray:
    """The grid's log-probabilities, ``(rows, cols, 37)``, floored at :data:`LOG_FLOOR`.

    >>> grid = town_evidence([[{"D/w": 0.9, ".": 0.1}, {".": 1.0}]])
    >>> grid.shape, round(float(grid[0, 0, label_index("D/w")]), 3), float(grid[0, 1, TABLE])
    ((1, 2, 37), -0.105, 0.0)
    """
    rows = [list(row) for row in readings]
    if not rows or not rows[0]:
        raise TownEvidenceError("the grid has no cells")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise TownEvidenceError(f"row {r + 1} has {len(row)} cells but the first row has {width}")
    probs = np.array(
        [[_cell_line(cell, cell_name(r, c)) for c, cell in enumerate(row)] for r, row in enumerate(rows)]
    )
    return np.log(np.maximum(probs, PROBABILITY_FLOOR))
