"""The look-alike Circle the Wagons art: the six textures told apart by colour and stroke direction, the
print's variation, the icons in the middle and the card's layout (``models.synth.wagons``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.synth.wagons.card import CARD_H, CARD_W, TERR_H, render_territory, render_wagons_card
from models.synth.wagons.look import TERRAINS, sample_look

# Median CIELAB of each type's swatch in the rulebook's printed key (shared/reference/wagons-cards.md).
KEY = {
    "D": (79, 14, 21),
    "F": (77, -14, 18),
    "S": (80, -13, -5),
    "M": (72, 1, 5),
    "P": (84, 0, 44),
    "W": (75, -15, -12),
}
PPM = 4.0


def _lab_median(rgb: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2Lab).reshape(-1, 3)
    return np.median(lab, axis=0)


def _vertical_over_horizontal(rgb: np.ndarray) -> float:
    """Energy of vertical over horizontal grey-level change: high for horizontal strokes."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    return float(np.mean(gy**2) / np.mean(gx**2))


def _nearest_key(rgb: np.ndarray) -> str:
    """The type whose key colour is nearest; snow and water (the closest pair) told apart by their strokes:
    water's wave lines run across, snow's dots have no direction."""
    median = _lab_median(rgb)
    best = min(KEY, key=lambda t: float(np.linalg.norm(median - np.array(KEY[t]))))
    if best in "SW":
        best = "W" if _vertical_over_horizontal(rgb) > 4 else "S"
    return best


def test_at_the_key_colours_each_texture_s_median_lies_near_the_rulebook_key() -> None:
    look = sample_look(0, spread=0.0)
    for terrain in TERRAINS:
        median = _lab_median(render_territory(terrain, None, look, np.random.default_rng(1), PPM))
        assert np.linalg.norm(median - np.array(KEY[terrain])) < 6, (terrain, median.round(1))


def test_the_six_textures_are_told_apart_by_colour_and_stroke_direction_across_prints() -> None:
    wrong = []
    for seed in range(12):
        look = sample_look(seed)
        for terrain in TERRAINS:
            rgb = render_territory(terrain, None, look, np.random.default_rng(seed), PPM)
            if _nearest_key(rgb) != terrain:
                wrong.append((seed, terrain, _nearest_key(rgb)))
    assert wrong == []


def test_strokes_run_as_the_key_draws_them() -> None:
    look = sample_look(3)
    ratio = {
        t: _vertical_over_horizontal(render_territory(t, None, look, np.random.default_rng(2), PPM))
        for t in TERRAINS
    }
    assert ratio["W"] > 4 and ratio["D"] > 1  # waves across
    assert ratio["P"] < 0.7  # grass strokes up and down
    assert 0.7 < ratio["S"] < 1.5  # dots, no direction


def test_prints_differ_in_hue_scale_and_icons_and_spread_widens_them() -> None:
    looks = [sample_look(s) for s in range(30)]
    hues = [look.tint["D"][0] for look in looks]
    assert np.std(hues) > 3 and len({look.scale for look in looks}) == 30
    assert {look.style["w"] for look in looks} == {0, 1}
    assert 0.38 <= min(look.icon_size for look in looks) < max(look.icon_size for look in looks) <= 0.62
    wide = [sample_look(s, spread=2.0).tint["D"][0] for s in range(30)]
    assert np.std(wide) > 1.5 * np.std(hues)
    assert sample_look(7) == sample_look(7)
    with pytest.raises(ValueError, match="spread"):
        sample_look(1, spread=4)


def test_an_icon_covers_the_middle_of_its_territory_and_leaves_the_rim_to_the_texture() -> None:
    look = sample_look(5)
    bare = render_territory("P", None, look, np.random.default_rng(9), PPM)
    for icon in "bcfgmw":
        drawn = render_territory("P", icon, look, np.random.default_rng(9), PPM)
        changed = np.abs(drawn.astype(int) - bare.astype(int)).max(axis=2) > 30
        h, w = changed.shape
        middle = changed[int(h * 0.4) : int(h * 0.6), int(w * 0.3) : int(w * 0.7)].mean()
        rim = changed[: int(h * 0.12)].mean() + changed[int(h * 0.88) :].mean()
        assert middle > 0.25 and rim < 0.02, (icon, middle, rim)
        ys = np.nonzero(changed.any(axis=1))[0]
        assert 0.3 < (ys.max() - ys.min()) / (TERR_H * PPM) < 0.8, icon


def test_a_card_is_portrait_with_four_territories_in_cream_outlines_and_the_same_in_every_photo() -> None:
    look = sample_look(2)
    art = render_wagons_card(4, look, PPM)
    h, w = art.mask.shape
    assert (w, h) == (round(CARD_W * PPM), round(CARD_H * PPM))
    assert art.mask[0, 0] == 0 and art.mask[h // 2, w // 2] == 255  # rounded corners
    # The cream outlines cross the card in the middle, between the four territories.
    cream = np.array(look.cream, float)
    column = art.rgb[int(h * 0.1) : int(h * 0.9), w // 2].astype(float)
    assert np.median(np.linalg.norm(column - cream, axis=1)) < 25
    again = render_wagons_card(4, look, PPM)
    assert np.array_equal(art.rgb, again.rgb)
    assert not np.array_equal(art.rgb, render_wagons_card(4, sample_look(3), PPM).rgb)
    with pytest.raises(ValueError, match="no Circle the Wagons card 18"):
        render_wagons_card(18, look, PPM)
