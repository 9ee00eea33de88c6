"""The photo simulator: reproducible, and its truth lands on the rendered cards."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from models.synth.scene import render_photo
from models.synth.truth import PhotoTruth
from scoring.city_text import parse_city

SMALL = {"long_side": 800}
CLEAN = {"blur": 0.0, "noise": 0.0, "glare": 0.0, "light": 0.0, "wb": (1.0, 1.0, 1.0), "table": "dark"}


def test_same_seed_gives_identical_image_jpeg_and_truth() -> None:
    a = render_photo(11, **SMALL)
    b = render_photo(11, **SMALL)
    assert np.array_equal(a.image, b.image)
    assert a.jpeg == b.jpeg
    assert a.truth.dumps() == b.truth.dumps()
    c = render_photo(12, **SMALL)
    assert a.jpeg != c.jpeg
    assert a.truth.city != c.truth.city


def test_overriding_a_condition_photographs_the_same_city() -> None:
    wood = render_photo(5, table="wood", **SMALL)
    white = render_photo(5, table="white", tilt=30.0, **SMALL)
    assert wood.truth.city == white.truth.city
    assert wood.conditions.table == "wood" and white.conditions.tilt == 30.0
    assert white.truth.conditions["tilt"] == 30.0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_truth_corners_land_on_the_cards(seed: int) -> None:
    # The same photo on a dark and on a white table: the pixels that do not change are card pixels.
    clean = {k: v for k, v in CLEAN.items() if k != "table"}
    kw = {"tilt": 25.0, "partial": False, "clutter": 2, "fill": 0.6}
    dark = render_photo(seed, table="dark", **kw, **SMALL, **clean)
    white = render_photo(seed, table="white", **kw, **SMALL, **clean)
    card = np.abs(dark.image.astype(int) - white.image.astype(int)).max(axis=2) < 3
    truth = dark.truth
    assert (truth.cards, truth.cells, truth.scoring_cards) == (
        white.truth.cards,
        white.truth.cells,
        white.truth.scoring_cards,
    )
    h, w = card.shape
    checked = 0
    for c in [*truth.cards, *truth.scoring_cards]:
        corners = np.float64(c.corners)
        centre = corners.mean(axis=0)
        span = np.linalg.norm(corners[1] - corners[0])  # the card's 88.9 mm side, in pixels
        for corner in corners:
            unit = (centre - corner) / np.linalg.norm(centre - corner)
            for inset, expected in ((0.05, True), (-0.03, None)):  # 4.4 mm inside, 2.7 mm outside
                x, y = corner + unit * span * inset
                if not (0 <= x < w and 0 <= y < h):
                    continue
                if expected is None:  # outside: table unless another card lies there
                    polys = [
                        np.float32(o.corners) for o in [*truth.cards, *truth.scoring_cards] if o is not c
                    ]
                    if any(cv2.pointPolygonTest(p, (x, y), True) > -3 for p in polys):
                        continue
                    expected = False
                assert card[int(y), int(x)] == expected, (c, corner, inset)
                checked += 1
    assert checked >= 4 * (len(truth.cards) + 3)
    # Objects beside the city: opaque at their centre, clear of every card.
    assert len(truth.objects) == 2
    cards = [np.float32(o.corners) for o in [*truth.cards, *truth.scoring_cards]]
    for obj in truth.objects:
        x, y = np.float64(obj.corners).mean(axis=0)
        if 0 <= x < w and 0 <= y < h:
            assert card[int(y), int(x)]
        for corner in obj.corners:
            assert all(cv2.pointPolygonTest(p, corner, False) < 0 for p in cards)
    # Every cell centre of a visible block lies inside the card on top there.
    for row, col, x, y, token in truth.cells:
        if token != ".":
            top = max(
                i
                for i, c in enumerate(truth.cards)
                if c.row <= row <= c.row + 1 and c.col <= col <= c.col + 1
            )
            assert cv2.pointPolygonTest(np.float32(truth.cards[top].corners), (x, y), True) > 5
            assert card[int(y), int(x)]


def test_scoring_cards_are_photographed_with_their_numbers_positions() -> None:
    photo = render_photo(4, scoring_cards=True, partial=False, **SMALL, **CLEAN)
    city = parse_city(photo.truth.city)
    assert tuple(s.number for s in photo.truth.scoring_cards) == city.cards
    for s in photo.truth.scoring_cards:
        mask = np.zeros(photo.image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.int32(np.round(s.corners))], 1)
        paper = photo.image[mask > 0].min(axis=1) > 170
        assert paper.mean() > 0.4  # mostly off-white paper


def test_partial_framing_cuts_the_city() -> None:
    photo = render_photo(8, partial=True, fill=1.4, **SMALL)
    pts = np.vstack([np.float64(c.corners) for c in photo.truth.cards])
    w, h = photo.truth.width, photo.truth.height
    outside = (pts[:, 0] < 0) | (pts[:, 0] >= w) | (pts[:, 1] < 0) | (pts[:, 1] >= h)
    assert outside.any()


@pytest.mark.parametrize("tag", [1, 3, 6, 8])
def test_jpeg_with_exif_orientation_decodes_to_the_image(tag: int) -> None:
    photo = render_photo(9, exif_orientation=tag, orientation="portrait", jpeg_quality=95, **SMALL)
    decoded = Image.open(io.BytesIO(photo.jpeg))
    assert decoded.getexif().get(0x0112, 1) == tag
    upright = np.asarray(ImageOps.exif_transpose(decoded).convert("RGB"))
    assert upright.shape == photo.image.shape == (800, 600, 3)
    assert np.abs(upright.astype(int) - photo.image.astype(int)).mean() < 4


def test_truth_json_round_trip() -> None:
    truth = render_photo(2, **SMALL).truth
    import json

    again = PhotoTruth.from_json(json.loads(truth.dumps()))
    assert again.dumps() == truth.dumps()
    assert again.parsed_city() == parse_city(truth.city)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"colour": 3}, "unknown condition"),
        ({"tilt": 80.0}, "tilt must be"),
        ({"table": "glass"}, "table must be"),
        ({"exif_orientation": 2}, "exif_orientation must be"),
    ],
)
def test_bad_conditions_are_named(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_photo(1, **overrides)


def test_bad_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="seed"):
        render_photo(-1)


def _sharpness(img: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.CV_64F).var())


NEUTRAL = {**CLEAN, "table": "white", "exposure": 1.0, "sharpen": 0.0, "dof": 0.0, "long_side": 1000}


def test_each_condition_has_its_effect_on_the_same_scene() -> None:
    # The seed's streams are independent, so changing one condition changes only its own effect.
    base = render_photo(21, **NEUTRAL).image.astype(float)
    blurred = render_photo(21, **{**NEUTRAL, "blur": 4.0}).image
    assert _sharpness(blurred) < 0.5 * _sharpness(base.astype(np.uint8))
    warm = render_photo(21, **{**NEUTRAL, "wb": (1.25, 1.0, 0.8)}).image.astype(float)
    assert warm[..., 0].mean() > base[..., 0].mean() + 5 and warm[..., 2].mean() < base[..., 2].mean() - 5
    bright = render_photo(21, **{**NEUTRAL, "exposure": 1.3}).image.astype(float)
    assert bright.mean() > base.mean() + 5
    noisy = render_photo(21, **{**NEUTRAL, "noise": 8.0}).image.astype(float)
    assert 4 < float(np.std(noisy - base)) < 12
    glare = render_photo(21, **{**NEUTRAL, "glare": 0.6}).image.astype(float)
    assert glare.mean() > base.mean() + 1 and (glare >= base - 1).all()


def test_depth_of_field_blurs_the_far_side_more() -> None:
    kw = {**NEUTRAL, "tilt": 35.0, "azimuth": 0.0, "roll": 0.0, "fill": 0.9, "scoring_cards": False}
    sharp = render_photo(22, **kw)
    soft = render_photo(22, **{**kw, "dof": 6.0})
    # Cell centres nearest and farthest from the camera (the depth at pixel p is ∝ 1/w of hom⁻¹ p).
    inv = np.linalg.inv(np.array(sharp.truth.homography))
    cells = [(x, y) for _r, _c, x, y, t in sharp.truth.cells if t != "."]
    depth = [1 / abs(inv[2] @ np.array([x, y, 1.0])) for x, y in cells]
    order = np.argsort(depth)

    def loss(k: int) -> float:
        x, y = (int(v) for v in cells[k])
        box = (slice(max(0, y - 25), y + 25), slice(max(0, x - 25), x + 25))
        return _sharpness(soft.image[box]) / max(_sharpness(sharp.image[box]), 1e-6)

    near = np.mean([loss(k) for k in order[:5]])
    far = np.mean([loss(k) for k in order[-5:]])
    assert far < near
