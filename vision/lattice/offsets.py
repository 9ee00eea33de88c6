"""Per-cell offsets of a block lattice: a smooth drift of the blocks across the city, then each cell's own
shift onto the card edges and rims around it (hand placement moves a card by a few millimetres).

The evidence is the straight line segments found in the top-down view (N × 4: x1, y1, x2, y2), split into
those running along its y axis (``vertical``) and its x axis (``horizontal``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.lattice.fit import Lattice

__all__ = ["cell_offsets", "drift_offsets", "segment_axis"]


def segment_axis(seg: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(position across the segment's direction, position along it, weight) for axis-aligned segments."""
    across = (seg[:, axis] + seg[:, axis + 2]) / 2
    along = (seg[:, 1 - axis] + seg[:, 3 - axis]) / 2
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    return across, along, length


# A line's vote fades with its distance from a cell boundary (a biweight over ``max_shift``) and with
# how far its middle lies along the boundary from the cell's middle (full up to ALONG_FULL pitches, none
# past ALONG_NONE): no vote switches on or off at a threshold, so a photo moved by a pixel moves the
# shifts by a fraction of one, where a weighted median could jump to another line (4-5 mm for a card).
ALONG_FULL, ALONG_NONE = 0.3, 0.45
# The shift is pulled towards none by this much line length (in the other axis's pitches): a cell with
# one short building outline near its boundary keeps the drift, a cell with card edges follows them.
PRIOR_LENGTH = 0.3
# Rounds of re-centring the biweight on the estimate (an M-estimate: it settles on the nearest edge).
SHIFT_ROUNDS = 3


def _local_shifts(
    lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray, max_shift: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell (dx, dy) shifts (pixels, relative to the cell's current centre) that move each cell onto
    the card edges and rims around it, and the evidence behind each (the weighted length of the lines
    that voted, pixels).

    The line positions near a cell's left/right (top/bottom) boundaries vote, weighted by length, for
    the shift; the estimate is a biweight M-estimate started at no shift and shrunk towards none where
    little line length voted (:data:`PRIOR_LENGTH`). Every weight is a smooth function of the lines, so
    the shifts change little when the photo changes little.
    """
    shifts = np.zeros((lattice.rows, lattice.cols, 2))
    evidence = np.zeros((lattice.rows, lattice.cols, 2))
    centres = lattice.centres()  # (rows, cols, 2)
    for axis, seg, pitch, pitch_other in (
        (0, vertical, lattice.pitch_x, lattice.pitch_y),
        (1, horizontal, lattice.pitch_y, lattice.pitch_x),
    ):
        if len(seg) == 0:
            continue
        across, along, weight = segment_axis(seg, axis)
        mid, mid_other = centres[..., axis, None], centres[..., 1 - axis, None]
        off_middle = np.abs(along - mid_other) / pitch_other  # (rows, cols, segments)
        fade = np.clip((ALONG_NONE - off_middle) / (ALONG_NONE - ALONG_FULL), 0.0, 1.0)
        # Both boundaries' votes side by side.
        d = np.concatenate([across - (mid + side * pitch) for side in (-0.5, 0.5)], axis=-1)
        w = np.concatenate([weight * fade, weight * fade], axis=-1)
        estimate = np.zeros(d.shape[:-1])
        prior = PRIOR_LENGTH * pitch_other
        for _ in range(SHIFT_ROUNDS):
            u = np.clip((d - estimate[..., None]) / max_shift, -1.0, 1.0)
            k = w * (1.0 - u**2) ** 2
            total = k.sum(axis=-1)
            estimate = (k * d).sum(axis=-1) / (total + prior)
        shifts[..., axis] = np.clip(estimate, -max_shift, max_shift)
        evidence[..., axis] = total
    return shifts, evidence


def cell_offsets(
    lattice: Lattice, vertical: np.ndarray, horizontal: np.ndarray, max_shift: float
) -> np.ndarray:
    """Per-cell (dx, dy) offsets (pixels: the lattice's own offsets plus the shifts that move each cell
    onto the card edges and rims around it, see :func:`_local_shifts`). Cells without evidence keep their
    offsets."""
    base = lattice.offsets if lattice.offsets is not None else np.zeros((lattice.rows, lattice.cols, 2))
    shifts, _ = _local_shifts(lattice, vertical, horizontal, max_shift)
    return np.asarray(base, dtype=np.float64) + shifts


def _plane_fit(xy: np.ndarray, values: np.ndarray, weights: np.ndarray, spread: float) -> np.ndarray:
    """Coefficients of ``a + b x + c y`` fitted to ``values`` by weighted least squares, down-weighting
    points more than ``spread`` off the fit (two Tukey reweighting rounds)."""
    design = np.c_[np.ones(len(xy)), xy]
    w = weights.astype(np.float64)
    coef = np.zeros(design.shape[1])
    for _ in range(3):
        sw = np.sqrt(w)
        coef = np.linalg.lstsq(design * sw[:, None], values * sw, rcond=None)[0]
        u = np.clip((values - design @ coef) / (2.5 * spread), -1.0, 1.0)
        w = weights * (1 - u**2) ** 2
        if w.sum() <= 0:
            break
    return coef


def drift_offsets(
    lattice: Lattice,
    vertical: np.ndarray,
    horizontal: np.ndarray,
    max_shift: float,
    search: float | None = None,
    rounds: int = 3,
) -> np.ndarray:
    """Per-cell offsets that follow a smooth drift of the blocks across the city, then the local shifts.

    A residual error of the rectification (a perspective not fully undone) moves the blocks against the
    uniform lattice more and more towards the far side of the city, up to half a block, beyond what one
    search of ``max_shift`` around each cell can see. Each round finds the local shifts where the lines
    allow (:func:`_local_shifts`), fits them with a plane per axis (weighted by evidence, robust to single
    cards placed off by hand) and moves every cell by it, so that the next round searches from closer to
    where the far blocks really are. Finally each cell gets its own local shift on top of the drift.
    Returns (rows, cols, 2) offsets in pixels, including the lattice's own.
    """
    base = np.asarray(
        lattice.offsets if lattice.offsets is not None else np.zeros((lattice.rows, lattice.cols, 2)),
        dtype=np.float64,
    )
    rows, cols = np.mgrid[0 : lattice.rows, 0 : lattice.cols]
    # Cell positions in pitches from the lattice middle keep the plane fit well conditioned.
    xy = np.c_[(cols.ravel() - (lattice.cols - 1) / 2), (rows.ravel() - (lattice.rows - 1) / 2)]
    drift = np.zeros_like(base)
    for _ in range(rounds):
        shifts, evidence = _local_shifts(
            replace(lattice, offsets=base + drift), vertical, horizontal, search or max_shift
        )
        step = np.zeros_like(base)
        for axis in (0, 1):
            weight = evidence[:, :, axis].ravel()
            if (weight > 0).sum() < 6:
                continue
            coef = _plane_fit(xy, shifts[:, :, axis].ravel(), weight, spread=max_shift / 4)
            step[:, :, axis] = (coef[0] + xy @ coef[1:]).reshape(lattice.rows, lattice.cols)
        drift += step
        if np.abs(step).max() < 0.5:
            break
    return cell_offsets(replace(lattice, offsets=base + drift), vertical, horizontal, max_shift)
