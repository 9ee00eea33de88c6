"""The overlays' cell labels read on any art: white over a dark halo on dark art, near-black over a white
halo where white would vanish (a town's snow, pale desert and plains, a city's light blocks), on plain
canvases and on the rendered rulebook town's snow territories (vision.city.overlay.draw_labels, used by both
the city's and the town's overlay)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.wagons import Territory
from tests.vision.test_town_scan import rulebook_scan
from vision.city.labels import INK_LIGHT, WHITE_READS, Label, contrast, draw_labels, label_ink
from vision.city.overlay import quad_point
from vision.towns.overlay import TERRAIN_RGB, TOKEN_AT, draw_town_overlay

SNOW = TERRAIN_RGB["S"]
LINE = 2  # the overlay's line at its usual 1400 px long side


def stroke_colour(background: tuple[int, int, int]) -> np.ndarray:
    """The colour of a label's stroke drawn on a plain ``background``: an ``I``, a vertical bar through
    the label's centre, whose middle pixel is the ink itself."""
    canvas = np.full((200, 300, 3), background, np.uint8)
    draw_labels(canvas, [Label("I", 0.5, 0.5, "cell", (0, 0))], 200.0, (), LINE)
    return canvas[100, 148:152].astype(float).mean(axis=0)


def test_a_label_on_snow_is_drawn_dark_and_reads() -> None:
    ink = stroke_colour(SNOW)
    assert contrast(ink, SNOW) >= 4.5


def test_a_label_on_dark_art_stays_white() -> None:
    forest_shade = (40, 70, 40)
    ink = stroke_colour(forest_shade)
    assert np.all(ink > 240) and contrast(ink, forest_shade) >= 4.5


@pytest.mark.parametrize("terrain", sorted(TERRAIN_RGB))
def test_every_terrains_colour_gets_a_label_that_reads(terrain: str) -> None:
    background = TERRAIN_RGB[terrain]
    ink, halo = label_ink(background)
    assert contrast(ink, background) >= WHITE_READS
    assert contrast(ink, halo) >= 15  # the halo rings the letters in the opposite colour
    if ink != INK_LIGHT:
        assert contrast(INK_LIGHT, background) < WHITE_READS  # white is kept wherever it reads


@pytest.mark.slow
def test_the_town_overlays_snow_territories_have_dark_readable_tokens() -> None:
    scan = rulebook_scan(0.0)
    snowy = [
        (r, c)
        for r, line in enumerate(scan.town.grid)
        for c, t in enumerate(line)
        if isinstance(t, Territory)
        if t.terrain == "S"
    ]
    assert snowy, "the rulebook town has snow"
    picture = draw_town_overlay(scan)
    h, w = picture.shape[:2]
    outlines = scan.outlines()
    for where in snowy:
        x, y = quad_point(outlines[where], *TOKEN_AT)
        around = picture[int(y * h) - 6 : int(y * h) + 7, int(x * w) - 20 : int(x * w) + 21]
        luma = around.astype(float) @ (0.299, 0.587, 0.114)
        # Ink: near-black letters on the pale snow, not white ones with a faint rim.
        assert (luma < 60).sum() >= 15, where
