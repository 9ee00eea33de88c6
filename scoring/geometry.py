"""Groups, city edges and roads: the shapes every scoring rule counts.

All functions take a :class:`~scoring.city.City` and respect the interstate (blocks on opposite sides of
it are never neighbours). Positions are ``(row, col)`` tuples.

The shapes are computed once per city object by :func:`shape` and cached on it: the 18 scoring cards, the
base score and the expansions all ask for the same groups and roads, and scoring a whole city must stay
well under a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from scoring.city import OPPOSITE, SIDES, STEP, Cell, City

Pos = tuple[int, int]

_CACHE_ATTR = "_geometry_shape"
_DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True)
class RoadEnd:
    """Where a road stops: the last block, the side it leaves through, and what lies across that side."""

    cell: Pos
    side: str
    beyond: Pos
    interstate: bool  # the interstate runs across this side
    against: Pos | None  # the block the road dead-ends against, if any

    @property
    def at_edge(self) -> bool:
        return self.against is None and not self.interstate


@dataclass(frozen=True)
class Road:
    """A maximal connected stretch of road segments; ``cells`` in order along the road."""

    cells: tuple[Pos, ...]
    loop: bool
    ends: tuple[RoadEnd, ...]

    @property
    def sections(self) -> int:
        return len(self.cells)

    @cached_property
    def cell_set(self) -> frozenset[Pos]:
        return frozenset(self.cells)


class CityShape:
    """Everything geometric about one city, computed lazily and at most once.

    ``blocks`` maps every block position to its cell, in reading order; ``across[pos][side]`` is the block
    across that side (``None`` when there is none or the interstate separates them).
    """

    def __init__(self, city: City) -> None:
        self.city = city
        inter = city.interstate
        self.blocks: dict[Pos, Cell] = {
            (r, c): cell
            for r, row in enumerate(city.grid)
            for c, cell in enumerate(row)
            if cell.kind == "block"
        }
        blocks = self.blocks
        self.across: dict[Pos, dict[str, Pos | None]] = {}
        for r, c in blocks:
            sides: dict[str, Pos | None] = {}
            for side in SIDES:
                dr, dc = STEP[side]
                other = (r + dr, c + dc)
                crosses = inter is not None and (r < inter) != (other[0] < inter)
                sides[side] = other if other in blocks and not crosses else None
            self.across[(r, c)] = sides

    def same_side(self, a: Pos, b: Pos) -> bool:
        inter = self.city.interstate
        return inter is None or (a[0] < inter) == (b[0] < inter)

    @cached_property
    def edge(self) -> dict[Pos, str]:
        """The edge sides of every block (sides with no block across), in ``N S E W`` order."""
        return {
            pos: "".join(s for s, other in sides.items() if other is None)
            for pos, sides in self.across.items()
        }

    @cached_property
    def enclosed_gaps(self) -> frozenset[Pos]:
        """Cells without a block that cannot be reached from outside the grid without crossing a block.

        Used only to tell the player when the edge ruling (sides facing an inner gap are on the edge)
        decided a line.
        """
        n_rows, n_cols = self.city.n_rows, self.city.n_cols
        empty = {(r, c) for r in range(n_rows) for c in range(n_cols) if (r, c) not in self.blocks}
        # Everything beyond the grid is outside; flood inwards from the empty cells on the grid's border.
        stack = [(r, c) for r, c in empty if r in (0, n_rows - 1) or c in (0, n_cols - 1)]
        outside = set(stack)
        while stack:
            r, c = stack.pop()
            for other in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if other in empty and other not in outside:
                    outside.add(other)
                    stack.append(other)
        return frozenset(empty - outside)

    def inner_edge_sides(self, pos: Pos) -> str:
        """The edge sides of ``pos`` that face an enclosed gap rather than the outside of the city."""
        gaps = self.enclosed_gaps
        r, c = pos
        return "".join(s for s in self.edge[pos] if (r + STEP[s][0], c + STEP[s][1]) in gaps)

    def diagonal_blocks(self, pos: Pos) -> list[Pos]:
        """Blocks touching ``pos`` only corner to corner (same side of the interstate)."""
        r, c = pos
        return [
            other
            for dr, dc in _DIAGONALS
            if (other := (r + dr, c + dc)) in self.blocks and self.same_side(pos, other)
        ]

    @cached_property
    def rows(self) -> dict[int, list[Pos]]:
        """Blocks by lattice row, for rows holding at least one block."""
        out: dict[int, list[Pos]] = {}
        for pos in self.blocks:
            out.setdefault(pos[0], []).append(pos)
        return out

    @cached_property
    def columns(self) -> dict[int, list[Pos]]:
        """Blocks by lattice column, for columns holding at least one block."""
        out: dict[int, list[Pos]] = {}
        for pos in sorted(self.blocks, key=lambda p: (p[1], p[0])):
            out.setdefault(pos[1], []).append(pos)
        return dict(sorted(out.items()))

    @cached_property
    def zone_groups(self) -> dict[str, list[frozenset[Pos]]]:
        """Every zone's groups, largest first (ties in reading order of their first cell)."""
        blocks, across = self.blocks, self.across
        seen: set[Pos] = set()
        found: dict[str, list[frozenset[Pos]]] = {z: [] for z in "RCIP"}
        for start, cell in blocks.items():
            if start in seen:
                continue
            zone = cell.zone
            stack, group = [start], [start]
            seen.add(start)
            while stack:
                pos = stack.pop()
                for other in across[pos].values():
                    if other is not None and other not in seen and blocks[other].zone == zone:
                        seen.add(other)
                        stack.append(other)
                        group.append(other)
            found.setdefault(zone or "?", []).append(frozenset(group))
        for gs in found.values():
            gs.sort(key=lambda g: (-len(g), min(g)))
        return found

    @cached_property
    def links(self) -> dict[Pos, dict[str, Pos | None]]:
        """For every road segment, the block its segment joins across each of its two sides (or ``None``)."""
        blocks, across = self.blocks, self.across
        out: dict[Pos, dict[str, Pos | None]] = {}
        for pos, cell in blocks.items():
            if not cell.road:
                continue
            sides: dict[str, Pos | None] = {}
            for side in cell.road:
                other = across[pos][side]
                road = blocks[other].road if other is not None else None
                sides[side] = other if road and OPPOSITE[side] in road else None
            out[pos] = sides
        return out

    @cached_property
    def roads(self) -> list[Road]:
        """Every road, in reading order of its first cell (see :func:`roads`)."""
        links = self.links
        seen: set[Pos] = set()
        found: list[Road] = []
        for first in links:
            if first in seen:
                continue
            component, stack = {first}, [first]
            while stack:
                pos = stack.pop()
                for other in links[pos].values():
                    if other is not None and other not in component:
                        component.add(other)
                        stack.append(other)
            seen |= component
            open_sides = [
                (pos, side)
                for pos in sorted(component)
                for side, other in links[pos].items()
                if other is None
            ]
            start = open_sides[0][0] if open_sides else min(component)
            ordered, visited, pos = [start], {start}, start
            while True:
                nxt = next((o for o in links[pos].values() if o is not None and o not in visited), None)
                if nxt is None:
                    break
                ordered.append(nxt)
                visited.add(nxt)
                pos = nxt
            ends = tuple(self._end(p, s) for p, s in open_sides)
            found.append(Road(tuple(ordered), not open_sides, ends))
        return found

    def _end(self, pos: Pos, side: str) -> RoadEnd:
        dr, dc = STEP[side]
        beyond = (pos[0] + dr, pos[1] + dc)
        crosses = not self.same_side(pos, beyond)
        return RoadEnd(pos, side, beyond, crosses, None if crosses else self.across[pos][side])


def shape(city: City) -> CityShape:
    """The (cached) :class:`CityShape` of ``city``.

    The cache lives on the city object itself: a ``City`` is immutable, so its shape never goes stale, and
    every derived city (``with_cell``, ``rotated``) is a new object with a cache of its own.
    """
    cached = city.__dict__.get(_CACHE_ATTR)
    if cached is None:
        cached = CityShape(city)
        object.__setattr__(city, _CACHE_ATTR, cached)  # City is frozen; the cache is not one of its fields
    return cached


def groups(city: City, zone: str) -> list[frozenset[Pos]]:
    """Every group of ``zone`` blocks connected through shared sides, largest first.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> [sorted(g) for g in groups(parse_city("P  P  R\\nR  C  P\\n"), "P")]
    [[(0, 0), (0, 1)], [(1, 2)]]
    """
    return list(shape(city).zone_groups.get(zone, ()))


def largest_groups(city: City, zone: str) -> list[frozenset[Pos]]:
    """All groups of ``zone`` that tie for the largest size (empty when the zone has no block).

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> [sorted(g) for g in largest_groups(parse_city("P  R  P\\n"), "P")]
    [[(0, 0)], [(0, 2)]]
    """
    gs = shape(city).zone_groups.get(zone, [])
    return [g for g in gs if len(g) == len(gs[0])] if gs else []


def edge_sides(city: City, row: int, col: int) -> str:
    """The sides of the block at (row, col) that lie on the edge of the city (no block across them).

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> city = parse_city("R  C  I\\nP  R  C\\nI  P  R\\n")
    >>> edge_sides(city, 0, 0), edge_sides(city, 1, 1)
    ('NW', '')
    """
    edge = shape(city).edge.get((row, col))
    if edge is None:  # not a block: still answer which sides have no block across them
        return "".join(s for s in SIDES if city.block_across(row, col, s) is None)
    return edge


def on_edge(city: City, row: int, col: int) -> bool:
    return bool(edge_sides(city, row, col))


def on_corner_edge(city: City, row: int, col: int) -> bool:
    """Two perpendicular sides on the edge."""
    return is_corner(edge_sides(city, row, col))


def is_corner(edge: str) -> bool:
    """Whether a block with these edge sides has two perpendicular sides on the edge.

    Examples
    --------
    >>> is_corner("NW"), is_corner("NS")
    (True, False)
    """
    return ("N" in edge or "S" in edge) and ("E" in edge or "W" in edge)


def roads(city: City) -> list[Road]:
    """Every road in the city, in reading order of its first cell.

    A road's ``cells`` run from one end to the other (for a loop: once round, from its first cell in
    reading order); its ``ends`` are the two unconnected sides, or none for a closed loop.
    """
    return list(shape(city).roads)
