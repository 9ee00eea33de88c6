"""Whether the photo's edge cuts the town: territories beside a cell the photo shows in part, and as card.

A town photographed in part decodes as a smaller town: the cards seen are read right, the territories
beyond the photo's edge are simply missing, and no cell of the town can name them in ``doubt`` (they lie
outside it). The top-down view repeats the photo's edge pixels there, so the reader sees the table. A
territory of the town beside a lattice cell that no decoded card shows, that lies partly beyond the
photo, and whose part inside the photo is card rather than table (:data:`CARD_SEEN` of it, away from the
shared edge where the town's own card may spill over) has a card beyond it that the photo cuts: the town
is not scored but retaken, as a cut city is (:mod:`vision.city.cut`).

A cell almost wholly beyond the photo is not called cut by itself (as a city's is): the rendered towns laid
at 45° put card corners on the photo's edge with only table beside them (edition 7014's cells 10–35 % seen,
none of it card). Measured: rendered random edition 7055 (the top row of its cards showing only as a strip
a quarter of a cell deep) was scored with its two cut territories silent; the orange strip reads 95 % card,
the 20 editions 7000–7019's partly seen neighbours 0 %. A strip the colour of the table is not seen.

A cell wholly beyond the photo shows nothing at all; beside a territory that the photo's edge itself
cuts (the edge runs through the town's cells, not past them), a card may go on there, and the town is
retaken too (:data:`UNSEEN`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import cv2
import numpy as np

from scoring.city import cell_name
from vision.towns.decode import TownDecoding
from vision.towns.geometry import TownGeometry
from vision.towns.region import card_share, table_lab

__all__ = ["CARD_SEEN", "SPILL", "cut_by_frame"]

# The share of a cell's part inside the photo that must be card for a card to lie there.
CARD_SEEN = 0.3
# The band of a neighbouring cell next to the town's cell (a share of the pitch) left out: the town's own
# card, its outline and a lattice a little off reach into it.
SPILL = 0.1
# Sample points per side of a cell, and the fewest inside the photo that can tell card from table.
_SAMPLES = 21
_FEWEST = 10
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# A cell this little of which (a share of its sample points) lies inside the photo shows nothing of what
# lies there; beside a town territory that the photo's edge itself cuts, a card may go on there (rendered
# random edition 7069: the photo's edge ran through the town's last column, every cell beyond it wholly
# outside the photo; scored with four territories silent and a warning only).
UNSEEN = 0.02


def _cell_samples(
    geometry: TownGeometry, centre: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The view's lattice cell around ``centre`` as :data:`_SAMPLES` squared sample points: their offsets
    (tx, ty, shares of the pitch from the centre), their places in the photo, and which lie inside it."""
    lattice = geometry.lattice
    t = (np.arange(_SAMPLES) + 0.5) / _SAMPLES - 0.5
    tx, ty = np.meshgrid(t, t)
    xs, ys = centre[0] + tx * lattice.pitch_x, centre[1] + ty * lattice.pitch_y
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    back = cv2.perspectiveTransform(pts[None].astype(np.float64), np.linalg.inv(geometry.to_view))[0]
    h, w = geometry.photo.shape[:2]
    inside = (back[:, 0] >= 0) & (back[:, 0] < w) & (back[:, 1] >= 0) & (back[:, 1] < h)
    return np.stack([tx.ravel(), ty.ravel()], axis=1), back, inside


def _seen_card(
    geometry: TownGeometry,
    centre: tuple[float, float],
    step: tuple[int, int],
    table: Callable[[], np.ndarray],
    town_cut: Callable[[], bool],
) -> float:
    """The share of card among the photo pixels of the view's lattice cell around ``centre`` that lie
    inside the photo and :data:`SPILL` or more from the edge shared with the town's cell (``step`` from it
    to this one), against the colours ``table()`` gives; 0 when the cell lies wholly inside the photo or
    too little of it is seen, 1 when it lies wholly beyond the photo and ``town_cut()`` says the photo's
    edge cuts the town's cell (:data:`UNSEEN`)."""
    offsets, back, inside = _cell_samples(geometry, centre)
    if inside.all():
        return 0.0
    if inside.mean() <= UNSEEN:
        return 1.0 if town_cut() else 0.0
    away = offsets[:, 0] * step[1] + offsets[:, 1] * step[0] + 0.5 >= SPILL
    use = inside & away
    if use.sum() < _FEWEST:
        return 0.0
    rgb = geometry.photo[back[use, 1].astype(int), back[use, 0].astype(int)]
    lab = cv2.cvtColor(rgb[None].astype(np.uint8), cv2.COLOR_RGB2LAB)[0].astype(np.float32)
    return card_share(lab, table())


def cut_by_frame(geometry: TownGeometry, decoding: TownDecoding, origin: tuple[int, int]) -> tuple[str, ...]:
    """The town's territories (by name, ``A1`` its top-left at lattice cell ``origin``) beside a cell that
    no decoded card shows, that the photo's edge cuts, and whose part inside the photo is card."""
    cells = decoding.cells
    rows, cols = len(cells), len(cells[0]) if cells else 0
    lattice = geometry.lattice
    table = cache(lambda: table_lab(geometry))  # once a scan, and only where a cell is cut
    out = []
    for r in range(rows):
        for c in range(cols):
            if cells[r][c].territory is None:
                continue
            x, y = lattice.center(r, c)
            # Whether the photo's edge cuts this town cell: sampled once, and only where a side needs it.
            town_cut = cache(lambda x=x, y=y: not _cell_samples(geometry, (x, y))[2].all())
            for dr, dc in _STEPS:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and cells[nr][nc].territory is not None:
                    continue
                centre = (x + dc * lattice.pitch_x, y + dr * lattice.pitch_y)
                if _seen_card(geometry, centre, (dr, dc), table, town_cut) >= CARD_SEEN:
                    out.append(cell_name(r - origin[0], c - origin[1]))
                    break
    return tuple(out)
