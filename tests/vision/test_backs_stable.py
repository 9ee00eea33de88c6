"""A scoring card's back reads the same whatever a phone does to the photo, and a back the reader stays
unsure of is never dropped in silence.

The cards are drawn here (tests.vision.test_scorecards.draw_card: Pillow's own font, which the number
classifier never trained on) with digits as large in their circle as on the real backs.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_scorecards import _project, draw_card, place
from vision.backs import find_scoring_cards
from vision.backs.choose import BackNumber, choose_scoring_cards
from vision.backs.circles import NumberCircle, find_number_circles
from vision.backs.numerals import circle_frame
from vision.backs.read import (
    BAND_MIN_CONTRAST,
    BAND_SOFTNESS,
    _band_contrasts,
    _lettering_angle,
    _read_card,
    _rotation,
)

#: Font size in circle radii giving digits about 1.4 radii tall, as printed on the real backs.
REAL_DIGITS = 1.9
#: A circle's estimate a little off, as a crop or a recompression leaves it: centre moved (px), size scaled.
ESTIMATES = [(0.0, 0.0, 1.0), (1.5, 0.0, 1.0), (0.0, -1.5, 1.0), (0.0, 0.0, 0.94), (0.0, 0.0, 1.06)]


@pytest.mark.parametrize(("number", "angle"), [(18, 20), (13, 20), (16, -100), (6, 20), (9, -100)])
def test_a_back_reads_the_same_through_small_changes_of_its_circle(number: int, angle: float) -> None:
    card, _ = draw_card(number, text_size=REAL_DIGITS)
    photo, _ = place(card, angle)
    grey = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)
    (circle,) = find_number_circles(photo)
    readings = [
        _read_card(
            photo,
            grey,
            NumberCircle(circle.centre + (dx, dy), circle.axes * s, circle.radius * s, circle.contrast),
        )
        for dx, dy, s in ESTIMATES
    ]
    assert [r.number for r in readings] == [number] * len(ESTIMATES)
    confidences = [r.confidence for r in readings]
    assert max(confidences) - min(confidences) < 0.1


@pytest.mark.parametrize(("number", "cut"), [(18, 0.55), (16, 0.6), (9, 0.6), (12, 0.55)])
def test_a_circle_cut_by_the_photos_edge_is_still_found_and_read(number: int, cut: float) -> None:
    """The card lies at the top of the frame, its circle cut ``cut`` radii above its centre (its digits,
    about ±0.5 radii, still whole)."""
    card, centre = draw_card(number)
    photo, m = place(card, 0)
    c = _project(m, centre[None])[0]
    radius = 0.095 * card.shape[0]
    top = int(round(c[1] - cut * radius))
    (reading,) = find_scoring_cards(photo[top:])
    assert reading.number == number
    assert np.hypot(reading.circle[0] - c[0], reading.circle[1] - (c[1] - top)) < 0.15 * radius


@pytest.mark.parametrize("angle", [0.0, -12.0, 15.0])
def test_a_strip_off_the_photo_is_no_evidence_of_a_title_band(angle: float) -> None:
    """The photo is cut just above the circle: the way up whose band strip would run up off the photo
    finds no band there (sampling the photo's top row instead, it once found one and could outweigh the
    real band), and the card's own way up stays the clear best."""
    card, centre = draw_card(9)
    photo, m = place(card, angle)
    c = _project(m, centre[None])[0]
    photo = photo[int(round(c[1] - 1.0 * 0.095 * card.shape[0])) :]
    (circle,) = find_number_circles(photo)
    base = circle_frame(circle.axes, np.array([0.0, -1.0]))
    turn = _lettering_angle(photo, circle.centre, base)
    frames = [base @ _rotation(turn + k * np.pi / 2) for k in range(4)]
    contrast = _band_contrasts(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY), circle.centre, frames)
    ups = np.array([f @ np.array([0.0, -1.0]) for f in frames])
    upright = int(np.argmin(ups[:, 1] / np.linalg.norm(ups, axis=1)))  # the frame whose up is the photo's
    rights = np.array([f @ np.array([1.0, 0.0]) for f in frames])
    off_photo = int(np.argmin(rights[:, 1] / np.linalg.norm(rights, axis=1)))  # its band strip runs up
    assert contrast[off_photo] == 0.0
    others = np.delete(contrast, upright)
    assert contrast[upright] >= BAND_MIN_CONTRAST and contrast[upright] > others.max() + 2 * BAND_SOFTNESS


def test_an_unsure_back_naming_a_card_the_city_does_not_lack_puts_the_cards_in_doubt() -> None:
    backs = [
        BackNumber(4, 0.96),
        BackNumber(11, 0.92),
        BackNumber(None, 0.55, ((9, 0.55), (8, 0.13), (6, 0.05))),  # read, but not surely enough
    ]
    chosen = choose_scoring_cards(backs, from_city=(4, 6, 11), city_certainty=0.95)
    assert chosen.cards == (4, 6, 11)  # the city and two sure backs agree
    assert chosen.in_doubt == (6, 9)
    assert len(chosen.warnings) == 1 and "9" in chosen.warnings[0] and "6" in chosen.warnings[0]


def test_an_unsure_back_naming_a_card_the_city_lacks_agrees_without_a_warning() -> None:
    backs = [BackNumber(4, 0.96), BackNumber(11, 0.92), BackNumber(None, 0.55, ((6, 0.55), (8, 0.13)))]
    chosen = choose_scoring_cards(backs, from_city=(4, 6, 11), city_certainty=0.95)
    assert chosen.cards == (4, 6, 11) and chosen.source == "both"
    assert chosen.in_doubt == () and chosen.warnings == ()


def test_a_circle_fit_that_lands_off_the_photo_is_no_circle_not_a_crash() -> None:
    from vision.backs.circles import _fit

    image = np.full((120, 160, 3), 200, np.uint8)
    # A fit from a few points along the photo's edge can put the centre well outside it.
    assert _fit(image, -400.0, 60.0, 20.0) is None
    assert _fit(image, 80.0, 900.0, 20.0) is None
    assert _fit(image, float("nan"), 60.0, 20.0) is None
