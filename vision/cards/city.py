"""The joint card decoding in the scan: classifier readings in, readings that obey the cards out.

:func:`evidence_grid` turns the classifier's per-cell distributions into :class:`CellEvidence` (only the
cells whose reading counts; the rest are known empty, and cells beyond the photo's frame unknown), and
:func:`apply_stacking` writes the decoding back into the per-cell readings that :mod:`vision.city.assemble`
builds the city from, with the warnings a player needs. A decoding that explains too little of the city
(a test grid, a game with cards we do not know) is not used: the cell-by-cell reading stands.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from scoring.layouts import LAYOUTS
from vision.cards.alike import cards_alike, same_blocks
from vision.cards.pieces import Label
from vision.cards.program import UNEXPLAINED_COST, CardProgram
from vision.cards.stacking import EMPTY_LABEL, CardStacking, CellEvidence, stack_program
from vision.cells import CellReading

__all__ = [
    "CardReading",
    "apply_stacking",
    "evidence_grid",
    "read_alike",
    "read_as_cards",
    "read_same_blocks",
]

# A decoding is used only when cards explain at least this share of the visible blocks.
MIN_EXPLAINED = 0.8
# Probabilities below this are floored before taking logs (the classifier's softmax underflows).
PROBABILITY_FLOOR = 1e-6
CERTAIN_EMPTY = CellEvidence({EMPTY_LABEL: 0.0})
# A table cell with blocks on all four sides is rare in a finished city: of 55,660 such cells in 3,000
# simulated games (scoring.placement.simulate_play, the renderer's cities) 197 were holes, prior odds of
# 5.64 nats for a block. The classifier already carries the odds of its training crops (a quarter empty:
# 1.10 nats), so reading such a cell as table costs the difference (tests/test_cards_priors.py).
ENCLOSED_HOLE_COST = 4.54
# The last program each thread decoded (see read_as_cards): a HiGHS model is not shared between threads.
_LAST = threading.local()


@dataclass(frozen=True)
class CardReading:
    """The readings after decoding and which card shows in each cell (grid of the readings); a doubtful
    cell is :mod:`vision.city.doubt`'s to name."""

    readings: list[list[CellReading | None]]
    cards: list[list[int | None]]
    decoding: CardStacking
    used: bool
    # The classifier's readings, before any card settled a cell (also of cells whose reading the decoding
    # did not count: a pale block at the city's edge read as likely table).
    before: list[list[CellReading | None]] | None = None


def evidence_grid(
    predictions: Sequence[Sequence[CellReading]], counts: np.ndarray, visible: np.ndarray
) -> list[list[CellEvidence | None]]:
    """The decoder's view of a lattice: ``None`` beyond the frame, certainly empty where the reading does
    not count (``counts`` false), else the classifier's distribution, with table made
    :data:`ENCLOSED_HOLE_COST` nats less likely in a cell read as a block on all four sides."""
    enclosed = _enclosed(predictions, counts, visible)
    grid: list[list[CellEvidence | None]] = []
    for r, row in enumerate(predictions):
        line: list[CellEvidence | None] = []
        for c, pred in enumerate(row):
            if not visible[r, c]:
                line.append(None)
                continue
            dist = pred.distribution
            if not counts[r, c] or not dist:
                line.append(CERTAIN_EMPTY if not counts[r, c] else _from_label(pred))
                continue
            log_p = {k: math.log(max(v, PROBABILITY_FLOOR)) for k, v in dist.items() if k[0] != "W"}
            if enclosed[r, c] and EMPTY_LABEL in log_p:
                log_p = _with_prior(log_p, EMPTY_LABEL, -ENCLOSED_HOLE_COST)
            marked = pred.poi or pred.construction
            wrecktar = pred.kind == "wrecktar"
            line.append(CellEvidence(log_p, wrecktar=wrecktar, marked=marked, enclosed=bool(enclosed[r, c])))
        grid.append(line)
    return grid


def _enclosed(
    predictions: Sequence[Sequence[CellReading]], counts: np.ndarray, visible: np.ndarray
) -> np.ndarray:
    """(rows, cols) bool: cells whose four neighbours are visible, count and are read as holding a card."""
    rows, cols = counts.shape
    card = np.zeros((rows + 2, cols + 2), bool)
    for r, row in enumerate(predictions):
        for c, pred in enumerate(row):
            card[r + 1, c + 1] = bool(visible[r, c] and counts[r, c]) and pred.kind != "empty"
    return card[:-2, 1:-1] & card[2:, 1:-1] & card[1:-1, :-2] & card[1:-1, 2:]


def _with_prior(log_p: dict[Label, float], label: Label, shift: float) -> dict[Label, float]:
    """``log_p`` with ``label``'s log-probability moved by ``shift`` and the whole normalised again."""
    moved = {k: v + shift if k == label else v for k, v in log_p.items()}
    top = max(moved.values())
    norm = top + math.log(sum(math.exp(v - top) for v in moved.values()))
    return {k: max(v - norm, math.log(PROBABILITY_FLOOR)) for k, v in moved.items()}


def _from_label(pred: CellReading) -> CellEvidence:
    """Evidence from a reading without a distribution (a stand-in classifier): sure of its answer."""
    label = (pred.zone, pred.road) if pred.kind == "block" else EMPTY_LABEL
    return CellEvidence({label: 0.0}, wrecktar=pred.kind == "wrecktar")


def apply_stacking(readings: list[list[CellReading | None]], decoding: CardStacking) -> CardReading:
    """Readings with every cell a card explains set to that card's block (marks kept); no warnings: the cells
    the decoding leaves in doubt (``decoding.cells[...].doubtful``) go to the scan's ``doubt``."""
    cards: list[list[int | None]] = [[None] * len(row) for row in readings]
    if decoding.explained < MIN_EXPLAINED:
        return CardReading(readings, cards, decoding, False, readings)
    out = [list(row) for row in readings]
    # A Point of Interest card shows blocks without roads (this project's stand-in for it: its real look is
    # not documented), so where one is seen, a roadless reading stays a possible second choice.
    roadless = any(rd is not None and rd.poi for row in readings for rd in row)
    for (r, c), cell in decoding.cells.items():
        cards[r][c] = cell.card
        rd = out[r][c]
        if rd is None or rd.kind == "wrecktar" or cell.source == "kept":
            continue
        zone, road = cell.label
        confidence = _confidence(rd, cell.label, cell.margin)
        # A card settles the cell: no second reading is left for the road repair to swap in, unless the
        # decoding itself is in doubt there, and then only readings a card can show.
        out[r][c] = _card_options_only(rd.settled(zone, road, confidence, others=cell.doubtful), roadless)
    return CardReading(out, cards, decoding, True, readings)


def _card_options_only(reading: CellReading, roadless: bool = False) -> CellReading:
    """``reading`` (settled by a card) without the alternatives no card shows: the card placed there shows
    a block, not the table, and every residential, commercial and industrial block of the 18 cards carries
    a road (a zone read without one is a crop that missed the road), unless ``roadless`` blocks are in
    play (a Point of Interest card).

    >>> options = (("I", "NE", 0.2), ("I", None, 0.5), (None, None, 0.2), ("I", "NS", 0.1))
    >>> rd = CellReading.from_options(options)
    >>> [o[:2] for o in _card_options_only(rd).alternatives]
    [('I', 'NE'), ('I', 'NS')]
    >>> [o[:2] for o in _card_options_only(rd, roadless=True).alternatives]
    [('I', 'NE'), ('I', None), ('I', 'NS')]
    """
    kept = tuple(
        o for o in reading.alternatives if o[0] is not None and (o[0] == "P" or roadless or o[1] is not None)
    )
    return reading if len(kept) == len(reading.alternatives) else replace(reading, alternatives=kept)


def _confidence(reading: CellReading, label: tuple[str | None, str | None], margin: float | None) -> float:
    """How sure the decoded label is: from its margin over the next explanation where it was checked,
    else the classifier's own probability of it."""
    own = next((p for z, r, p in reading.options if (z, r) == label), 0.0)
    if margin is None:
        return max(own, reading.probability if reading.best[:2] == label else own)
    return max(own, 1.0 - math.exp(-margin))


def read_as_cards(
    readings: list[list[CellReading | None]],
    predictions: Sequence[Sequence[CellReading]],
    counts: np.ndarray,
    visible: np.ndarray,
    exclude: Sequence[int] = (),
    again_if: Sequence[int] = (),
    fresh: bool = False,
) -> CardReading:
    """Decode the lattice's readings as cards (see :mod:`vision.cards.stacking`) and apply the result.

    A scan decodes its city once on its own and, when that used a scoring card, again without the
    scoring cards: the second decoding of the same evidence reuses the first one's program (built once,
    solved again from where HiGHS left off), kept per thread for the last grid decoded; ``again_if`` are
    the cards that, placed, bring that second decoding (see :func:`vision.cards.stacking.stack_program`).
    ``fresh`` builds a program of its own even for the same grid (a scan's first decoding): which of two
    equally good explanations HiGHS finds depends on what it solved before on the model, and an earlier
    scan of the same photo on this thread must not change this one's answer.
    """
    grid = evidence_grid(predictions, counts, visible)
    program = None if fresh else getattr(_LAST, "program", None)
    if program is None or program.grid != grid:
        program = _LAST.program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    decoded = apply_stacking(readings, stack_program(program, exclude=exclude, again_if=again_if))
    return replace(decoded, before=_seen(readings, predictions, visible))


def read_same_blocks(
    like: CardReading,
    readings: list[list[CellReading | None]],
    predictions: Sequence[Sequence[CellReading]],
    counts: np.ndarray,
    visible: np.ndarray,
    exclude: Sequence[int],
) -> CardReading | None:
    """``like`` (the used decoding of these ``readings`` and ``predictions``, see :func:`read_as_cards`)
    told without the cards ``exclude``, every cell keeping its label (:func:`vision.cards.alike.same_blocks`):
    the same blocks, other cards, margins found again; None when no stacking does that. Its objective
    against ``like``'s is what leaving those cards out costs."""
    program = _program_for(evidence_grid(predictions, counts, visible))
    decoding = same_blocks(program, like.decoding, exclude)
    if decoding is None or decoding.explained < MIN_EXPLAINED:
        return None
    return replace(apply_stacking(readings, decoding), before=like.before)


def read_alike(
    reading: CardReading,
    predictions: Sequence[Sequence[CellReading]],
    counts: np.ndarray,
    visible: np.ndarray,
    known: Sequence[int],
    within: float,
) -> tuple[tuple[int, ...], ...]:
    """The cards the city ``reading`` (of these predictions) cannot tell apart, ``known`` cards lying
    beside it (:func:`vision.cards.alike.cards_alike`); none for a decoding not used."""
    if not reading.used:
        return ()
    program = _program_for(evidence_grid(predictions, counts, visible))
    return cards_alike(program, reading.decoding, known, within)


def _program_for(grid: list[list[CellEvidence | None]]) -> CardProgram:
    """The program this thread last decoded, when of ``grid``; else a new one (kept as the last)."""
    program = getattr(_LAST, "program", None)
    if program is None or program.grid != grid:
        program = _LAST.program = CardProgram(grid, list(LAYOUTS), UNEXPLAINED_COST)
    return program


def _seen(
    readings: list[list[CellReading | None]],
    predictions: Sequence[Sequence[CellReading]],
    visible: np.ndarray,
) -> list[list[CellReading | None]]:
    """The decoding's readings, with the classifier's own where the decoding did not count one (a visible
    cell off the card region); the readings alone when no predictions of the same grid are at hand."""
    if [len(p) for p in predictions] != [len(r) for r in readings]:
        return readings
    return [
        [
            rd if rd is not None or not visible[r, c] else pred
            for c, (rd, pred) in enumerate(zip(row, preds, strict=True))
        ]
        for r, (row, preds) in enumerate(zip(readings, predictions, strict=True))
    ]
