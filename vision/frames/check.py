"""The check of one live preview frame: is there a city (or a town), where, and will a photo now be read?

The scan's geometry runs on a small copy of the frame (:data:`FRAME_LONG_SIDE` px): the cards are located and
their line families found, as the game's scan finds them (:class:`FrameCards`), the cell periods measured and
the view rectified (:func:`vision.lattice.rectify_city`), which gives the outline (the card region's extent
along the grid's two axes, as four corners in the frame) and the cells' measured aspect. The light, sharpness
and angle (:mod:`vision.frames.measures`) then say what to change; a frame with nothing to change is
``ready``. Nothing is classified: the check answers in tens of milliseconds (``make bench``:
tests/bench/bench_frames.py), so a preview can be checked several times a second. The game is the caller's
(the page's tab): the games' cards share one geometry, and telling them apart takes the cell readers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames.measures import FrameMeasures, measure_frame
from vision.lattice import (
    STEEP_ASPECT,
    Located,
    NoCityFound,
    Periods,
    Rectification,
    locate_city,
    measure_periods,
    project_points,
    rectify_city,
)
from vision.photo import OVEREXPOSED_SHARE, fit_long_side

__all__ = ["FRAME_LONG_SIDE", "HINT_WORDS", "FrameCheck", "check_frame", "hints_for"]

# The frame's long side as checked: the geometry's cost grows with the area, and at this size a city
# filling most of the frame still has cells 40 px and more across.
FRAME_LONG_SIDE = 512
# The cards must span at least this share of the frame's width or height (a city smaller than that is
# read from too few pixels per cell in the photo, and its outline jitters).
CLOSER_SPAN = 0.5
# Past this tilt from straight above (degrees) the far cells shrink and blur; the scanner reads to about
# 35°, so the hint comes before that. Outside the cells' measured aspect the scan itself warns of
# (vision.lattice.STEEP_ASPECT) the hint is given too.
TILT_HINT = 25.0
# Saturated spots over this share of the card region hide art (a third of a cell of a 15-card city): a
# lamp's spot 5 % of the frame's long side across measures 0.0067-0.023 on rendered cities, their scoring
# cards and white details 0.0034 at most (vision.frames.measures.GLARE_SPOT_CELLS).
GLARE_HINT = 0.005
# Cards this much darker in part than elsewhere (vision.frames.measures.card_shadow): rendered cities in
# their own uneven light measure up to 0.52, a shadow band darkening them by 65 % up to 0.66 ...
SHADOW_HINT = 0.5
# ... or light on the table beside them this much darker (vision.photo.light; rendered photos in their own
# light measure at most 0.09, a band darkening them by 45 % up to 0.21).
TABLE_SHADOW_HINT = 0.15
# The detail kept after the probe's blur (vision.frames.measures.blur_ratio) from which the frame is too
# blurred: on 12 rendered cities, sharp frames measure 0.23-0.29; shaken 7 px (at 960 px) in four
# directions 0.37-0.54 (88 % told), 11 px 0.36-0.58 (73 %); a Gaussian blur of 1.5 px 0.46-0.52 (all).
BLUR_HINT = 0.4

#: Each hint's code and what the page says for it, in the order they are given.
HINT_WORDS = {
    "step_back": "Step back: the whole city must be in the frame, with some table around it",
    "closer": "Move closer: the city should fill most of the frame",
    "less_tilt": "Hold the phone flatter, straight above the cards",
    "too_bright": "Too bright: tap the cards on the screen so the camera exposes for them, or dim the light",
    "glare": "Glare on the cards: move the lamp or tilt the phone a little",
    "shadow": "A shadow lies across the cards: keep your arm and the phone out of the light",
    "hold_still": "Hold still: the picture is blurred",
    "find_cards": "Point the camera at the cards, from above",
}


@dataclass(frozen=True)
class FrameCheck:
    """What one frame shows: ``found`` whether a card grid is in it, ``game`` the game checked for,
    ``outline`` its four corners (x, y) as shares of the frame's width and height (clockwise from the
    grid's top left; empty when none is found), ``hints`` the codes of :data:`HINT_WORDS` to act on, and
    the ``measures`` they come from."""

    found: bool
    game: str
    outline: tuple[tuple[float, float], ...]
    hints: tuple[str, ...]
    measures: FrameMeasures | None = None

    @property
    def ready(self) -> bool:
        """Whether a photo taken now would be read: a grid found and nothing to change."""
        return self.found and not self.hints

    def to_json(self) -> dict[str, object]:
        shown = self.hints or (("ready",) if self.ready else ())
        words = {**HINT_WORDS, "ready": "Ready: hold still"}
        return {
            "found": self.found,
            "game": self.game,
            "outline": [[round(x, 4), round(y, 4)] for x, y in self.outline],
            "ready": self.ready,
            "hints": [{"code": code, "text": words[code]} for code in shown],
            "measures": None if self.measures is None else self.measures.to_json(),
        }


def hints_for(m: FrameMeasures) -> tuple[str, ...]:
    """The hints the measures call for, in :data:`HINT_WORDS`'s order."""
    wanted = {
        "step_back": bool(m.cut),
        "closer": not m.cut and m.span < CLOSER_SPAN,
        "less_tilt": m.tilt > TILT_HINT or not STEEP_ASPECT[0] <= m.aspect <= STEEP_ASPECT[1],
        # An overexposed frame's whites clip like a lamp's spot: the exposure is what to change.
        "too_bright": m.clipped >= OVEREXPOSED_SHARE,
        "glare": m.glare >= GLARE_HINT and m.clipped < OVEREXPOSED_SHARE,
        "shadow": m.shadow >= SHADOW_HINT or m.table_shadow >= TABLE_SHADOW_HINT,
        "hold_still": m.blur >= BLUR_HINT,
    }
    return tuple(code for code in HINT_WORDS if wanted.get(code))


def _outline(homography: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The card region's extent along the top-down view's axes, as four corners in the frame (px):
    the region's contour is mapped to the view, boxed there, and the box mapped back."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    points = np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float64)
    seen = project_points(homography, points)
    (x0, y0), (x1, y1) = seen.min(axis=0), seen.max(axis=0)
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return project_points(np.linalg.inv(homography), box)


@dataclass(frozen=True)
class FrameCards:
    """How one game's cards are found in a frame, as its scan finds them: ``find`` locates them (with their
    periods when it measures them its own way, else ``None``) and ``cell_mm`` is one lattice cell's size
    (width, height) in millimetres; ``game`` names the game in the answer."""

    game: str
    find: Callable[[np.ndarray], tuple[Located, Periods | None]]
    cell_mm: tuple[float, float]


def find_city_cards(small: np.ndarray) -> tuple[Located, Periods | None]:
    """The card region as the city scan locates it (its periods measured by the frame check)."""
    return locate_city(small), None


def _fit(
    small: np.ndarray, located: Located, periods: Periods | None, cards: FrameCards
) -> tuple[Periods, Rectification]:
    """The cells' periods and the rectification to the top-down view."""
    periods = measure_periods(located, small) if periods is None else periods
    return periods, rectify_city(located, small, periods=periods, cell_mm=cards.cell_mm)


def _span(located: Located, shape: tuple[int, ...]) -> float:
    """The larger share of the frame's width or height the card region spans."""
    _, _, bw, bh = located.bbox
    return max(bw / shape[1], bh / shape[0])


def check_frame(rgb: np.ndarray, cards: FrameCards) -> FrameCheck:
    """Check the upright RGB preview ``rgb`` for a game's ``cards``. Cards found
    whose grid cannot be measured are too small in the frame when they span less than
    :data:`CLOSER_SPAN` of it (``closer``), else no grid (``find_cards``)."""
    small, _ = fit_long_side(rgb, FRAME_LONG_SIDE)
    h, w = small.shape[:2]
    try:
        located, periods = cards.find(small)
    except NoCityFound:
        return FrameCheck(False, cards.game, (), ("find_cards",))
    try:
        periods, rect = _fit(small, located, periods, cards)
        corners = _outline(rect.homography, located.mask)
    except NoCityFound:
        far = _span(located, small.shape) < CLOSER_SPAN
        return FrameCheck(False, cards.game, (), ("closer",) if far else ("find_cards",))
    outline = tuple((float(np.clip(x / w, 0, 1)), float(np.clip(y / h, 0, 1))) for x, y in corners)
    measures = measure_frame(small, located, float(min(periods.best)), rect.aspect)
    return FrameCheck(True, cards.game, outline, hints_for(measures), measures)
