"""The table's own pattern (vision.city.table_pattern, vision.lattice.pattern_mask): a cell off the cards that
shows the pattern of the table far from the city is the table, however surely the classifier reads it as a
block; art is not, and a check cloth's repeating squares are told apart from the cards on it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.city.table_pattern import PATTERN_MATCH, pattern_match, table_patches
from vision.lattice import Lattice
from vision.lattice.pattern_mask import repeating_table

PITCH = (89.0, 64.0)  # a block at the top-down view's 2 px/mm
SIZE = 1000


def _check(period: float = 40.0) -> np.ndarray:
    """A red check cloth over the whole photo, in the view's own pixels."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    share = 0.5 * (((xs % period) < period / 2).astype(np.float32) + ((ys % period) < period / 2))
    red, pale = np.array([196, 52, 48], np.float32), np.array([238, 232, 226], np.float32)
    return (pale * (1 - share[..., None]) + red * share[..., None]).astype(np.uint8)


def _with_cards(photo: np.ndarray, lattice: Lattice, cells: list[tuple[int, int]]) -> np.ndarray:
    """``photo`` with art (blocks of random shapes and colours) on ``cells`` of ``lattice``."""
    rng = np.random.default_rng(5)
    out = photo.copy()
    for r, c in cells:
        x, y = lattice.center(r, c)
        x0, y0 = int(x - PITCH[0] / 2), int(y - PITCH[1] / 2)
        out[y0 : y0 + int(PITCH[1]), x0 : x0 + int(PITCH[0])] = rng.integers(90, 200, 3)
        for _ in range(14):
            bx, by = int(rng.integers(0, PITCH[0] - 14)), int(rng.integers(0, PITCH[1] - 14))
            size = int(rng.integers(6, 14))
            out[y0 + by : y0 + by + size, x0 + bx : x0 + bx + size] = rng.integers(0, 255, 3)
    return out


def test_a_check_cloths_square_beside_the_city_matches_the_table_and_a_block_does_not() -> None:
    lattice = Lattice((320.0, 340.0), *PITCH, 5, 5)
    cards = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    photo = _with_cards(_check(), lattice, cards)
    (x0, y0), (x1, y1) = lattice.center(1, 1), lattice.center(3, 3)
    left, top = int(x0 - PITCH[0] / 2) // 2, int(y0 - PITCH[1] / 2) // 2
    right, bottom = int(x1 + PITCH[0] / 2) // 2, int(y1 + PITCH[1] / 2) // 2
    mask = np.zeros((SIZE // 2, SIZE // 2), np.uint8)  # the card region, on a reduced copy
    mask[top:bottom, left:right] = 255
    patches = table_patches(photo, np.eye(3), mask, PITCH)
    assert patches  # the table far from the cards
    assert pattern_match(patches, photo, lattice, 0, 2) >= PATTERN_MATCH  # the cloth above the city
    assert pattern_match(patches, photo, lattice, 4, 4) >= PATTERN_MATCH
    assert all(pattern_match(patches, photo, lattice, r, c) < PATTERN_MATCH for r, c in cards)


def test_a_plain_table_has_no_pattern_to_match() -> None:
    lattice = Lattice((320.0, 340.0), *PITCH, 5, 5)
    photo = np.full((SIZE, SIZE, 3), 140, np.uint8)
    mask = np.zeros((SIZE // 2, SIZE // 2), np.uint8)
    mask[200:300, 200:300] = 255
    patches = table_patches(photo, np.eye(3), mask, PITCH)
    assert patches and pattern_match(patches, photo, lattice, 0, 0) == 0.0


def test_a_city_that_fills_the_photo_leaves_no_table_patch() -> None:
    photo = _check()
    mask = np.full((SIZE // 2, SIZE // 2), 255, np.uint8)
    assert table_patches(photo, np.eye(3), mask, PITCH) == ()


def test_a_check_cloths_repeating_squares_are_told_apart_from_the_cards_on_it() -> None:
    lattice = Lattice((320.0, 340.0), *PITCH, 5, 5)
    cards = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    photo = _with_cards(_check(period=20.0), lattice, cards)
    lightness = cv2.cvtColor(photo, cv2.COLOR_RGB2LAB)[:, :, 0]
    pattern = repeating_table(lightness, 40)
    assert pattern is not None
    for r, c in cards:
        x, y = lattice.center(r, c)
        assert not pattern[int(y), int(x)]  # a card: the cloth's pattern does not show there
    x, y = lattice.center(0, 0)
    assert pattern[int(y), int(x)]


def test_a_table_without_a_repeating_pattern_is_left_to_the_colour_and_busyness_cues() -> None:
    rng = np.random.default_rng(3)
    grain = cv2.GaussianBlur(rng.normal(140, 30, (SIZE, SIZE)).astype(np.float32), (0, 0), 3)
    assert repeating_table(np.clip(grain, 0, 255).astype(np.uint8), 40) is None


def test_a_faint_grain_that_repeats_all_over_is_no_pattern_while_the_same_weave_in_contrast_is() -> None:
    # A table's fine weave repeats as often as a check does, but faintly (the devset's tables: the border
    # patches that repeat spread their lightness by 8-15); a check cloth's squares spread it by 21 or more.
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    weave = np.sin(2 * np.pi * xs / 24) * np.sin(2 * np.pi * ys / 24)
    for amplitude, patterned in ((20.0, False), (70.0, True)):
        lightness = np.clip(150 + amplitude * weave, 0, 255).astype(np.uint8)
        assert (repeating_table(lightness, 40) is not None) == patterned, amplitude
