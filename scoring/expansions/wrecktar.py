"""Wrecktar: −2 per Commercial block in Wrecktar's two rows and two columns; +3 when there is none.

Wrecktar covers one whole card and is never covered, so its ``W`` cells form a 2×2 square. Its own cells
hold no blocks, so they never count.
"""

from __future__ import annotations

from scoring.breakdown import LineItem
from scoring.city import City, cell_name, cell_names
from scoring.expansions.errors import ExpansionOptionError

KEY = "wrecktar"
#: The note for a typed city without ``W`` cells; a caller that read the city from a photo replaces it.
NO_CELLS_NOTE = (
    "Wrecktar: no 'W' cells found, so Wrecktar scores 0; mark the card it covers with four 'W' cells."
)
LABEL = "Wrecktar"


def _row_name(row: int) -> str:
    return f"row {row + 1}"


def _col_name(col: int) -> str:
    return "column " + cell_name(0, col)[:-1]


def wrecktar_item(city: City) -> tuple[list[LineItem], list[str]]:
    """The ``wrecktar`` line and notes; raise :class:`ExpansionOptionError` unless the ``W`` cells are 2×2."""
    cells = [(r, c) for r, c, cell in city.cells() if cell.kind == "wrecktar"]
    if not cells:
        detail = "no Wrecktar cell ('W') in the city; nothing scores."
        return [LineItem(KEY, LABEL, 0, detail)], [NO_CELLS_NOTE]
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    if (
        len(cells) != 4
        or len(rows) != 2
        or len(cols) != 2
        or rows[1] != rows[0] + 1
        or cols[1] != cols[0] + 1
    ):
        raise ExpansionOptionError(
            f"Wrecktar covers one whole card, so its 'W' cells must form a 2×2 square; found {len(cells)} at "
            f"{cell_names(cells)}"
        )
    commercial = sorted(
        (r, c) for r, c, cell in city.blocks() if cell.zone == "C" and (r in rows or c in cols)
    )
    lines = f"{_row_name(rows[0])}, {_row_name(rows[1])}, {_col_name(cols[0])} and {_col_name(cols[1])}"
    if not commercial:
        detail = f"+3: no commercial block in Wrecktar's {lines} (Wrecktar at {cell_names(cells)})."
        return [LineItem(KEY, LABEL, 3, detail, tuple(cell_name(r, c) for r, c in sorted(cells)))], []
    n = len(commercial)
    detail = (
        f"−2 for each of {n} commercial block{'s' if n != 1 else ''} in Wrecktar's {lines}: "
        f"{cell_names(commercial)} (Wrecktar's own cells {cell_names(cells)} do not count)."
    )
    return [LineItem(KEY, LABEL, -2 * n, detail, tuple(cell_name(r, c) for r, c in commercial))], []
