"""Scoring cards in a photo: the yellow circle found, the card traced, the number read the right way up.

Two sources of photos: the project's photo simulator, and a card drawn here from scratch (Pillow's own
font, which the number classifier never trained on, different proportions and colours), so that the
tests do not only check agreement with one renderer.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from models.synth.scene import render_photo
from vision.backs.choose import ScoringCards, choose_scoring_cards
from vision.backs.numerals import (
    PATCH,
    NumberModelError,
    NumberReader,
    circle_frame,
    circle_patch,
    get_reader,
    use_reader,
)
from vision.backs.read import ScoringCardReading, find_scoring_cards

CARD_MM = (88.9, 63.5)


def from_backs(readings: list[ScoringCardReading]) -> ScoringCards:
    """The scoring cards a scan chooses from these readings alone (no reading of the city)."""
    return choose_scoring_cards([r.to_back_number() for r in readings], from_city=None)


def draw_card(
    number: int,
    ppm: float = 5.0,
    text_size: float = 1.45,
    fill: tuple[int, int, int] = (240, 218, 110),
    band: tuple[int, int, int] = (146, 136, 112),
) -> tuple[np.ndarray, np.ndarray]:
    """A scoring card's scoring side drawn at ``ppm`` px/mm, upright, laid out as the real backs are: RGB
    image and the centre of its circle (px). Graph paper; a grey-brown title band from 0.10 to 0.23 of the
    height with a dashed line; a pale yellow circle 0.19 of the height across on the band, its centre at
    0.125 of the width and 0.15 of the height, with a thin olive rim and the number in Pillow's default font
    made bold (``text_size``: font size in circle radii; ``fill`` and ``band`` the colours); a name of dark
    blocks on the band and lines of "text" below."""
    w, h = round(CARD_MM[0] * ppm), round(CARD_MM[1] * ppm)
    img = Image.new("RGB", (w, h), (236, 234, 226))
    d = ImageDraw.Draw(img)
    for x in np.arange(0, w, 3 * ppm):
        d.line([(x, 0), (x, h)], fill=(214, 214, 206), width=1)
    for y in np.arange(0, h, 3 * ppm):
        d.line([(0, y), (w, y)], fill=(214, 214, 206), width=1)
    d.rectangle((0, 0.10 * h, w, 0.23 * h), fill=band)
    for x in np.arange(2 * ppm, w, 6 * ppm):
        d.line(
            [(x, 0.165 * h), (x + 3 * ppm, 0.165 * h)], fill=(226, 222, 210), width=max(1, round(0.5 * ppm))
        )
    cx, cy, r = 0.125 * w, 0.15 * h, 0.095 * h
    d.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), fill=(120, 112, 50))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    font = ImageFont.load_default(size=round(text_size * r))
    text = str(number)
    left, t, right, b = font.getbbox(text, stroke_width=2)
    d.text(
        (cx - (left + right) / 2, cy - (t + b) / 2),
        text,
        font=font,
        fill=(20, 18, 18),
        stroke_width=2,
        stroke_fill=(20, 18, 18),
    )
    x = cx + r + 2 * ppm
    for _ in range(9):  # the name: dark capital-like blocks on the band
        d.rectangle((x, 0.125 * h, x + 2.6 * ppm, 0.205 * h), fill=(40, 36, 36))
        x += 3.3 * ppm
    for k in range(4):  # rule text
        y = 0.32 * h + k * 3 * ppm
        d.rectangle((5 * ppm, y, 60 * ppm, y + 1.3 * ppm), fill=(70, 64, 64))
    return np.asarray(img), np.array([cx, cy])


def place(
    card: np.ndarray,
    angle: float,
    size: tuple[int, int] = (1200, 900),
    tilt: float = 0.0,
    table: tuple[int, int, int] = (60, 90, 140),
) -> tuple[np.ndarray, np.ndarray]:
    """The card on a plain table, turned by ``angle`` degrees and foreshortened by ``tilt`` (0–0.4) along
    the image's y axis: (photo, 3×3 map card px → photo px)."""
    h, w = card.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m = np.vstack([rot, [0, 0, 1]])
    m = np.array([[1, 0, size[0] / 2 - w / 2], [0, 1, size[1] / 2 - h / 2], [0, 0, 1]]) @ m
    squash = np.array([[1, 0, 0], [0, 1 - tilt, size[1] / 2 * tilt], [0, tilt * 0.0004, 1]])
    m = squash @ m
    photo = np.empty((size[1], size[0], 3), np.uint8)
    photo[:] = table
    warped = cv2.warpPerspective(card, m, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size)[..., None] / 255.0
    photo = (photo * (1 - alpha) + warped * alpha).astype(np.uint8)
    return cv2.GaussianBlur(photo, (0, 0), 0.7), m


def _project(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ m.T
    return p[:, :2] / p[:, 2:]


# --- the circle frame and the patch -------------------------------------------------------------------


def test_circle_frame_turns_the_circle_so_that_up_is_up() -> None:
    axes = np.array([[30.0, 0.0], [0.0, 18.0]])  # a circle of radius 30 squashed to 18 along y
    for up in ([0.0, -1.0], [1.0, 0.0], [-0.6, 0.8]):
        frame = circle_frame(axes, np.array(up))
        mapped = frame @ np.array([0.0, -1.0])
        assert mapped[0] * up[1] - mapped[1] * up[0] == pytest.approx(0.0, abs=1e-9)
        assert float(mapped @ up) > 0
        assert np.linalg.det(frame) > 0  # never mirrored
        # Still a map of the same ellipse: |frame^-1 p| = 1 on the ellipse.
        for t in np.linspace(0, 2 * np.pi, 7):
            p = axes @ np.array([np.cos(t), np.sin(t)])
            assert np.linalg.norm(np.linalg.solve(frame, p)) == pytest.approx(1.0)
    mirrored = circle_frame(np.array([[30.0, 0.0], [0.0, -30.0]]), np.array([0.0, -1.0]))
    assert np.linalg.det(mirrored) > 0


def test_circle_patch_is_upright_whatever_the_turn() -> None:
    card, centre = draw_card(7)
    reference = None
    for angle in (0, 90, 180, 250):
        photo, m = place(card, angle)
        c = _project(m, centre[None])[0]
        up = _project(m, (centre + [0, -10])[None])[0] - c
        frame = circle_frame(np.eye(2) * 7.5 * 5.0, up)
        patch = circle_patch(photo, (c[0], c[1]), frame)
        assert patch.shape == (PATCH, PATCH) and patch.dtype == np.uint8
        # Ink (dark) in the upper part of a 7: its bar runs across the top.
        top, bottom = patch[: PATCH // 3, 8:-8].mean(), patch[-PATCH // 3 :, 8:-8].mean()
        assert top < bottom, angle
        if reference is None:
            reference = patch.astype(float)
        else:
            assert np.abs(patch - reference).mean() < 25, angle


# --- the number classifier ----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 6, 9, 11, 16, 18])
def test_classifier_reads_an_unseen_font_and_tells_6_from_9(number: int) -> None:
    card, centre = draw_card(number)
    frame = circle_frame(np.eye(2) * 7.5 * 5.0, np.array([0.0, -1.0]))
    probs = get_reader().probabilities(circle_patch(card, (centre[0], centre[1]), frame)[None])
    assert probs.shape == (1, 19)
    assert int(np.argmax(probs[0])) == number


def test_classifier_refuses_patches_of_the_wrong_shape_or_type() -> None:
    reader = get_reader()
    with pytest.raises(ValueError, match="shape"):
        reader.probabilities(np.zeros((2, 16, 16), np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        reader.probabilities(np.zeros((2, PATCH, PATCH), np.float32))
    assert reader.probabilities(np.zeros((0, PATCH, PATCH), np.uint8)).shape == (0, 19)


def test_missing_or_mismatched_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(NumberModelError, match="not found"):
        NumberReader(tmp_path / "numbers.onnx", tmp_path / "numbers.json")
    meta = json.loads((Path(__file__).resolve().parents[2] / "models" / "numbers.json").read_text())
    meta["patch"] = 48
    (tmp_path / "numbers.json").write_text(json.dumps(meta))
    (tmp_path / "numbers.onnx").write_bytes(b"")
    with pytest.raises(NumberModelError, match="different patch"):
        NumberReader(tmp_path / "numbers.onnx", tmp_path / "numbers.json")


def test_another_reader_can_stand_in_and_be_put_back() -> None:
    shipped = get_reader()
    other = NumberReader()
    use_reader(other)
    try:
        assert get_reader() is other
    finally:
        use_reader(None)
    again = get_reader()
    assert again is not other and again is not shipped  # loaded afresh from the shipped files


# --- whole cards in drawn photos ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "angle", "tilt"),
    [(6, 0, 0.0), (9, 180, 0.0), (6, 200, 0.25), (13, 95, 0.2), (16, 90, 0.0), (17, -60, 0.3), (9, 270, 0.1)],
)
def test_a_drawn_card_is_found_read_and_boxed(number: int, angle: float, tilt: float) -> None:
    """The circle sits on the title band, as on the real backs; any turn, a slanted view."""
    card, centre = draw_card(number)
    photo, m = place(card, angle, tilt=tilt)
    readings = find_scoring_cards(photo)
    assert len(readings) == 1
    r = readings[0]
    assert r.number == number and r.confidence > 0.5 and r.band_found
    as_json = r.to_json()
    assert as_json["number"] == number and len(as_json["corners"]) == 4 and len(as_json["circle"]) == 3
    c = _project(m, centre[None])[0]
    assert np.hypot(r.circle[0] - c[0], r.circle[1] - c[1]) < 3
    h, w = card.shape[:2]
    truth = _project(m, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    # Corners in reading order (TL first), placed from the circle alone: near, not exact, on a slant.
    assert np.linalg.norm(r.corners - truth, axis=1).max() < (0.07 + 0.4 * tilt) * np.linalg.norm(
        truth[1] - truth[0]
    )


@pytest.mark.parametrize(("number", "angle"), [(6, 0), (6, 180), (9, 0), (9, 180), (6, 90), (9, 270)])
def test_the_title_band_tells_6_from_9(number: int, angle: float) -> None:
    card, _ = draw_card(number)
    photo, _ = place(card, angle, table=(236, 232, 218))  # a table the colour of the paper
    (reading,) = find_scoring_cards(photo)
    assert reading.number == number and reading.band_found


def test_the_scale_of_the_city_finds_the_same_cards() -> None:
    card, _ = draw_card(11)
    photo, _ = place(card, 20)
    (reading,) = find_scoring_cards(photo, px_per_mm=5.0)
    assert reading.number == 11
    with pytest.raises(ValueError, match="px_per_mm"):
        find_scoring_cards(photo, px_per_mm=0.0)


def _wood(size: tuple[int, int], seed: int = 1) -> np.ndarray:
    """A warm wood-coloured table, as yellow as the circles' fill by ``b* − 0.7|a*|``."""
    photo = np.empty((size[1], size[0], 3), np.uint8)
    photo[:] = (200, 150, 70)
    grain = cv2.GaussianBlur(
        np.random.default_rng(seed).normal(0, 14, size[::-1]).astype(np.float32), (0, 0), 5
    )
    return np.clip(photo + grain[..., None] * np.array([1.0, 0.8, 0.4]), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("ratio", [0.72, 1.45])
def test_a_card_farther_or_nearer_than_the_city_is_found(ratio: float) -> None:
    """Beside a slanted city the cards lie at 0.7–1.5 of the city's scale: a pale circle sized from the
    city alone has its surroundings measured past the card's edge, on the wood (or on its own fill)."""
    card, centre = draw_card(14, ppm=5.0 * ratio, fill=(250, 240, 170))
    photo, m = place(card, 15, size=(1000, 800))
    on_card = cv2.warpPerspective(np.full(card.shape[:2], 255, np.uint8), m, (1000, 800)) > 128
    table = _wood((1000, 800))
    table[on_card] = photo[on_card]
    (reading,) = find_scoring_cards(table, px_per_mm=5.0)
    c = _project(m, centre[None])[0]
    assert reading.number == 14 and np.hypot(reading.circle[0] - c[0], reading.circle[1] - c[1]) < 3


def test_a_number_washed_out_by_glare_is_still_read() -> None:
    """Glare lays a veil over the card: the ink comes up to over 0.6 of the fill's luma, but stays far
    darker than it."""
    card, _ = draw_card(12)
    photo, _ = place(card, -30)
    veiled = (0.45 * photo + 140).astype(np.uint8)
    luma = cv2.cvtColor(veiled, cv2.COLOR_RGB2LAB)[..., 0]
    assert luma.min() > 0.6 * np.percentile(luma, 99)  # the ink is no longer "dark" by a ratio
    (reading,) = find_scoring_cards(veiled, px_per_mm=5.0)
    assert reading.number == 12


def test_three_drawn_cards_on_a_yellowish_wooden_table() -> None:
    """A wood whose colour passes a loose yellow test (hue ~13, saturated) is not a circle."""
    photo = np.empty((900, 1600, 3), np.uint8)
    photo[:] = (190, 130, 60)
    rng = np.random.default_rng(1)
    grain = cv2.GaussianBlur(rng.normal(0, 18, (900, 1600)).astype(np.float32), (0, 0), 6)
    photo = np.clip(photo + grain[..., None] * np.array([1.0, 0.8, 0.4]), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(photo, cv2.COLOR_RGB2HSV)
    assert np.median(hsv[..., 0]) < 20 and np.median(hsv[..., 1]) > 100  # the loose test would take it
    for k, (number, angle) in enumerate([(4, 3), (12, -2), (18, 178)]):
        card, _ = draw_card(number, ppm=4.0)
        shot, m = place(card, angle, size=(520, 900), table=(0, 0, 0))
        on_card = cv2.warpPerspective(np.full(card.shape[:2], 255, np.uint8), m, (520, 900)) > 128
        tile = photo[:, k * 530 : k * 530 + 520]
        tile[on_card] = shot[on_card]
    assert find_scoring_cards(photo[:, : 0 + 1600]) != []
    chosen = from_backs(find_scoring_cards(photo))
    assert chosen.cards == (4, 12, 18) and chosen.source == "backs" and chosen.warnings == ()


def test_two_overlapping_cards_are_both_read() -> None:
    """A second card laid over the first's lower half: both circles still show."""
    photo = np.empty((900, 1400, 3), np.uint8)
    photo[:] = (60, 90, 140)
    first, _ = draw_card(7, ppm=5.0)
    second, _ = draw_card(15, ppm=5.0)
    for card, (x, y) in ((first, (200, 150)), (second, (420, 330))):
        h, w = card.shape[:2]
        photo[y : y + h, x : x + w] = card
    assert sorted(r.number for r in find_scoring_cards(photo)) == [7, 15]


def test_city_mask_hides_circles_on_the_city() -> None:
    card, centre = draw_card(12)
    photo, m = place(card, 10)
    assert [r.number for r in find_scoring_cards(photo)] == [12]
    mask = np.zeros((90, 120), np.uint8)  # a mask at another resolution than the photo
    c = _project(m, centre[None])[0]
    mask[int(c[1] / 10) - 3 : int(c[1] / 10) + 3, int(c[0] / 10) - 3 : int(c[0] / 10) + 3] = 1
    assert find_scoring_cards(photo, city_mask=mask) == []


def test_nothing_yellow_means_no_cards() -> None:
    rng = np.random.default_rng(0)
    photo = rng.integers(0, 255, (600, 800, 3), dtype=np.uint8)
    assert find_scoring_cards(photo) == []
    blank = np.full((600, 800, 3), 250, np.uint8)
    assert find_scoring_cards(blank) == []
    chosen = from_backs([])
    assert chosen.cards is None and chosen.warnings == (
        "scoring cards: none seen in the photo; give all three to score them",
    )


def test_bad_input_is_named() -> None:
    with pytest.raises(TypeError, match="numpy array"):
        find_scoring_cards([[0, 0, 0]])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="RGB uint8"):
        find_scoring_cards(np.zeros((100, 100), np.uint8))
    with pytest.raises(ValueError, match="RGB uint8"):
        find_scoring_cards(np.zeros((100, 100, 3), np.float32))
    with pytest.raises(ValueError, match="too small"):
        find_scoring_cards(np.zeros((8, 100, 3), np.uint8))
    card, _ = draw_card(5)
    photo, _ = place(card, 0)
    with pytest.raises(ValueError, match="city_mask"):
        find_scoring_cards(photo, city_mask=np.zeros((4, 4, 3), np.uint8))


# --- simulated photos ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "table"), [(3, "cloth"), (8, "wood"), (15, "dark")])
def test_simulated_photo_gives_its_three_cards(seed: int, table: str) -> None:
    photo = render_photo(seed, long_side=2016, table=table, scoring_cards=True, partial=False, fill=0.8)
    readings = find_scoring_cards(photo.image)
    chosen = from_backs(readings)
    assert chosen.cards == tuple(sorted(s.number for s in photo.truth.scoring_cards)), chosen.warnings
    for r in readings[:3]:
        truth = next(s for s in photo.truth.scoring_cards if s.number == r.number)
        poly = np.array(truth.corners, np.float32)
        assert cv2.pointPolygonTest(poly, r.circle[:2], False) >= 0


def test_turning_the_photo_does_not_change_the_numbers() -> None:
    photo = render_photo(5, long_side=2016, scoring_cards=True, partial=False, fill=0.8, table="cloth")
    expected = sorted(s.number for s in photo.truth.scoring_cards)
    for k in (1, 2):
        turned = np.ascontiguousarray(np.rot90(photo.image, k))
        assert from_backs(find_scoring_cards(turned)).cards == tuple(expected)


def test_simulated_photo_without_scoring_cards_gets_no_header() -> None:
    photo = render_photo(3, long_side=2016, scoring_cards=False)
    chosen = from_backs(find_scoring_cards(photo.image))
    assert chosen.cards is None and chosen.source is None
    assert chosen.warnings == ("scoring cards: none seen in the photo; give all three to score them",)


# --- the summary for the pipeline ---------------------------------------------------------------------


def _reading(number: int | None, confidence: float) -> ScoringCardReading:
    return ScoringCardReading(number, confidence, np.zeros((4, 2)), (0.0, 0.0, 10.0))


def test_the_backs_alone_need_three_read_cards() -> None:
    chosen = from_backs([_reading(12, 0.9), _reading(3, 0.99), _reading(7, 0.8)])
    assert (chosen.cards, chosen.source, chosen.warnings) == ((3, 7, 12), "backs", ())
    chosen = from_backs([_reading(12, 0.9), _reading(3, 0.99), _reading(None, 0.2)])
    assert chosen.cards is None and len(chosen.backs) == 3  # the unread back is still reported
    assert chosen.warnings == (
        "scoring cards: read 2 of 3 from their backs (3, 12); give the third to score them",
    )
    chosen = from_backs([_reading(None, 0.3)])
    assert chosen.warnings == ("scoring cards: none read from their backs; give all three to score them",)
    chosen = from_backs([_reading(n, 0.9 - n / 100) for n in (1, 2, 3, 4)])
    assert chosen.cards == (1, 2, 3)
    assert chosen.warnings == ("more than three scoring cards seen; used 1, 2, 3, ignored 4",)


def test_a_reading_keeps_its_place_for_the_overlay() -> None:
    reading = ScoringCardReading(9, 0.8, np.ones((4, 2)), (5.0, 6.0, 10.0), alternatives=((9, 0.8), (6, 0.1)))
    back = reading.to_back_number()
    assert (back.number, back.confidence, back.alternatives) == (9, 0.8, ((9, 0.8), (6, 0.1)))
    assert back.where == reading.to_json() and back.where["circle"] == [5.0, 6.0, 10.0]
