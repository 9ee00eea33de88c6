"""A town read by a taught print's look (vision.towns.deck.look_reader) where the photo is less kind than
the deck photo: a card placed by hand off the lattice, a photo exposed so that its pale fills clip to white.

The cards are the renderer's (models.synth.wagons.card) in a flat print of pale and deep fills, laid
unturned on a dark table in a top-down view at the scan's scale; the look is learned from the same 18
cards' art, as a deck photo teaches it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np

from models.synth.wagons.card import render_wagons_card
from models.synth.wagons.edition import PRINT_AND_PLAY
from models.synth.wagons.look import sample_look
from scoring.wagons.cards import CARDS, card_grid
from vision.lattice import PX_PER_MM, Lattice
from vision.towns.deck.look import territory_looks
from vision.towns.deck.look_reader import read_by_look
from vision.towns.deck.structure import PrintLook, learn_look

# A lavender and a grey-cream, a light and a dark blue: overexposed, the first two both turn white.
PALE_PRINT = replace(
    PRINT_AND_PLAY,
    fills={
        "D": (0, 88, 127),
        "F": (206, 199, 255),
        "M": (108, 147, 254),
        "P": (180, 186, 161),
        "S": (97, 162, 66),
        "W": (139, 81, 138),
    },
)
TABLE = (32, 30, 27)
# The town: three cards a row, two rows (card numbers), on a lattice two cells in from the view's corner.
TOWN = ((0, 4, 9), (12, 15, 17))
MARGIN = 2


@cache
def _arts() -> dict[int, np.ndarray]:
    look = sample_look(0)
    return {n: render_wagons_card(n, look, PX_PER_MM, edition=PALE_PRINT).rgb for n in sorted(CARDS)}


@cache
def _look() -> PrintLook:
    fills, masks = [], []
    for rgb in _arts().values():
        h, w = rgb.shape[:2]
        centres = np.array([[w / 4, h / 4], [3 * w / 4, h / 4], [w / 4, 3 * h / 4], [3 * w / 4, 3 * h / 4]])
        f, m = territory_looks(rgb, centres, (w / 2, h / 2))
        fills.append(f)
        masks.append(m)
    return learn_look(np.concatenate(fills), np.concatenate(masks))


def _town(shift: dict[int, float]) -> tuple[np.ndarray, Lattice]:
    """The top-down view of :data:`TOWN` (each card moved right by ``shift[number]`` cells) and the uniform
    lattice of its cells grown by :data:`MARGIN` cells."""
    h, w = _arts()[0].shape[:2]
    cell = (w / 2, h / 2)
    rows, cols = 2 * len(TOWN) + 2 * MARGIN, 2 * len(TOWN[0]) + 2 * MARGIN
    view = np.empty((round(rows * cell[1]), round(cols * cell[0]), 3), np.uint8)
    view[:] = TABLE
    for r, row in enumerate(TOWN):
        for c, number in enumerate(row):
            x0 = round((MARGIN + 2 * c + shift.get(number, 0.0)) * cell[0])
            y0 = round((MARGIN + 2 * r) * cell[1])
            view[y0 : y0 + h, x0 : x0 + w] = _arts()[number]
    return view, Lattice((0.0, 0.0), cell[0], cell[1], rows, cols)


def _read(view: np.ndarray, lattice: Lattice) -> dict[tuple[int, int], str]:
    """Each card cell's best token, keyed (row, col) from the town's top-left."""
    readings = read_by_look(_look(), view, lattice)
    return {
        (r, c): max(readings[r + MARGIN][c + MARGIN].items(), key=lambda kv: kv[1])[0]
        for r in range(2 * len(TOWN))
        for c in range(2 * len(TOWN[0]))
    }


def _truth() -> dict[tuple[int, int], str]:
    out = {}
    for r, row in enumerate(TOWN):
        for c, number in enumerate(row):
            for dr, line in enumerate(card_grid(number)):
                for dc, territory in enumerate(line):
                    out[(2 * r + dr, 2 * c + dc)] = territory.token()
    return out


def test_a_town_of_a_taught_print_laid_on_the_lattice_is_read_whole() -> None:
    assert _read(*_town({})) == _truth()


def test_a_card_placed_a_third_of_a_cell_off_the_lattice_is_read_where_it_lies() -> None:
    view, lattice = _town({TOWN[0][2]: 1 / 3})  # the top row's last card, pushed right onto the table
    assert _read(view, lattice) == _truth()


def test_an_overexposed_photo_whose_pale_fills_clip_to_white_still_tells_them_apart() -> None:
    view, lattice = _town({})
    bright = np.clip(view.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)
    assert (bright.reshape(-1, 3) == 255).all(axis=1).any()  # the lavender is pure white now
    assert _read(bright, lattice) == _truth()


def test_a_cell_on_a_busy_pattern_whose_corners_agree_nowhere_nearby_is_read_where_it_lies() -> None:
    # A table's pattern (or a pale oval reaching a territory's corners) is no card off the lattice: the
    # crop is moved only onto a place that shows one flat fill.
    rng = np.random.default_rng(3)
    blocks = rng.integers(0, 256, (24, 17, 3)).astype(np.uint8)
    view = np.repeat(np.repeat(blocks, 12, axis=0), 12, axis=1)
    centre, pitch = np.array([[96.0, 133.5]]), (64.0, 89.0)
    fills, masks = territory_looks(view, centre, pitch)
    searched_fills, searched_masks = territory_looks(view, centre, pitch, search=True)
    assert np.array_equal(fills, searched_fills) and np.array_equal(masks, searched_masks)
