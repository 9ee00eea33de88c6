"""Groups, city edges and roads: the shapes every scoring rule counts.

All functions take a :class:`~scoring.city.City` and respect the interstate (blocks on opposite sides of
it are never neighbours). Positions are ``(row, col)`` tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from scoring.city import OPPOSITE, SIDES, STEP, City

Pos = tuple[int, int]


def groups(city: City, zone: str) -> list[frozenset[Pos]]:
    """Every group of ``zone`` blocks connected through shared sides, largest first."""
    seen: set[Pos] = set()
    found: list[frozenset[Pos]] = []
    for r, c, cell in city.blocks():
        if cell.zone != zone or (r, c) in seen:
            continue
        stack, group = [(r, c)], set()
        seen.add((r, c))
        while stack:
            pos = stack.pop()
            group.add(pos)
            for side in SIDES:
                other = city.block_across(*pos, side)
                if other and other not in seen and city.cell(*other).zone == zone:
                    seen.add(other)
                    stack.append(other)
        found.append(frozenset(group))
    found.sort(key=lambda g: (-len(g), sorted(g)))
    return found


def largest_groups(city: City, zone: str) -> list[frozenset[Pos]]:
    """All groups of ``zone`` that tie for the largest size (empty when the zone has no block)."""
    gs = groups(city, zone)
    return [g for g in gs if len(g) == len(gs[0])] if gs else []


def edge_sides(city: City, row: int, col: int) -> str:
    """The sides of the block at (row, col) that lie on the edge of the city (no block across them)."""
    return "".join(s for s in SIDES if city.block_across(row, col, s) is None)


def on_edge(city: City, row: int, col: int) -> bool:
    return bool(edge_sides(city, row, col))


def on_corner_edge(city: City, row: int, col: int) -> bool:
    """Two perpendicular sides on the edge."""
    sides = set(edge_sides(city, row, col))
    return bool(sides & {"N", "S"}) and bool(sides & {"E", "W"})


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


def _connects(city: City, pos: Pos, side: str) -> Pos | None:
    """The neighbouring block whose segment meets this block's segment across ``side``."""
    other = city.block_across(*pos, side)
    if other is None:
        return None
    road = city.cell(*other).road
    return other if road and OPPOSITE[side] in road else None


def _end(city: City, pos: Pos, side: str) -> RoadEnd:
    dr, dc = STEP[side]
    crosses = city.neighbour(*pos, side) is None
    against = None if crosses else city.block_across(*pos, side)
    return RoadEnd(pos, side, (pos[0] + dr, pos[1] + dc), crosses, against)


def roads(city: City) -> list[Road]:
    """Every road in the city, in reading order of its first cell.

    A road's ``cells`` run from one end to the other (for a loop: once round, from its first cell in
    reading order); its ``ends`` are the two unconnected sides, or none for a closed loop.
    """
    seen: set[Pos] = set()
    found: list[Road] = []
    for r, c, cell in city.blocks():
        if not cell.road or (r, c) in seen:
            continue
        component, stack = {(r, c)}, [(r, c)]
        while stack:
            pos = stack.pop()
            for side in city.cell(*pos).road or "":
                other = _connects(city, pos, side)
                if other and other not in component:
                    component.add(other)
                    stack.append(other)
        seen |= component
        open_sides = [
            (pos, side)
            for pos in sorted(component)
            for side in city.cell(*pos).road or ""
            if _connects(city, pos, side) is None
        ]
        start = open_sides[0][0] if open_sides else min(component)
        ordered, prev, pos = [start], None, start
        while True:
            nxt = [
                n
                for s in city.cell(*pos).road or ""
                if (n := _connects(city, pos, s)) and n != prev and n not in ordered
            ]
            if not nxt:
                break
            prev, pos = pos, nxt[0]
            ordered.append(pos)
        ends = tuple(_end(city, p, s) for p, s in open_sides)
        found.append(Road(tuple(ordered), not open_sides, ends))
    return found
