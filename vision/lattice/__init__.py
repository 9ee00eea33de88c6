"""Where the city's blocks are: the city in the photo, the top-down view and the block lattice.

``locate`` finds the cards (on the photo as if lit evenly, :mod:`vision.photo.light`) and their two line
families (``vanishing``: where each family meets), ``rectify`` measures the block periods and warps
the photo top-down, ``periods`` finds what repeats in 1-D profiles, ``fit`` fits the lattice and
``offsets`` each cell's own shift. Other rooms use only the names below (the town geometry,
:mod:`vision.towns.remeasure`, measures the periods again in its view with the 1-D tools).
"""

from vision.lattice.bounds import MAX_REGION_CELLS, TooManyCards, region_cells
from vision.lattice.fit import (
    BLOCK_H_MM,
    BLOCK_W_MM,
    PX_PER_MM,
    Lattice,
    LatticeFit,
    fit_lattice,
    occupied_cells,
)
from vision.lattice.framing import STEEP_ASPECT, GridWords, framing_warnings
from vision.lattice.locate import (
    LOCATE_LONG_SIDE,
    Located,
    NoCityFound,
    border_band,
    cards_in_border,
    colour_clusters,
    locate_city,
    table_colours,
)
from vision.lattice.offsets import segment_axis
from vision.lattice.periods import ColourJumps, folded_peak, lab_within, period_candidates, position_profile
from vision.lattice.rectify import (
    MIN_PERIOD_STRENGTH,
    Periods,
    Rectification,
    comb_score,
    measure_periods,
    plausible_aspect,
    project_points,
    rectify_city,
    warp,
)

__all__ = [
    "STEEP_ASPECT",
    "GridWords",
    "framing_warnings",
    "BLOCK_H_MM",
    "MIN_PERIOD_STRENGTH",
    "ColourJumps",
    "comb_score",
    "folded_peak",
    "lab_within",
    "occupied_cells",
    "period_candidates",
    "plausible_aspect",
    "position_profile",
    "segment_axis",
    "BLOCK_W_MM",
    "LOCATE_LONG_SIDE",
    "MAX_REGION_CELLS",
    "Lattice",
    "LatticeFit",
    "Located",
    "NoCityFound",
    "PX_PER_MM",
    "Periods",
    "Rectification",
    "TooManyCards",
    "region_cells",
    "fit_lattice",
    "locate_city",
    "border_band",
    "cards_in_border",
    "colour_clusters",
    "measure_periods",
    "project_points",
    "rectify_city",
    "table_colours",
    "warp",
]
