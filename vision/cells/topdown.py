"""The top-down view the cells are read from, with its colour correction measured once.

Every read of one view sees the same colours: the city's white balance (:mod:`vision.cells.white_balance`)
and, once fitted, the photo's zone-colour map (:mod:`vision.cells.zone_colour`); and the view is shrunk to the
crops' resolution once per scale, not once per read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cells.white_balance import apply_gains, white_gains
from vision.cells.zone_colour import ZoneMap, apply_zone_map

__all__ = ["TopDown"]


@dataclass(frozen=True)
class TopDown:
    """The rectified city (RGB at :data:`vision.lattice.fit.PX_PER_MM`), the map from the photo to it, the
    box whose whites give the colour cast, and the photo's zone-colour map once one is fitted."""

    image: np.ndarray
    to_rectified: np.ndarray
    white_box: tuple[int, int, int, int]
    zone_map: ZoneMap | None = None
    # The image's colours are corrected already (a test's or a training set's): read it as it is.
    ready: bool = False
    _cache: dict[object, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def colours(self, scale: float = 1.0, *, corrected: bool = True) -> np.ndarray:
        """The view with its white balance and zone colours applied (or as warped, ``corrected=False``),
        then shrunk by ``scale`` with area averaging; each computed once.

        The colours are corrected at full resolution and then shrunk, the order the training crops were
        made in (:mod:`models.photoset`), so a crop's pixels do not depend on how many cells are read."""
        key: tuple[str, float] = ("corrected" if corrected and not self.ready else "raw", round(scale, 6))
        if key not in self._cache:
            if scale < 1.0:
                full = self.colours(1.0, corrected=corrected)
                image = cv2.resize(full, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            elif key[0] == "corrected":
                image = self.balanced
                if self.zone_map is not None:
                    image = apply_zone_map(image, self.zone_map)
            else:
                image = self.image
            self._cache[key] = image
        return self._cache[key]

    @property
    def balanced(self) -> np.ndarray:
        """The full-resolution view with only its white balance applied (no zone colours: what a taught
        deck's prototypes are compared in); the image itself when it is :attr:`ready`. Computed once."""
        if self.ready:
            return self.image
        if "balanced" not in self._cache:
            self._cache["balanced"] = apply_gains(self.image, self.gains)
        return self._cache["balanced"]

    @property
    def gains(self) -> np.ndarray:
        """The per-channel gains that make the whites in :attr:`white_box` grey (see
        :func:`vision.cells.white_balance.white_gains`), measured once."""
        if "gains" not in self._cache:
            self._cache["gains"] = white_gains(self.image, self.white_box)
        return self._cache["gains"]

    def recoloured(self, zone_map: ZoneMap) -> TopDown:
        """The same view with ``zone_map`` applied after the white balance (which it shares, measured and
        applied once)."""
        view = TopDown(self.image, self.to_rectified, self.white_box, zone_map, self.ready)
        view._cache["gains"], view._cache["balanced"] = self.gains, self.balanced
        return view
