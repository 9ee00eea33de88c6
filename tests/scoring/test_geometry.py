"""Groups, edges and roads (scoring.geometry) on hand-made cities."""

from __future__ import annotations

from scoring.city import block
from scoring.geometry import (
    edge_sides,
    groups,
    largest_groups,
    on_corner_edge,
    on_edge,
    roads,
    shape,
)
from tests.conftest import city


def test_groups_connect_through_sides_not_corners() -> None:
    c = city(
        """\
        R  R  C
        C  R  .
        R  C  R
        """
    )
    assert groups(c, "R") == [frozenset({(0, 0), (0, 1), (1, 1)}), frozenset({(2, 0)}), frozenset({(2, 2)})]
    assert groups(c, "P") == []


def test_largest_groups_reports_every_tied_group() -> None:
    c = city("R  R  C  R  R\n")
    assert largest_groups(c, "R") == [frozenset({(0, 0), (0, 1)}), frozenset({(0, 3), (0, 4)})]
    assert largest_groups(c, "I") == []


def test_edge_sides_interior_corner_and_inner_gap() -> None:
    c = city(
        """\
        R  R  R  R
        R  R  .  R
        R  R  R  R
        """
    )
    assert edge_sides(c, 0, 0) == "NW" and on_corner_edge(c, 0, 0)
    assert edge_sides(c, 0, 1) == "N" and not on_corner_edge(c, 0, 1)
    assert edge_sides(c, 1, 1) == "E" and on_edge(c, 1, 1)  # faces the enclosed gap: on the edge (ruling)
    assert shape(c).enclosed_gaps == frozenset({(1, 2)})
    assert shape(c).inner_edge_sides((1, 1)) == "E"
    assert edge_sides(c, 1, 2) == ""  # the gap itself has blocks on every side


def test_gap_open_to_the_outside_is_not_enclosed() -> None:
    c = city("R  R  R\nR  .  .\nR  R  R\n")
    assert shape(c).enclosed_gaps == frozenset()


def test_straight_road_with_ends_at_edge() -> None:
    (road,) = roads(city("R:EW  C:EW  I:EW\n"))
    assert road.cells == ((0, 0), (0, 1), (0, 2)) and road.sections == 3 and not road.loop
    assert [(e.cell, e.side, e.at_edge) for e in road.ends] == [((0, 0), "W", True), ((0, 2), "E", True)]


def test_road_dead_ending_against_a_park() -> None:
    (road,) = roads(city("P  R:EW  C:EW\n"))
    west = next(e for e in road.ends if e.side == "W")
    assert west.against == (0, 0) and not west.at_edge and west.beyond == (0, 0)


def test_segments_must_meet_at_the_shared_side() -> None:
    # C1 runs N–S, so the E–W road from A1 dead-ends against it; they are two roads.
    found = roads(city("R:EW  C:EW  I:NS\n"))
    assert [r.cells for r in found] == [((0, 0), (0, 1)), ((0, 2),)]
    assert found[0].ends[1].against == (0, 2)


def test_loop_and_road_order() -> None:
    c = city(
        """\
        R:SE  C:SW  I:EW
        I:NE  R:NW  .
        """
    )
    loop, other = roads(c)
    assert loop.loop and loop.ends == () and loop.sections == 4
    assert set(loop.cells) == {(0, 0), (0, 1), (1, 0), (1, 1)} and loop.cells[0] == (0, 0)
    # consecutive cells along the loop are side neighbours, and it closes on itself
    ring = [*loop.cells, loop.cells[0]]
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(ring, ring[1:], strict=False))
    assert other.cells == ((0, 2),)
    assert {e.side: e.against for e in other.ends} == {"W": (0, 1), "E": None}


def test_curved_road_cells_in_path_order() -> None:
    c = city(
        """\
        R:EW  C:SW  .
        .     I:NE  R:EW
        """
    )
    (road,) = roads(c)
    assert road.cells == ((0, 0), (0, 1), (1, 1), (1, 2))


def test_interstate_separates_neighbours_and_roads() -> None:
    c = city(
        """\
        R:NS  R
        ====
        R:NS  R
        """
    )
    assert len(groups(c, "R")) == 2
    assert edge_sides(c, 0, 1) == "NSE"
    upper, lower = roads(c)
    south = next(e for e in upper.ends if e.side == "S")
    assert south.interstate and not south.at_edge and south.against is None
    assert lower.cells == ((1, 0),)


def test_shape_is_cached_per_city_object() -> None:
    c = city("R:EW  C:EW\n")
    assert shape(c) is shape(c)
    changed = c.with_cell(0, 1, block("C"))
    assert shape(changed) is not shape(c)
    assert len(roads(changed)) == 1 and roads(changed)[0].cells == ((0, 0),)
    assert c == city("R:EW  C:EW\n")  # the cache is not part of the city's value


def test_rotation_preserves_shapes() -> None:
    c = city(
        """\
        R:SE  C:SW  I:EW  P
        I:NE  R:NW  .     C:NS
        """
    )
    turned = c.rotated()
    assert sorted(len(g) for g in groups(turned, "R")) == sorted(len(g) for g in groups(c, "R"))
    assert sorted(r.sections for r in roads(turned)) == sorted(r.sections for r in roads(c))
    assert sum(r.loop for r in roads(turned)) == 1
