"""The town's lattice measured again in its first top-down view, from the card edges found there.

The rectification takes the cell periods from the photo (:mod:`vision.lattice.rectify`); a town's textures
and overlapping cards make its edges less decisive than a city's, and on rendered towns the view came out
up to a third too tall or too short, beyond what the lattice fit's ±8 % and the per-cell offsets absorb.
The fit's phase comes from the colour jumps, which on Circle the Wagons art also jump at the icons' pale
ovals: on rendered towns it sat up to 0.3 of a cell off, where the card edges put it within 0.05.
So the periods are measured again in the view (:func:`view_periods`) and a uniform lattice is moved onto
the card edges (:func:`on_edges`).
"""

from __future__ import annotations

import numpy as np

from vision.lattice import (
    ColourJumps,
    Lattice,
    comb_score,
    folded_peak,
    lab_within,
    occupied_cells,
    period_candidates,
    position_profile,
    segment_axis,
)

__all__ = ["VIEW_PERIOD_RANGE", "on_edges", "view_periods"]

#: How far either side of the nominal cell the periods are looked for (fractions of it).
VIEW_PERIOD_RANGE = (0.65, 1.5)
# Autocorrelation peaks of the edges tried as the period: the cards' hand shifts and the icons' ovals
# add peaks of their own, and on a rendered town (tilted 19°) the true period was the sixth.
VIEW_PERIOD_CANDIDATES = 8
# The card edges move the lattice only where this much edge length (in pitches of the axis along them)
# lies near its boundaries; fewer than two cards' sides leave the fit's phase.
MIN_EDGE_PITCHES = 4.0


def _autocorrelation(profile: np.ndarray) -> np.ndarray:
    """The normalised autocorrelation of ``profile`` less its mean (1 at lag 0; zeros when flat)."""
    x = profile - profile.mean()
    spectrum = np.fft.rfft(x, 2 * len(x))
    ac = np.fft.irfft(spectrum * np.conj(spectrum))[: len(x)]
    return ac / ac[0] if ac[0] > 0 else np.zeros_like(ac)


def _edge_profile(seg: np.ndarray, axis: int, length: int) -> np.ndarray:
    """The card edges' positions across ``axis`` as a profile, long lines weighing most."""
    pos, _, size = segment_axis(seg, axis)
    return position_profile(pos, size**1.5, length, sigma=1.0)


def view_periods(
    view: np.ndarray, mask: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray, cell: np.ndarray
) -> tuple[float, float]:
    """The cell periods (x, y) in px at which the card edges and the colour jumps of a top-down ``view``
    repeat, each within :data:`VIEW_PERIOD_RANGE` of the nominal ``cell`` (width, height px; ``nan``
    where nothing repeats).

    Of the edge positions' autocorrelation peaks, the one kept has the most autocorrelation times comb
    score on the colour jumps (:func:`vision.lattice.rectify.comb_score`): the edges alone also repeat at
    a card's hand shift or an icon's oval, the colour jumps alone at two cells where neighbours match.
    """
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    if len(xs) == 0:
        return float("nan"), float("nan")
    lab = lab_within(view, slice(int(ys[0]), int(ys[-1]) + 1), slice(int(xs[0]), int(xs[-1]) + 1))
    jumps = ColourJumps.both_axes(lab, mask)
    out = []
    for axis, seg in ((0, vertical), (1, horizontal)):
        if len(seg) == 0:
            out.append(float("nan"))
            continue
        profile = _edge_profile(seg, axis, view.shape[1 - axis])
        ac = _autocorrelation(profile)
        lo, hi = (f * float(cell[axis]) for f in VIEW_PERIOD_RANGE)
        scored = [
            (float(ac[int(round(t))]) * comb_score(jumps[axis].profile(max(2, int(round(t / 4)))), t), t)
            for t in period_candidates(profile, lo, hi, count=VIEW_PERIOD_CANDIDATES)
        ]
        best = max(scored, default=(0.0, float("nan")))
        out.append(best[1] if best[0] > 0 else float("nan"))
    return out[0], out[1]


def on_edges(
    lattice: Lattice, mask: np.ndarray, vertical: np.ndarray, horizontal: np.ndarray
) -> tuple[Lattice, np.ndarray]:
    """A uniform ``lattice`` (no offsets) moved by less than half a cell along each axis so that its
    boundaries lie where the card edges repeat (the edge profile folded by the pitch), grown and cut
    again to the cells the card ``mask`` covers; with those cells (rows, cols bool)."""
    origin = list(lattice.origin)
    for axis, seg, pitch in ((0, vertical, lattice.pitch_x), (1, horizontal, lattice.pitch_y)):
        across = lattice.pitch_y if axis == 0 else lattice.pitch_x
        if len(seg) == 0 or segment_axis(seg, axis)[2].sum() < MIN_EDGE_PITCHES * across:
            continue
        profile = _edge_profile(seg, axis, mask.shape[1 - axis])
        phase = folded_peak(profile, pitch, width=3)
        shift = (phase - origin[axis] + pitch / 2) % pitch - pitch / 2
        origin[axis] += shift
    moved = Lattice((origin[0], origin[1]), lattice.pitch_x, lattice.pitch_y, lattice.rows, lattice.cols)
    grown = moved.padded(1, 1, 1, 1)
    occupied = occupied_cells(mask, grown)
    if not occupied.any():
        return lattice, occupied_cells(mask, lattice)
    rows, cols = np.nonzero(occupied)
    r0, c0 = int(rows.min()), int(cols.min())
    trimmed = Lattice(
        (grown.origin[0] + c0 * grown.pitch_x, grown.origin[1] + r0 * grown.pitch_y),
        grown.pitch_x,
        grown.pitch_y,
        int(rows.max()) - r0 + 1,
        int(cols.max()) - c0 + 1,
    )
    return trimmed, occupied[r0 : rows.max() + 1, c0 : cols.max() + 1]
