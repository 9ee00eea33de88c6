"""Which lattice is the city's: the block periods judged by how well the classifier reads the cells.

The rectification ranks pairs of block periods by the card edges alone (:mod:`vision.lattice.rectify`), and a
city of many aligned cards also shows half and double periods. The first pair's lattice is read; when the
reading is doubtful, the other hypotheses are fitted and read too, and the :class:`Verdict` names the
lattice whose :class:`Evidence` is best. On real art the classifier doubts every cell a little, so a
doubtful first lattice that the known cards explain is taken as it is (the other periods cut blocks apart,
and no stacking of the 18 layouts explains what they read).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from vision.cards import evidence_grid, stack_cards
from vision.cells import Classifier, Grid, read_lattice
from vision.city_geometry import MIN_BLOCKS, Geometry, geometry_for, small_copy
from vision.lattice import Located, NoCityFound, Periods, locate_city, measure_periods

__all__ = ["Evidence", "Verdict", "judge_lattice", "lattice_evidence", "read_geometry"]

# A first lattice whose cells on the card region are read with a mean log-confidence below this is
# doubtful (measured with the shipped model on 80 photos: true lattices -0.06 to -0.10, wrong ones -0.12
# when one cell is off, mostly below -0.25 when the period is), and up to this many period hypotheses are
# then compared. A block read at CONFIDENT_BLOCK or more counts towards a lattice's evidence.
DOUBTFUL_EVIDENCE = -0.11
MAX_HYPOTHESES = 6
CONFIDENT_BLOCK = 0.8
BLOCKS_BONUS = 0.05
# A doubtful first lattice whose blocks the known cards explain this completely is taken as it is.
CARDS_CONFIRM = 0.95


@dataclass(frozen=True)
class Evidence:
    """How well the classifier's reading of a lattice supports it.

    ``mean_log_confidence`` is over the cells on the card region: on the true lattice nearly every cell
    is one clear block (about -0.07 with the shipped model), while half or double the pitch, or a wrong
    phase, crops pieces of two blocks or half a block and the classifier doubts (-0.25 to -1).
    ``confident_blocks`` counts the visible cells read as a block with confidence of at least
    :data:`CONFIDENT_BLOCK`.
    """

    mean_log_confidence: float
    confident_blocks: int

    @property
    def score(self) -> float:
        """Higher is better. The small bonus for blocks read breaks near ties in favour of the lattice
        that explains more of the city (a pitch a little too long drifts off by a row but still reads
        well where it lands)."""
        return self.mean_log_confidence + BLOCKS_BONUS * float(np.log(max(self.confident_blocks, 1)))


@dataclass(frozen=True)
class Verdict:
    """The chosen geometry, the judge's reading of its lattice and the evidence; ``tried`` is how many
    period hypotheses were fitted (1 when the first lattice was taken)."""

    geometry: Geometry
    readings: Grid
    evidence: Evidence
    tried: int

    @property
    def arbitrated(self) -> bool:
        return self.tried > 1


def lattice_evidence(geometry: Geometry, readings: Grid) -> Evidence:
    """The :class:`Evidence` for ``geometry.lattice`` from the classifier's ``readings`` of it."""
    cells = geometry.occupied & geometry.visible
    conf = np.array([[p.confidence for p in row] for row in readings], np.float64)
    block = np.array([[p.kind == "block" for p in row] for row in readings])
    mean_log = float(np.log(np.clip(conf[cells], 1e-3, 1.0)).mean()) if cells.any() else float("-inf")
    return Evidence(mean_log, int((block & (conf >= CONFIDENT_BLOCK) & geometry.visible).sum()))


def cards_confirm(geometry: Geometry, readings: Grid) -> bool:
    """Whether the known cards explain a lattice's reading (:data:`CARDS_CONFIRM` of its blocks, and at
    least :data:`vision.city_geometry.MIN_BLOCKS` of them)."""
    grid = evidence_grid(readings, geometry.counts(readings), geometry.visible)
    decoding = stack_cards(grid, checks=False)  # only how much the cards explain is asked
    shown = sum(d.source == "card" for d in decoding.cells.values())
    return shown >= MIN_BLOCKS and decoding.explained >= CARDS_CONFIRM


def read_geometry(photo: np.ndarray, judge: Classifier, timings: dict[str, float] | None = None) -> Verdict:
    """Locate, rectify and fit the lattice on an upright RGB photo, judged by ``judge`` (see
    :func:`judge_lattice`). Raises :class:`~vision.lattice.locate.NoCityFound`."""
    timings = {} if timings is None else timings
    t = time.perf_counter()
    small, _ = small_copy(photo)
    located = locate_city(small)
    timings["locate"] = time.perf_counter() - t
    t = time.perf_counter()
    periods = measure_periods(located, small)
    timings["rectify"] = time.perf_counter() - t
    return judge_lattice(photo, small, located, periods, judge, timings)


def judge_lattice(
    photo: np.ndarray,
    small: np.ndarray,
    located: Located,
    periods: Periods,
    judge: Classifier,
    timings: dict[str, float],
) -> Verdict:
    """The lattice of the best-ranked period pair, read by ``judge``; when that reading is doubtful (mean
    log-confidence below :data:`DOUBTFUL_EVIDENCE`, and the cards do not explain it) or the lattice is
    refused (too few cells), up to :data:`MAX_HYPOTHESES` - 1 other pairs (halves, doubles, runners-up)
    are fitted and read too, and the best :class:`Evidence` score wins (an alternative only with at least
    :data:`~vision.city_geometry.MIN_BLOCKS` blocks read confidently)."""
    best: Verdict | None = None
    start = time.perf_counter()
    refusal: NoCityFound | None = None  # why the first hypothesis was refused, if it was
    hypotheses = periods.hypotheses(MAX_HYPOTHESES)
    for i, pitches in enumerate(hypotheses):
        try:
            geometry = geometry_for(photo, small, located, periods, pitches, timings if i == 0 else None)
        except NoCityFound as exc:  # e.g. too few cells at twice the pitch: another hypothesis may do
            refusal = exc if i == 0 else refusal
            continue
        t = time.perf_counter()
        readings = read_lattice(judge, geometry.view, geometry.lattice)
        evidence = lattice_evidence(geometry, readings)
        verdict = Verdict(geometry, readings, evidence, i + 1)
        if i == 0:
            timings["classify"] = time.perf_counter() - t
            if evidence.mean_log_confidence >= DOUBTFUL_EVIDENCE or cards_confirm(geometry, readings):
                return verdict
            start = time.perf_counter()
        # An alternative must show a city: a lattice of half blocks can read as confidently "empty".
        if (best is None or evidence.score > best.evidence.score) and (
            i == 0 or evidence.confident_blocks >= MIN_BLOCKS
        ):
            best = verdict
    # When the first lattice was refused, only a clearly read one replaces it: the refusal (a single
    # card, too little of a city) must not turn into a made-up grid at another pitch.
    if best is None or (refusal is not None and best.evidence.mean_log_confidence < DOUBTFUL_EVIDENCE):
        raise refusal or NoCityFound("no city found: no block lattice fits the cards' edges")
    timings["arbitrate"] = time.perf_counter() - start
    return Verdict(best.geometry, best.readings, best.evidence, len(hypotheses))
