"""Whether a lattice cell shows a territory of a taught print or the table: the look reader's land cues."""

from __future__ import annotations

import numpy as np

from vision.lattice import Lattice
from vision.towns.deck.look_reader import land_probability, rim_fills
from vision.towns.deck.structure import PrintLook

SIZE = 16
# Six named fills of a made-up print (Lab): pale cyan, white, dark red, green, violet, sand.
FILLS = np.array(
    [[90, -15, -10], [97, 0, 0], [25, 28, 9], [55, -40, 30], [40, 30, -35], [75, 5, 30]], np.float32
)
DARK_TABLE = np.array([[20, 2, 2], [24, 3, 1]], np.float32)


def _look() -> PrintLook:
    disc = np.zeros((SIZE, SIZE), np.float32)
    disc[5:11, 5:11] = 1.0
    icons = np.stack([np.roll(disc, k, axis=1) for k in range(6)])
    return PrintLook(FILLS, np.full(6, 6.0, np.float32), icons, np.arange(6), float(disc.mean()))


def test_a_territory_whose_silhouette_hardly_stands_out_is_land_when_its_fill_is_far_from_the_table() -> None:
    look, blank = _look(), np.zeros((1, SIZE, SIZE), np.float32)
    pale_cyan = FILLS[:1]  # a white ring on pale cyan leaves no icon mask
    assert land_probability(look, pale_cyan, blank, DARK_TABLE)[0] > 0.9
    assert land_probability(look, pale_cyan, blank)[0] < 0.01  # table's colours unknown: an icon is needed


def test_a_cell_of_the_tables_own_colour_needs_an_icon_to_be_land() -> None:
    look, blank = _look(), np.zeros((1, SIZE, SIZE), np.float32)
    white_table = FILLS[1:2] + np.array([[-1, 0, 1]], np.float32)  # white snow on a white sheet
    assert land_probability(look, FILLS[1:2], blank, white_table)[0] < 0.05
    with_icon = look.icons[1:2]
    assert land_probability(look, FILLS[1:2], with_icon, white_table)[0] > 0.9


def test_a_table_far_from_every_named_fill_is_never_land() -> None:
    look, blank = _look(), np.zeros((1, SIZE, SIZE), np.float32)
    wood = np.array([[45, 15, 25]], np.float32)
    assert land_probability(look, wood, blank, DARK_TABLE)[0] < 0.1


def test_the_tables_colours_come_from_the_lattices_outer_rings_on_the_photo_only() -> None:
    view = np.zeros((100, 100, 3), np.uint8)
    view[:, 30:] = 200  # the photo's left part lies outside it: black in the top-down view
    lattice = Lattice((0.0, 0.0), 10.0, 10.0, 10, 10)
    fills = np.arange(300, dtype=np.float32).reshape(100, 3)
    rim = rim_fills(view, lattice, fills)
    cells = {int(f[0]) // 3 for f in rim}
    assert cells == {r * 10 + c for r in range(10) for c in range(3, 10) if min(r, c, 9 - r, 9 - c) < 2}


def test_a_territory_of_the_table_rims_odd_colour_is_land_by_its_fill_when_the_rim_holds_it_once() -> None:
    # A grey territory the card region missed lies in the lattice's outer rings with the pale table: one
    # cell of the rim shows its colour, many the table's. Its dark silhouette is not seen (no icon mask).
    look, blank = _look(), np.zeros((1, SIZE, SIZE), np.float32)
    pale_table = np.array([[88, -2, -6], [89, -2, -5], [87, -3, -6], [88, -1, -6]], np.float32)
    violet = FILLS[4:5]
    assert land_probability(look, violet, blank, np.vstack([pale_table, violet]))[0] > 0.9
    assert land_probability(look, violet, blank, np.vstack([pale_table, violet, violet, violet]))[0] < 0.05
