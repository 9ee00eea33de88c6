"""The roads of a city as the road penalty counts them: with an interstate, each side's part is one road.

Beaches (Scenic Route) and Interstate both count roads this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import road_text
from scoring.city import City
from scoring.expansions.errors import InterstateError
from scoring.geometry import Pos, Road, roads

SIDES = ("north", "south")


@dataclass(frozen=True)
class RoadGroup:
    """What the road penalty counts as one road: a plain road, or one side's part of the interstate.

    ``side`` is ``"north"``/``"south"`` for an interstate part, whose ``roads`` are the block roads that reach
    it (possibly none); for a plain road ``side`` is ``None`` and ``roads`` holds that one road.
    """

    roads: tuple[Road, ...]
    side: str | None = None

    @property
    def cells(self) -> frozenset[Pos]:
        return frozenset(p for road in self.roads for p in road.cells)

    def text(self) -> str:
        if self.side is None:
            return road_text(self.roads[0])
        joined = "; ".join(road_text(r) for r in self.roads)
        return f"the interstate's {self.side} part" + (f" (joined by {joined})" if joined else "")


def side_of(city: City, pos: Pos) -> str:
    """``"north"`` or ``"south"``: which side of the interstate the cell at ``pos`` lies on.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> city = parse_city("R  C\\n====\\nP  I\\n")
    >>> side_of(city, (0, 1)), side_of(city, (1, 0))
    ('north', 'south')
    """
    if city.interstate is None:
        raise InterstateError("this city has no interstate line (a row of '=' between two rows)")
    return "north" if pos[0] < city.interstate else "south"


def road_groups(city: City, parts: Sequence[str] = SIDES) -> list[RoadGroup]:
    """The roads of ``city`` as the road penalty counts them.

    Without an interstate every road is its own group. With one, each side named in ``parts`` contributes its
    interstate part first (joined by every road with an end at the interstate on that side), then every
    other road follows in reading order.
    """
    found = roads(city)
    if city.interstate is None:
        return [RoadGroup((r,)) for r in found]
    joined: dict[str, list[Road]] = {p: [] for p in parts}
    plain: list[RoadGroup] = []
    for road in found:
        side = side_of(city, road.cells[0])
        if side in joined and any(end.interstate for end in road.ends):
            joined[side].append(road)
        else:
            plain.append(RoadGroup((road,)))
    return [RoadGroup(tuple(joined[p]), p) for p in parts] + plain
