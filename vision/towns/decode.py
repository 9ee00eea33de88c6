"""Read a Circle the Wagons town as a stack of the 18 known cards, jointly, from per-cell classifier
readings (:mod:`vision.towns.evidence`).

Every territory of a town is one quadrant of one of the 18 cards (lying either way round, each card at
most once, each new card on top, never on the table). The most probable reading that obeys that is found
as an integer program (:mod:`vision.towns.program`) by the Sprawlopolis decoding's branch and bound
(:func:`vision.cards.best_stacking`). A territory the classifier misread is set to what its card
shows; a cell no card can show keeps its reading and is marked ``unexplained``.

Every cell then gets a *margin*: how much less probable (nats) the best legal town is in which that cell
reads otherwise, found by the same search with the cell's label forbidden (exact while the search stays
within its node limit, else the relaxation's bound, which can only make the margin smaller). A cell
whose margin is under :data:`DOUBT_MARGIN` is in doubt, and ``alternative`` says what it would then read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.wagons.cards import CardGrid
from scoring.wagons.town import Territory
from vision.cards import best_stacking
from vision.towns.evidence import LABELS, CellProbabilities, TownEvidenceError, town_evidence
from vision.towns.placements import TownPlacement, connected, deck_grids
from vision.towns.program import PLACEMENT_COST, TownProgram

__all__ = ["DOUBT_MARGIN", "UNEXPLAINED_COST", "TownCell", "TownDecoding", "decode_town"]

# A cell no card explains costs this many nats against its best reading: a card sets a cell it shows to its
# own territory unless the classifier gave that territory less than e^-10 (4.5e-5) of its best reading's
# probability. There are no expansion cards here, so higher than Sprawlopolis's 8.
UNEXPLAINED_COST = 10.0
# A cell whose next best reading is less than this many nats worse is in doubt (as in vision.cards).
DOUBT_MARGIN = 1.5


@dataclass(frozen=True)
class TownCell:
    """How one cell was decoded.

    ``territory``: what the cell shows (``None``: table); ``source``: ``"card"`` (``card`` shows it,
    turned when ``rotated``), ``"table"`` or ``"unexplained"`` (no card explains it: the classifier's
    reading stands); ``read``: the classifier's most probable label; ``margin``: nats by which the best
    town reading the cell otherwise is less probable (``inf`` when there is none), and ``alternative`` the
    label (``"D/w"``, ``"."``) the cell has there (``None`` when not known)."""

    territory: Territory | None
    source: str
    read: Territory | None
    margin: float
    alternative: str | None = None
    card: int | None = None
    rotated: bool | None = None

    @property
    def doubtful(self) -> bool:
        return self.margin < DOUBT_MARGIN

    @property
    def corrected(self) -> bool:
        """The cards changed what the classifier read here."""
        return self.territory != self.read

    @property
    def token(self) -> str:
        return "." if self.territory is None else self.territory.token()


@dataclass(frozen=True)
class TownDecoding:
    """The decoded town: its cards (``placements``, in reading order of their top-left cell), every cell
    of the grid (``cells[row][col]``), the objective (log-probability less costs), the relaxations the
    search solved (``nodes``, all checks included) and notes for a person (a search that gave up, cards
    that do not form one town)."""

    placements: tuple[TownPlacement, ...]
    cells: tuple[tuple[TownCell, ...], ...]
    objective: float
    nodes: int
    notes: tuple[str, ...] = field(default=())

    def where(self, test: str) -> list[tuple[int, int]]:
        """The cells (row, col) that are ``"doubtful"``, ``"corrected"`` or ``"unexplained"``."""
        return [
            (r, c)
            for r, row in enumerate(self.cells)
            for c, cell in enumerate(row)
            if (cell.source == "unexplained" if test == "unexplained" else getattr(cell, test))
        ]

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(sorted(p.card for p in self.placements))


def decode_town(
    readings: Sequence[Sequence[CellProbabilities]],
    *,
    deck: Mapping[int, CardGrid] | None = None,
    exclude: Sequence[int] = (),
    unexplained_cost: float = UNEXPLAINED_COST,
    placement_cost: float = PLACEMENT_COST,
    margins: bool = True,
) -> TownDecoding:
    """The most probable town that is a stack of distinct known cards, from the classifier's readings.

    ``readings`` is the grid, row by row, one distribution per cell (see :mod:`vision.towns.evidence`);
    it must hold the whole town. ``deck`` maps card numbers to their ``((TL, TR), (BL, BR))``
    territories unturned (default: the 18 cards of ``scoring.wagons.cards``); ``exclude`` names cards
    known not to be in the town (the opponent's, the goal cards when their numbers are known);
    ``placement_cost`` what each card placed costs (nats). Without
    ``margins`` no cell is checked and every margin is ``nan``. Raises
    :class:`~vision.towns.evidence.TownEvidenceError` for readings it cannot take.

    >>> sure = lambda token: {token: 0.99, ".": 0.01}
    >>> town = decode_town([[sure("P/c"), sure("P/f")], [{"D/w": 0.9, "P/m": 0.05}, sure("F/b")]])
    >>> town.placements, town.cells[1][0].token, town.cells[1][0].corrected, town.cells[1][0].card
    ((TownPlacement(card=0, rotated=False, row=0, col=0),), 'P/m', True, 0)
    """
    log_p = town_evidence(readings)
    cards = deck_grids() if deck is None else dict(deck)
    unknown = sorted(set(exclude) - set(cards))
    if unknown:
        raise TownEvidenceError(
            f"cannot exclude card {unknown[0]}: not in the deck (cards {min(cards)} to {max(cards)})"
        )
    kept = {n: g for n, g in cards.items() if n not in set(exclude)}
    program = TownProgram(log_p, kept, unexplained_cost, placement_cost)
    solved = best_stacking(program)  # type: ignore[arg-type]  # TownProgram serves the same interface
    if solved is None:
        return _as_read(program, "the card decoding found no solution within its limits: cells as read")
    objective, x, nodes = solved
    chosen = _chosen(program, x)
    placements = tuple(
        sorted(
            (program.placements[p] for p in np.flatnonzero(x[program.x_vars]).tolist()),
            key=lambda p: (p.row, p.col, p.card),
        )
    )
    cells = []
    for r in range(program.rows):
        line = []
        for c in range(program.cols):
            var = chosen[(r, c)]
            margin, alternative, used = _margin(program, var, objective) if margins else (math.nan, None, 0)
            nodes += used
            line.append(_cell(program, var, margin, alternative))
        cells.append(tuple(line))
    notes = () if connected(placements) else ("the cards found do not form one town (some touch none)",)
    return TownDecoding(placements, tuple(cells), objective, nodes, notes)


def _chosen(program: TownProgram, x: np.ndarray) -> dict[tuple[int, int], int]:
    """The variable that explains each cell in a 0/1 solution."""
    return {program.cell(v): v for v in np.flatnonzero(x).tolist() if not program.is_kind(v, "x")}


def _cell(program: TownProgram, var: int, margin: float, alternative: str | None) -> TownCell:
    rc = program.cell(var)
    read = LABELS[int(np.argmax(program.log_p[rc]))]
    label = LABELS[program.label_of(var)]
    if program.is_kind(var, "y"):
        placement = program.placements[int(program.place_of[var])]
        return TownCell(label, "card", read, margin, alternative, placement.card, placement.rotated)
    return TownCell(label, "table" if program.is_kind(var, "e") else "unexplained", read, margin, alternative)


def _margin(program: TownProgram, var: int, objective: float) -> tuple[float, str | None, int]:
    """How much less probable the best town is that reads ``var``'s cell otherwise, the label it reads
    there, and the relaxations solved to find out."""
    rc, label = program.cell(var), program.label_of(var)
    if rc not in program.reachable:
        # No card considered covers the cell: it is table or unexplained whatever the rest of the town
        # is, and the other of the two is the alternative (no search needed).
        e, u = program.at_cell(rc)
        other = u if var == e else e
        alternative = LABELS[program.label_of(other)]
        token = "." if alternative is None else alternative.token()
        return abs(float(program.gain[e] - program.gain[u])), token, 0
    forbid = [v for v in program.at_cell(rc) if program.label_of(v) == label]
    found = best_stacking(program, forbid=forbid)  # type: ignore[arg-type]
    if found is not None:
        other, x, nodes = found
        alternative = LABELS[program.label_of(_chosen(program, x)[rc])]
        return max(0.0, objective - other), "." if alternative is None else alternative.token(), nodes
    bound = program.relax(forbid)  # gave up: the relaxation bounds every other reading from above
    return (math.inf if bound is None else max(0.0, objective - bound[0])), None, 1


def _as_read(program: TownProgram, note: str) -> TownDecoding:
    """Every cell as the classifier read it, none explained (a search that found nothing)."""
    cells = []
    for r in range(program.rows):
        labels = [LABELS[int(i)] for i in np.argmax(program.log_p[r], axis=1)]
        cells.append(tuple(TownCell(t, "table" if t is None else "unexplained", t, math.nan) for t in labels))
    return TownDecoding((), tuple(cells), math.nan, 0, (note,))
