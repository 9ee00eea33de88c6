"""The colour stage: the photo's zone colours mapped to where the classifier learned them, and the cells
read again when the photo shifts them (the maths is :mod:`vision.cells.zone_colour`)."""

from __future__ import annotations

from dataclasses import replace

from vision.cells import SURE_BLOCK, Classifier, Grid, cell_ab, fit_zone_map, read_lattice, worth_applying
from vision.city.geometry import Geometry

__all__ = ["normalise_zone_colours"]


def normalise_zone_colours(geometry: Geometry, readings: Grid, classify: Classifier) -> tuple[Geometry, Grid]:
    """Correct the photo's zone-dependent colour shift from its own blocks and read the cells again; the
    geometry and readings as they were when no correction is needed.

    The blocks' colours are measured on the white-balanced view at the crops' resolution (the same pixels
    the classifier sees), and the marks (a yellow frame, a hazard barrier) keep the first reading's: the
    map is fitted for the zones.
    """
    counts = geometry.counts(readings)
    cells = [
        (r, c)
        for r, row in enumerate(readings)
        for c, rd in enumerate(row)
        if rd.kind == "block" and rd.confidence >= SURE_BLOCK and counts[r, c]
    ]
    view = geometry.view
    zone_map = fit_zone_map(
        cell_ab(view.colours(), geometry.lattice, cells), [readings[r][c].zone or "" for r, c in cells]
    )
    if zone_map is None or not worth_applying(zone_map):
        return geometry, readings
    geometry = replace(geometry, view=view.recoloured(zone_map))
    again = read_lattice(classify, geometry.view, geometry.lattice)
    return geometry, [
        [a.with_marks_of(f) for a, f in zip(ra, rf, strict=True)]
        for ra, rf in zip(again, readings, strict=True)
    ]
