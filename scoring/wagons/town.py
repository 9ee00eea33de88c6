"""The Circle the Wagons town model and its text format (``shared/rules/circle-the-wagons.md``).

A town is written like a Sprawlopolis city (``city-format.md``): optional ``key: value`` header lines, then
one line per lattice row with cells separated by spaces. A cell is ``.`` (no territory) or a territory letter
and an icon letter joined by ``/``, e.g. ``D/w`` (desert with a wagon).

>>> from scoring.wagons.town_text import parse_town
>>> town = parse_town("goals: cool-water\\nD/w  W/m\\n.    S/c\\n")
>>> town.cell(0, 0), town.header("goals"), town.n_territories
(Territory(terrain='D', icon='w'), 'cool-water', 3)
>>> print(format_town(town), end="")
goals: cool-water
D/w  W/m
.    S/c
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from scoring.city import CityFormatError, parse_rows

TERRAINS = "DFMPSW"
TERRAIN_NAMES = {"D": "desert", "F": "forest", "M": "mountains", "P": "plains", "S": "snow", "W": "water"}
ICONS = "bcfgmw"
ICON_NAMES = {"b": "beer", "c": "cow", "f": "fort", "g": "gun", "m": "mine", "w": "wagon"}
#: The header keys a town file may hold besides the options (``scoring.wagons.OPTIONS``).
TOWN_KEYS = ("goals", "scenario", "opponent-pile", "cards", "game")
NEIGHBOUR_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

Pos = tuple[int, int]


class TownFormatError(CityFormatError):
    """A town text that cannot be read; carries the 1-based line and column of the first problem."""

    code = "malformed_town"


@dataclass(frozen=True)
class Territory:
    """One occupied lattice cell: a territory type (``D F M P S W``) and its icon (``b c f g m w``)."""

    terrain: str
    icon: str

    def token(self) -> str:
        return f"{self.terrain}/{self.icon}"


@dataclass(frozen=True)
class Town:
    """A town grid (``None`` marks an empty cell) with the ``key: value`` header lines that preceded it."""

    grid: tuple[tuple[Territory | None, ...], ...]
    headers: tuple[tuple[str, str], ...] = field(default=())

    @property
    def n_rows(self) -> int:
        return len(self.grid)

    @property
    def n_cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def cell(self, row: int, col: int) -> Territory | None:
        """The territory at (row, col); outside the grid every cell is empty."""
        if 0 <= row < self.n_rows and 0 <= col < self.n_cols:
            return self.grid[row][col]
        return None

    def header(self, key: str, default: str | None = None) -> str | None:
        return next((v for k, v in self.headers if k == key), default)

    def territories(self) -> Iterator[tuple[Pos, Territory]]:
        """Every territory with its position, in reading order (row by row, left to right)."""
        for r, row in enumerate(self.grid):
            for c, cell in enumerate(row):
                if cell is not None:
                    yield (r, c), cell

    def neighbours(self, pos: Pos) -> Iterator[tuple[Pos, Territory]]:
        """The territories sharing a side with ``pos`` (never diagonal ones)."""
        for dr, dc in NEIGHBOUR_STEPS:
            other = (pos[0] + dr, pos[1] + dc)
            cell = self.cell(*other)
            if cell is not None:
                yield other, cell

    @property
    def n_territories(self) -> int:
        return sum(1 for _ in self.territories())

    def terrain_counts(self) -> Counter[str]:
        return Counter(t.terrain for _, t in self.territories())

    def icon_counts(self) -> Counter[str]:
        return Counter(t.icon for _, t in self.territories())


_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_TOKEN = re.compile(r"\S+")
_CELL = re.compile(r"^(?P<terrain>[A-Za-z])/(?P<icon>[A-Za-z])$")


def _parse_cell(token: str, line: int, col: int) -> Territory | None:
    if token == ".":
        return None
    m = _CELL.match(token)
    if not m:
        raise TownFormatError(
            f"cannot read cell {token!r} (expected '.' or a territory and an icon letter such as 'D/w')",
            line,
            col,
        )
    # Letters mean the same in either case: the first is always the territory, the second the icon.
    terrain, icon = m["terrain"].upper(), m["icon"].lower()
    if terrain not in TERRAINS:
        names = ", ".join(f"{k} {v}" for k, v in TERRAIN_NAMES.items())
        raise TownFormatError(f"unknown territory {terrain!r} in {token!r} (expected {names})", line, col)
    if icon not in ICONS:
        names = ", ".join(f"{k} {v}" for k, v in ICON_NAMES.items())
        raise TownFormatError(f"unknown icon {icon!r} in {token!r} (expected {names})", line, col + 2)
    return Territory(terrain, icon)


def _lines(text: str) -> list[str]:
    """Split at line ends only, as an editor numbers lines (``splitlines`` would also split at form feeds,
    hiding control characters the parser must report)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def format_town(town: Town, *, header: bool = True) -> str:
    """Write a town in the text format: header lines, then the grid with aligned columns.

    ``parse_town(format_town(town)) == town`` for every town.

    Examples
    --------
    >>> from scoring.wagons.town_text import parse_town
    >>> print(format_town(parse_town("goals: cool-water\\nD/w  P/c\\n.    M/g\\n")), end="")
    goals: cool-water
    D/w  P/c
    .    M/g
    """
    lines = [f"{k}: {v}" for k, v in town.headers] if header else []
    for row in town.grid:
        lines.append("  ".join("." + "  " if cell is None else cell.token() for cell in row).rstrip())
    return "\n".join(lines) + "\n"


def town_from_rows(rows: object) -> Town:
    """Build a town from the JSON ``rows`` form: a list of rows of cell tokens (``"D/w"``, ``"."``).

    Examples
    --------
    >>> town_from_rows([["D/w", "."], ["P/c", "M/g"]]).n_territories
    3
    """
    town = Town(parse_rows(rows, _parse_cell, TownFormatError))
    if town.n_territories == 0:
        raise TownFormatError("the town has no territory (every cell is '.')", 1, 1)
    return town
