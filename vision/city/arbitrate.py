"""Which lattice is the city's: the block periods judged by how well the classifier reads the cells.

The rectification ranks pairs of block periods by the card edges alone (:mod:`vision.lattice.rectify`), and a
city of many aligned cards also shows half and double periods. The first pair's lattice is read; when the
reading is doubtful, the other hypotheses are fitted and read too, and the :class:`Verdict` names the
lattice whose :class:`Evidence` is best. Within one pair, a pitch the lattice's lines support nearly as
well as the one fitted (a rival, :class:`~vision.lattice.LatticeFit`) is read too, and replaces it only
when it reads clearly better. On real art the classifier doubts every cell a little, so a doubtful first
lattice that the known cards explain is taken as it is (the other periods cut blocks apart, and no
stacking of the 18 layouts explains what they read).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards import evidence_grid, stack_cards
from vision.cells import Classifier, Grid, read_lattice
from vision.city.geometry import (
    MIN_BLOCKS,
    Geometry,
    Plane,
    geometry_on,
    rectified_plane,
    small_copy,
)
from vision.lattice import (
    Located,
    NoCityFound,
    Periods,
    TooManyCards,
    cards_in_border,
    locate_city,
    measure_periods,
)
from vision.runtime import Stages

__all__ = ["Evidence", "Verdict", "judge_lattice", "lattice_evidence", "read_geometry"]

# A first lattice whose cells on the card region are read with a mean log-confidence below this is
# doubtful (measured with the shipped model on 80 photos: true lattices -0.06 to -0.10, wrong ones -0.12
# when one cell is off, mostly below -0.25 when the period is), and up to this many period hypotheses are
# then compared. A block read at CONFIDENT_BLOCK or more counts towards a lattice's evidence.
DOUBTFUL_EVIDENCE = -0.11
MAX_HYPOTHESES = 6
CONFIDENT_BLOCK = 0.8
BLOCKS_BONUS = 0.05
# A doubtful first lattice whose blocks the known cards explain this completely is taken as it is...
CARDS_CONFIRM = 0.95
# ... when those cards also cover this share of its cells on the card region. A reader that leaves every
# label a little likely (a taught print's look) lets the cards explain whatever few blocks a wrong period
# reads; there the cards cover about half the card region (0.46–0.54 measured on a rendered edition whose
# wide roads misled the period), on the true lattice nearly all of it (0.88–1.0 on the real cards'
# development set, the least where a scoring card lies in the region).
CARDS_COVER = 0.75
# A rival pitch the lines nearly tie with the first lattice's (vision.lattice.fit.RIVAL_APART) replaces it
# only when its reading's evidence score is better by this much. On the real cards' development set the
# rivals' scores come within 0.03 of the first lattices' (all of which are right); on a rendered city
# whose first pitch was 5 % short the rival's was 0.23 better.
RIVAL_MARGIN = 0.08


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
    least :data:`vision.city.geometry.MIN_BLOCKS` of them) and show a block in :data:`CARDS_COVER` of its
    cells on the card region."""
    grid = evidence_grid(readings, geometry.counts(readings), geometry.visible)
    decoding = stack_cards(grid, checks=False)  # only how much the cards explain is asked
    shown = sum(d.source == "card" for d in decoding.cells.values())
    region = geometry.occupied & geometry.visible
    covered = sum(bool(region[rc]) for rc, d in decoding.cells.items() if d.source == "card")
    return (
        shown >= MIN_BLOCKS
        and decoding.explained >= CARDS_CONFIRM
        and covered >= CARDS_COVER * int(region.sum())
    )


def read_geometry(photo: np.ndarray, judge: Classifier, stages: Stages | None = None) -> Verdict:
    """Locate, rectify and fit the lattice on an upright RGB photo, judged by ``judge`` (see
    :func:`judge_lattice`); ``stages`` times them (and stops the scan between them). Raises
    :class:`~vision.lattice.locate.NoCityFound`."""
    stages = Stages() if stages is None else stages
    with stages("locate"):
        small, _ = small_copy(photo)
    try:
        return _located_and_judged(photo, small, judge, stages, calm_border=False)
    except TooManyCards:
        raise
    except NoCityFound as refusal:
        # A city cut by the frame fills part of the border band, where the table is measured: its cards
        # are taken for table and too few blocks stand out. A second look takes the table from the calm
        # stretches of the band alone (only here: a table busier on one side looks the same to it).
        if not cards_in_border(small):
            raise
        try:
            return _located_and_judged(photo, small, judge, stages, calm_border=True)
        except NoCityFound:
            raise refusal from None


def _located_and_judged(
    photo: np.ndarray, small: np.ndarray, judge: Classifier, stages: Stages, calm_border: bool
) -> Verdict:
    with stages("locate"):
        located = locate_city(small, calm_border=calm_border)
    with stages("rectify"):
        periods = measure_periods(located, small)
    return judge_lattice(photo, small, located, periods, judge, stages)


def judge_lattice(
    photo: np.ndarray,
    small: np.ndarray,
    located: Located,
    periods: Periods,
    judge: Classifier,
    stages: Stages | None = None,
) -> Verdict:
    """The lattice of the best-ranked period pair, read by ``judge``; when that reading is doubtful (mean
    log-confidence below :data:`DOUBTFUL_EVIDENCE`, and the cards do not explain it) or the lattice is
    refused (too few cells), up to :data:`MAX_HYPOTHESES` - 1 other pairs (halves, doubles, runners-up)
    are fitted and read too, and the best :class:`Evidence` score wins (an alternative only with at least
    :data:`~vision.city.geometry.MIN_BLOCKS` blocks read confidently). Raises
    :class:`~vision.lattice.TooManyCards` when the first pair's lattice holds more cells than any game's
    (a tiled or patterned surface: no other pair is fitted); another pair that does is skipped."""
    stages = Stages() if stages is None else stages
    hypotheses = periods.hypotheses(MAX_HYPOTHESES)
    first: Verdict | None = None
    refusal: NoCityFound | None = None  # why the first hypothesis was refused, if it was
    try:
        plane = rectified_plane(photo, small, located, periods, hypotheses[0], stages)
        geometry = geometry_on(plane, stages)
    except TooManyCards:  # the strongest periods find a patterned surface: no other pair is tried
        raise
    except NoCityFound as exc:  # e.g. too few cells at twice the pitch: another hypothesis may do
        refusal = exc
    else:
        with stages("classify"):
            first = _verdict(judge, geometry, 1)
        if geometry.fit.rivals:
            with stages("rival"):
                first = _best_rival(plane, judge, first)
        if first.evidence.mean_log_confidence >= DOUBTFUL_EVIDENCE or cards_confirm(geometry, first.readings):
            return first
    with stages("arbitrate"):
        best = _best_other(photo, small, located, periods, hypotheses, judge, first)
    # When the first lattice was refused, only a clearly read one replaces it: the refusal (a single
    # card, too little of a city) must not turn into a made-up grid at another pitch.
    if best is None or (refusal is not None and best.evidence.mean_log_confidence < DOUBTFUL_EVIDENCE):
        raise refusal or NoCityFound("no city found: no block lattice fits the cards' edges")
    return Verdict(best.geometry, best.readings, best.evidence, len(hypotheses))


def _verdict(judge: Classifier, geometry: Geometry, tried: int) -> Verdict:
    readings = read_lattice(judge, geometry.view, geometry.lattice)
    return Verdict(geometry, readings, lattice_evidence(geometry, readings), tried)


def _best_rival(plane: Plane, judge: Classifier, first: Verdict) -> Verdict:
    """``first``, or the lattice at one of its fit's rival pitches on the same ``plane`` when that reads
    clearly better (by :data:`RIVAL_MARGIN`) and shows a city."""
    best = first
    for lattice_pitch in first.geometry.fit.rivals:
        try:
            geometry = geometry_on(plane, lattice_pitch=lattice_pitch)
        except NoCityFound:
            continue
        verdict = _verdict(judge, geometry, 1)
        if verdict.evidence.score > best.evidence.score + RIVAL_MARGIN and _shows_city(verdict):
            best = verdict
    return best


def _shows_city(verdict: Verdict) -> bool:
    """Whether a lattice's reading shows a city: a lattice of half blocks can read as confidently "empty".
    A reader less sure of every cell (a taught print's look) shows it by the cards it reads instead."""
    evidence = verdict.evidence
    return evidence.confident_blocks >= MIN_BLOCKS or cards_confirm(verdict.geometry, verdict.readings)


def _best_other(
    photo: np.ndarray,
    small: np.ndarray,
    located: Located,
    periods: Periods,
    hypotheses: list[tuple[float, float]],
    judge: Classifier,
    best: Verdict | None,
) -> Verdict | None:
    """The best of ``best`` (the first lattice's verdict) and the other hypotheses' lattices."""
    for i, pitches in enumerate(hypotheses[1:], start=2):
        try:
            geometry = geometry_on(rectified_plane(photo, small, located, periods, pitches))
        except NoCityFound:
            continue
        verdict = _verdict(judge, geometry, i)
        if (best is None or verdict.evidence.score > best.evidence.score) and _shows_city(verdict):
            best = verdict
    return best
