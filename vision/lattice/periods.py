"""Periodic structure in 1-D profiles: where a city's block boundaries repeat.

Line positions and colour changes along one axis of the top-down view make a profile; its
autocorrelation gives the block period, and folding it by that period gives the phase. Each answer is
refined to sub-pixel precision by a parabola through the peak.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = [
    "ColourJumps",
    "estimate_period",
    "lab_within",
    "folded_peak",
    "period_candidates",
    "position_profile",
    "strong_periods",
    "subpixel_offset",
]


def position_profile(
    positions: np.ndarray, weights: np.ndarray, length: int, sigma: float = 1.5
) -> np.ndarray:
    """A smoothed histogram (one bin per pixel, ``length`` bins) of weighted line positions."""
    idx = np.clip(np.round(positions).astype(int), 0, length - 1)
    hist = np.bincount(idx, weights=weights, minlength=length).astype(np.float64)
    radius = max(1, int(3 * sigma))
    kernel = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    return np.convolve(hist, kernel / kernel.sum(), mode="same")


def _autocorrelation(profile: np.ndarray) -> np.ndarray:
    """The autocorrelation of ``profile`` minus its mean at lags 0 .. len - 1 (zero padded, by FFT)."""
    x = profile - profile.mean()
    spectrum = np.fft.rfft(x, 2 * len(x))
    return np.fft.irfft(spectrum * np.conj(spectrum))[: len(x)]


def _lag_peaks(ac: np.ndarray, lo: float, hi: float) -> list[int]:
    """Lags in [lo, hi] where ``ac`` has a positive local maximum."""
    lo_i, hi_i = max(2, int(np.floor(lo))), min(len(ac) - 2, int(np.ceil(hi)))
    return [i for i in range(lo_i, hi_i + 1) if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1] and ac[i] > 0]


def subpixel_offset(a: float, b: float, c: float) -> float:
    """Where a parabola through three equally spaced samples peaks, relative to the middle one (−0.5 to
    0.5; 0 when the samples do not bend down).

    >>> subpixel_offset(1.0, 2.0, 1.0) == 0.0, subpixel_offset(1.0, 2.0, 2.0)
    (True, 0.5)
    """
    denom = a - 2 * b + c
    return float(np.clip(0.5 * (a - c) / denom, -0.5, 0.5)) if denom < 0 else 0.0


def estimate_period(profile: np.ndarray, lo: float, hi: float) -> tuple[float, float]:
    """The fundamental period of ``profile`` within [lo, hi] and its strength (normalised autocorrelation
    at that lag, 0..1).

    Multiples of the true period also correlate, so the smallest lag whose peak reaches 70% of the
    strongest one is taken (the first of :func:`strong_periods`); a parabola through the peak gives
    sub-pixel precision.
    """
    periods = strong_periods(profile, lo, hi)
    return periods[0] if periods else (float("nan"), 0.0)


def strong_periods(profile: np.ndarray, lo: float, hi: float) -> list[tuple[float, float]]:
    """Every lag within [lo, hi] whose autocorrelation peak reaches 70% of the strongest there, shortest
    first, each with its strength (to sub-pixel precision; none when ``profile`` is flat).

    >>> profile = np.tile([1.0, 0.0, 0.0, 0.0, 0.0], 20)
    >>> [round(lag, 1) for lag, _ in strong_periods(profile, 3, 12)]
    [5.0, 10.0]
    """
    ac = _autocorrelation(profile)
    if ac[0] <= 0:
        return []
    ac = ac / ac[0]
    peaks = _lag_peaks(ac, lo, hi)
    if not peaks:
        return []
    top = max(ac[i] for i in peaks)
    return [
        (i + subpixel_offset(ac[i - 1], ac[i], ac[i + 1]), float(ac[i])) for i in peaks if ac[i] >= 0.7 * top
    ]


def period_candidates(profile: np.ndarray, lo: float, hi: float, count: int = 4) -> list[float]:
    """Up to ``count`` lags in [lo, hi] where the autocorrelation of ``profile`` peaks, strongest first
    (each to sub-pixel precision)."""
    ac = _autocorrelation(profile)
    if ac[0] <= 0:
        return []
    peaks = sorted(_lag_peaks(ac, lo, hi), key=lambda i: -ac[i])
    return [i + subpixel_offset(ac[i - 1], ac[i], ac[i + 1]) for i in peaks[:count]]


def _fold(profile: np.ndarray, period: float, start: int, stop: int) -> np.ndarray:
    """Mean of ``profile`` at ``start + p + k * period`` (inside [start, stop)), p = 0 .. ceil(period) - 1."""
    n = int(np.ceil(period))
    reps = max(1, int(np.ceil((stop - start) / period)))
    idx = start + np.arange(n)[:, None] + period * np.arange(reps)[None, :]
    idx = np.round(idx).astype(int)
    valid = idx < stop
    values = profile[np.clip(idx, 0, len(profile) - 1)] * valid
    return values.sum(axis=1) / np.maximum(valid.sum(axis=1), 1)


def folded_peak(profile: np.ndarray, period: float, width: int = 1) -> float:
    """The phase (0..period) at which ``profile`` folded by ``period`` peaks, using only the part of the
    profile that is non-zero (inside the city). The folded profile is first smoothed with a circular box
    of ``width`` bins, which moves the answer to the middle of a flat-topped peak."""
    valid = np.nonzero(profile > 0)[0]
    if len(valid) == 0:
        return 0.0
    start, stop = valid[0], valid[-1] + 1
    folded = _fold(profile, period, start, stop)
    n = len(folded)
    if width > 1:
        folded = np.convolve(np.tile(folded, 3), np.ones(width) / width, mode="same")[n : 2 * n]
    best = int(np.argmax(folded))
    shift = subpixel_offset(folded[(best - 1) % n], folded[best], folded[(best + 1) % n])
    return float((start + best + shift) % period)


def lab_within(rgb: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    """An RGB uint8 image in Lab (float32, OpenCV's 8-bit scale), converted only within ``rows`` ×
    ``cols`` and 0 beyond: the colour jumps read only the city, and a conversion costs by the pixel."""
    lab = np.zeros(rgb.shape, np.float32)
    lab[rows, cols] = cv2.cvtColor(np.ascontiguousarray(rgb[rows, cols]), cv2.COLOR_RGB2LAB)
    return lab


def _masked(lab: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colours (float32) where ``mask`` is set and 0 elsewhere, and the mask as float32 0/1."""
    inside = (mask > 0).astype(np.float32)
    return lab.astype(np.float32) * inside[..., None], inside


class ColourJumps:
    """Colour-change profiles along one axis of an image (0 = x, 1 = y), for any window size.

    ``profile(reach)`` is, for each position, the mean distance over bands of rows inside the city mask
    between the mean colour just before and just after it (windows ``reach`` pixels wide, centred
    ``reach`` pixels away). Block boundaries change the zone colour (the four blocks of a card are four
    different zones); the middle of a block does not, even where a road runs along it. Rows are pooled
    once into thin bands, and their cumulative sums once per band height, so each profile costs little: it
    is asked for every candidate period.
    """

    BAND = 4

    def __init__(
        self,
        lab: np.ndarray,
        mask: np.ndarray,
        axis: int,
        *,
        masked: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        weighted, inside = _masked(lab, mask) if masked is None else masked
        h, w = mask.shape
        # Pool BAND rows (or columns) into one with an area resize, the fast way to sum blocks of pixels.
        if axis == 0:
            size = (w, max(1, h // self.BAND))
            crop = (slice(0, size[1] * self.BAND), slice(None))
        else:
            size = (max(1, w // self.BAND), h)
            crop = (slice(None), slice(0, size[0] * self.BAND))
        sums = cv2.resize(weighted[crop], size, interpolation=cv2.INTER_AREA) * self.BAND
        counts = cv2.resize(inside[crop], size, interpolation=cv2.INTER_AREA) * self.BAND
        if axis == 1:
            sums, counts = sums.transpose(1, 0, 2), counts.T
        self.sums, self.counts = np.ascontiguousarray(sums), np.ascontiguousarray(counts)
        self.n = self.sums.shape[1]
        # Several reaches pool the same bands, and candidate periods repeat reaches: both are kept.
        self._cumulated: dict[int, tuple[np.ndarray, np.ndarray, int]] = {}
        self._profiles: dict[int, np.ndarray] = {}

    @classmethod
    def both_axes(cls, lab: np.ndarray, mask: np.ndarray) -> tuple[ColourJumps, ColourJumps]:
        """The profiles along x and along y of one image, which share its masked colours."""
        masked = _masked(lab, mask)
        return cls(lab, mask, 0, masked=masked), cls(lab, mask, 1, masked=masked)

    def _cumulative(self, group: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Cumulative sums along the axis of the bands ``group`` thin bands high, of the colours
        (3 × length × bands) and of the counts (length × bands), and ``pad``: both start with ``pad`` + 1
        zeros and end with ``pad`` copies of the total, so every window of a profile is a slice. Bands
        vary fastest, which makes the mean over bands numpy's pairwise sum, as it always was."""
        if group not in self._cumulated:
            n, bands, pad = self.n, len(self.sums) // group, self.BAND * (group + 1)  # pad > reach
            sums = self.sums[: bands * group].reshape(bands, group, n, 3).sum(axis=1)
            counts = self.counts[: bands * group].reshape(bands, group, n).sum(axis=1)
            cs, cc = np.zeros((3, n + 1 + 2 * pad, bands)), np.zeros((n + 1 + 2 * pad, bands))
            cs[:, pad + 1 : pad + n + 1] = np.cumsum(sums, axis=1).transpose(2, 1, 0)
            cc[pad + 1 : pad + n + 1] = np.cumsum(counts, axis=1).T
            cs[:, pad + n + 1 :], cc[pad + n + 1 :] = cs[:, pad + n, None], cc[pad + n]
            self._cumulated[group] = cs, cc, pad
        return self._cumulated[group]

    def profile(self, reach: int) -> np.ndarray:
        """The colour-jump profile (one value per position along the axis) for windows ``reach`` wide."""
        if reach not in self._profiles:
            self._profiles[reach] = self._profile(reach)
        return self._profiles[reach].copy()

    def _profile(self, reach: int) -> np.ndarray:
        n, out = self.n, np.zeros(self.n)
        group = max(1, reach // self.BAND)  # pool the thin bands into bands about ``reach`` high
        if n <= 2 * reach + 1 or len(self.sums) // group == 0:
            return out
        cs, cc, pad = self._cumulative(group)
        # Box sums along the axis: window [x - reach/2, x + reach/2), clipped to the image. The steps
        # work in place: these arrays are the largest of the scan's period search.
        lo, hi, m = pad - reach // 2, pad - reach // 2 + reach, n - 2 * reach
        box_n = cc[hi : hi + n] - cc[lo : lo + n]
        full = box_n >= 0.5 * group * self.BAND * reach  # windows mostly inside the city
        mean = np.subtract(cs[:, hi : hi + n], cs[:, lo : lo + n])
        np.divide(mean, np.maximum(box_n, 1.0, out=box_n), out=mean)
        step = np.subtract(mean[:, :m], mean[:, 2 * reach :], out=mean[:, :m])
        np.multiply(step, step, out=step)
        dist = np.add(step[0], step[1], out=step[0])
        np.sqrt(np.add(dist, step[2], out=dist), out=dist)
        ok = full[:m] & full[2 * reach :]
        count = ok.sum(axis=1)
        out[reach : n - reach] = np.where(count > 0, (dist * ok).sum(axis=1) / np.maximum(count, 1), 0.0)
        return out
