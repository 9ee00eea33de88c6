"""The frame check's measures and hints on rendered preview frames: a steep angle asks for less tilt, a
blurred frame to hold still, a city far off to come closer; a frame read well has nothing to change."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from games import game_named
from models.synth.scene import render_photo
from vision.frames import FRAME_LONG_SIDE, HINT_WORDS, FrameCheck, FrameMeasures, hints_for
from vision.frames import check_frame as check_game_frame
from vision.photo import OVEREXPOSED_SHARE

CLEAN = FrameMeasures(
    span=0.8, glare=0.0, shadow=0.1, table_shadow=0.0, blur=0.2, tilt=8.0, aspect=1.4, cut=()
)


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    """A whole city from nearly straight above, as the page sends a preview frame (960 × 720)."""
    return render_photo(
        5, long_side=960, orientation="landscape", partial=False, fill=0.8, glare=0.0, tilt=6.0
    ).image


def check_frame(frame: np.ndarray) -> FrameCheck:
    """The frame checked for a Sprawlopolis city."""
    return check_game_frame(frame, game_named("sprawlopolis").frame_cards())


def test_a_sharp_frame_of_a_whole_city_from_above_is_ready(frame: np.ndarray) -> None:
    check = check_frame(frame)
    assert check.found and check.ready and check.hints == ()
    assert check.measures is not None and 1.2 <= check.measures.aspect <= 1.65
    assert check.to_json()["hints"] == [{"code": "ready", "text": "Ready: hold still"}]


def test_a_blurred_frame_asks_to_hold_still(frame: np.ndarray) -> None:
    blurred = cv2.GaussianBlur(frame, (0, 0), 3.0)
    assert "hold_still" in check_frame(blurred).hints


def test_a_steep_angle_asks_for_less_tilt() -> None:
    steep = render_photo(5, long_side=960, orientation="landscape", partial=False, fill=0.8, tilt=34.0).image
    check = check_frame(steep)
    assert check.found and "less_tilt" in check.hints
    assert check.measures is not None and check.measures.tilt > 25


def test_the_hints_come_in_the_order_to_act_on_them() -> None:
    assert hints_for(CLEAN) == ()
    cut_and_glared = FrameMeasures(**{**CLEAN.__dict__, "cut": ("left",), "glare": 0.2, "blur": 0.9})
    assert hints_for(cut_and_glared) == ("step_back", "glare", "hold_still")
    overexposed = FrameMeasures(**{**cut_and_glared.__dict__, "clipped": 0.6})
    assert hints_for(overexposed) == ("step_back", "too_bright", "hold_still")
    far = FrameMeasures(**{**CLEAN.__dict__, "span": 0.3})
    assert hints_for(far) == ("closer",)
    assert set(hints_for(cut_and_glared)) <= set(HINT_WORDS)


def test_an_overexposed_frame_asks_to_expose_for_the_cards_not_to_move_a_lamp() -> None:
    # A white table and the cards' whites clip when the camera exposes for something darker.
    bright = render_photo(
        5,
        long_side=960,
        orientation="landscape",
        partial=False,
        fill=0.8,
        glare=0.0,
        tilt=6.0,
        table="white",
        exposure=1.6,
    ).image
    check = check_frame(bright)
    assert check.measures is not None and check.measures.clipped >= OVEREXPOSED_SHARE
    assert "too_bright" in check.hints and "glare" not in check.hints


def test_a_frame_larger_than_the_check_works_at_is_shrunk_first(frame: np.ndarray) -> None:
    small = cv2.resize(frame, (FRAME_LONG_SIDE, FRAME_LONG_SIDE * 3 // 4), interpolation=cv2.INTER_AREA)
    a, b = check_frame(frame), check_frame(small)
    assert a.found and b.found
    assert np.allclose(a.outline, b.outline, atol=0.01)


def test_a_city_far_below_the_camera_asks_to_come_closer() -> None:
    far = render_photo(21, long_side=960, partial=False, fill=0.35).image
    check = check_frame(far)
    assert "closer" in check.hints and not check.ready


def shaken(rgb: np.ndarray, px: int, degrees: float) -> np.ndarray:
    """``rgb`` as if the phone moved ``px`` pixels in the direction ``degrees`` while it was exposed."""
    line = np.zeros((px, px), np.float32)
    line[px // 2, :] = 1
    turn = cv2.getRotationMatrix2D((px / 2 - 0.5, px / 2 - 0.5), degrees, 1)
    kernel = cv2.warpAffine(line, turn, (px, px))
    return cv2.filter2D(rgb, -1, kernel / kernel.sum())


def test_a_shaken_frame_asks_to_hold_still_whichever_way_it_moved(frame: np.ndarray) -> None:
    """A shake blurs one direction only; on rendered cities 88 % of 7 px shakes in the four directions
    are told (vision.frames.check.BLUR_HINT), none of the sharp frames."""
    told = ["hold_still" in check_frame(shaken(frame, 7, a)).hints for a in (0, 45, 90, 135)]
    assert sum(told) >= 3, told
    assert "hold_still" not in check_frame(frame).hints
