"""The live camera's frame check: a small preview frame in, whether a photo taken now would be read out.

``check`` runs the scan's geometry on the frame and decides (:func:`check_frame`, its hints and their
words); ``measures`` takes the light, sharpness and angle on the cards found. Other rooms use only the
names below.
"""

from vision.frames.check import (
    FRAME_LONG_SIDE,
    HINT_WORDS,
    FrameCards,
    FrameCheck,
    check_frame,
    find_city_cards,
    hints_for,
)
from vision.frames.measures import FrameMeasures

__all__ = [
    "FRAME_LONG_SIDE",
    "HINT_WORDS",
    "FrameCards",
    "FrameCheck",
    "FrameMeasures",
    "check_frame",
    "find_city_cards",
    "hints_for",
]
