"""Cells that lie under a scoring card read on its back show that card, not the city.

The scoring cards lie face up beside the city, and the lattice grown beside it reaches them. The shipped
classifier reads a back as table, but a taught print's look may not: on random city edition 37 028 the
backs are lilac with a grey road band, read as parks and roads, and the decoding built city cards on them
(the city "held" scoring card 11). A back read surely, its number at least
:data:`vision.backs.BACKS_OVER_CITY` likely and its way up seen (the title band), places its whole card;
a cell whose core lies a third or more on that card is table: a block there would be under the card, and
the cells beside the backs (a third on a back, the rest table) were read as parks too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import cv2
import numpy as np

from vision.backs import BACKS_OVER_CITY, BackNumber
from vision.cells import CellReading, Grid
from vision.city.geometry import Geometry

__all__ = ["clear_under_backs"]

#: A cell's core, as the classifier reads it: this share of the pitch each way from its centre.
CORE_HALF = 0.35
#: The share of a cell's core on a back that makes it table. Edition 37 028's cells beside the backs lay
#: 0.34–0.39 on them and were read as parks; a back's outline, placed from its circle, is good to a few
#: millimetres, a tenth of a core, so a city cell beside a back is not taken for it.
ON_BACK_SHARE = 1 / 3


def clear_under_backs(geometry: Geometry, readings: Grid, backs: Sequence[BackNumber]) -> Grid:
    """``readings`` with every cell whose core lies :data:`ON_BACK_SHARE` or more on a surely read back
    read as table (``readings`` itself where there is none).

    >>> from vision.backs import BackNumber
    >>> clear_under_backs(None, [[]], [BackNumber(3, 0.5)])  # nothing read surely: nothing changes
    [[]]
    """
    outlines = [
        np.asarray(b.outline, np.float32)
        for b in backs
        if b.number is not None and b.confidence >= BACKS_OVER_CITY and b.outline is not None
    ]
    if not outlines:
        return readings
    core = partial(geometry.outline_in_photo, geometry.lattice, half=CORE_HALF)
    under = [
        (r, c)
        for r, row in enumerate(readings)
        for c, reading in enumerate(row)
        if reading.kind != "empty" and _on_a_back(core(r, c), outlines)
    ]
    if not under:
        return readings  # the same grid: nothing was read again
    out = [list(row) for row in readings]
    for r, c in under:
        out[r][c] = CellReading.certain(None)
    return out


def _on_a_back(core: np.ndarray, outlines: Sequence[np.ndarray]) -> bool:
    core = core.astype(np.float32)
    area = cv2.contourArea(core)
    return area > 0 and any(cv2.intersectConvexConvex(core, o)[0] >= ON_BACK_SHARE * area for o in outlines)
