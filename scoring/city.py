"""The city model and its text format (``shared/rules/city-format.md``).

A :class:`City` is an immutable grid of :class:`Cell` values plus the header lines that precede the grid.
:func:`parse_city` reads the text form and :func:`format_city` writes it back; for every city
``parse_city(format_city(city)) == city``.

>>> from scoring.city_text import parse_city
>>> city = parse_city("cards: 8 7 17\\nR:EW  C:WE\\nP     .\\n")
>>> city.cell(0, 1).road, city.cards
('EW', (8, 7, 17))
>>> print(format_city(city), end="")
cards: 8 7 17
R:EW  C:EW
P     .
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, TypeVar

from scoring.errors import TextFormatError

ZONES = "RCIP"
ZONE_NAMES = {"R": "residential", "C": "commercial", "I": "industrial", "P": "park"}
SIDES = "NSEW"
# Canonical spelling of every road segment, in the output order of the format.
ROADS = ("NS", "NE", "NW", "SE", "SW", "EW")
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}

MAX_CARD = 18  # scoring cards are numbered 1 to 18
# A real city or town spans a few dozen cells at most; the bound keeps scoring any input cheap.
MAX_SIDE = 64
CellKind = Literal["empty", "block", "wrecktar", "beach"]
T = TypeVar("T")


class CityFormatError(TextFormatError):
    """A city text that cannot be read; carries the 1-based line and column of the first problem."""

    code = "malformed_city"


class CardNumberError(CityFormatError):
    """A ``cards:`` header naming a number that is no scoring card (same code as the engine's refusal)."""

    code = "unknown_card"


def canonical_road(sides: str) -> str:
    """Return the canonical spelling of a segment joining two sides, e.g. ``"ES"`` → ``"SE"``.

    >>> canonical_road("WE"), canonical_road("sn")
    ('EW', 'NS')
    """
    s = set(sides.upper())
    for road in ROADS:
        if set(road) == s and len(sides) == 2:
            return road
    raise ValueError(f"not a road segment: {sides!r} (expected two different sides of N, E, S, W)")


def rotate_road(road: str | None) -> str | None:
    """Turn a segment by 180° (N↔S, E↔W).

    Examples
    --------
    >>> rotate_road("NE"), rotate_road(None)
    ('SW', None)
    """
    if road is None:
        return None
    return canonical_road("".join(OPPOSITE[s] for s in road))


@dataclass(frozen=True)
class Cell:
    """One lattice cell: empty, a block (zone, optional road, expansion marks), Wrecktar or a beach."""

    kind: CellKind = "empty"
    zone: str | None = None
    road: str | None = None
    poi: bool = False
    construction: bool = False

    @property
    def is_block(self) -> bool:
        return self.kind == "block"

    def token(self) -> str:
        """This cell as written in the city format."""
        if self.kind == "empty":
            return "."
        if self.kind == "wrecktar":
            return "W"
        if self.kind == "beach":
            return "~"
        text = self.zone or "?"
        if self.road:
            text += ":" + self.road
        if self.poi:
            text += "*"
        if self.construction:
            text += "!"
        return text

    def rotated(self) -> Cell:
        return replace(self, road=rotate_road(self.road))


EMPTY = Cell()


def block(zone: str, road: str | None = None, *, poi: bool = False, construction: bool = False) -> Cell:
    """Build a block cell, checking the zone and road the way the parser does."""
    if zone not in ZONES:
        raise ValueError(f"unknown zone {zone!r}")
    if road is not None:
        road = canonical_road(road)
        if zone == "P":
            raise ValueError("a park block never holds a road")
    return Cell("block", zone, road, poi, construction)


@lru_cache(maxsize=16384)  # every scoring line names its cells; naming is the hot path of scoring
def cell_name(row: int, col: int) -> str:
    """Name a cell the way a player reads it off the table: column letter(s), then the 1-based row.

    >>> cell_name(0, 0), cell_name(2, 1), cell_name(0, 26)
    ('A1', 'B3', 'AA1')

    A place left of or above the grid has no name (the letters would never end):

    >>> cell_name(0, -1)
    Traceback (most recent call last):
    ...
    ValueError: row 0, column -1 is outside the grid: cells are named from A1
    """
    if row < 0 or col < 0:
        raise ValueError(f"row {row}, column {col} is outside the grid: cells are named from A1")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return f"{letters}{row + 1}"


def cell_names(cells: object) -> str:
    """Comma-separated cell names in reading order (row by row, left to right).

    Examples
    --------
    >>> cell_names([(1, 0), (0, 2)])
    'C1, A2'
    """
    return ", ".join(cell_name(r, c) for r, c in sorted(cells))  # type: ignore[call-overload]


@dataclass(frozen=True)
class City:
    """A city grid with its header.

    ``interstate`` is the number of rows above the interstate line (``None`` when there is none): rows
    ``0 .. interstate-1`` are the north side. ``headers`` keeps every other ``key: value`` line in order.
    """

    grid: tuple[tuple[Cell, ...], ...]
    cards: tuple[int, ...] = ()
    expansions: tuple[str, ...] = ()
    interstate: int | None = None
    headers: tuple[tuple[str, str], ...] = field(default=())

    @property
    def n_rows(self) -> int:
        return len(self.grid)

    @property
    def n_cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def cell(self, row: int, col: int) -> Cell:
        """The cell at (row, col); outside the grid every cell is empty."""
        if 0 <= row < self.n_rows and 0 <= col < self.n_cols:
            return self.grid[row][col]
        return EMPTY

    def header(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.headers:
            if k == key:
                return v
        return default

    def cells(self) -> Iterator[tuple[int, int, Cell]]:
        for r, row in enumerate(self.grid):
            for c, cell in enumerate(row):
                yield r, c, cell

    def blocks(self) -> Iterator[tuple[int, int, Cell]]:
        """Every block cell, in reading order."""
        return ((r, c, cell) for r, c, cell in self.cells() if cell.is_block)

    def same_side(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """False when the interstate runs between the two cells' rows."""
        if self.interstate is None:
            return True
        return (a[0] < self.interstate) == (b[0] < self.interstate)

    def neighbour(self, row: int, col: int, side: str) -> tuple[int, int] | None:
        """The cell across ``side`` from (row, col), or ``None`` when the interstate separates them."""
        dr, dc = STEP[side]
        other = (row + dr, col + dc)
        return other if self.same_side((row, col), other) else None

    def block_across(self, row: int, col: int, side: str) -> tuple[int, int] | None:
        """The block across ``side`` (same interstate side), or ``None`` when no block lies there."""
        other = self.neighbour(row, col, side)
        if other is None or not self.cell(*other).is_block:
            return None
        return other

    def with_cell(self, row: int, col: int, cell: Cell) -> City:
        rows = [list(r) for r in self.grid]
        rows[row][col] = cell
        return replace(self, grid=tuple(tuple(r) for r in rows))

    def rotated(self) -> City:
        """The whole city turned by 180°."""
        grid = tuple(tuple(c.rotated() for c in reversed(row)) for row in reversed(self.grid))
        inter = None if self.interstate is None else self.n_rows - self.interstate
        return replace(self, grid=grid, interstate=inter)


_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_TOKEN = re.compile(r"\S+")
_CELL = re.compile(r"^(?P<zone>[A-Za-z])(?::(?P<road>[A-Za-z]*))?(?P<marks>[*!]*)$")


def _parse_cell(token: str, line: int, col: int) -> Cell:
    if token == ".":
        return EMPTY
    if token in ("W", "w"):  # letters mean the same in either case: 'W' is no zone, so never ambiguous
        return Cell("wrecktar")
    if token == "~":
        return Cell("beach")
    m = _CELL.match(token)
    if not m:
        raise CityFormatError(
            f"cannot read cell {token!r} (expected '.', 'W', '~' or a zone R, C, I, P with an optional "
            "':' road such as 'R:EW' and marks '*' or '!')",
            line,
            col,
        )
    zone, road, marks = m["zone"].upper(), m["road"], m["marks"]
    if zone not in ZONES:
        raise CityFormatError(f"unknown zone {zone!r} in {token!r} (expected R, C, I or P)", line, col)
    if road is not None:
        road = road.upper()
        bad = [ch for ch in road if ch not in SIDES]
        if bad:
            where = col + 2 + road.index(bad[0])
            message = f"bad road side {bad[0]!r} in {token!r} (sides are N, E, S, W)"
            raise CityFormatError(message, line, where)
        if len(road) != 2 or road[0] == road[1]:
            raise CityFormatError(
                f"a road joins exactly two different sides, got {road!r} in {token!r}", line, col + 2
            )
        if zone == "P":
            raise CityFormatError(f"a park block never holds a road: {token!r}", line, col)
        road = canonical_road(road)
    if len(set(marks)) != len(marks):
        raise CityFormatError(f"repeated mark in {token!r}", line, col)
    return Cell("block", zone, road, "*" in marks, "!" in marks)


def parse_cell(token: str) -> Cell:
    """One cell of the city format (``"R:EW"``, ``"P*"``, ``"."``); raises CityFormatError.

    >>> parse_cell("r:ew").token()
    'R:EW'
    """
    return _parse_cell(token, 1, 1)


def check_grid_size(
    rows_above: int, cells: list[re.Match[str]], line: int, error: type[CityFormatError] = CityFormatError
) -> None:
    """Refuse a grid row beyond :data:`MAX_SIDE` rows or with more than :data:`MAX_SIDE` cells."""
    if rows_above >= MAX_SIDE:
        raise error(f"the grid has more than {MAX_SIDE} rows (a city or town is at most that tall)", line, 1)
    if len(cells) > MAX_SIDE:
        raise error(
            f"row has {len(cells)} cells; a grid is at most {MAX_SIDE} cells wide",
            line,
            cells[MAX_SIDE].start() + 1,
        )


def _lines(text: str) -> list[str]:
    """Split at line ends only (``\n``, ``\r\n``, ``\r``), the way a text editor numbers lines.

    ``str.splitlines`` would also split at form feeds and other separators, giving line numbers that do not
    match the file and hiding control characters that the parser should report.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def last_line(text: str) -> int:
    return max(1, len(_lines(text)))


def format_city(city: City, *, header: bool = True) -> str:
    """Write a city in the text format: header lines, then the grid with aligned columns.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> print(format_city(parse_city("cards: 8 7 17\\nR:EW C:EW\\nP I\\n")), end="")
    cards: 8 7 17
    R:EW  C:EW
    P     I
    """
    lines: list[str] = []
    if header:
        if city.cards:
            lines.append("cards: " + " ".join(map(str, city.cards)))
        if city.expansions:
            lines.append("expansions: " + " ".join(city.expansions))
        lines.extend(f"{k}: {v}" for k, v in city.headers)
    tokens = [[cell.token() for cell in row] for row in city.grid]
    widths = [max(len(row[c]) for row in tokens) for c in range(city.n_cols)]
    for r, row in enumerate(tokens):
        if city.interstate is not None and r == city.interstate:
            lines.append("=" * max(1, sum(widths) + 2 * (len(widths) - 1)))
        lines.append("  ".join(t.ljust(w) for t, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines) + "\n"


def parse_rows(
    rows: object, parse_cell: Callable[[str, int, int], T], error: type[CityFormatError] = CityFormatError
) -> tuple[tuple[T, ...], ...]:
    """Read the JSON ``rows`` form (a list of rows of cell tokens) with ``parse_cell(token, row, cell)``.

    Errors name the 1-based row and cell index in place of line and column.
    """
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
        raise error("rows must be a non-empty list of non-empty lists of cell tokens", 1, 1)
    if len(rows) > MAX_SIDE:
        raise error(f"the grid has {len(rows)} rows; at most {MAX_SIDE} are allowed", MAX_SIDE + 1, 1)
    grid = []
    for r, row in enumerate(rows, start=1):
        if len(row) > MAX_SIDE:
            raise error(f"row has {len(row)} cells; a grid is at most {MAX_SIDE} cells wide", r, MAX_SIDE + 1)
        if len(row) != len(rows[0]):
            raise error(f"row has {len(row)} cells but row 1 has {len(rows[0])}", r, len(row) + 1)
        cells = []
        for c, token in enumerate(row, start=1):
            if not isinstance(token, str) or not token.strip():
                raise error(f"cell must be a non-empty string, got {token!r}", r, c)
            cells.append(parse_cell(token.strip(), r, c))
        grid.append(tuple(cells))
    return tuple(grid)


def city_from_rows(rows: list[list[str]], **fields: object) -> City:
    """Build a city from the JSON ``rows`` form: a list of rows of cell tokens.

    Examples
    --------
    >>> print(format_city(city_from_rows([["R:EW", "C:EW"], [".", "P"]])), end="")
    R:EW  C:EW
    .     P
    """
    return City(parse_rows(rows, _parse_cell), **fields)  # type: ignore[arg-type]
