"""The bundled sample photo (``samples/demo.jpg``) is the renderer's, with today's card backs: the
scoring cards' boxes the scan finds (and the overlay draws) lie on the cards themselves."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.synth.scene import render_photo
from vision.photo.decode import WORK_LONG_SIDE
from vision.pipeline import scan_image

DEMO = Path(__file__).resolve().parents[2] / "samples" / "demo.jpg"
# How samples/demo.jpg was made (models/synth/scene.render_photo); the test checks the bytes are these.
DEMO_RECIPE = {"seed": 2027, "table": "wood", "tilt": 12, "poi": False, "fill": 0.85}


def test_the_demos_scoring_card_boxes_lie_on_its_scoring_cards() -> None:
    recipe = dict(DEMO_RECIPE)
    photo = render_photo(recipe.pop("seed"), **recipe)
    assert photo.jpeg == DEMO.read_bytes()  # the sample is this render, so its truth is the sample's
    scan = scan_image(photo.jpeg)
    assert scan.scoring_cards is not None
    found = {b.number: np.array(b.where["corners"]) for b in scan.scoring_cards.backs}
    scale = WORK_LONG_SIDE / max(photo.truth.width, photo.truth.height)  # the corners are the working copy's
    truth = {c.number: np.array(c.corners) * scale for c in photo.truth.scoring_cards}
    assert set(found) == set(truth) == {7, 12, 13}
    card_side = float(np.linalg.norm(truth[7][1] - truth[7][0]))
    for number, corners in found.items():
        # On the card: its centre within a tenth of the card's side of the card's, and each of its corners
        # within a fifth of a corner of the card (a card overlapped by the next shows less of its edge).
        assert np.linalg.norm(corners.mean(axis=0) - truth[number].mean(axis=0)) < 0.1 * card_side, number
        off = min(np.linalg.norm(np.roll(corners, k, axis=0) - truth[number], axis=1).max() for k in range(4))
        assert off < 0.2 * card_side, (number, off, card_side)
