"""The devset benchmark's perturbations (tests/bench/perturb.py) do what their names say, on small images."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from scoring.city import parse_cell
from scoring.city_text import parse_city
from tests.bench.perturb import (
    LOCATED,
    PERTURBATIONS,
    CityBox,
    crop_edges,
    crop_fraction,
    crop_to_city,
    dim_warm,
    exif_rotated,
    glare_spot,
    heic_bytes,
    jpeg_bytes,
    perturbed,
    shadow_band,
    shrunk_recompressed,
    steeper,
    turned,
)
from tests.bench.perturbed import chosen, figures, report
from vision.photo.decode import decode_image


def photo(h: int = 120, w: int = 160, seed: int = 0) -> np.ndarray:
    """A smooth, asymmetric picture (JPEG keeps it close) with some texture on it."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    rgb = np.stack([xs / w * 200, ys / h * 180, (xs + 2 * ys) / (w + 2 * h) * 160], axis=-1) + 30
    rgb += np.random.default_rng(seed).normal(0, 3, rgb.shape)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def test_four_quarter_turns_give_the_photo_back_and_one_swaps_its_sides() -> None:
    rgb = photo()
    out = rgb
    for _ in range(4):
        out = turned(out, 90)
    assert np.array_equal(out, rgb)
    assert turned(rgb, 90).shape == (160, 120, 3)
    assert np.array_equal(turned(rgb, 180), turned(turned(rgb, 90), 90))
    assert np.array_equal(turned(turned(rgb, 90), 270), rgb)


def test_a_quarter_turn_is_clockwise() -> None:
    rgb = photo()
    # Clockwise: the old bottom-left corner becomes the top-left one.
    assert np.array_equal(turned(rgb, 90)[0, 0], rgb[-1, 0])


def test_a_turn_that_is_not_a_quarter_is_refused() -> None:
    with pytest.raises(ValueError, match="multiple of 90"):
        turned(photo(), 45)


def test_crops_cut_the_pixels_asked_for() -> None:
    rgb = photo()
    cut = crop_edges(rgb, left=3, top=3)
    assert cut.shape == (117, 157, 3)
    assert np.array_equal(cut, rgb[3:, 3:])
    four = crop_fraction(rgb, 0.04)  # 6 px of 160 wide, 5 px of 120 high, each side
    assert four.shape == (110, 148, 3)
    assert np.array_equal(four, rgb[5:115, 6:154])
    with pytest.raises(ValueError, match="cannot crop"):
        crop_edges(rgb, left=100, right=60)


def test_shrunk_and_recompressed_is_a_smaller_jpeg_of_the_same_picture() -> None:
    rgb = photo(200, 300)
    data = shrunk_recompressed(rgb)
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "JPEG" and img.size == (180, 120)
    back = decode_image(data).rgb.astype(np.float32)
    small = np.asarray(Image.fromarray(rgb).resize((180, 120), Image.BOX), np.float32)
    assert np.abs(back - small).mean() < 3.0
    assert len(data) < len(jpeg_bytes(rgb, 92))


def test_exif_orientation_6_decodes_to_the_upright_pixels_through_the_scanners_decoder() -> None:
    rgb = photo()
    data = exif_rotated(rgb, quality=98)
    with Image.open(io.BytesIO(data)) as img:
        assert img.size == (120, 160)  # stored turned: the sides are swapped in the file
        assert img.getexif()[0x0112] == 6
    upright = decode_image(data).rgb
    assert upright.shape == rgb.shape
    # As close to the pixels as the same JPEG written upright (its chroma blocks lie the other way round).
    plain = np.abs(decode_image(jpeg_bytes(rgb, 98)).rgb.astype(np.float32) - rgb).mean()
    assert np.abs(upright.astype(np.float32) - rgb).mean() < plain + 1.0
    assert np.abs(turned(upright, 180).astype(np.float32) - rgb).mean() > 20
    # Read without its tag the file would be a quarter turn away: the tag is what makes it upright.
    stored = np.asarray(Image.open(io.BytesIO(data)), np.float32)
    assert np.abs(turned(upright, -90).astype(np.float32) - stored).mean() < 2


def test_heic_decodes_to_the_same_picture_through_the_scanners_decoder() -> None:
    rgb = photo()
    data = heic_bytes(rgb)
    decoded = decode_image(data)
    assert decoded.format == "HEIC" or decoded.format.upper().startswith("HEI")
    assert decoded.rgb.shape == rgb.shape
    assert np.abs(decoded.rgb.astype(np.float32) - rgb).mean() < 4.0


def test_dimmed_and_warm_is_a_fifth_darker_with_red_over_blue() -> None:
    grey = np.full((10, 10, 3), 200, np.uint8)
    out = dim_warm(grey).astype(np.float32)
    assert out[..., 1].mean() == pytest.approx(160, abs=1)
    assert out[..., 0].mean() > out[..., 1].mean() > out[..., 2].mean()


def test_glare_whitens_its_spot_and_leaves_the_far_corners_alone() -> None:
    rgb = np.full((200, 200, 3), 60, np.uint8)
    out = glare_spot(rgb, centre=(0.5, 0.5), radius=0.05)
    assert (out[100, 100] == 255).all()
    assert np.array_equal(out[:20, :20], rgb[:20, :20])


def test_the_shadow_band_darkens_the_middle_and_not_the_corners() -> None:
    rgb = np.full((200, 200, 3), 200, np.uint8)
    out = shadow_band(rgb, width=0.1, depth=0.5)
    assert out[100, 100, 0] == pytest.approx(100, abs=1)
    assert abs(int(out[0, 199, 0]) - 200) <= 1


def test_steeper_narrows_the_far_side_and_keeps_the_frame() -> None:
    # A white square in the middle of black: seen more steeply its top edge is shorter than its bottom.
    rgb = np.zeros((400, 400, 3), np.uint8)
    rgb[100:300, 100:300] = 255
    out = steeper(rgb, 15)
    assert out.shape == rgb.shape
    rows = np.nonzero(out[..., 0].max(axis=1) > 128)[0]
    top, bottom = (int((out[r, :, 0] > 128).sum()) for r in (rows[0] + 2, rows[-1] - 2))
    assert top < bottom - 10
    assert np.array_equal(steeper(rgb, 0), rgb)


def test_every_perturbation_is_the_same_each_time_and_changes_the_photo() -> None:
    rgb = photo()
    for name in PERTURBATIONS:
        once, again = perturbed(name, rgb), perturbed(name, rgb)
        if isinstance(once, bytes):
            assert once == again, name
        else:
            assert np.array_equal(once, again) and not np.array_equal(once, rgb), name


def test_the_perturbations_asked_for_are_the_ones_run_and_an_unknown_one_is_named() -> None:
    assert chosen(None) == chosen("all") == [*PERTURBATIONS, *LOCATED] and len(PERTURBATIONS) == 12
    assert chosen("none") == []
    assert chosen("rot90, crop3") == ["rot90", "crop3"] and chosen("nocards") == ["nocards"]
    with pytest.raises(ValueError, match="unknown rot45"):
        chosen("rot90,rot45")
    with pytest.raises(ValueError, match="unknown perturbation 'rot45'"):
        perturbed("rot45", photo())


def test_no_scoring_cards_in_view_keeps_the_city_and_a_margin_and_cuts_off_what_lies_beside_it() -> None:
    rgb = photo(120, 160)
    box = CityBox(60.0, 30.0, 110.0, 90.0, 10.0)  # a city of 5 x 6 blocks 10 px wide
    out = crop_to_city(rgb, box, margin=0.5)
    assert out.shape == (70, 60, 3)  # 5 px of table round it
    assert np.array_equal(out, rgb[25:95, 55:115])
    # The margin stops at the frame, and a city filling the frame leaves nothing to cut.
    assert crop_to_city(rgb, CityBox(2.0, 30.0, 110.0, 90.0, 10.0), 0.5).shape == (70, 115, 3)
    with pytest.raises(ValueError, match="fills the frame"):
        crop_to_city(rgb, CityBox(0.0, 0.0, 160.0, 120.0, 10.0))
    assert np.array_equal(perturbed("nocards", rgb, box), crop_to_city(rgb, box))
    with pytest.raises(ValueError, match="needs to know where the city lies"):
        perturbed("nocards", rgb)


TRUTH = "cards: 1 2 3\nR:EW C:EW .\nP    I:NS P\n"
# B2 read as a park (truly industrial), C2 read as table (truly a park)
READ = "cards: 1 2 3\nR:EW C:EW .\nP    P    .\n"


# A warning that names a cell (the road repair's note on a change it made).
REPAIRED = "B2: read as P (second choice) so that its road meets A2's"


def test_a_wrong_cell_named_in_doubt_is_not_silent_and_one_named_nowhere_is() -> None:
    truth, read = parse_city(TRUTH), parse_city(READ)
    out = {"warnings": [REPAIRED], "doubt": [{"cell": "B2", "reading": "P"}]}
    row = figures(truth, read, out)
    assert (row["blocks"], row["of"], row["exact"]) == (3, 5, False)
    assert sorted(row["wrong"]) == ["B2", "C2"]
    assert row["in_doubt"] == ["B2"] and row["in_warnings"] == ["B2"] and row["silent"] == ["C2"]
    assert row["doubt"] == 1
    # Without a doubt list every wrong cell is silent, whatever the warnings name.
    plain = figures(truth, read, {"warnings": [REPAIRED]})
    assert sorted(plain["silent"]) == ["B2", "C2"] and plain["in_warnings"] == ["B2"]


def test_a_reading_that_asks_for_a_retake_has_no_silent_cells() -> None:
    row = figures(parse_city(TRUTH), parse_city(READ), {"warnings": [], "retake": "glare: move the lamp"})
    assert row["refused"] and len(row["wrong"]) == 2 and row["silent"] == []


def test_the_table_counts_identical_readings_wrong_and_silent_cells_and_doubt_per_photo() -> None:
    truth = parse_city(TRUTH)
    right = {**figures(truth, truth, {"warnings": []}), "identical": True, "name": "a"}
    wrong = {**figures(truth, parse_city(READ), {"doubt": [{"cell": "B2"}]}), "identical": False, "name": "a"}
    text = report({"upright": [right], "rot90": [wrong], "crop3": [right]})
    assert text.splitlines()[-1] == (
        "devset perturbed: identical 1/2, wrong cells 2, silent 1, doubt per photo 0.50 (unnamed wrong cells "
        "that change nothing scored: 0)"
    )
    assert "rot90 a: 3/5" in text


def test_a_wrong_cell_that_changes_no_line_of_the_breakdown_is_harmless_not_silent() -> None:
    truth = parse_city("cards: 1 2 3\nR:EW  C:EW  I:EW\nP     R:NS  P\nR:NS  C:NS  I:NS\n")
    bend = figures(truth, truth.with_cell(1, 1, parse_cell("R:SW")), {"warnings": []})
    assert bend["wrong"] == ["B2"] and bend["silent"] == [] and bend["harmless"] == ["B2"]
    zone = figures(truth, truth.with_cell(1, 1, parse_cell("C:NS")), {"warnings": []})
    assert zone["wrong"] == ["B2"] and zone["silent"] == ["B2"] and zone["harmless"] == []
    named = figures(truth, truth.with_cell(1, 1, parse_cell("R:SW")), {"doubt": [{"cell": "B2"}]})
    assert named["in_doubt"] == ["B2"] and named["harmless"] == [] and named["silent"] == []
