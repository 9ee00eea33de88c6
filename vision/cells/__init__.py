"""What one lattice cell shows: the reading type and the readers that make it.

``reading`` is the cell's reading and the reader interface, ``crops`` the patches the classifier sees,
``classify`` the shipped cell classifier, ``topdown`` the view it reads with its colour corrections
(``white_balance`` for the city's whites, ``zone_colour`` for the photo's zone colours). Other rooms use
only the names below.
"""

from vision.cells.classify import MARKS, ROADS_WITH_NONE, ZONES_WITH_EMPTY, ModelError, get_classifier
from vision.cells.crops import (
    CONTEXT,
    CROP_H,
    CROP_W,
    CropJitter,
    check_rgb_image,
    extract_crops,
    lattice_crops,
)
from vision.cells.reading import CellReading, Classifier, Grid, as_grid, read_lattice
from vision.cells.topdown import TopDown
from vision.cells.white_balance import balance_whites, lattice_box
from vision.cells.zone_colour import REFERENCE_AB, SURE_BLOCK, cell_ab, fit_zone_map, worth_applying

__all__ = [
    "CONTEXT",
    "CROP_H",
    "CROP_W",
    "check_rgb_image",
    "CellReading",
    "Classifier",
    "CropJitter",
    "Grid",
    "MARKS",
    "ModelError",
    "REFERENCE_AB",
    "ROADS_WITH_NONE",
    "SURE_BLOCK",
    "TopDown",
    "ZONES_WITH_EMPTY",
    "as_grid",
    "balance_whites",
    "cell_ab",
    "extract_crops",
    "fit_zone_map",
    "get_classifier",
    "lattice_box",
    "lattice_crops",
    "read_lattice",
    "worth_applying",
]
