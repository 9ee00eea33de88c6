"""The top-down view the cells are read from, with its colour correction measured once.

Every read of one view sees the same colours: the city's white balance (:mod:`vision.colour`) and, once
fitted, the photo's zone-colour map (:mod:`vision.zone_colour`); and the view is shrunk to the crops'
resolution once per scale, not once per read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.colour import white_gains
from vision.zone_colour import ZoneMap, apply_zone_map

__all__ = ["TopDown"]


@dataclass(frozen=True)
class TopDown:
    """The rectified city (RGB at :data:`vision.lattice.PX_PER_MM`), the map from the photo to it, the
    box whose whites give the colour cast, and the photo's zone-colour map once one is fitted."""

    image: np.ndarray
    to_rectified: np.ndarray
    white_box: tuple[int, int, int, int]
    zone_map: ZoneMap | None = None
    # The image's colours are corrected already (a test's or a training set's): read it as it is.
    ready: bool = False
    _cache: dict[tuple[float, bool], np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def colours(self, scale: float = 1.0, *, corrected: bool = True) -> np.ndarray:
        """The view at ``scale`` (area-averaged) with its white balance and zone colours applied, or as
        warped (``corrected=False``); computed once per scale."""
        key = (round(scale, 4), corrected)
        if key not in self._cache:
            image = self.image
            if scale < 1.0:
                size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
                image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            if corrected and not self.ready:
                gains = self._cache_gains()
                image = np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
                if self.zone_map is not None:
                    image = apply_zone_map(image, self.zone_map)
            self._cache[key] = image
        return self._cache[key]

    def _cache_gains(self) -> np.ndarray:
        key = (-1.0, True)  # the white gains, measured on the full-resolution view
        if key not in self._cache:
            self._cache[key] = white_gains(self.image, self.white_box)
        return self._cache[key]

    def recoloured(self, zone_map: ZoneMap) -> TopDown:
        """The same view with ``zone_map`` applied after the white balance."""
        view = TopDown(self.image, self.to_rectified, self.white_box, zone_map)
        view._cache[(-1.0, True)] = self._cache_gains()
        return view
