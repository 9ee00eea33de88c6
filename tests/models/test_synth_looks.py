"""The renderer draws the two real designs the classifier misread: parks that are mostly a pale sports field,
and industrial yards whose road curves past silos in a low-contrast grey."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.synth import blocks, looks
from models.synth import palette as pal
from models.synth.draw import Pen
from scoring.city import parse_cell

PPM = 6.0
SEEDS = range(12)


def _render(token: str, seed: int) -> np.ndarray:
    """One block drawn alone at ``PPM`` px/mm, as RGB."""
    img = np.zeros((int(blocks.BLOCK_H * PPM), int(blocks.BLOCK_W * PPM), 3), np.uint8)
    blocks.draw_block(Pen(img, PPM), parse_cell(token), np.random.default_rng(seed))
    return img


def _lightness(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_RGB2LAB)[..., 0].astype(float) * 100 / 255


def _tree_share(img: np.ndarray) -> float:
    """Share of the block covered by tree crowns (green hue, saturated well beyond the pale ground)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
    green = (hsv[..., 0] > 40) & (hsv[..., 0] < 80) & (hsv[..., 1] > 90)
    return float(green.mean())


def _renders(monkeypatch: pytest.MonkeyPatch, token: str, pale: float, yard: float) -> list[np.ndarray]:
    monkeypatch.setattr(blocks, "PALE_PARK_SHARE", pale)
    monkeypatch.setattr(blocks, "YARD_SHARE", yard)
    return [_render(token, s) for s in SEEDS]


def test_a_pale_field_park_is_paler_and_barer_than_a_plain_park(monkeypatch: pytest.MonkeyPatch) -> None:
    pale = _renders(monkeypatch, "P", 1.0, 0.0)
    plain = _renders(monkeypatch, "P", 0.0, 0.0)
    # Most of a pale park is brighter than the plain park's ground (L* about 74): the field, not trees.
    ground_l = _lightness(np.uint8([[pal.GROUND["P"]]]))[0, 0]
    pale_share = [float((_lightness(im) > ground_l + 5).mean()) for im in pale]
    plain_share = [float((_lightness(im) > ground_l + 5).mean()) for im in plain]
    assert np.median(pale_share) > 0.45
    assert np.median(plain_share) < 0.25
    assert np.median([_tree_share(im) for im in pale]) < 0.5 * np.median([_tree_share(im) for im in plain])


def test_the_pale_park_keeps_the_zone_a_park_by_its_rim_and_hue(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pale but not white: the field stays green-tinted (a* below zero), so it is a park, not graph paper.
    for im in _renders(monkeypatch, "P", 1.0, 0.0):
        lab = cv2.cvtColor(im, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(float)
        assert np.median(lab[:, 1]) - 128 < -4


def test_an_industrial_yard_packs_silos_into_the_curves_inside_corner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def dark_in_corner(images: list[np.ndarray]) -> float:
        # I:SW turns round the bottom-left corner; the window is inside the curve, off the asphalt.
        h, w = images[0].shape[:2]
        window = [im[int(h * 0.62) : int(h * 0.9), int(w * 0.08) : int(w * 0.32)] for im in images]
        return float(np.mean([(_lightness(win) < 40).mean() for win in window]))

    yard = _renders(monkeypatch, "I:SW", 0.0, 1.0)
    plain = _renders(monkeypatch, "I:SW", 0.0, 0.0)
    # Plain industrial blocks have silos too, scattered anywhere: the yard has clearly more in the corner.
    assert dark_in_corner(yard) > 1.3 * dark_in_corner(plain)


def test_the_yards_road_is_closer_to_the_grey_ground_than_the_plain_asphalt() -> None:
    def delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        lab = cv2.cvtColor(np.uint8([[a, b]]), cv2.COLOR_RGB2LAB)[0].astype(float)
        return float(np.linalg.norm(lab[0] - lab[1]))

    ground = pal.GROUND["I"]
    img = np.zeros((int(blocks.BLOCK_H * PPM), int(blocks.BLOCK_W * PPM), 3), np.uint8)
    space = blocks._Space(np.random.default_rng(0), "SW", 1.5)
    asphalts = [
        looks.industrial_yard(Pen(img, PPM), np.random.default_rng(s), space, pal.OUTLINE, "SW")
        for s in SEEDS
    ]
    assert np.median([delta_e(a, ground) for a in asphalts]) < 0.8 * delta_e(pal.ASPHALT, ground)


@pytest.mark.parametrize("token", ["I:SW", "I:NS", "P"])
def test_the_real_designs_change_the_drawing_and_leave_the_road_where_the_label_puts_it(
    monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    designed = _renders(monkeypatch, token, 1.0, 1.0)
    plain = _renders(monkeypatch, token, 0.0, 0.0)
    assert all(not np.array_equal(a, b) for a, b in zip(designed, plain, strict=True))
    road = parse_cell(token).road
    if road:
        # Along the road's centre line the drawing is asphalt-grey and dashes: no building sits on it.
        line = np.asarray(blocks.road_path(road, 0.5))
        t = np.linspace(0.15, 0.85, 60)  # away from the ends, where the road meets the rim
        arc = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))])
        pts = np.stack([np.interp(t * arc[-1], arc, line[:, k]) for k in (0, 1)], 1) * PPM
        for im in designed:
            on_road = im[pts[:, 1].astype(int), pts[:, 0].astype(int)]
            sat = cv2.cvtColor(on_road[None].astype(np.uint8), cv2.COLOR_RGB2HSV)[0, :, 1]
            assert np.median(sat) < 60
