"""Simulated play: random legal Sprawlopolis cities built card by card under the placement rules.

The lattice is the block lattice: a card whose top-left block lies at lattice ``(row, col)`` covers the
2×2 cells ``(row, col) .. (row + 1, col + 1)``. Cards are played in order, each on top of everything played
before it, so the visible city is, at every cell, the block of the last card covering that cell.

Placement rules (base rule book, ``shared/seeds/004_*.txt``):

- cards lie horizontally, turned by 0° or 180° only, snapped to the block lattice;
- a new card must overlap the city (cover at least one block) or share at least one side of a block with
  it; touching only at a corner is not enough;
- a new card goes on top; nothing is ever tucked underneath (guaranteed here by play order).

Expansions, behind flags of :func:`simulate_play`:

- **Wrecktar**: placed on top of the last card played, covering it entirely; never covered afterwards.
- **Points of Interest**: laid first; the starting card covers one half of it (shifted by one row or one
  column). Its layout is not in the spec, so the simulator gives it one block of each zone without roads and
  puts the Point of Interest block in the uncovered half (an assumption, stated in ``Play.notes``).
- **Construction Zones**: the construction cards' layouts are not in the spec either, so the simulator marks
  one random block of some played cards as an unfinished construction zone; the mark stays visible only if
  no later card covers that block.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.city import EMPTY, Cell, City, block
from scoring.layouts import LAYOUTS, card_blocks

Pos = tuple[int, int]
CardKind = Literal["city", "poi", "wrecktar"]

#: Card numbers; a finished base game plays 15 of them and sets 3 aside as scoring cards.
ALL_CARDS = tuple(sorted(LAYOUTS))
#: Zones of the Point of Interest card as the simulator draws it (TL, TR, BL, BR); see the module note.
POI_ZONES = ("R", "C", "I", "P")


@dataclass(frozen=True)
class Placement:
    """One card on the table: its top-left block at lattice ``(row, col)``, covering 2×2 cells.

    ``number`` is the card number (1–18) for city cards and 0 for the Point of Interest card and Wrecktar,
    which ``kind`` tells apart. ``rotated`` means turned by 180°.
    """

    number: int
    rotated: bool
    row: int
    col: int
    kind: CardKind = "city"

    def cells(self) -> tuple[Pos, Pos, Pos, Pos]:
        """The four lattice cells this card covers: TL, TR, BL, BR in lattice terms."""
        r, c = self.row, self.col
        return ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))

    def shifted(self, drow: int, dcol: int) -> Placement:
        return Placement(self.number, self.rotated, self.row + drow, self.col + dcol, self.kind)


@dataclass(frozen=True)
class Play:
    """A finished simulated game.

    ``placements`` are in play order (index 0 lies at the bottom) and normalised so that the city's
    top-left lattice cell is (0, 0). ``city`` is the visible top-most block at every cell, with the three
    ``scoring_cards`` in its ``cards`` header. ``poi_block`` is the lattice cell of the Point of Interest
    block (visible or not), ``construction`` the ``(placement index, cell)`` pairs marked as construction
    zones when their card was played (the mark is visible only while that card is on top there).
    ``notes`` lists the assumptions made for expansions whose look is unknown.
    """

    placements: tuple[Placement, ...]
    scoring_cards: tuple[int, int, int]
    city: City
    poi_block: Pos | None = None
    construction: frozenset[tuple[int, Pos]] = frozenset()
    notes: tuple[str, ...] = field(default=())

    def top_index_at(self, row: int, col: int) -> int | None:
        """Index into ``placements`` of the top-most card covering (row, col), or ``None``."""
        for i in range(len(self.placements) - 1, -1, -1):
            if (row, col) in self.placements[i].cells():
                return i
        return None

    def top_card_at(self, row: int, col: int) -> Placement | None:
        """The top-most card covering (row, col), or ``None`` when no card lies there."""
        i = self.top_index_at(row, col)
        return None if i is None else self.placements[i]


def card_cell(p: Placement, row: int, col: int) -> Cell:
    """The block of card ``p`` at lattice (row, col), which ``p`` must cover (no expansion marks)."""
    dr, dc = row - p.row, col - p.col
    if not (0 <= dr <= 1 and 0 <= dc <= 1):
        raise ValueError(f"card at ({p.row}, {p.col}) does not cover ({row}, {col})")
    if p.kind == "wrecktar":
        return Cell("wrecktar")
    if p.kind == "poi":
        return block(POI_ZONES[dr * 2 + dc])
    return card_blocks(p.number, p.rotated)[dr][dc]


def _neighbours(pos: Pos) -> Iterable[Pos]:
    r, c = pos
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def touches(p: Placement, occupied: set[Pos] | frozenset[Pos]) -> bool:
    """True when ``p`` covers an occupied cell or shares a block side with one (a corner is not enough)."""
    cells = set(p.cells())
    if cells & occupied:
        return True
    return any(n in occupied for cell in cells for n in _neighbours(cell))


def placement_problems(placements: Sequence[Placement]) -> list[str]:
    """Every rule broken by a sequence of placements in play order (empty when the play is legal).

    Checks: card numbers are valid and used once; each card after the first overlaps the city or shares a
    side with it; Wrecktar covers exactly the card played just before it and is never covered; a Point of
    Interest card comes first and the next card covers exactly one half of it.
    """
    problems: list[str] = []
    occupied: set[Pos] = set()
    used: set[int] = set()
    wreck: set[Pos] = set()
    for i, p in enumerate(placements):
        where = f"card {i + 1} ({p.kind} {p.number} at row {p.row}, col {p.col})"
        if p.kind == "city":
            if p.number not in LAYOUTS:
                problems.append(f"{where}: no city card has number {p.number}")
            elif p.number in used:
                problems.append(f"{where}: card {p.number} is played twice")
            used.add(p.number)
        elif p.number != 0:
            problems.append(f"{where}: a {p.kind} card has number 0")
        if p.kind == "poi" and i != 0:
            problems.append(f"{where}: the Point of Interest card must be laid first")
        if i > 0 and placements[0].kind == "poi" and i == 1:
            shared = set(p.cells()) & set(placements[0].cells())
            if len(shared) != 2:
                problems.append(f"{where}: the starting card must cover half of the Point of Interest")
        if p.kind == "wrecktar":
            if i == 0 or placements[i - 1].cells() != p.cells() or placements[i - 1].kind != "city":
                problems.append(f"{where}: Wrecktar must cover exactly the last city card played")
        elif wreck & set(p.cells()):
            problems.append(f"{where}: covers Wrecktar, which is never covered")
        if i > 0 and not touches(p, occupied):
            problems.append(f"{where}: neither overlaps nor shares a side with the city")
        occupied.update(p.cells())
        if p.kind == "wrecktar":
            wreck.update(p.cells())
    return problems


def legal(placements: Sequence[Placement]) -> bool:
    """True when the placements, in play order, obey every placement rule (see :func:`placement_problems`)."""
    return not placement_problems(placements)


def visible_city(
    placements: Sequence[Placement],
    cards: tuple[int, ...] = (),
    *,
    poi_block: Pos | None = None,
    construction: Iterable[tuple[int, Pos]] = (),
) -> City:
    """The city of top-most blocks left by ``placements`` (lattice coordinates must be ≥ 0).

    ``construction`` pairs a placement index with a cell it covers; the mark is shown only when that
    placement is still on top there. The grid spans rows/cols 0 .. max covered.
    """
    marks = {(i, pos) for i, pos in construction}
    cells = [c for p in placements for c in p.cells()]
    n_rows = max(r for r, _ in cells) + 1
    n_cols = max(c for _, c in cells) + 1
    grid: list[list[Cell]] = [[EMPTY] * n_cols for _ in range(n_rows)]
    kinds = set()
    for i, p in enumerate(placements):
        kinds.add(p.kind)
        for r, c in p.cells():
            cell = card_cell(p, r, c)
            if cell.is_block and (r, c) == poi_block and p.kind == "poi":
                cell = block(cell.zone or "R", poi=True)
            if cell.is_block and (i, (r, c)) in marks:
                cell = block(cell.zone or "R", cell.road, construction=True)
            grid[r][c] = cell
    expansions = tuple(
        name
        for name, present in (
            ("poi", "poi" in kinds),
            ("construction", bool(marks)),
            ("wrecktar", "wrecktar" in kinds),
        )
        if present
    )
    return City(tuple(tuple(row) for row in grid), cards=cards, expansions=expansions)


def _candidates(occupied: set[Pos], blocked: set[Pos]) -> list[tuple[int, int]]:
    """Top-left positions of every card footprint that touches the city and avoids ``blocked`` cells."""
    rows = [r for r, _ in occupied]
    cols = [c for _, c in occupied]
    out = []
    for r in range(min(rows) - 2, max(rows) + 2):
        for c in range(min(cols) - 2, max(cols) + 2):
            p = Placement(1, False, r, c)
            if touches(p, occupied) and not (blocked & set(p.cells())):
                out.append((r, c))
    return out


def _bbox(cells: Iterable[Pos]) -> tuple[int, int]:
    cells = list(cells)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


def _weight(r: int, c: int, occupied: set[Pos], overlap: float, compact: float) -> float:
    """How likely a player is to choose this spot: fewer covered blocks, more shared sides, compact city."""
    cells = {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}
    covered = len(cells & occupied)
    contact = sum(1 for cell in cells - occupied for n in _neighbours(cell) if n in occupied)
    h0, w0 = _bbox(occupied)
    h, w = _bbox(occupied | cells)
    # Players keep the city compact: growing its bounding box costs, and so does a lopsided shape
    # (blocks are 1.4x wider than tall, so a square-ish city has ~1.4 rows per column).
    squareness = abs(math.log((h * 31.75) / (w * 44.45)))
    growth = (h * w - h0 * w0) / 4
    return (overlap**covered) * (1.0 + contact) ** 1.5 * math.exp(-compact * (growth + squareness))


def simulate_play(
    rng: random.Random,
    n_cards: int = 15,
    *,
    overlap: float = 0.6,
    compact: float = 1.0,
    wrecktar: bool = False,
    poi: bool = False,
    construction: int = 0,
) -> Play:
    """Play a random legal game and return the finished :class:`Play`.

    ``rng`` drives every choice, so the same seed gives the same play. ``n_cards`` city cards (1–15) are
    played from a shuffled deck of 18 after setting 3 aside as scoring cards. ``overlap`` (0–1) weights spots
    by ``overlap ** covered_blocks`` (0 forbids covering once another spot exists); ``compact`` ≥ 0 pulls the
    city towards a compact, roughly square shape on the table. ``wrecktar`` shuffles Wrecktar into the deck
    (it lands on the card played just before it; never first), ``poi`` lays the Point of Interest card first,
    ``construction`` (0–3) marks that many played cards as construction-zone cards.
    """
    if not 1 <= n_cards <= 15:
        raise ValueError(f"n_cards must be 1..15, got {n_cards}")
    if not 0 <= construction <= 3:
        raise ValueError(f"construction must be 0..3, got {construction}")
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    scoring = tuple(sorted(deck[:3]))
    hand = deck[3 : 3 + n_cards]
    placements: list[Placement] = []
    occupied: set[Pos] = set()
    blocked: set[Pos] = set()
    notes: list[str] = []
    poi_block: Pos | None = None
    if poi:
        placements.append(Placement(0, False, 0, 0, "poi"))
        occupied.update(placements[0].cells())
        notes.append("Point of Interest card drawn with one block of each zone and no roads (layout unknown)")
    wreck_after = rng.randrange(1, n_cards) if wrecktar and n_cards > 1 else None
    for k, number in enumerate(hand):
        rotated = rng.random() < 0.5
        if not placements:
            r, c = 0, 0
        elif poi and len(placements) == 1:
            # The starting card covers the top/bottom or left/right half of the Point of Interest card.
            r, c = rng.choice([(-1, 0), (1, 0), (0, -1), (0, 1)])
            start = set(Placement(number, rotated, r, c).cells())
            poi_block = rng.choice([cell for cell in placements[0].cells() if cell not in start])
        else:
            spots = _candidates(occupied, blocked)
            weights = [_weight(r, c, occupied, overlap, compact) for r, c in spots]
            if sum(weights) <= 0:
                weights = [1.0] * len(spots)
            r, c = rng.choices(spots, weights)[0]
        p = Placement(number, rotated, r, c)
        placements.append(p)
        occupied.update(p.cells())
        if wreck_after is not None and k + 1 == wreck_after:
            placements.append(Placement(0, False, r, c, "wrecktar"))
            blocked.update(p.cells())
    marks: list[tuple[int, Pos]] = []
    if construction:
        city_idx = [i for i, p in enumerate(placements) if p.kind == "city"]
        for i in rng.sample(city_idx, min(construction, len(city_idx))):
            marks.append((i, rng.choice(placements[i].cells())))
        notes.append("construction zones marked on one random block of a played card (card layouts unknown)")
    # Normalise so that the city's top-left cell is (0, 0).
    r0 = min(r for p in placements for r, _ in p.cells())
    c0 = min(c for p in placements for _, c in p.cells())
    placements = [p.shifted(-r0, -c0) for p in placements]
    if poi_block is not None:
        poi_block = (poi_block[0] - r0, poi_block[1] - c0)
    marks = [(i, (r - r0, c - c0)) for i, (r, c) in marks]
    city = visible_city(placements, scoring, poi_block=poi_block, construction=marks)
    return Play(
        placements=tuple(placements),
        scoring_cards=scoring,  # type: ignore[arg-type]
        city=city,
        poi_block=poi_block,
        construction=frozenset(marks),
        notes=tuple(notes),
    )
