"""Per-cell readings → a :class:`~scoring.city.City`, with each road repair it made said in a warning.

Roads are read cell by cell, so the evidence of the neighbours is used only where a cell is in doubt: a
road that reaches a side usually continues into the block across it (no printed road dead-ends inside a
card), but in a finished city roads legitimately dead-end where cards overlap. So a mismatch never
overrules a confident reading; it only decides between a doubtful cell's best reading and a close second
that makes the road meet its confidently read neighbour. Every such decision becomes a warning naming the
cell, as it explains a change made to the reading. A cell read with low confidence is not a warning: which
cells are in doubt, and what else each could be, is :mod:`vision.city.doubt`'s one answer (the scan's
``doubt``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.city import EMPTY, OPPOSITE, STEP, Cell, City, block, cell_name
from vision.cells import CellReading

# A cell read with less confidence than this may take a close second reading that makes its road meet.
LOW_CONFIDENCE = 0.8
# A second reading is considered only when it is at least this likely relative to the first.
CLOSE_SECOND = 0.35


@dataclass
class Assembled:
    city: City
    labels: list[list[str]]
    confidence: np.ndarray  # (rows, cols)
    warnings: list[str] = field(default_factory=list)
    origin: tuple[int, int] = (0, 0)  # where the city's cell (0, 0) lies in the grid of readings


def _cell(zone: str | None, road: str | None, like: CellReading) -> Cell:
    """``zone`` and ``road`` as a cell, keeping the expansion marks read in it."""
    return EMPTY if zone is None else block(zone, road, poi=like.poi, construction=like.construction)


def _open_sides(grid: list[list[Cell]], r: int, c: int) -> list[tuple[str, tuple[int, int]]]:
    """Sides where this block's road reaches a neighbouring non-park block that does not reach back."""
    cell = grid[r][c]
    out = []
    for side in cell.road or "":
        dr, dc = STEP[side]
        rr, cc = r + dr, c + dc
        if not (0 <= rr < len(grid) and 0 <= cc < len(grid[0])):
            continue
        other = grid[rr][cc]
        if other.is_block and other.zone != "P" and OPPOSITE[side] not in (other.road or ""):
            out.append((side, (rr, cc)))
    return out


def _mismatches(grid: list[list[Cell]]) -> set[frozenset[tuple[int, int]]]:
    pairs: set[frozenset[tuple[int, int]]] = set()
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            for _, other in _open_sides(grid, r, c):
                pairs.add(frozenset({(r, c), other}))
    return pairs


def assemble_city(
    readings: Sequence[Sequence[CellReading | None]],
    *,
    cards: Sequence[int] | None = None,
    low_confidence: float = LOW_CONFIDENCE,
) -> Assembled:
    """Build the city from a grid of readings (``None`` = a cell off the card region, read as empty).

    Empty border rows and columns are trimmed. Returns the city, the chosen label and confidence of every
    cell of the trimmed grid, and the warnings (readings changed so that roads meet).
    ``low_confidence``: below it a cell's reading may give way to a close second that meets its road.
    """
    rows, cols = len(readings), len(readings[0]) if readings else 0
    grid = [[rd.cell() if rd is not None else EMPTY for rd in row] for row in readings]
    conf = np.array([[rd.probability if rd is not None else 1.0 for rd in row] for row in readings]).reshape(
        rows, cols
    )
    # For each mismatched pair with one doubtful cell, keep a close second reading that closes it.
    repaired: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for _ in range(2):
        for pair in sorted(_mismatches(grid), key=sorted):
            weak = min(pair, key=lambda p: conf[p])
            strong = next(p for p in pair if p != weak) if len(pair) == 2 else weak
            rd = readings[weak[0]][weak[1]]
            if rd is None or rd.kind == "wrecktar":
                continue
            if conf[weak] >= low_confidence or conf[strong] < low_confidence:
                continue
            before = len(_mismatches(grid))
            for zone, road, p in rd.options[1:]:
                if p < CLOSE_SECOND * conf[weak]:
                    break
                old = grid[weak[0]][weak[1]]
                grid[weak[0]][weak[1]] = _cell(zone, road, rd)
                if len(_mismatches(grid)) < before:
                    conf[weak] = p
                    repaired.append((weak, strong))
                    break
                grid[weak[0]][weak[1]] = old
    # Trim empty border rows and columns.
    occupied = np.array([[cell.kind != "empty" for cell in row] for row in grid]).reshape(rows, cols)
    if not occupied.any():
        return Assembled(
            City(((EMPTY,),), tuple(cards or ())), [["."]], np.ones((1, 1)), ["no block was read"]
        )
    rr, cc = np.nonzero(occupied)
    r0, r1, c0, c1 = rr.min(), rr.max() + 1, cc.min(), cc.max() + 1
    trimmed = [row[c0:c1] for row in grid[r0:r1]]
    conf = conf[r0:r1, c0:c1]
    city = City(tuple(tuple(row) for row in trimmed), tuple(cards or ()))
    warnings = [
        f"{cell_name(w[0] - r0, w[1] - c0)}: read as {grid[w[0]][w[1]].token()} (second choice) so that its "
        f"road meets {cell_name(s[0] - r0, s[1] - c0)}'s"
        for w, s in repaired
    ]
    labels = [[cell.token() for cell in row] for row in trimmed]
    return Assembled(city, labels, conf, warnings, (int(r0), int(c0)))
