"""Whether the photo's edge cuts the city (:func:`vision.city.cut.cut_by_frame`), on a lattice whose left
neighbours lie wholly outside the photo: a block there means the city may go on beyond the frame."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from scoring.city_text import parse_city
from vision.city.cut import cut_by_frame
from vision.lattice.fit import Lattice

# Two rows of two cells, the first column at the photo's left edge; table beyond it on the other sides.
LATTICE = Lattice((0.0, 60.0), 40.0, 56.0, 2, 2)


def _geometry() -> Any:
    """Enough of a Geometry for the frame check: every lattice cell visible, the card region empty (clear
    of the photo's edges), each cell's outline its box in the mask's pixels."""

    def outline_on_mask(lattice: Lattice, r: int, c: int, half: float) -> np.ndarray:
        x, y = lattice.center(r, c)
        dx, dy = half * lattice.pitch_x, half * lattice.pitch_y
        return np.array([[x - dx, y - dy], [x + dx, y - dy], [x + dx, y + dy], [x - dx, y + dy]])

    located = SimpleNamespace(mask=np.zeros((250, 200), np.uint8), touches_border=())
    visible = np.ones((LATTICE.rows, LATTICE.cols), bool)
    return SimpleNamespace(lattice=LATTICE, located=located, visible=visible, outline_on_mask=outline_on_mask)


def _assembled(text: str) -> Any:
    return cast(Any, SimpleNamespace(city=parse_city(text), origin=(0, 0)))


def test_a_block_at_the_photos_edge_says_the_city_may_run_off_it() -> None:
    assert cut_by_frame(_geometry(), _assembled(".  C:EW\nP  I:NS\n")) == ("A2",)


def test_a_block_the_backs_made_of_the_table_at_the_photos_edge_does_not() -> None:
    # The photo alone read A2 as table; three sure backs made it a park (random edition 37 079): the photo
    # shows no block beside its edge, and the park is in doubt instead.
    assembled = _assembled(".  C:EW\nP  I:NS\n")
    assert cut_by_frame(_geometry(), assembled, {(1, 0): "."}) == ()
    # A block the backs only turned (another zone or road) was read as a block by the photo too.
    assert cut_by_frame(_geometry(), assembled, {(1, 0): "R:NS"}) == ("A2",)
