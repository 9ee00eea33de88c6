"""Where the city's blocks are: the city in the photo, the top-down view and the block lattice.

``locate`` finds the cards (on the photo as if lit evenly, :mod:`vision.light`) and their two line families
(``vanishing``: where each family meets), ``rectify`` measures the block periods and warps
the photo top-down, ``periods`` finds what repeats in 1-D profiles, ``fit`` fits the lattice and
``offsets`` each cell's own shift. Other rooms use only the names below.
"""

from vision.lattice.fit import BLOCK_H_MM, BLOCK_W_MM, PX_PER_MM, Lattice, LatticeFit, fit_lattice
from vision.lattice.locate import LOCATE_LONG_SIDE, Located, NoCityFound, locate_city, table_colours
from vision.lattice.rectify import Periods, Rectification, measure_periods, project_points, rectify_city, warp

__all__ = [
    "BLOCK_H_MM",
    "BLOCK_W_MM",
    "LOCATE_LONG_SIDE",
    "Lattice",
    "LatticeFit",
    "Located",
    "NoCityFound",
    "PX_PER_MM",
    "Periods",
    "Rectification",
    "fit_lattice",
    "locate_city",
    "measure_periods",
    "project_points",
    "rectify_city",
    "table_colours",
    "warp",
]
