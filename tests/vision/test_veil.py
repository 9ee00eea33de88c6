"""The glare veil lifted off the top-down view (vision.city.veil)."""

from __future__ import annotations

import numpy as np

from vision.city.veil import RECOVERABLE, lift_veil
from vision.lattice import Lattice

PITCH_X, PITCH_Y = 88.0, 64.0
ROWS, COLS = 6, 6


def _art(seed: int = 0) -> np.ndarray:
    """Card-like art: coloured patches with dark outlines and roads in every half cell."""
    rng = np.random.default_rng(seed)
    h, w = int(ROWS * PITCH_Y), int(COLS * PITCH_X)
    patches = rng.integers(90, 230, (ROWS * 4, COLS * 4, 3)).astype(np.uint8)
    art = np.repeat(np.repeat(patches, int(np.ceil(h / (ROWS * 4))), 0), int(np.ceil(w / (COLS * 4))), 1)
    art = art[:h, :w].copy()
    art[::16, :] = 40  # outlines: something dark within every half cell, as on the real cards
    art[:, ::16] = 40
    return art


def _lattice() -> Lattice:
    return Lattice((0.0, 0.0), PITCH_X, PITCH_Y, ROWS, COLS)


def _glared(art: np.ndarray, centre: tuple[float, float], sigma: float, strength: float) -> tuple:
    h, w = art.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.minimum(1.0, strength * np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma**2)))
    out = art.astype(np.float32) * (1 - a[..., None]) + 255.0 * a[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8), a


def test_a_city_without_glare_is_left_as_it_is() -> None:
    art = _art()
    lifted = lift_veil(art, _lattice(), np.ones((ROWS, COLS), bool))
    assert lifted.strength is None
    assert lifted.image is art


def test_the_art_under_a_glare_spot_is_recovered_where_the_veil_leaves_it() -> None:
    art = _art(1)
    glared, a = _glared(art, (2.5 * PITCH_X, 2.5 * PITCH_Y), 1.2 * PITCH_Y, 0.95)
    lifted = lift_veil(glared, _lattice(), np.ones((ROWS, COLS), bool))
    assert lifted.strength is not None
    # Where the veil was strong but not past recovery, the colours come back to within a few levels of the
    # art; left as photographed they were tens of levels off.
    ring = (a > 0.3) & (a < 0.6)
    before = np.abs(glared.astype(int) - art.astype(int))[ring].mean()
    after = np.abs(lifted.image.astype(int) - art.astype(int))[ring].mean()
    assert before > 40
    assert after < 0.3 * before


def test_the_veil_is_strongest_in_the_cells_under_the_spot() -> None:
    art = _art(2)
    glared, _ = _glared(art, (1.5 * PITCH_X, 3.5 * PITCH_Y), 0.8 * PITCH_Y, 1.1)
    lifted = lift_veil(glared, _lattice(), np.ones((ROWS, COLS), bool))
    assert lifted.strength is not None
    # The mean veil over each cell's central 80 %.
    hx, hy = int(0.4 * PITCH_X), int(0.4 * PITCH_Y)
    per_cell = np.array(
        [
            [
                lifted.strength[int((r + 0.5) * PITCH_Y) - hy : int((r + 0.5) * PITCH_Y) + hy,
                                int((c + 0.5) * PITCH_X) - hx : int((c + 0.5) * PITCH_X) + hx].mean()
                for c in range(COLS)
            ]
            for r in range(ROWS)
        ]
    )  # fmt: skip
    assert np.unravel_index(per_cell.argmax(), per_cell.shape) == (3, 1)
    assert per_cell[3, 1] >= RECOVERABLE
    assert per_cell[0, 5] == 0.0


def _flat_print(seed: int = 3) -> np.ndarray:
    """A print of flat grounds: each block one colour (a cream among them) with a dark road across it."""
    rng = np.random.default_rng(seed)
    grounds = np.array([(157, 134, 134), (239, 230, 200), (233, 93, 121), (228, 225, 82)], np.uint8)
    h, w = int(ROWS * PITCH_Y), int(COLS * PITCH_X)
    art = np.empty((h, w, 3), np.uint8)
    for r in range(ROWS):
        for c in range(COLS):
            y0, x0 = int(r * PITCH_Y), int(c * PITCH_X)
            art[y0 : y0 + int(PITCH_Y), x0 : x0 + int(PITCH_X)] = grounds[rng.integers(4)]
            art[y0 + int(0.45 * PITCH_Y) : y0 + int(0.55 * PITCH_Y), x0 : x0 + int(PITCH_X)] = 70
    noise = rng.normal(0, 2.0, art.shape)
    return np.clip(art + noise + 0.5, 0, 255).astype(np.uint8)


def test_a_print_of_flat_grounds_is_not_taken_for_a_veil() -> None:
    # Its cream blocks have nothing dark in half a cell, as a glare spot would leave them; lifting that
    # "veil" would darken them into blotches.
    art = _flat_print()
    lifted = lift_veil(art, _lattice(), np.ones((ROWS, COLS), bool))
    assert lifted.strength is None
    assert lifted.image is art
