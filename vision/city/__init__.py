"""A Sprawlopolis city read from a photo, stage by stage after the lattice is found: its geometry (the
top-down view and which cells count), the period hypotheses arbitrated by the cell classifier, cells read
again (grown, recoloured, shifted), the city decoded as the 18 known cards with its scoring cards, the
assembly, the doubt (and which of it matters to a score line), the retake, and the picture of what was
read. :mod:`vision.pipeline` runs them in order. Other rooms use only the names below.
"""

from vision.city.arbitrate import read_geometry
from vision.city.doubt import CARDS_DOUBT_MARGIN
from vision.city.geometry import Geometry, geometry_on, rectified_plane, segments_in_frame, small_copy
from vision.city.labels import LOW, Label, draw_labels
from vision.city.overlay import (
    CARD_BOX,
    SQUARE,
    Pen,
    cell_width,
    coordinate_labels,
    halo_text,
    lattice_outlines,
    overlay_base,
    quad_point,
)
from vision.city.read_cards import read_backs, stack_city
from vision.city.recolour import normalise_zone_colours
from vision.city.rereads import find_lost_blocks, grow_to_blocks, refine_doubtful
from vision.city.result import OVERLAY_LONG_SIDE, CityCell, ScanResult, assemble_scan, with_overlay
from vision.city.under_backs import clear_under_backs
from vision.city.unexplained import read_unexplained_again, refuse_unknown_colours

__all__ = [
    "CARDS_DOUBT_MARGIN",
    "CARD_BOX",
    "CityCell",
    "Geometry",
    "LOW",
    "Label",
    "OVERLAY_LONG_SIDE",
    "Pen",
    "SQUARE",
    "ScanResult",
    "assemble_scan",
    "cell_width",
    "clear_under_backs",
    "coordinate_labels",
    "draw_labels",
    "find_lost_blocks",
    "geometry_on",
    "grow_to_blocks",
    "halo_text",
    "lattice_outlines",
    "normalise_zone_colours",
    "overlay_base",
    "quad_point",
    "read_backs",
    "read_geometry",
    "read_unexplained_again",
    "rectified_plane",
    "refine_doubtful",
    "refuse_unknown_colours",
    "segments_in_frame",
    "small_copy",
    "stack_city",
    "with_overlay",
]
