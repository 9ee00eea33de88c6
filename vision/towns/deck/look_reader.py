"""A town's cells read by a print's look learned from the deck
(:class:`~vision.towns.deck.structure.PrintLook`), with no shipped classifier: the reader of a print the
scanner was never shown.

Each lattice cell's fill and icon are measured as the deck's were (:mod:`vision.towns.deck.look`). The
territory it shows is the terrain whose fill lies nearest times the icon whose examples its shape resembles
most. Whether it shows a territory at all (and not the table) takes these cues, each of which a print's
territory passes and a table fails in some room:

- its fill lies near one of the six named fills (a wooden or cloth table lies far from all of them);
- and either its fill lies far from every colour the table shows round the town (the lattice's outer
  rings of cells) and nearer a named fill still, or something stands out in its middle, about as much as
  an icon covers, with an icon's shape. A white table round white snow territories has the snow's colour
  but no icon; a table's grain or check pattern is spread over the middle. An icon alone is not asked
  for: a print's silhouette may stand out from its fill by little (a white ring on pale blue, a dark gun
  on dark red), while the fill itself stands far from the table.

A town photo is lit otherwise than the deck photo: its fills are first brought to the deck's light
(:func:`fitted_light`), by the gain and offset per Lab channel that carry the fills of the cells surely
holding an icon onto their nearest named fills. An overexposed photo clips its pale fills: a lavender and a
cream territory both show white, a light blue one pale cyan, where no gain and offset carry them back (the
lavender came back as the cream, the light blue as the dark blue, on a rendered town exposed ×1.2). So the
light is fitted on the fills the photo does not clip, and each cell is compared with the named fills as
this photo shows them, clipped as it clips (:meth:`Light.shown`): the lavender is then told by its white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scoring.wagons.town import ICONS, TERRAINS
from vision.deck import refit_gains
from vision.lattice import Lattice
from vision.towns.deck.look import icon_distance, territory_looks
from vision.towns.deck.structure import PrintLook, fill_distance

__all__ = [
    "Light",
    "clipped",
    "common_colours",
    "fitted_light",
    "land_probability",
    "read_by_look",
    "rim_fills",
]

TABLE = "."
# A fill this many spreads from the nearest named fill is half as likely a territory's.
FILL_HALF = 2.5
# An icon covering this share of the usual icon's area or less is none; from ICON_FULL of it on, one is there.
ICON_NONE, ICON_FULL = 0.15, 0.5
# A shape this unlike every example of every icon (1 − soft IoU) is no icon; each 0.1 beyond costs a factor e.
SHAPE_NONE = 0.5
SHAPE_SCALE = 0.1
# The light is adapted on the cells whose icon covers at least this share of the usual icon's area, when
# there are this many; a channel's gain is fitted only where the named fills spread over this much (Lab
# units), and kept within GAIN.
ADAPT_ICON = 0.6
ADAPT_MIN_CELLS = 4
ADAPT_SPREAD = 5.0
GAIN = (0.7, 1.4)
ADAPT_ROUNDS = 3
# The starts of the light's fit besides no change: (lightness, colour) gains with the medians aligned; and
# the distance (spreads) at which a cell's cost in choosing among the fits stops growing.
START_GAINS = ((0.8, 0.8), (1.0, 1.0), (1.25, 1.25), (1.0, 0.8), (1.0, 1.25))
COST_CAP = 3.0
# A fill with an RGB channel this near 1 is clipped by the photo (overexposed pale fills turn white).
CLIPPED = 0.02
# A fill this many spreads from every colour of the table's rim is half as likely the table's.
TABLE_HALF = 3.0
# Without an icon, the fill alone must lie nearer a named fill: this many spreads from it is half as likely
# (a cup or a phone on the table may come within FILL_HALF of some print's fill).
FILL_ALONE_HALF = 1.5
# The table's colours are taken from the lattice's outer rings: beyond the card region found by colour.
RIM_RINGS = 2
# ... each where at least RIM_SUPPORT of those cells show it (within RIM_NEAR spreads): a territory in the
# table's colours lies outside the card region found by colour, so the rings may hold a cell or two of the
# town itself, whose colour is then no table's (random edition 7 075: two grey territories on a pale grey
# table, one with its dark revolver hardly seen, were read as the table, and the town retaken).
RIM_SUPPORT = 3
RIM_NEAR = 1.5
# No cue is ever certain: a cell's chance of land stays within these.
LAND_BOUNDS = (0.005, 0.995)


def land_probability(
    look: PrintLook, fills: np.ndarray, masks: np.ndarray, table: np.ndarray | None = None
) -> np.ndarray:
    """The probability (N,) that each cell of fill ``fills`` (N, 3) and icon mask ``masks`` (N, S, S)
    shows a territory of ``look``'s print rather than the table whose colours round the town are
    ``table`` (M, 3; None: not known): see the module note."""
    _, nearest = look.terrain_logp(fills)
    by_fill = np.exp(-math.log(2) * (nearest / FILL_HALF) ** 2)
    mass = masks.mean(axis=(1, 2)) / max(look.icon_mass, 1e-6)
    by_icon = np.clip((mass - ICON_NONE) / (ICON_FULL - ICON_NONE), 0.0, 1.0)
    both = np.concatenate([masks, masks[:, ::-1, ::-1]])
    d = icon_distance(both[:, None], look.icons[None]).min(axis=1)
    shape = np.minimum(d[: len(masks)], d[len(masks) :])
    by_shape = np.exp(-np.maximum(0.0, shape - SHAPE_NONE) / SHAPE_SCALE)
    by_colour = np.zeros(len(fills))
    scale = float(np.median(look.spread))
    table = None if table is None else common_colours(table, RIM_NEAR * scale, RIM_SUPPORT)
    if table is not None and len(table):
        away = fill_distance(fills, table).min(axis=1) / scale
        not_table = 1.0 - np.exp(-math.log(2) * (away / TABLE_HALF) ** 2)
        by_colour = np.exp(-math.log(2) * (nearest / FILL_ALONE_HALF) ** 2) * not_table
    return np.clip(np.maximum(by_fill * by_icon * by_shape, by_colour), *LAND_BOUNDS)


def common_colours(colours: np.ndarray, near: float, support: int) -> np.ndarray:
    """The ``colours`` (M, 3 Lab) of which at least ``support`` (itself included) lie within ``near``
    (:func:`~vision.towns.deck.structure.fill_distance`) of it; all of them when there are fewer.

    >>> table = np.array([[80.0, 0, 0], [81, 0, 0], [79, 1, 0], [50, 20, 20]])
    >>> common_colours(table, 3.0, 3).tolist()
    [[80.0, 0.0, 0.0], [81.0, 0.0, 0.0], [79.0, 1.0, 0.0]]
    """
    if len(colours) < support:
        return colours
    close = (fill_distance(colours, colours) <= near).sum(axis=1)
    return colours[close >= support]


def rim_fills(view: np.ndarray, lattice: Lattice, fills: np.ndarray) -> np.ndarray:
    """The table's colours round the town (M, 3): the ``fills`` (one per ``lattice`` cell, in reading order)
    of the cells in the lattice's :data:`RIM_RINGS` outer rings that lie on the photo in ``view`` (the
    lattice reaches past the cards, and past the photo's edge where the cards lie near it)."""
    rows, cols = lattice.rows, lattice.cols
    r, c = np.divmod(np.arange(rows * cols), cols)
    rim = np.minimum(np.minimum(r, c), np.minimum(rows - 1 - r, cols - 1 - c)) < RIM_RINGS
    x, y = np.round(lattice.centres().reshape(-1, 2)).astype(int).T
    h, w = view.shape[:2]
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    on_photo = np.zeros_like(inside)
    on_photo[inside] = view[y[inside], x[inside]].any(axis=1)  # outside the photo the view is black
    return fills[rim & on_photo]


@dataclass(frozen=True, eq=False)
class Light:
    """How a town photo shows the deck photo's colours: a deck fill ``f`` (Lab) shows as ``(f - offset) /
    gain``, clipped to what the photo can hold (:func:`fitted_light`)."""

    gain: np.ndarray
    offset: np.ndarray

    def adapted(self, fills: np.ndarray) -> np.ndarray:
        """The photo's ``fills`` (N, 3) in the deck photo's light."""
        return (fills * self.gain + self.offset).astype(np.float32)

    def shown(self, deck_fills: np.ndarray) -> np.ndarray:
        """Where the deck's ``deck_fills`` (N, 3) land once shown in this photo and brought back: the same
        fills where the photo holds them, paler (or darker) and greyer where its exposure clips them."""
        photo = ((deck_fills - self.offset) / self.gain).astype(np.float32)
        rgb = cv2.cvtColor(photo[None], cv2.COLOR_LAB2RGB)  # float: clipped to 0–1 as a photo clips
        return self.adapted(cv2.cvtColor(np.clip(rgb, 0.0, 1.0), cv2.COLOR_RGB2LAB)[0])


NO_CHANGE = Light(np.ones(3, np.float32), np.zeros(3, np.float32))


def clipped(fills: np.ndarray) -> np.ndarray:
    """Whether each fill (N, 3, Lab) lies at the top of what a photo holds (some RGB channel within
    :data:`CLIPPED` of 1): an overexposed photo cut its colour there, and it says nothing of the light's
    gain. (The bottom is not asked: a print's deep colours have a channel near 0 in any light.)"""
    rgb = cv2.cvtColor(fills.astype(np.float32)[None], cv2.COLOR_LAB2RGB)[0]
    return (rgb >= 1.0 - CLIPPED).any(axis=1)


def fitted_light(look: PrintLook, fills: np.ndarray, masks: np.ndarray) -> Light:
    """The light that carries the fills of the cells surely holding an icon onto their nearest named fills
    (see the module note), fitted on those the photo does not clip where enough are left;
    :data:`NO_CHANGE` when too few cells surely hold an icon.

    Which named fill is nearest depends on the light, so the fit is tried from several starts (no
    change, and the medians aligned under a few gains) and the light whose cells then lie nearest their
    named fills is kept: a darker, yellower town photo started from no change can take its yellow cells
    for the pale green and settle there, its yellow gain at the bound."""
    sure = masks.mean(axis=(1, 2)) >= ADAPT_ICON * look.icon_mass
    if sure.sum() < ADAPT_MIN_CELLS:
        return NO_CHANGE
    unclipped = sure & ~clipped(fills)
    if unclipped.sum() >= ADAPT_MIN_CELLS:
        sure = unclipped
    src = fills[sure]
    starts = [NO_CHANGE]
    for lightness, colour in START_GAINS:
        gain = np.array([lightness, colour, colour], np.float32)
        offset = np.median(look.fills, axis=0) - np.median(src, axis=0) * gain
        starts.append(Light(gain, offset.astype(np.float32)))
    fitted = [_fit_from(look, src, start) for start in starts]
    costs = [_light_cost(look, src, light) for light in fitted]
    return fitted[int(np.argmin(costs))]


def _fit_from(look: PrintLook, src: np.ndarray, light: Light) -> Light:
    """The light fitted from ``light`` on the fills ``src``: each round takes every fill's nearest named
    fill and fits the gain and offset per channel that carry them there."""
    for _ in range(ADAPT_ROUNDS):
        terrain, _ = look.terrain_logp(light.adapted(src))
        dst = look.fills[terrain.argmax(axis=1)]
        gain = refit_gains(src, dst, np.ones(3, np.float32), range(3), ADAPT_SPREAD, GAIN)
        light = Light(gain, np.median(dst - src * gain, axis=0).astype(np.float32))
    return light


def _light_cost(look: PrintLook, src: np.ndarray, light: Light) -> float:
    """How far the fills ``src`` in ``light`` lie from their nearest named fills: the mean squared
    distance in spreads, each capped at :data:`COST_CAP` (one odd cell must not choose the light)."""
    _, nearest = look.terrain_logp(light.adapted(src))
    return float(np.mean(np.minimum(nearest, COST_CAP) ** 2))


def read_by_look(look: PrintLook, view: np.ndarray, lattice: Lattice) -> list[list[dict[str, float]]]:
    """Each cell of ``lattice`` in the top-down town ``view``: its probability of every token (``"D/w"``)
    and of the table (``"."``), by ``look`` alone (see the module note)."""
    centres = lattice.centres().reshape(-1, 2)
    fills, masks = territory_looks(view, centres, (lattice.pitch_x, lattice.pitch_y), search=True)
    light = fitted_light(look, fills, masks)
    fills = light.adapted(fills)
    look = replace(look, fills=light.shown(look.fills))  # the named fills as this photo shows them
    terrain, _ = look.terrain_logp(fills)
    icon = look.icon_logp(masks)
    land = land_probability(look, fills, masks, rim_fills(view, lattice, fills))
    cells = []
    for t_row, i_row, p in zip(np.exp(terrain), np.exp(icon), land, strict=True):
        joint = np.outer(t_row, i_row) * p
        cell = {f"{t}/{i}": float(joint[a, b]) for a, t in enumerate(TERRAINS) for b, i in enumerate(ICONS)}
        for shown, meant in look.aliases:  # the print shows this card's territory as another's
            cell[meant] = max(cell[meant], cell[shown])
        land = sum(cell.values())
        cell = {token: q * float(p) / land for token, q in cell.items()}
        cell[TABLE] = float(1.0 - p)
        cells.append(cell)
    return [cells[r * lattice.cols : (r + 1) * lattice.cols] for r in range(lattice.rows)]
