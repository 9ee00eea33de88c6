"""A town of a taught print whose photo's edge cuts its cards: the cells the photo shows only in part (or
not at all) are no card region to read, and the retake says the photo cuts the town, not that the deck is
unfit. Counting them (the view repeats the photo's edge there, smeared stripes no card explains) put the
share of the town read surely under the bar: rendered random editions 7051 and 7059, cut so, were answered
``needs_deck`` (the lattice kept was another's, or the advice was to teach the deck again).

A taught town under a glare spot reads poorly with the right deck too: the retake asks for an evenly lit
photo before it asks to teach the deck again.

Edition seed 701 (:mod:`test_town_any_print`), taught from its deck photo; its town photo cut a third of
the way up its cards, through a row of them, or with a lamp's reflection over its middle.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from vision.towns.deck import taught_reader, teach_town_deck
from vision.towns.scan import CUT_BY_FRAME, TownScan, scan_town, shipped_reader

from .test_town_any_print import edition_deck, edition_town

pytestmark = pytest.mark.slow


@cache
def _scan(cut: float) -> TownScan:
    """The town photo scanned with the taught deck, cut ``cut`` of the way up from the town's bottom."""
    deck = teach_town_deck(edition_deck()[0], reader=shipped_reader()).deck
    read = taught_reader(deck, shipped_reader())
    rgb, _ = edition_town()
    if cut > 0:
        outlines = scan_town(rgb, reader=read, taught=True).outlines()
        ys = [y for corners in outlines.values() for _, y in corners]
        bottom = max(ys) - cut * (max(ys) - min(ys))
        rgb = np.ascontiguousarray(rgb[: int(bottom * rgb.shape[0])])
    return scan_town(rgb, reader=read, taught=True)


def test_a_taught_town_the_photo_edge_cuts_is_retaken_for_the_cut_not_for_the_deck() -> None:
    scan = _scan(0.35)
    assert scan.retake is not None and scan.retake.startswith(CUT_BY_FRAME.split("{")[0])
    assert not scan.needs_deck
    assert scan.to_json()["total"] is None


def test_a_taught_town_under_a_glare_spot_is_told_to_retake_it_evenly_lit_before_teaching_again() -> None:
    # A lamp's reflection over the middle of the town (a third of the photo across): the right deck reads
    # it poorly, as a deck of another print would.
    deck = teach_town_deck(edition_deck()[0], reader=shipped_reader()).deck
    rgb, _ = edition_town()
    h, w = rgb.shape[:2]
    spot = np.zeros((h, w), np.float32)
    cv2.ellipse(spot, (w // 2, h // 2), (w // 4, h // 5), 0, 0, 360, 1.0, -1)
    spot = 0.9 * cv2.GaussianBlur(spot, (0, 0), 25)[..., None]
    glared = np.clip(rgb * (1 - spot) + 250 * spot, 0, 255).astype(np.uint8)
    scan = scan_town(glared, reader=taught_reader(deck, shipped_reader()), taught=True)
    assert scan.retake is not None and scan.to_json()["total"] is None
    lit, teach = scan.retake.find("evenly lit"), scan.retake.find("teach the deck again")
    assert 0 < lit < teach
