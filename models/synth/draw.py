"""Anti-aliased drawing in millimetres on top of OpenCV's pixel primitives.

A :class:`Pen` draws into an RGB ``uint8`` image (or a view of one) whose origin is at millimetre
``(0, 0)``; every coordinate and length is in mm and turned into fixed-point pixels (4 fractional bits)
so that small shapes keep their sub-pixel position at low resolutions.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

Color = tuple[int, int, int]
Point = tuple[float, float]

_SHIFT = 4
_ONE = 1 << _SHIFT


def _c(color: Color | int | None) -> tuple[int, ...] | None:
    """OpenCV wants plain ints (NumPy scalars are refused); a single int is a grey level."""
    if color is None:
        return None
    if isinstance(color, int | np.integer):
        return (int(color),)
    return tuple(int(v) for v in color)


class Pen:
    """Draw shapes given in mm into ``img`` at ``ppm`` pixels per mm, offset by ``origin`` (mm)."""

    def __init__(self, img: np.ndarray, ppm: float, origin: Point = (0.0, 0.0)) -> None:
        self.img = img
        self.ppm = ppm
        self.ox, self.oy = origin

    def _pt(self, p: Point) -> tuple[int, int]:
        return (
            int(round((p[0] + self.ox) * self.ppm * _ONE)),
            int(round((p[1] + self.oy) * self.ppm * _ONE)),
        )

    def _len(self, mm: float) -> int:
        return max(0, int(round(mm * self.ppm * _ONE)))

    def _thick(self, mm: float) -> int:
        return max(1, int(round(mm * self.ppm)))

    def poly(
        self, pts: Sequence[Point], fill: Color | None, outline: Color | None = None, width: float = 0.3
    ) -> None:
        """A filled polygon, optionally outlined ``width`` mm wide."""
        arr = np.array([self._pt(p) for p in pts], np.int32)
        if fill is not None:
            cv2.fillPoly(self.img, [arr], _c(fill), cv2.LINE_AA, _SHIFT)
        if outline is not None:
            cv2.polylines(self.img, [arr], True, _c(outline), self._thick(width), cv2.LINE_AA, _SHIFT)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.3,
        angle: float = 0.0,
    ) -> None:
        """An axis-aligned rectangle with top-left (x, y), or turned by ``angle`` degrees about its centre."""
        if angle:
            cx, cy = x + w / 2, y + h / 2
            t = np.deg2rad(angle)
            c, s = np.cos(t), np.sin(t)
            pts = [
                (cx + dx * c - dy * s, cy + dx * s + dy * c)
                for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
            ]
        else:
            pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        self.poly(pts, fill, outline, width)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.3,
    ) -> None:
        c = self._pt((cx, cy))
        if fill is not None:
            cv2.circle(self.img, c, self._len(r), _c(fill), -1, cv2.LINE_AA, _SHIFT)
        if outline is not None:
            cv2.circle(self.img, c, self._len(r), _c(outline), self._thick(width), cv2.LINE_AA, _SHIFT)

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        angle: float,
        fill: Color | None,
        outline: Color | None = None,
        width: float = 0.3,
    ) -> None:
        c, axes = self._pt((cx, cy)), (self._len(rx), self._len(ry))
        if fill is not None:
            cv2.ellipse(self.img, c, axes, float(angle), 0, 360, _c(fill), -1, cv2.LINE_AA, _SHIFT)
        if outline is not None:
            cv2.ellipse(
                self.img, c, axes, float(angle), 0, 360, _c(outline), self._thick(width), cv2.LINE_AA, _SHIFT
            )

    def line(self, a: Point, b: Point, color: Color, width: float) -> None:
        cv2.line(self.img, self._pt(a), self._pt(b), _c(color), self._thick(width), cv2.LINE_AA, _SHIFT)

    def path(self, pts: Sequence[Point], color: Color, width: float) -> None:
        """An open polyline ``width`` mm thick with round joins and caps."""
        arr = np.array([self._pt(p) for p in pts], np.int32)
        cv2.polylines(self.img, [arr], False, _c(color), self._thick(width), cv2.LINE_AA, _SHIFT)


def rounded_rect_mask(w: int, h: int, radius: float) -> np.ndarray:
    """A ``uint8`` mask (255 inside) of a w×h pixel rectangle with corners rounded to ``radius`` pixels."""
    mask = np.zeros((h, w), np.uint8)
    r = max(0.0, min(radius, (w - 1) / 2, (h - 1) / 2))
    pen = Pen(mask, 1.0)
    pen.rect(r, 0, w - 2 * r, h, 255)  # type: ignore[arg-type]
    pen.rect(0, r, w, h - 2 * r, 255)  # type: ignore[arg-type]
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        pen.circle(cx, cy, r, 255)  # type: ignore[arg-type]
    return mask
