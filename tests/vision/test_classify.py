"""The cell classifier at run time: crops, the shipped ONNX model, input checks and session reuse."""

from __future__ import annotations

import json
import random

import cv2
import numpy as np
import pytest

from scoring.placement import simulate_play
from vision.cells import classify
from vision.cells.classify import (
    META_PATH,
    MODEL_PATH,
    classify_cells,
    get_classifier,
)
from vision.cells.crops import CONTEXT, CROP_H, CROP_W, CropJitter, extract_crops, lattice_crops
from vision.cells.reading import CellReading
from vision.lattice.fit import PX_PER_MM, Lattice
from vision.runtime.onnx_models import default_threads

# Play seeds far from the training (1e6..) and held-out (9e6..) ranges of models/train.py.
TEST_SEEDS = (70_000_001, 70_000_002)


def _topdown(seed: int):
    from models.synth.art import render_city_topdown

    play = simulate_play(random.Random(seed), 15)
    return render_city_topdown(play, np.random.default_rng(seed), PX_PER_MM)


# --- crops -------------------------------------------------------------------------------------------


def _marker_image() -> np.ndarray:
    """Grey image with a red 20×14 px rectangle centred on (100, 80)."""
    img = np.full((160, 200, 3), 128, np.uint8)
    img[73:87, 90:110] = (255, 0, 0)
    return img


def test_crop_is_centred_on_the_cell_and_has_the_model_size() -> None:
    crops = extract_crops(_marker_image(), [(100, 80)], pitch_x=40, pitch_y=28)
    assert crops.shape == (1, CROP_H, CROP_W, 3) and crops.dtype == np.uint8
    red = crops[0, :, :, 0].astype(int) - crops[0, :, :, 1]
    ys, xs = np.nonzero(red > 60)
    assert abs(xs.mean() - (CROP_W - 1) / 2) < 1.5 and abs(ys.mean() - (CROP_H - 1) / 2) < 1.5
    # The window is CONTEXT × pitch wide, so the 20 px marker covers 20 / (CONTEXT * 40) of the crop.
    assert abs((xs.max() - xs.min() + 1) / CROP_W - 20 / (CONTEXT * 40)) < 0.08


def test_crop_jitter_moves_the_window() -> None:
    plain = extract_crops(_marker_image(), [(100, 80)], 40, 28)[0]
    moved = extract_crops(_marker_image(), [(100, 80)], 40, 28, jitters=[CropJitter(dx=0.25)])[0]
    col = lambda crop: np.nonzero((crop[:, :, 0].astype(int) - crop[:, :, 1]) > 60)[1].mean()  # noqa: E731
    # Moving the window right by a quarter pitch moves the content left by 0.25 / CONTEXT of the crop.
    assert col(plain) - col(moved) == pytest.approx(0.25 / CONTEXT * CROP_W, abs=1.5)


def test_crops_running_off_the_image_are_filled_not_refused() -> None:
    crops = extract_crops(_marker_image(), [(0, 0), (199, 159)], 40, 28)
    assert crops.shape == (2, CROP_H, CROP_W, 3)


def test_crops_cut_together_are_the_crops_cut_one_by_one() -> None:
    rng = np.random.default_rng(8)
    image = rng.integers(0, 256, (160, 200, 3), dtype=np.uint8)
    centres = rng.uniform(-10, 210, (12, 2))
    together = extract_crops(image, centres, 40.3, 28.7)
    alone = [extract_crops(image, [c], 40.3, 28.7, jitters=[None])[0] for c in centres]
    assert np.array_equal(together, np.stack(alone))
    expected = cv2.warpAffine(
        image,
        cv2.getAffineTransform(
            np.float32([[0, 0], [CROP_W, 0], [CROP_W, CROP_H]]),
            np.float32([[100 - 25.1875, 80 - 17.9375], [100 + 25.1875, 80 - 17.9375], [125.1875, 97.9375]]),
        ),
        (CROP_W, CROP_H),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    assert np.array_equal(extract_crops(image, [(100, 80)], 40.3, 28.7)[0], expected)


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (np.zeros((50, 50, 3), np.float32), "uint8"),
        (np.zeros((50, 50), np.uint8), "shape"),
        (np.zeros((50, 50, 4), np.uint8), "shape"),
        ("not an image", "numpy array"),
    ],
)
def test_bad_images_are_refused_with_a_clear_error(image: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        extract_crops(image, [(10, 10)], 40, 28)  # type: ignore[arg-type]


def test_bad_pitch_and_offsets_are_refused() -> None:
    img = _marker_image()
    with pytest.raises(ValueError, match="pitch"):
        extract_crops(img, [(10, 10)], 0, 28)
    lattice = Lattice((0, 0), 40, 28, 2, 3, offsets=np.zeros((3, 2, 2)))
    with pytest.raises(ValueError, match=r"offsets must have shape \(2, 3, 2\)"):
        lattice_crops(img, lattice)
    with pytest.raises(ValueError, match="no cells"):
        lattice_crops(img, Lattice((0, 0), 40, 28, 0, 3))


# --- the shipped model -------------------------------------------------------------------------------


def test_shipped_model_is_small_and_its_metadata_matches_the_crops() -> None:
    assert MODEL_PATH.stat().st_size < 2 * 1024 * 1024
    meta = json.loads(META_PATH.read_text())
    assert meta["input_size"] == [CROP_H, CROP_W]
    assert meta["context"] == CONTEXT
    assert meta["zones"] == ["empty", "R", "C", "I", "P", "W"]
    assert meta["roads"] == ["none", "NS", "NE", "NW", "SE", "SW", "EW"]
    assert meta["marks"] == ["none", "poi", "construction"]


@pytest.mark.parametrize("seed", TEST_SEEDS)
def test_classify_cells_reads_a_rendered_city(seed: int) -> None:
    td = _topdown(seed)
    grid = classify_cells(td.image, td.lattice)
    assert len(grid) == td.city.n_rows and all(len(row) == td.city.n_cols for row in grid)
    wrong = [
        (r, c, grid[r][c].label, cell.token())
        for r, c, cell in td.city.cells()
        if grid[r][c].label != cell.token()
    ]
    n = td.city.n_rows * td.city.n_cols
    assert len(wrong) <= max(1, n // 50), f"{len(wrong)} of {n} cells misread: {wrong}"


def test_predictions_are_always_legal_cells() -> None:
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    grid = classify_cells(noise, Lattice((10, 10), 89, 64, 4, 4))
    for row in grid:
        for p in row:
            assert isinstance(p, CellReading)
            assert 0.0 < p.confidence <= 1.0
            if p.zone in (None, "P"):
                assert p.road is None
            assert p.kind in ("block", "empty", "wrecktar")
            assert 0.0 <= p.empty_probability <= 1.0
            if p.kind != "empty":
                assert p.empty_probability <= 1.0 - p.confidence + 1e-6
            if p.kind == "wrecktar":
                assert (p.label, p.zone, p.poi, p.construction) == ("W", None, False, False)
                assert all(a[2] <= p.confidence for a in p.alternatives)
            elif p.kind == "empty":
                assert p.label == "." and not (p.poi or p.construction)
                assert p.alternatives[0] == (None, None, p.confidence)
                assert p.empty_probability == pytest.approx(p.confidence)
            else:
                token = p.zone + (f":{p.road}" if p.road else "")
                assert p.label == token + ("*" if p.poi else "") + ("!" if p.construction else "")
                assert not (p.poi and p.construction)
                # The answer's confidence includes its mark; the alternatives rank zone and road only.
                assert p.alternatives[0][:2] == (p.zone, p.road) and p.confidence <= p.alternatives[0][2]
            probs = [a[2] for a in p.alternatives]
            assert probs == sorted(probs, reverse=True) and sum(probs) <= 1.0 + 1e-6


def test_the_onnx_session_is_created_once_and_reused() -> None:
    first = get_classifier()
    td = _topdown(TEST_SEEDS[0])
    classify_cells(td.image, td.lattice)
    classify_cells(td.image, td.lattice)
    assert get_classifier() is first and get_classifier().session is first.session
    assert first.session.get_session_options().intra_op_num_threads == first.threads


def test_classifier_refuses_crops_of_the_wrong_shape_or_type() -> None:
    clf = get_classifier()
    with pytest.raises(ValueError, match=r"shape \(N, 40, 56, 3\)"):
        clf.predict(np.zeros((2, 32, 32, 3), np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        clf.predict(np.zeros((2, CROP_H, CROP_W, 3), np.float32))
    with pytest.raises(TypeError, match="Lattice"):
        classify_cells(np.zeros((100, 100, 3), np.uint8), (0, 0, 10, 10))  # type: ignore[arg-type]


def test_the_network_input_is_the_normalisation_to_the_bit_both_ways_round() -> None:
    clf = get_classifier()
    crops = np.random.default_rng(3).integers(0, 256, (4, CROP_H, CROP_W, 3), dtype=np.uint8)
    crops[0, 0, :, :] = np.arange(CROP_W * 3).reshape(CROP_W, 3) % 256  # every value in every channel
    crops[0, 1, :, :] = (np.arange(CROP_W * 3).reshape(CROP_W, 3) + 168) % 256
    two_passes = crops.transpose(0, 3, 1, 2).astype(np.float32)
    two_passes *= clf._scale
    two_passes += clf._shift
    x = clf._normalised(crops, turned=True)
    assert x.dtype == np.float32 and x.flags.c_contiguous and x.shape == (8, 3, CROP_H, CROP_W)
    assert np.array_equal(x[:4], two_passes)
    assert np.array_equal(x[4:], two_passes[:, :, ::-1, ::-1])
    mean = np.asarray(clf.meta["normalisation"]["mean"], np.float32).reshape(1, 3, 1, 1)
    std = np.asarray(clf.meta["normalisation"]["std"], np.float32).reshape(1, 3, 1, 1)
    assert np.allclose(x[:4], (crops.transpose(0, 3, 1, 2) / 255.0 - mean) / std, atol=1e-5)
    # A view that is not contiguous reads as its copy would; no crops make an empty batch.
    assert np.array_equal(
        clf._normalised(crops[:, ::-1], turned=False), clf._normalised(crops[:, ::-1].copy(), turned=False)
    )
    assert clf._normalised(crops[:0], turned=True).shape == (0, 3, CROP_H, CROP_W)
    z, r, m = clf.probabilities(crops[:0])
    assert z.shape == (0, 6) and r.shape == (0, 7) and m.shape == (0, 3)


def test_thread_count_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRAWLSCAN_THREADS", "3")
    assert default_threads() == 3
    for bad in ("zero", "0", "-2"):
        monkeypatch.setenv("SPRAWLSCAN_THREADS", bad)
        with pytest.raises(ValueError, match="SPRAWLSCAN_THREADS"):
            default_threads()
    monkeypatch.delenv("SPRAWLSCAN_THREADS")
    assert 1 <= default_threads() <= 2


def test_a_missing_model_is_a_clear_build_error(tmp_path) -> None:
    with pytest.raises(classify.ModelError, match="make model"):
        classify.CellClassifier(tmp_path / "cells.onnx", tmp_path / "cells.json")


def test_the_model_sessions_threads_sleep_between_calls() -> None:
    # On two cores a spinning idle worker takes a core from the stages between the model's calls.
    from vision.runtime.onnx_models import cpu_session

    session = cpu_session(MODEL_PATH, 2)
    options = session.get_session_options()
    assert options.intra_op_num_threads == 2
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
