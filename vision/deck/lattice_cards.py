"""The cards of a deck photo found as 2 × 2 groups of one block lattice fitted to the whole grid (cards close
together, even touching; :func:`lattice_cards`), and how well the 18 known layouts explain cards read by the
classifier (:func:`fit_matrix`, :func:`score_of`): what :mod:`vision.deck.teach` weighs against the cards
found one by one by their outlines."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.cells import CellReading, Classifier, Grid, read_lattice
from vision.city import Geometry, geometry_on, rectified_plane, small_copy
from vision.deck.assign import best_assignment
from vision.deck.corrections import card_labels
from vision.deck.taught import CARDS, block_features
from vision.lattice import Lattice, NoCityFound, locate_city, measure_periods, project_points

__all__ = ["FLOOR", "PhotoCards", "fit_matrix", "lattice_cards", "score_of"]

# A block's log-probability is floored here (the softmax underflows; one bad block must not dominate).
FLOOR = math.log(1e-4)
# A 2 × 2 group holds a card when at least this many of its blocks read as a card.
CARD_CELLS = 3
# The grid's period shortened by these factors gives the block pitch candidates (gaps of 0 to ~12 mm).
PERIOD_FACTORS = (1.0, 0.94, 0.88)


@dataclass(frozen=True)
class PhotoCards:
    """The cards found in one deck photo: their places (card row, column), fit and turn matrices against
    the 18 layouts, their blocks' patches and classifier labels (4 a card) and outlines (working-copy
    pixels, TL, TR, BR, BL); ``score`` how well the layouts explain them, ``doubtful`` regions left."""

    score: float
    found: list[tuple[int, int]]
    fit: np.ndarray
    turn: np.ndarray
    patches: np.ndarray
    read: list[str]
    corners: np.ndarray
    doubtful: int = 0


def _log(pred: CellReading, label: tuple[str | None, str | None]) -> float:
    return max(FLOOR, math.log(max(pred.distribution.get(label, 0.0), 1e-12)))


def fit_matrix(predictions: Sequence[Sequence[CellReading]]) -> tuple[np.ndarray, np.ndarray]:
    """For each card (its 4 readings TL, TR, BL, BR) and layout: the best sum of log-probabilities over
    the two turns, and which turn that was."""
    fit = np.empty((len(predictions), len(CARDS)))
    turn = np.zeros((len(predictions), len(CARDS)), bool)
    for i, blocks in enumerate(predictions):
        for j, n in enumerate(CARDS):
            ways = [
                sum(_log(p, lb) for p, lb in zip(blocks, card_labels(n, rot), strict=True))
                for rot in (False, True)
            ]
            fit[i, j], turn[i, j] = max(ways), ways[1] > ways[0]
    return fit, turn


def _card_centres(
    lattice: Lattice, r0: int, c0: int, holds: np.ndarray
) -> list[tuple[int, int, float, float]]:
    """The 2 × 2 groups starting at row/column phase (r0, c0) that hold a card: (card row, card column,
    centre x, centre y), the centre the mean of the group's four cell centres."""
    out = []
    for r in range(r0, lattice.rows - 1, 2):
        for c in range(c0, lattice.cols - 1, 2):
            if holds[r : r + 2, c : c + 2].sum() < CARD_CELLS:
                continue
            pts = [lattice.center(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
            out.append(((r - r0) // 2, (c - c0) // 2, *np.mean(pts, axis=0)))
    return out


def _block_centres(lattice: Lattice, cx: float, cy: float) -> list[tuple[float, float]]:
    hx, hy = lattice.pitch_x / 2, lattice.pitch_y / 2
    return [(cx - hx, cy - hy), (cx + hx, cy - hy), (cx - hx, cy + hy), (cx + hx, cy + hy)]


def _read_points(geometry: Geometry, points: list[tuple[float, float]], classify: Classifier) -> Grid:
    """The classifier's readings at arbitrary block centres of the geometry's top-down view (whose colour
    cast is measured over the whole grid)."""
    lat = geometry.lattice
    return list(classify(geometry.view, np.array(points, float), (lat.pitch_x, lat.pitch_y)))


def _read_cards(geometry: Geometry, classify: Classifier) -> tuple | None:
    """The cards of one fitted grid: (score, cards found, fit and turn matrices, block centres), at the
    row and column phase whose groups the layouts explain best; ``None`` when no group holds a card."""
    lattice = geometry.lattice
    first = read_lattice(classify, geometry.view, lattice)
    holds = np.array(
        [
            [bool(geometry.visible[r, c]) and p.empty_probability < 0.5 for c, p in enumerate(row)]
            for r, row in enumerate(first)
        ]
    )
    best = None
    for r0 in (0, 1):
        for c0 in (0, 1):
            found = _card_centres(lattice, r0, c0, holds)
            if not found:
                continue
            points = [pt for _, _, cx, cy in found for pt in _block_centres(lattice, cx, cy)]
            read = _read_points(geometry, points, classify)
            fit, turn = fit_matrix([read[4 * i : 4 * i + 4] for i in range(len(found))])
            score = score_of(fit)
            if best is None or score > best[0]:
                r_min = min(r for r, _, _, _ in found)
                c_min = min(c for _, c, _, _ in found)
                found = [(r - r_min, c - c_min, x, y) for r, c, x, y in found]
                best = (score, found, fit, turn, points, [p.label for p in read])
    return best


def score_of(fit: np.ndarray) -> float:
    """How well the known layouts explain the cards found: the assignment's log-probability, each layout
    that no card explains counted as a whole card at the floor."""
    rows, cols = best_assignment(fit)
    return float(fit[rows, cols].sum() + 4 * FLOOR * (len(CARDS) - len(rows)))


def lattice_cards(rgb: np.ndarray, classify: Classifier) -> PhotoCards | None:
    """The cards found as 2 × 2 groups of one block lattice fitted to the whole grid (cards close together,
    even touching), as :func:`_outline_cards` finds them (nothing doubtful)."""

    small, _ = small_copy(rgb)
    try:
        located = locate_city(small)
        periods = measure_periods(located, small)
    except NoCityFound:
        return None
    best = None
    # The gaps between the cards make the grid's period a card and a gap, not a block: the block pitch is
    # that shortened by the gap's share (a few per cent), so each candidate is fitted and the one whose
    # cards the layouts explain best is taken.
    for factor in PERIOD_FACTORS:
        pitches = (periods.best[0] * factor, periods.best[1] * factor)
        try:
            geometry = geometry_on(rectified_plane(rgb, small, located, periods, pitches))
        except NoCityFound:
            continue
        read = _read_cards(geometry, classify)
        if read is not None and (best is None or read[0] > best[0]):
            best = (*read, geometry)
    if best is None:
        return None
    score, found, fit, turn, points, labels, geometry = best
    lattice = geometry.lattice
    patches = block_features(geometry.view.balanced, points, lattice.pitch_x, lattice.pitch_y)
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * (lattice.pitch_x, lattice.pitch_y)
    to_photo = np.linalg.inv(geometry.to_rectified)
    corners = np.array([project_points(to_photo, square + (x, y)) for _, _, x, y in found])
    return PhotoCards(score, [(r, c) for r, c, _, _ in found], fit, turn, patches, labels, corners)
