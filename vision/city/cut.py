"""Whether the photo's edge cuts the city: blocks beside cells the photo does not show.

A city photographed in part scores as a smaller city, with nothing wrong in any cell that was read: the
total is off and no cell can say so. A block beside a lattice cell that the photo shows less than whole
(:attr:`~vision.city.geometry.Geometry.visible`) is cut when what the photo shows of that cell is too
little to tell (:data:`LEAST_SEEN`) or is card rather than table (:data:`CARD_SEEN`, by the card region
of :mod:`vision.lattice.locate`). Measured: the devset's photos cropped by 4 % all round show 50–86 % of
such cells, 4–10 % of it card; a rendered city cut by the frame shows card over 50–72 % of the part seen.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from scoring.city import cell_name
from vision.city.assemble import Assembled
from vision.city.geometry import Geometry
from vision.lattice import Lattice

__all__ = ["cut_by_frame"]

# Less than this share of a cell inside the photo cannot show whether a card lies there.
LEAST_SEEN = 0.25
# A cell whose part inside the photo is at least this much card region holds a card the scan did not read.
CARD_SEEN = 0.3


def _seen(geometry: Geometry, lattice_rc: tuple[int, int], padded: Lattice) -> tuple[float, float]:
    """(share of the cell inside the photo, share of that part in the card region) for a cell of the
    once-padded lattice ``padded``."""
    mask = geometry.located.mask
    poly = geometry.outline_on_mask(padded, *lattice_rc, half=0.5)
    pad = int(np.ceil(max(0.0, -poly.min(), (poly - [mask.shape[1], mask.shape[0]]).max()))) + 1
    canvas = np.zeros((mask.shape[0] + 2 * pad, mask.shape[1] + 2 * pad), np.uint8)
    cv2.fillPoly(canvas, [np.round(poly + pad).astype(np.int32)], 1)
    inside = canvas[pad:-pad, pad:-pad]
    seen = int(inside.sum())
    share = seen / max(int(canvas.sum()), 1)
    return share, float((inside & (mask > 0)).sum()) / max(seen, 1)


def cut_by_frame(
    geometry: Geometry, assembled: Assembled, settled: Mapping[tuple[int, int], str] | None = None
) -> tuple[str, ...]:
    """The city's blocks (by name) beside a cell the photo does not show enough of to tell it is table.

    While the card region (:mod:`vision.lattice.locate`) stays clear of the photo's edges, a cell beside
    the city counts as cut only where the photo shows almost none of it (:data:`LEAST_SEEN`), never by the
    card region's share of it: that region may then miss cards like the table (a pale wood's residential
    and industrial blocks) and cannot say what the cell holds. Measured: with that rule, no devset photo
    cropped by 3 or 4 % and no harder-room render with table all round is called cut (0 of 102); every
    rendered city cut by the frame is (16 of 16, on pale wood too).

    ``settled``: the lattice's cells the scoring cards' backs settled, with the label the photo alone read
    there (:meth:`vision.city.read_cards.CityCards.settled_cells`). A block the photo itself read as table
    says nothing of the city going on beyond the frame (random edition 37 079: a park the backs made of the
    table at the rim asked for a retake of a city lying whole in the photo); it is in doubt instead."""
    region_at_edge = bool(geometry.located.touches_border)
    padded = geometry.lattice.padded(1, 1, 1, 1)
    visible = np.pad(geometry.visible, 1)
    r0, c0 = assembled.origin
    out = []
    for r, c, cell in assembled.city.cells():
        if not cell.is_block or (settled or {}).get((r + r0, c + c0)) == ".":
            continue
        lr, lc = r + r0 + 1, c + c0 + 1
        for nr, nc in ((lr - 1, lc), (lr + 1, lc), (lr, lc - 1), (lr, lc + 1)):
            if visible[nr, nc]:
                continue
            share, card = _seen(geometry, (nr, nc), padded)
            if share < LEAST_SEEN or (region_at_edge and card >= CARD_SEEN):
                out.append(cell_name(r, c))
                break
    return tuple(out)
