"""A town whose photo's edge cuts off a row of its cards decodes as a smaller town: the territories beyond
the edge are missing, and no doubt can name them (they lie outside the town read). Random edition 7055 of
the renderer, taught, was scored so with two territories silent. Such a photo is answered with a retake
that says the photo's edge cuts the town (not ``needs_deck``: the cards' look is known), and no total; the
same town photographed whole is scored.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from models.synth.wagons.photo import render_town_photo
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.scan import CUT_BY_FRAME, scan_town

pytestmark = pytest.mark.slow

TOWN_SEED = 9_500_016


@cache
def whole() -> np.ndarray:
    photo = render_town_photo(TOWN_SEED, art_spread=2.0)
    return decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb


def test_a_town_photographed_whole_is_scored_with_no_retake() -> None:
    scan = scan_town(whole())
    assert scan.retake is None and not scan.needs_deck
    assert scan.to_json()["total"] is not None


def test_a_town_whose_cards_the_photo_edge_cuts_is_retaken_not_scored() -> None:
    rgb = whole()
    outlines = scan_town(rgb).outlines()
    # The photo cut a third of the way down the town (its cells' outlines, as fractions of the photo).
    top = min(y for corners in outlines.values() for _, y in corners)
    bottom = max(y for corners in outlines.values() for _, y in corners)
    cut = np.ascontiguousarray(rgb[int((top + 0.3 * (bottom - top)) * rgb.shape[0]) :])
    scan = scan_town(cut)
    assert scan.retake is not None and scan.retake.startswith(CUT_BY_FRAME.split("{")[0])
    assert not scan.needs_deck
    assert scan.to_json()["total"] is None


def _cut_through_last_column(kept: float) -> np.ndarray:
    """The whole photo cut upright through the town's last column, ``kept`` of that column's width left."""
    rgb = whole()
    outlines = scan_town(rgb).outlines()
    last = max(c for _, c in outlines)
    left = min(x for (_, c), corners in outlines.items() if c == last for x, _ in corners)
    right = max(x for (_, c), corners in outlines.items() if c == last for x, _ in corners)
    return np.ascontiguousarray(rgb[:, : int((left + kept * (right - left)) * rgb.shape[1])])


def test_a_town_whose_photo_edge_runs_through_a_column_of_its_cells_is_retaken_not_scored() -> None:
    # Every cell beyond that column lies wholly outside the photo: nothing of it can be seen as card.
    scan = scan_town(_cut_through_last_column(0.6))
    assert scan.retake is not None and scan.retake.startswith(CUT_BY_FRAME.split("{")[0])
    assert scan.to_json()["total"] is None
