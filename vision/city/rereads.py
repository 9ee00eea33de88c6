"""Cells read again: the lattice grown towards blocks beyond the card region, doubtful cells read a little
shifted, and card-region cells read as empty searched for their block.

Each function takes the geometry, the readings so far and the classifier, and returns the readings (and
for :func:`grow_to_blocks` the geometry) with what the re-reads found; all re-reads see the view's own
colours (:class:`vision.cells.topdown.TopDown`), so a few cells read alone keep the city's white balance.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.cells import CellReading, Classifier, Grid, as_grid, read_lattice
from vision.city.geometry import Geometry, with_lattice

__all__ = ["find_lost_blocks", "grow_to_blocks", "refine_doubtful", "shifted_readings"]

# Blocks read confidently on the lattice's outer ring mean the card region missed part of the city (a
# table close in colour to the blocks): the lattice then grows that way, at most this many times.
MAX_GROWTH = 8
# A cell read less surely than this (and on the card region, or likely to hold a card) is read again at
# eight shifts of REFINE_SHIFT pitch; a shifted reading replaces it when REFINE_MARGIN surer.
REFINE_BELOW = 0.8
REFINE_CARD = 0.2
REFINE_SHIFT = 0.05
REFINE_MARGIN = 0.1
# A card-region cell read as empty is searched for a block up to SEARCH_SHIFT pitch away, and takes one read
# at SEARCH_ACCEPT or more (see find_lost_blocks).
SEARCH_SHIFT = 0.2
SEARCH_ACCEPT = 0.85


def grow_to_blocks(geometry: Geometry, readings: Grid, classify: Classifier) -> tuple[Geometry, Grid]:
    """Grow the lattice by a line of cells on every side whose outermost line holds a block that counts,
    and read it again, until no side does (at most :data:`MAX_GROWTH` times).

    The card region comes from colour and edges, and on a table close in colour to some blocks it can
    miss whole cards at the city's edge; the classifier still sees blocks there, and the lattice, fitted
    on the same plane, extends to them.
    """
    for _ in range(MAX_GROWTH):
        held = geometry.holds_card(readings)
        sides = {
            "top": int(held[0].any()),
            "bottom": int(held[-1].any()),
            "left": int(held[:, 0].any()),
            "right": int(held[:, -1].any()),
        }
        if not any(sides.values()):
            break
        occupied = np.pad(
            geometry.occupied, ((sides["top"], sides["bottom"]), (sides["left"], sides["right"]))
        )
        geometry = with_lattice(geometry, geometry.lattice.padded(**sides), occupied)
        readings = read_lattice(classify, geometry.view, geometry.lattice)
    return geometry, readings


def _doubtful_cells(geometry: Geometry, readings: Grid) -> list[tuple[int, int]]:
    """Visible cells read with less than :data:`REFINE_BELOW` confidence that may hold a card."""
    return [
        (r, c)
        for r, row in enumerate(readings)
        for c, rd in enumerate(row)
        if geometry.visible[r, c]
        and rd.place_confidence < REFINE_BELOW
        and (geometry.occupied[r, c] or rd.card_probability >= REFINE_CARD)
    ]


def refine_doubtful(geometry: Geometry, readings: Grid, classify: Classifier) -> Grid:
    """Read each doubtful cell again a little shifted, and keep the clearest reading.

    Hand placement moves a card by up to ~3 mm and the lattice's per-cell offsets come from the card
    region's edges, so a cell at the city's edge, or one whose card sits apart from its neighbours, can be
    cropped off-centre enough to lose its road or read as empty. Shifts of :data:`REFINE_SHIFT` of the
    pitch stay well inside the block (the classifier is trained on crops up to 10 % off), so a clearer
    reading is the same block seen better, not the neighbour.
    """
    cells = _doubtful_cells(geometry, readings)
    if not cells:
        return readings
    shifts = [(dx * REFINE_SHIFT, dy * REFINE_SHIFT) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    out = as_grid(readings)
    for (r, c), seen in zip(cells, shifted_readings(geometry, cells, shifts, classify), strict=True):
        best = max(seen, key=lambda rd: rd.place_confidence)
        if best.place_confidence > out[r][c].place_confidence + REFINE_MARGIN:
            out[r][c] = best.with_marks_of(out[r][c])
    return out


def find_lost_blocks(geometry: Geometry, readings: Grid, classify: Classifier) -> Grid:
    """Look for a block around each card-region cell read as empty, and take one read confidently.

    The colour mask says a card lies there, so "empty" most likely means the lattice centre missed the
    block: a card at the city's edge placed a few millimetres apart from the cards the offsets were fitted
    on, or the homography drifting at the far end of a tilted city. Each such cell is read again at half
    and all of :data:`SEARCH_SHIFT` of the pitch in eight directions, and the most confident block reading
    replaces "empty" when it reaches :data:`SEARCH_ACCEPT` (a true hole reads empty, or its neighbours'
    edges doubtfully, at every shift).
    """
    cells = [
        (r, c)
        for r, row in enumerate(readings)
        for c, rd in enumerate(row)
        if geometry.occupied[r, c] and geometry.visible[r, c] and rd.kind == "empty"
    ]
    if SEARCH_SHIFT <= 0 or not cells:
        return readings
    shifts = [
        (dx * f * SEARCH_SHIFT, dy * f * SEARCH_SHIFT)
        for f in (0.5, 1.0)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if dx or dy
    ]
    out = as_grid(readings)
    for (r, c), seen in zip(cells, shifted_readings(geometry, cells, shifts, classify), strict=True):
        blocks = [rd for rd in seen if rd.kind == "block"]
        if blocks:
            best = max(blocks, key=lambda rd: rd.confidence)
            if best.confidence >= SEARCH_ACCEPT:
                out[r][c] = best
    return out


def shifted_readings(
    geometry: Geometry,
    cells: Sequence[tuple[int, int]],
    shifts: Sequence[tuple[float, float]],
    classify: Classifier,
) -> list[list[CellReading]]:
    """The classifier's readings of each cell at each shift (in pitches), in one call: per cell, a list."""
    lat = geometry.lattice
    centres = [
        (x + dx * lat.pitch_x, y + dy * lat.pitch_y)
        for x, y in (lat.center(r, c) for r, c in cells)
        for dx, dy in shifts
    ]
    read = classify(geometry.view, np.array(centres, float), (lat.pitch_x, lat.pitch_y))
    k = len(shifts)
    return [list(read[i * k : (i + 1) * k]) for i in range(len(cells))]
