"""A block the cards cannot explain, or call table, read again over a wider search; the city decoded again.

The card decoding (:mod:`vision.city.read_cards`) leaves a cell *unexplained* when no known card fits what the
classifier read there, and reads it as table when that is cheaper than any card: both, where the classifier
read a block, are usually a card placed apart from its neighbours by more than the lattice's per-cell
offsets absorb (up to 4 mm), so the cell's crop shows mostly the next block (a park beside an industrial
block, read as a park) or misses the block's road (an industrial block read without one, a label no card
has). Such a block, when alone, is read again at every shift on a grid of up to :data:`SEARCH_X` and
:data:`SEARCH_Y` of the pitch, each block label taking its best probability over the shifts (where the
block really lies is not known, so each reading is judged at its best position), and the city is decoded
again with those readings. The new decoding is kept only when the cards now explain more of these cells
and every other cell keeps its label (the new evidence is about the searched cells alone); otherwise
nothing changes. Groups of two or more neighbouring such blocks are left alone: they are what a card the
decoder does not know (an expansion's) looks like, and a wide search would find a known card's labels in
their neighbours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scoring.city import STEP, ZONE_NAMES
from vision.backs import BackNumber
from vision.cards import Label
from vision.cells import REFERENCE_AB, CellReading, Classifier, Grid, as_grid, cell_ab
from vision.city.geometry import Geometry
from vision.city.read_cards import CityCards, stack_city
from vision.city.rereads import shifted_readings
from vision.city.result import ScanResult
from vision.city.retake import (
    ONE_ZONE_ADVICE,
    ONE_ZONE_BLOCKS,
    ONE_ZONE_SHARE,
    UNKNOWN_COLOURS_ADVICE,
    UNKNOWN_COLOURS_MISFIT,
    UNSURE_LOOK_ADVICE,
    UNSURE_LOOK_SHARE,
)

__all__ = [
    "SEARCH_STEP",
    "SEARCH_X",
    "SEARCH_Y",
    "read_unexplained_again",
    "refuse_unknown_colours",
    "unexplained_blocks",
    "zone_colour_misfit",
]

# The search reaches 0.3 of the pitch across (13 mm) and 0.2 along (6 mm), in steps of 0.1 pitch: wide
# enough for the 10 mm misplaced edge cards seen on the real-art devset, on a grid as fine as the
# classifier's training jitter (crops up to 10 % off centre), 35 crops a cell.
SEARCH_X = 0.3
SEARCH_Y = 0.2
SEARCH_STEP = 0.1
# A zone's colour is judged on at least this many of its blocks.
MISFIT_CELLS = 3
# A colour cast (the photo's white balance, a tinted lamp) moves every zone's colour alike; a print of other
# colours moves them apart. Zones whose shifts lie within this (a*b*) of their common shift are a cast, and
# the misfit is what is left once that shift is taken out: rendered cities on a pale wood table in cool
# light are shifted 19-22 as a whole and 2.6-4.0 about it; the devset's zones 0.5-3.5 about theirs; every
# random edition the colours tell apart 8.7 or more.
CAST_SPREAD = 6.0


def unexplained_blocks(city: CityCards, readings: Grid) -> list[tuple[int, int]]:
    """The cells read as plain blocks (no expansion mark, not Wrecktar) that no card explains or that the
    decoding calls table, with no such neighbour (row, col), in order."""
    return _lone_blocks(_unexplained(city, readings), readings) if city.as_cards.used else []


def read_unexplained_again(
    geometry: Geometry,
    readings: Grid,
    city: CityCards,
    classify: Classifier,
    backs: Sequence[BackNumber],
    given: Sequence[int] | None,
) -> CityCards:
    """``city`` decoded again with its lone unexplained blocks (:func:`unexplained_blocks`) read over the
    wider search, when that leaves fewer of them and no other cell changes; else ``city`` itself (see the
    module's docstring)."""
    before = _unexplained(city, readings) if city.as_cards.used else set()
    cells = _lone_blocks(before, readings)
    if not cells:
        return city
    xs = np.linspace(-SEARCH_X, SEARCH_X, int(round(2 * SEARCH_X / SEARCH_STEP)) + 1)
    ys = np.linspace(-SEARCH_Y, SEARCH_Y, int(round(2 * SEARCH_Y / SEARCH_STEP)) + 1)
    shifts = [(float(dx), float(dy)) for dy in ys for dx in xs]
    again = as_grid(readings)
    for (r, c), seen in zip(cells, shifted_readings(geometry, cells, shifts, classify), strict=True):
        again[r][c] = best_over_positions(again[r][c], seen)
    redone = stack_city(geometry, again, backs, given)
    fewer = redone.as_cards.used and len(_unexplained(redone, readings)) < len(before)
    return redone if fewer and _labels(redone, cells) == _labels(city, cells) else city


def best_over_positions(reading: CellReading, seen: Sequence[CellReading]) -> CellReading:
    """``reading`` with each block label among the best readings (``alternatives``) of ``seen``, readings
    of the same cell at other positions, at the best probability it had anywhere; its answer stays, as the
    decoding reads the distribution. Only those labels: every label's best over many positions would lift
    the unlikely ones too, until any card could explain the cell; and not "empty", which a crop moved off
    the block reads by design.

    Examples
    --------
    >>> here = CellReading("P", None, 0.8, "P", distribution={("P", None): 0.8, ("I", "NS"): 0.01})
    >>> left = CellReading("I", "NS", 0.9, "I:NS", (("I", "NS", 0.9), (None, None, 0.06)),
    ...                    distribution={("P", None): 0.03, ("I", "NS"): 0.9, (None, None): 0.06})
    >>> sorted(best_over_positions(here, [left]).distribution.items())
    [(('I', 'NS'), 0.9), (('P', None), 0.8)]
    """
    best = dict(reading.distribution)
    for other in seen:
        for zone, road, p in other.alternatives:
            if zone is not None:
                best[(zone, road)] = max(best.get((zone, road), 0.0), p)
    return replace(reading, distribution=best)


def _lone_blocks(cells: set[tuple[int, int]], readings: Grid) -> list[tuple[int, int]]:
    """Those of ``cells`` read as plain blocks with no such neighbour among them, in order."""
    found = {rc for rc in cells if _plain_block(readings[rc[0]][rc[1]])}
    return sorted((r, c) for r, c in found if not any((r + dr, c + dc) in found for dr, dc in STEP.values()))


def _plain_block(reading: CellReading) -> bool:
    marked = reading.poi or reading.construction
    return reading.kind == "block" and not marked and bool(reading.distribution)


def _labels(city: CityCards, leave_out: Sequence[tuple[int, int]]) -> dict[tuple[int, int], Label]:
    skip = set(leave_out)
    return {rc: d.label for rc, d in city.as_cards.decoding.cells.items() if rc not in skip}


def _unexplained(city: CityCards, readings: Grid) -> set[tuple[int, int]]:
    """The cells no card explains, and those read as a plain block that the decoding calls table."""
    return {
        rc
        for rc, d in city.as_cards.decoding.cells.items()
        if d.source == "kept" or (d.source == "empty" and _plain_block(readings[rc[0]][rc[1]]))
    }


def zone_colour_misfit(geometry: Geometry, city: CityCards) -> float:
    """How far the photo's zones lie from the colours the classifier learned them in: for each zone read
    on at least :data:`MISFIT_CELLS` blocks, the distance (a*b*) of its blocks' median colour from
    :data:`~vision.cells.zone_colour.REFERENCE_AB`; the second largest of these (one zone may be off in
    odd light, a print of other colours moves several), or, where the zones are shifted alike (a colour
    cast: :data:`CAST_SPREAD`), the second largest distance from their common shift. 0 when fewer than two
    zones are read so."""
    readings = city.as_cards.readings
    cells = [
        (r, c)
        for r, row in enumerate(readings)
        for c, rd in enumerate(row)
        if rd is not None and rd.kind == "block" and rd.zone
    ]
    if not cells:
        return 0.0
    ab = cell_ab(geometry.view.colours(), geometry.lattice, cells)
    zones = np.array([readings[r][c].zone for r, c in cells])
    shifts = np.array(
        [
            np.median(ab[zones == z], axis=0) - np.array(REFERENCE_AB[z])
            for z in REFERENCE_AB
            if (zones == z).sum() >= MISFIT_CELLS
        ]
    )
    if len(shifts) < 2:
        return 0.0
    off = float(np.sort(np.hypot(shifts[:, 0], shifts[:, 1]))[-2])
    about = shifts - np.median(shifts, axis=0)
    spread = float(np.sort(np.hypot(about[:, 0], about[:, 1]))[-2])
    return off if spread >= CAST_SPREAD else spread


def one_zone_share(city: CityCards) -> tuple[str, float, int] | None:
    """The zone, share and block count where at least :data:`~vision.city.retake.ONE_ZONE_SHARE` of a city
    of :data:`~vision.city.retake.ONE_ZONE_BLOCKS` blocks or more read as one zone (no city of the known
    cards: each shows every zone once); None otherwise."""
    zones = [rd.zone for row in city.as_cards.readings for rd in row if rd is not None and rd.kind == "block"]
    counts = Counter(z for z in zones if z)
    blocks = sum(counts.values())
    if blocks < ONE_ZONE_BLOCKS:
        return None
    zone, most = counts.most_common(1)[0]
    return (zone, most / blocks, blocks) if most >= ONE_ZONE_SHARE * blocks else None


def refuse_unknown_colours(result: ScanResult) -> ScanResult:
    """``result`` asking to teach the deck (``needs_deck``, no score) when its zones' colours are far from
    the shipped print's (:func:`zone_colour_misfit`), or when it was retaken with most of its blocks in
    doubt; as it is otherwise. For a scan by the shipped
    classifier only: a taught print's look reads its own colours."""
    if result.geometry is None or result.cards_read is None:
        return result
    one_zone = one_zone_share(result.cards_read)
    if one_zone is not None:
        zone, share, blocks = one_zone
        advice = ONE_ZONE_ADVICE.format(share=share, blocks=blocks, zone=ZONE_NAMES[zone].lower())
        return replace(result, retake=advice, needs_deck=True)
    misfit = zone_colour_misfit(result.geometry, result.cards_read)
    if misfit >= UNKNOWN_COLOURS_MISFIT:
        return replace(result, retake=UNKNOWN_COLOURS_ADVICE.format(misfit=misfit), needs_deck=True)
    return _unsure_look(result)


def _unsure_look(result: ScanResult) -> ScanResult:
    """A retaken ``result`` with :data:`~vision.city.retake.UNSURE_LOOK_SHARE` or more of its blocks in doubt
    asking to teach the deck first (``needs_deck``), its own advice kept after; as it is otherwise. The
    doubts counted are the result's, those whose other reading changes the score; the retake's own advice
    counts every cell that could be read otherwise (:func:`~vision.city.retake.doubt_count`), and the
    advice says which count is which."""
    if result.retake is None or result.needs_deck:
        return result
    blocks = sum(1 for _ in result.city.blocks())
    doubted = sum(1 for d in result.doubts if result.city.grid[d.row][d.col].is_block)
    if not blocks or doubted < UNSURE_LOOK_SHARE * blocks:
        return result
    advice = UNSURE_LOOK_ADVICE.format(doubted=doubted, blocks=blocks, advice=result.retake)
    return replace(result, retake=advice, needs_deck=True)
