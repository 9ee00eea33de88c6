"""Photo bytes → the city on the table: decode, locate, rectify, fit the lattice, classify, assemble.

:func:`scan_image` is the one entry point for the command line, the web service and the benchmarks. The
stages and their timings (seconds, in ``ScanResult.timings``):

``decode``  bytes → upright RGB at most :data:`WORK_LONG_SIDE` px (JPEGs decoded at reduced scale);
``locate``  card region and the two line families, on a :data:`LOCATE_LONG_SIDE` px copy;
``rectify`` homography to the top-down view, and the warp of the working image;
``lattice`` pitch, phase, extent and per-cell offsets;
``classify`` the per-cell ONNX classifier (:func:`vision.classify.classify_cells`), which also judges the
            first lattice;
``arbitrate`` only when that lattice reads doubtfully: the other period hypotheses, fitted and read;
            (a doubtful first lattice whose blocks the known cards explain is taken as it is);
``grow``    the lattice extended towards blocks read beyond the card region (:func:`grow_to_blocks`);
``colour``  the photo's zone colours mapped to where the classifier learned them, and the cells read
            again, when the photo shifts them (:func:`normalise_zone_colours`);
``refine``  doubtful cells read again a little shifted (:func:`refine_doubtful`), and card-region cells
            read as empty searched for a block a little further (:func:`find_lost_blocks`);
``cards``   the scoring cards beside the city (:mod:`vision.scorecards`), unless they are given;
``decode cards`` the whole city read as a stack of the 18 known cards (:mod:`vision.city_as_cards`);
``assemble`` the City, road consistency and warnings; ``overlay`` when asked for.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import cv2
import numpy as np

from scoring.city import City, cell_name
from vision.assemble import Reading, assemble_city
from vision.card_decoding import decode_cards
from vision.card_program import CITY_CARDS
from vision.card_sources import CITY_SURE, BackNumber, ScoringCards, choose_scoring_cards
from vision.city_as_cards import CardReading, evidence_grid, name_cells, read_as_cards
from vision.colour import balance_whites, lattice_box
from vision.decode import decode_image
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM, PX_PER_MM, Lattice, LatticeFit, fit_lattice
from vision.locate import LOCATE_LONG_SIDE, Located, NoCityFound, locate_city
from vision.rectify import Periods, Rectification, measure_periods, project_points, rectify_city, warp
from vision.zone_colour import SURE_BLOCK, apply_zone_map, cell_ab, fit_zone_map, worth_applying

__all__ = ["CellReading", "Geometry", "NoCityFound", "ScanResult", "read_geometry", "scan_image", "scan_rgb"]

# 12 MP photos are decoded at half size: ~4 px/mm on a city filling the frame, twice the rectified 2 px/mm.
WORK_LONG_SIDE = 2016
#: How much worse (log-probability) the city must be explained without the cards three backs name before
#: it counts as contradicting them: twice the decoding's own doubt margin.
CITY_AGAINST_BACKS = 3.0
# Fewer blocks than this cannot be a finished city worth scoring (and are likely a misdetection).
MIN_BLOCKS = 8
# Cells off the card region are read too, but there the classifier must be at least this sure that the
# cell holds a card (a block or Wrecktar), whichever block it is (the card region misses blocks on tables
# close in colour to them, and blocks there are often dim; see models/MODEL_CARD.md for how it was set).
RING_CONFIDENCE = 0.7
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
OVERLAY_LONG_SIDE = 1400
# Judging the lattice by the classifier (see read_geometry): a first lattice whose cells on the card
# region are read with a mean log-confidence below this is doubtful (measured with the shipped model on
# 80 photos: true lattices -0.06 to -0.10, wrong ones -0.12 when one cell is off, mostly below -0.25
# when the period is), and up to this many period hypotheses are then compared. A block read at
# CONFIDENT_BLOCK or more counts towards a lattice's evidence.
DOUBTFUL_EVIDENCE = -0.11
MAX_HYPOTHESES = 6
CONFIDENT_BLOCK = 0.8
BLOCKS_BONUS = 0.05
# A doubtful first lattice whose blocks the known cards explain this completely is taken without trying the
# other hypotheses (see _cards_confirm).
CARDS_CONFIRM = 0.95


class Prediction(Protocol):
    """What the classifier returns per cell (see :class:`vision.classify.CellPrediction`)."""

    zone: str | None
    road: str | None
    confidence: float
    label: str


class Classifier(Protocol):
    """Reads every cell of a lattice in a top-down view; ``white_box`` is where to measure the colour cast
    (the lattice's own box by default; see :func:`vision.classify.classify_cells`)."""

    def __call__(
        self,
        rectified: np.ndarray,
        lattice: Lattice,
        *,
        white_box: tuple[int, int, int, int] | None = None,
        balance: bool = True,
    ) -> Sequence[Sequence[Prediction]]: ...


@dataclass
class CellReading:
    """One cell of the recognised city grid: its label in the city format (``"."`` for no block)."""

    row: int
    col: int
    label: str
    confidence: float
    card: int | None = None  # the card whose block shows here, when the card decoding placed one
    # The cell's corners as fractions of the photo (see vision.overlay.cell_outlines), when drawn.
    outline: list[list[float]] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "row": self.row,
            "col": self.col,
            "name": cell_name(self.row, self.col),
            "label": self.label,
            "confidence": round(self.confidence, 4),
            "card": self.card,
        }
        if self.outline is not None:
            out["outline"] = self.outline
        return out


@dataclass
class ScanResult:
    city: City
    cells: list[CellReading]
    warnings: list[str]
    timings: dict[str, float]
    overlay: np.ndarray | None  # RGB, drawn on a downscaled copy of the photo
    # The cards the decoding placed, in the city's grid: {"card", "rotated", "row", "col"} (top-left block).
    placements: list[dict[str, Any]] = field(default_factory=list)
    # The three cards missing from a city decoded as 15 known cards: a reading of the scoring cards.
    cards_from_city: tuple[int, ...] | None = None
    # The scoring cards chosen from the backs, the city and the player (see vision.card_sources).
    scoring_cards: ScoringCards | None = None

    def to_json(self) -> dict[str, Any]:
        """What was read, for the JSON outputs beside the breakdown (the CLI's and the service's)."""
        return {
            "cells": [cell.to_json() for cell in self.cells],
            "placements": list(self.placements),
            "scoring_cards_from_city": list(self.cards_from_city) if self.cards_from_city else None,
            "cards_source": self.scoring_cards.source if self.scoring_cards else None,
            "scoring_cards": self.scoring_cards.to_json() if self.scoring_cards else None,
            "warnings": [str(w) for w in self.warnings],
        }


@dataclass
class Geometry:
    """Everything the geometric stages found in one photo.

    ``photo`` is the working copy (upright RGB); ``to_rectified`` maps its pixels to ``rectified`` (the
    top-down view at PX_PER_MM); ``fit.lattice`` covers the card region, and ``lattice`` is that lattice
    grown by one ring of cells; ``occupied`` marks ``lattice`` cells inside the card region and
    ``visible`` those that the photo shows whole (cells cut by its edge cannot be read).
    """

    photo: np.ndarray
    located: Located
    rectification: Rectification
    to_rectified: np.ndarray
    rectified: np.ndarray
    fit: LatticeFit
    lattice: Lattice
    occupied: np.ndarray
    visible: np.ndarray  # bool (rows, cols): the cell lies inside the photo's frame
    warnings: list[str] = field(default_factory=list)
    # When a classifier judged between period hypotheses (see read_geometry): which one, its reading of
    # ``lattice`` and the evidence it gave.
    judge: Classifier | None = None
    predictions: Sequence[Sequence[Prediction]] | None = None
    evidence: Evidence | None = None
    # ``rectified`` has had its colours corrected already (white balance and zone colours): read it as is.
    colour_ready: bool = False


def _scaled(lattice: Lattice, sx: float, sy: float) -> Lattice:
    """The same lattice in an image scaled by (sx, sy)."""
    offsets = None if lattice.offsets is None else lattice.offsets * np.array([sx, sy])
    origin = (lattice.origin[0] * sx, lattice.origin[1] * sy)
    return Lattice(origin, lattice.pitch_x * sx, lattice.pitch_y * sy, lattice.rows, lattice.cols, offsets)


def _to_frame(h: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map segments through ``h`` and split them into (vertical, horizontal) ones within 6° of the axes."""
    if len(seg) == 0:
        return np.zeros((0, 4)), np.zeros((0, 4))
    pts = np.hstack([seg.reshape(-1, 2).astype(np.float64), np.ones((2 * len(seg), 1))]) @ h.T
    mapped = (pts[:, :2] / pts[:, 2:3]).reshape(-1, 4)
    angle = np.degrees(np.arctan2(mapped[:, 3] - mapped[:, 1], mapped[:, 2] - mapped[:, 0])) % 180
    vertical = np.abs(angle - 90) < 6
    horizontal = np.minimum(angle, 180 - angle) < 6
    return mapped[vertical], mapped[horizontal]


def _small_copy(photo: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo at most :data:`LOCATE_LONG_SIDE` px on its long side, and its scale (≤ 1)."""
    scale = min(1.0, LOCATE_LONG_SIDE / max(photo.shape[:2]))
    if scale >= 1.0:
        return photo, 1.0
    size = (round(photo.shape[1] * scale), round(photo.shape[0] * scale))
    return cv2.resize(photo, size, interpolation=cv2.INTER_AREA), scale


def geometry_for(
    photo: np.ndarray,
    small: np.ndarray,
    located: Located,
    periods: Periods,
    pitches: tuple[float, float],
    timings: dict[str, float] | None = None,
) -> Geometry:
    """Rectify with one pair of block periods (``pitches``, along ``periods.frame``'s axes) and fit the
    lattice; ``located`` and ``periods`` were found on ``small``, a reduced copy of ``photo``.
    Raises :class:`NoCityFound` when the result is not a plausible city."""
    timings = {} if timings is None else timings
    scale = small.shape[1] / photo.shape[1]
    t = time.perf_counter()
    rect = rectify_city(located, small, periods=periods, pitches=pitches)
    to_rectified = rect.for_scale(1.0 / scale) if scale < 1.0 else rect.homography
    rectified = warp(photo, to_rectified, rect.size)
    mask = warp(located.mask, rect.homography, rect.size, nearest=True)
    timings["rectify"] = timings.get("rectify", 0.0) + time.perf_counter() - t

    t = time.perf_counter()
    vertical, horizontal = _to_frame(rect.homography, located.segments)
    fit = fit_lattice(rectified, vertical, horizontal, mask)
    # The pitch measured in the top-down view corrects the scale the vanishing-point stage estimated.
    sx = PX_PER_MM * BLOCK_W_MM / fit.lattice.pitch_x
    sy = PX_PER_MM * BLOCK_H_MM / fit.lattice.pitch_y
    if max(abs(sx - 1), abs(sy - 1)) > 0.01:
        rescale = np.diag([sx, sy, 1.0])
        size = (int(np.ceil(rect.size[0] * sx)), int(np.ceil(rect.size[1] * sy)))
        rect = replace(rect, homography=rescale @ rect.homography, size=size)
        to_rectified = rescale @ to_rectified
        rectified = warp(photo, to_rectified, size)
        fit = replace(fit, lattice=_scaled(fit.lattice, sx, sy))
    timings["lattice"] = timings.get("lattice", 0.0) + time.perf_counter() - t
    n_cells = int(fit.occupied.sum())
    if n_cells < MIN_BLOCKS:
        raise NoCityFound(
            f"no city found: only {n_cells} block-sized card area{'s' * (n_cells != 1)} in the photo "
            f"(a city to score has at least {MIN_BLOCKS})"
        )
    lattice = fit.lattice.padded(1, 1, 1, 1)
    occupied = np.pad(fit.occupied, 1)
    warnings = [
        f"the city runs off the {side} edge of the photo: blocks beyond it are missing"
        for side in located.touches_border
    ]
    if not 1.2 <= rect.aspect <= 1.65:
        warnings.append(
            f"the blocks measure {rect.aspect:.2f} : 1 instead of 1.4 : 1; the photo may be taken at too "
            "steep an angle (hold the phone flatter above the city)"
        )
    visible = _inside_frame(lattice, np.linalg.inv(to_rectified), photo.shape)
    return Geometry(photo, located, rect, to_rectified, rectified, fit, lattice, occupied, visible, warnings)


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


def lattice_evidence(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> Evidence:
    """The :class:`Evidence` for ``geometry.lattice`` from the classifier's ``predictions`` on it."""
    cells = geometry.occupied & geometry.visible
    conf = np.array([[p.confidence for p in row] for row in predictions], np.float64)
    block = np.array([[p.zone is not None for p in row] for row in predictions])
    mean_log = float(np.log(np.clip(conf[cells], 1e-3, 1.0)).mean()) if cells.any() else float("-inf")
    return Evidence(mean_log, int((block & (conf >= CONFIDENT_BLOCK) & geometry.visible).sum()))


def _shipped_judge() -> Classifier | None:
    """The shipped cell classifier, or None when it cannot be loaded (then nothing is judged)."""
    from vision.classify import ModelError, classify_cells, get_classifier

    try:
        get_classifier()
    except ModelError:
        return None
    return classify_cells


def read_geometry(photo: np.ndarray, timings: dict[str, float] | None = None) -> Geometry:
    """Locate, rectify and fit the lattice on an upright RGB photo. Raises :class:`NoCityFound`.

    The lattice from the best-scoring pair of block periods is read by the shipped classifier; when that
    reading is doubtful (mean log-confidence below :data:`DOUBTFUL_EVIDENCE`) or that lattice is refused
    (too few cells), up to :data:`MAX_HYPOTHESES` - 1 other period pairs (halves, doubles, the runner-up
    periods) are fitted and read too, and the lattice with the best :class:`Evidence` score wins (an
    alternative only with at least :data:`MIN_BLOCKS` blocks read confidently). The
    winner carries its predictions, so the same classifier need not read it again. Without a loadable
    model the first lattice is returned unjudged.
    """
    timings = {} if timings is None else timings
    t = time.perf_counter()
    small, _ = _small_copy(photo)
    located = locate_city(small)
    timings["locate"] = time.perf_counter() - t
    t = time.perf_counter()
    periods = measure_periods(located, small)
    timings["rectify"] = time.perf_counter() - t
    hypotheses = periods.hypotheses(MAX_HYPOTHESES)
    judge = _shipped_judge()
    best: Geometry | None = None
    best_score, start = -np.inf, time.perf_counter()
    refusal: NoCityFound | None = None  # why the first hypothesis was refused, if it was
    for i, pitches in enumerate(hypotheses if judge is not None else hypotheses[:1]):
        try:
            geometry = geometry_for(photo, small, located, periods, pitches, timings if i == 0 else None)
        except NoCityFound as exc:  # e.g. too few cells at twice the pitch: another hypothesis may do
            refusal = exc if i == 0 else refusal
            continue
        if judge is None:
            return geometry
        t = time.perf_counter()
        predictions = judge(geometry.rectified, geometry.lattice)
        evidence = lattice_evidence(geometry, predictions)
        judged = replace(geometry, judge=judge, predictions=predictions, evidence=evidence)
        if i == 0:
            timings["classify"] = time.perf_counter() - t
            if evidence.mean_log_confidence >= DOUBTFUL_EVIDENCE or _cards_confirm(judged, predictions):
                return judged
            start = time.perf_counter()
        # An alternative must show a city: a lattice of half blocks can read as confidently "empty".
        if evidence.score > best_score and (i == 0 or evidence.confident_blocks >= MIN_BLOCKS):
            best, best_score = judged, evidence.score
    # When the first lattice was refused, only a clearly read one replaces it: the refusal (a single
    # card, too little of a city) must not turn into a made-up grid at another pitch.
    if best is None or (
        refusal is not None
        and best.evidence is not None
        and best.evidence.mean_log_confidence < DOUBTFUL_EVIDENCE
    ):
        raise refusal or NoCityFound("no city found: no block lattice fits the cards' edges")
    timings["arbitrate"] = time.perf_counter() - start
    return best


def _cards_confirm(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> bool:
    """Whether the known cards explain a doubtfully read lattice: then it is the true one, and the other
    period hypotheses need not be tried. On real art the classifier doubts every cell a little, but a
    lattice at a wrong period or phase cuts blocks apart, and no stacking of the 18 layouts explains what
    it reads (:data:`CARDS_CONFIRM` of the blocks, and at least :data:`MIN_BLOCKS` of them)."""
    grid = evidence_grid(predictions, _counting(geometry, predictions), geometry.visible)
    decoding = decode_cards(grid, checks=False)  # only how much the cards explain is asked
    shown = sum(d.source == "card" for d in decoding.cells.values())
    return shown >= MIN_BLOCKS and decoding.explained >= CARDS_CONFIRM


def _inside_frame(lattice: Lattice, to_photo: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Cells whose central 80% maps inside the photo."""
    out = np.zeros((lattice.rows, lattice.cols), bool)
    h, w = shape[:2]
    for r in range(lattice.rows):
        for c in range(lattice.cols):
            cx, cy = lattice.center(r, c)
            dx, dy = 0.4 * lattice.pitch_x, 0.4 * lattice.pitch_y
            pts = np.array(
                [[cx - dx, cy - dy, 1], [cx + dx, cy - dy, 1], [cx + dx, cy + dy, 1], [cx - dx, cy + dy, 1]]
            )
            p = pts @ to_photo.T
            xy = p[:, :2] / p[:, 2:3]
            out[r, c] = bool(
                (p[:, 2] > 0).all() and (xy >= 0).all() and (xy[:, 0] < w).all() and (xy[:, 1] < h).all()
            )
    return out


def geometry_with_lattice(geometry: Geometry, lattice: Lattice, occupied: np.ndarray) -> Geometry:
    """``geometry`` with another lattice on the same plane (and its card-region cells ``occupied``); the
    top-down view is warped again, shifted and larger, when the lattice reaches beyond it."""
    h, w = geometry.rectified.shape[:2]
    x0, y0 = lattice.origin
    x1, y1 = x0 + lattice.cols * lattice.pitch_x, y0 + lattice.rows * lattice.pitch_y
    if lattice.offsets is not None and lattice.offsets.size:
        x0, y0 = (
            x0 + min(0.0, float(lattice.offsets[..., 0].min())),
            y0 + min(0.0, float(lattice.offsets[..., 1].min())),
        )
        x1, y1 = (
            x1 + max(0.0, float(lattice.offsets[..., 0].max())),
            y1 + max(0.0, float(lattice.offsets[..., 1].max())),
        )
    margin_x, margin_y = 0.5 * lattice.pitch_x, 0.5 * lattice.pitch_y  # room for the crops' context
    dx, dy = int(np.ceil(max(0.0, margin_x - x0))), int(np.ceil(max(0.0, margin_y - y0)))
    size = (max(w + dx, int(np.ceil(x1 + margin_x)) + dx), max(h + dy, int(np.ceil(y1 + margin_y)) + dy))
    rect, to_rectified, rectified = geometry.rectification, geometry.to_rectified, geometry.rectified
    if dx or dy or size != (w, h):
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
        rect = replace(rect, homography=shift @ rect.homography, size=size)
        to_rectified = shift @ to_rectified
        rectified = warp(geometry.photo, to_rectified, size)
        lattice = replace(lattice, origin=(lattice.origin[0] + dx, lattice.origin[1] + dy))
    visible = _inside_frame(lattice, np.linalg.inv(to_rectified), geometry.photo.shape)
    return replace(
        geometry,
        rectification=rect,
        to_rectified=to_rectified,
        rectified=rectified,
        lattice=lattice,
        occupied=occupied,
        visible=visible,
        predictions=None,
        evidence=None,
    )


def _kind(pred: Prediction) -> str:
    return getattr(pred, "kind", "block" if pred.zone is not None else "empty")


def _card_probability(pred: Prediction) -> float:
    """How sure the classifier is that the cell holds a card (a block of any kind, or Wrecktar)."""
    default = 0.0 if _kind(pred) != "empty" else 1.0
    return 1.0 - float(getattr(pred, "empty_probability", default))


def _counts(geometry: Geometry, pred: Prediction, r: int, c: int) -> bool:
    """Whether cell (r, c)'s reading counts: the cell is visible, and on the card region or (off it) read
    as holding a card at least :data:`RING_CONFIDENCE` surely."""
    if not geometry.visible[r, c]:
        return False
    return bool(geometry.occupied[r, c]) or (
        _kind(pred) != "empty" and _card_probability(pred) >= RING_CONFIDENCE
    )


def _counting(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> np.ndarray:
    """Which cells' readings count (see :func:`_counts`), as a (rows, cols) bool array."""
    return np.array(
        [[_counts(geometry, p, r, c) for c, p in enumerate(row)] for r, row in enumerate(predictions)], bool
    ).reshape(geometry.lattice.rows, geometry.lattice.cols)


def _accepted(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> np.ndarray:
    """Cells holding a card whose reading counts (see :func:`_counts`)."""
    out = np.zeros((geometry.lattice.rows, geometry.lattice.cols), bool)
    for r, row in enumerate(predictions):
        for c, pred in enumerate(row):
            out[r, c] = _kind(pred) != "empty" and _counts(geometry, pred, r, c)
    return out


def grow_to_blocks(
    geometry: Geometry, predictions: Sequence[Sequence[Prediction]], classify: Classifier
) -> tuple[Geometry, Sequence[Sequence[Prediction]]]:
    """Grow the lattice by a line of cells on every side whose outermost line holds a block that counts,
    and read it again, until no side does (at most :data:`MAX_GROWTH` times).

    The card region comes from colour and edges, and on a table close in colour to some blocks it can
    miss whole cards at the city's edge; the classifier still sees blocks there, and the lattice, fitted
    on the same plane, extends to them.
    """
    for _ in range(MAX_GROWTH):
        accepted = _accepted(geometry, predictions)
        sides = {
            "top": int(accepted[0].any()),
            "bottom": int(accepted[-1].any()),
            "left": int(accepted[:, 0].any()),
            "right": int(accepted[:, -1].any()),
        }
        if not any(sides.values()):
            break
        occupied = np.pad(
            geometry.occupied, ((sides["top"], sides["bottom"]), (sides["left"], sides["right"]))
        )
        geometry = geometry_with_lattice(geometry, geometry.lattice.padded(**sides), occupied)
        predictions = classify(geometry.rectified, geometry.lattice)
    return geometry, predictions


def _place_confidence(pred: Prediction) -> float:
    """How sure the reading is of what lies in the cell, leaving out its expansion mark (a shift that hides
    a mark must not look like a clearer reading)."""
    options = getattr(pred, "alternatives", None)
    if _kind(pred) == "wrecktar" or not options:
        return float(pred.confidence)
    return float(options[0][2])


def _keep_marks(shifted: Prediction, first: Prediction) -> Prediction:
    """The shifted reading with the first reading's expansion marks (the doubt was not about them)."""
    if _kind(shifted) != "block" or _kind(first) != "block" or not hasattr(shifted, "poi"):
        return shifted
    poi, construction = bool(getattr(first, "poi", False)), bool(getattr(first, "construction", False))
    base = shifted.label.rstrip("*!")
    return replace(shifted, poi=poi, construction=construction, label=base + "*" * poi + "!" * construction)


def _doubtful_cells(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> list[tuple[int, int]]:
    """Visible cells read with less than :data:`REFINE_BELOW` confidence that may hold a card."""
    out = []
    for r, row in enumerate(predictions):
        for c, pred in enumerate(row):
            if not geometry.visible[r, c] or _place_confidence(pred) >= REFINE_BELOW:
                continue
            if geometry.occupied[r, c] or _card_probability(pred) >= REFINE_CARD:
                out.append((r, c))
    return out


def refine_doubtful(
    geometry: Geometry, predictions: Sequence[Sequence[Prediction]], classify: Classifier
) -> Sequence[Sequence[Prediction]]:
    """Read each doubtful cell again a little shifted, and keep the clearest reading.

    Hand placement moves a card by up to ~3 mm and the lattice's per-cell offsets come from the card
    region's edges, so a cell at the city's edge, or one whose card sits apart from its neighbours, can be
    cropped off-centre enough to lose its road or read as empty. Shifts of :data:`REFINE_SHIFT` of the
    pitch stay well inside the block (the classifier is trained on crops up to 10 % off), so a clearer
    reading is the same block seen better, not the neighbour.
    """
    cells = _doubtful_cells(geometry, predictions)
    if not cells:
        return predictions
    shifts = [(dx * REFINE_SHIFT, dy * REFINE_SHIFT) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    out = [list(row) for row in predictions]
    for (r, c), seen in zip(cells, _shifted_readings(geometry, cells, shifts, classify), strict=True):
        best = max(seen, key=_place_confidence)
        if _place_confidence(best) > _place_confidence(out[r][c]) + REFINE_MARGIN:
            out[r][c] = _keep_marks(best, out[r][c])
    return out


def _shifted_readings(
    geometry: Geometry,
    cells: Sequence[tuple[int, int]],
    shifts: Sequence[tuple[float, float]],
    classify: Classifier,
) -> list[Sequence[Prediction]]:
    """The classifier's readings of each cell at each shift (in pitches), in one call: per cell, a list."""
    lat = geometry.lattice
    centres = []
    for r, c in cells:
        x, y = lat.center(r, c)
        centres += [(x + dx * lat.pitch_x, y + dy * lat.pitch_y) for dx, dy in shifts]
    # One row of crops at the shifted centres: a lattice whose offsets place every cell. Its colour cast is
    # the city's (measured over the whole lattice), not that of the strip of table this row would cover.
    n = len(centres)
    base = np.array([[(k + 0.5) * lat.pitch_x, 0.5 * lat.pitch_y] for k in range(n)])
    offsets = (np.array(centres) - base).reshape(1, n, 2)
    row = Lattice((0.0, 0.0), lat.pitch_x, lat.pitch_y, 1, n, offsets)
    read = classify(geometry.rectified, row, white_box=lattice_box(lat), balance=not geometry.colour_ready)[0]
    k = len(shifts)
    return [read[i * k : (i + 1) * k] for i in range(len(cells))]


def find_lost_blocks(
    geometry: Geometry, predictions: Sequence[Sequence[Prediction]], classify: Classifier
) -> Sequence[Sequence[Prediction]]:
    """Look for a block around each card-region cell read as empty, and take one read confidently.

    The colour mask says a card lies there, so "empty" most likely means the lattice centre missed the
    block: a card at the city's edge placed a few millimetres apart from the cards the offsets were fitted
    on, or the homography drifting at the far end of a tilted city. Each such cell is read again at half
    and all of :data:`SEARCH_SHIFT` of the pitch in eight directions, and the most confident block reading
    replaces "empty" when it reaches :data:`SEARCH_ACCEPT` (a true hole reads empty, or its neighbours'
    edges doubtfully, at every shift).
    """
    if SEARCH_SHIFT <= 0:
        return predictions
    cells = [
        (r, c)
        for r, row in enumerate(predictions)
        for c, pred in enumerate(row)
        if geometry.occupied[r, c] and geometry.visible[r, c] and _kind(pred) == "empty"
    ]
    if not cells:
        return predictions
    shifts = [
        (dx * f * SEARCH_SHIFT, dy * f * SEARCH_SHIFT)
        for f in (0.5, 1.0)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if dx or dy
    ]
    out = [list(row) for row in predictions]
    for (r, c), seen in zip(cells, _shifted_readings(geometry, cells, shifts, classify), strict=True):
        blocks = [p for p in seen if _kind(p) == "block"]
        if blocks:
            best = max(blocks, key=lambda p: p.confidence)
            if best.confidence >= SEARCH_ACCEPT:
                out[r][c] = best
    return out


def normalise_zone_colours(
    geometry: Geometry, predictions: Sequence[Sequence[Prediction]], classify: Classifier
) -> tuple[Geometry, Sequence[Sequence[Prediction]]]:
    """Correct the photo's zone-dependent colour shift from its own blocks and read the cells again
    (:mod:`vision.zone_colour`); the geometry and reading as they were when no correction is needed."""
    lattice = geometry.lattice
    balanced = balance_whites(geometry.rectified, lattice_box(lattice))
    cells = [
        (r, c)
        for r, row in enumerate(predictions)
        for c, pred in enumerate(row)
        if _kind(pred) == "block" and pred.confidence >= SURE_BLOCK and _counts(geometry, pred, r, c)
    ]
    zone_map = fit_zone_map(
        cell_ab(balanced, lattice, cells), [predictions[r][c].zone or "" for r, c in cells]
    )
    if zone_map is None or not worth_applying(zone_map):
        return geometry, predictions
    corrected = apply_zone_map(balanced, zone_map)
    geometry = replace(geometry, rectified=corrected, colour_ready=True, predictions=None, evidence=None)
    again = classify(corrected, lattice, balance=False)
    # The map is fitted for the zones; the marks (a yellow frame, a hazard barrier) keep the first reading's.
    return geometry, [
        [_keep_marks(a, f) for a, f in zip(ra, rf, strict=True)]
        for ra, rf in zip(again, predictions, strict=True)
    ]


def _default_classifier() -> Classifier:
    from vision.classify import classify_cells  # the ONNX runtime loads only when a photo is scanned

    return classify_cells


def _readings(geometry: Geometry, predictions: Sequence[Sequence[Prediction]]) -> list[list[Reading | None]]:
    """Classifier output → readings; cells off the card region count only when read confidently."""
    out: list[list[Reading | None]] = []
    for r, row in enumerate(predictions):
        line: list[Reading | None] = []
        for c, pred in enumerate(row):
            if not _counts(geometry, pred, r, c):
                line.append(None)
                continue
            options = getattr(pred, "alternatives", None) or ((pred.zone, pred.road, float(pred.confidence)),)
            line.append(
                Reading(
                    tuple(options),
                    _kind(pred),
                    bool(getattr(pred, "poi", False)),
                    bool(getattr(pred, "construction", False)),
                    float(pred.confidence),
                )
            )
        out.append(line)
    return out


def _read_backs(geometry: Geometry) -> tuple[list[BackNumber], list[str]]:
    """The numbers on the scoring cards' backs beside the city (:mod:`vision.scorecards`), and warnings."""
    from vision.numbers import NumberModelError
    from vision.scorecards import find_scoring_cards

    try:
        readings = find_scoring_cards(
            geometry.photo, city_mask=geometry.located.mask, px_per_mm=_px_per_mm(geometry)
        )
    except NumberModelError as exc:  # the number reader is not installed: the city can still be read
        return [], [f"scoring cards not read from their backs: {exc}"]
    return [BackNumber(r.number, r.confidence, r.alternatives, r.to_json()) for r in readings], []


def _px_per_mm(geometry: Geometry) -> float:
    """The photo's scale (px per mm) at the middle of the city, from the map to the rectified view."""
    ys, xs = np.nonzero(geometry.located.mask)
    mask_h, mask_w = geometry.located.mask.shape[:2]
    h, w = geometry.photo.shape[:2]
    centre = (
        np.array([xs.mean() * w / mask_w, ys.mean() * h / mask_h]) if len(xs) else np.array([w / 2, h / 2])
    )
    pts = np.array([centre, centre + (1.0, 0.0), centre + (0.0, 1.0)])
    mapped = project_points(geometry.to_rectified, pts)
    jacobian = np.stack([mapped[1] - mapped[0], mapped[2] - mapped[0]], axis=1)
    return PX_PER_MM / float(np.sqrt(abs(np.linalg.det(jacobian))))


def scan_rgb(
    photo: np.ndarray,
    *,
    cards: Sequence[int] | None = None,
    overlay: bool = False,
    classifier: Classifier | None = None,
    timings: dict[str, float] | None = None,
) -> ScanResult:
    """Scan an upright RGB photo (see :func:`scan_image`)."""
    timings = {} if timings is None else timings
    geometry = read_geometry(photo, timings)
    classify = classifier or _default_classifier()
    if geometry.predictions is not None and classify is geometry.judge:
        predictions = geometry.predictions  # already read when it judged the lattice
    else:
        t = time.perf_counter()
        predictions = classify(geometry.rectified, geometry.lattice)
        timings["classify"] = timings.get("classify", 0.0) + time.perf_counter() - t
    t = time.perf_counter()
    geometry, predictions = grow_to_blocks(geometry, predictions, classify)
    timings["grow"] = time.perf_counter() - t
    t = time.perf_counter()
    geometry, predictions = normalise_zone_colours(geometry, predictions, classify)
    timings["colour"] = time.perf_counter() - t
    t = time.perf_counter()
    predictions = refine_doubtful(geometry, predictions, classify)
    predictions = find_lost_blocks(geometry, predictions, classify)
    timings["refine"] = time.perf_counter() - t

    backs: list[BackNumber] = []
    back_warnings: list[str] = []
    if cards is None:
        t = time.perf_counter()
        backs, back_warnings = _read_backs(geometry)
        timings["cards"] = time.perf_counter() - t
    # The city decoded on its own first, so that its three missing cards are a reading independent of
    # the backs; decoded again without the chosen scoring cards only when it used one of them (had it not,
    # the result would be the same).
    t = time.perf_counter()
    counts = _counting(geometry, predictions)
    readings = _readings(geometry, predictions)
    as_cards = read_as_cards(readings, predictions, counts, geometry.visible)
    from_city, certainty = _cards_from_city(as_cards)
    scoring = choose_scoring_cards(backs, from_city, certainty, given=cards)
    placed = {p.card for p in as_cards.decoding.placements} if as_cards.used else set()
    if scoring.cards and placed & set(scoring.cards):
        honoured = read_as_cards(readings, predictions, counts, geometry.visible, exclude=scoring.cards)
        if scoring.source == "backs" and scoring.in_doubt and as_cards.used and honoured.used:
            # The city disagreed with three backs read surely; it only contradicts them if it is explained
            # much worse without their cards (two cards that show the same blocks can swap for free).
            cost = as_cards.decoding.objective - honoured.decoding.objective
            if cost < CITY_AGAINST_BACKS:
                scoring = replace(scoring, in_doubt=(), warnings=())
        as_cards = honoured
    timings["decode cards"] = time.perf_counter() - t
    card_warnings = back_warnings + list(scoring.warnings)
    cards = list(scoring.cards) if scoring.cards else None

    t = time.perf_counter()
    assembled = assemble_city(as_cards.readings, cards=cards)
    blocks = sum(1 for _ in assembled.city.blocks())
    if blocks < MIN_BLOCKS:
        raise NoCityFound(
            f"no city found: only {blocks} block{'s' * (blocks != 1)} could be read "
            f"(a city to score has at least {MIN_BLOCKS})"
        )
    r0, c0 = assembled.origin
    cells = [
        CellReading(
            r, c, assembled.labels[r][c], float(assembled.confidence[r, c]), as_cards.cards[r + r0][c + c0]
        )
        for r in range(assembled.city.n_rows)
        for c in range(assembled.city.n_cols)
    ]
    placements = [
        {"card": p.card, "rotated": p.rotated, "row": p.row - r0, "col": p.col - c0}
        for p in (as_cards.decoding.placements if as_cards.used else ())
    ]
    timings["assemble"] = time.perf_counter() - t
    image = None
    if overlay:
        from vision.overlay import cell_outlines, draw_overlay

        t = time.perf_counter()
        boxes = [(b.number, np.array(b.where["corners"])) for b in scoring.backs if "corners" in b.where]
        image = draw_overlay(geometry, assembled, long_side=OVERLAY_LONG_SIDE, scoring_cards=boxes)
        outlines = cell_outlines(geometry, assembled)
        for cell in cells:
            cell.outline = outlines[(cell.row, cell.col)]
        timings["overlay"] = time.perf_counter() - t
    card_doubts = [name_cells(w, assembled.origin) for w in as_cards.warnings]
    warnings = geometry.warnings + card_warnings + card_doubts + assembled.warnings
    sure_city = from_city if certainty >= CITY_SURE else None
    return ScanResult(assembled.city, cells, warnings, timings, image, placements, sure_city, scoring)


def _cards_from_city(as_cards: CardReading) -> tuple[tuple[int, ...] | None, float]:
    """The three cards no placement uses, when the decoding placed 15 distinct known cards, and how sure
    that is (0–1, from how much worse the city is explained with another card among the fifteen; below
    0.82 the decoding itself says "in doubt", see vision.card_decoding.DOUBT_MARGIN)."""
    decoding = as_cards.decoding
    if not as_cards.used or len(decoding.placements) != CITY_CARDS or decoding.missing_margin is None:
        return None, 0.0
    missing = decoding.missing_cards()
    certainty = 1.0 / (1.0 + float(np.exp(-decoding.missing_margin)))
    return (missing, certainty) if len(missing) == 3 else (None, 0.0)


def scan_image(
    data: bytes,
    *,
    cards: Sequence[int] | None = None,
    overlay: bool = False,
    classifier: Classifier | None = None,
    timings: dict[str, float] | None = None,
) -> ScanResult:
    """Read the city in a photo (JPEG, PNG, WebP or HEIC bytes).

    ``cards`` are the scoring cards to put in the city's header; when not given, the scoring cards lying
    face up beside the city are read (and a warning says when they could not be). With ``overlay`` the
    result carries an RGB picture of what was read. ``classifier`` replaces the shipped cell classifier
    (tests, benchmarks). ``timings`` receives each stage's seconds as the stage ends (a caller's mapping
    may stop the scan there by raising).
    Raises :class:`~vision.decode.ImageError` for files that are not usable photos and
    :class:`NoCityFound` when the photo shows no city, or too little of one; both are InputErrors.
    """
    timings = {} if timings is None else timings
    t = time.perf_counter()
    decoded = decode_image(data, long_side=WORK_LONG_SIDE)
    timings["decode"] = time.perf_counter() - t
    result = scan_rgb(decoded.rgb, cards=cards, overlay=overlay, classifier=classifier, timings=timings)
    result.timings["total"] = sum(v for k, v in result.timings.items() if k != "total")
    return result
