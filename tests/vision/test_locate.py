"""Locating, rectifying and fitting the lattice, on plain painted cities (tests/citydraw.py) with known
geometry, plus the small pieces (period, phase, assembly) on hand-made inputs."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import cv2
import numpy as np
import pytest

from scoring.city import EMPTY, block
from scoring.city_text import parse_city
from tests.citydraw import DrawnPhoto, draw_city_photo
from tests.synth_truth import is_part_of, same_city
from vision.cells.reading import CellReading, read_lattice
from vision.cells.topdown import TopDown
from vision.cells.white_balance import lattice_box
from vision.city.arbitrate import lattice_evidence, read_geometry
from vision.city.assemble import assemble_city
from vision.city.geometry import Geometry, small_copy
from vision.city.rereads import REFINE_BELOW, REFINE_MARGIN, find_lost_blocks, refine_doubtful
from vision.lattice.fit import (
    BLOCK_H_MM,
    BLOCK_W_MM,
    PX_PER_MM,
    Lattice,
    occupied_cells,
)
from vision.lattice.locate import NoCityFound, _dominant_pair, cards_in_border, locate_city
from vision.lattice.offsets import cell_offsets, drift_offsets
from vision.lattice.periods import estimate_period, folded_peak, position_profile
from vision.lattice.rectify import Periods, project_points
from vision.pipeline import scan_rgb, shipped_classifier


class MmTruthClassifier:
    """A stand-in for the cell classifier that answers from the painting's ground truth: it maps each
    cell centre back to table millimetres, so the answer is right only if the geometry is right."""

    def __init__(self, drawn: DrawnPhoto) -> None:
        self.drawn = drawn

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        to_mm = np.linalg.inv(self.drawn.mm_to_photo) @ np.linalg.inv(view.to_rectified)
        mm = project_points(to_mm, np.asarray(centres, float))
        step = project_points(to_mm, np.asarray(centres, float) + (10.0, 0.0))
        out = []
        for (x, y), (x1, _) in zip(mm, step, strict=True):
            turned = x1 < x  # the rectified view is the city turned 180°
            cell = self.drawn.city.cell(int(np.floor(y / BLOCK_H_MM)), int(np.floor(x / BLOCK_W_MM)))
            if x < 0 or y < 0:
                cell = EMPTY
            cell = cell.rotated() if turned else cell
            out.append(CellReading.certain(cell.zone, cell.road, 0.99))
        return out


def scan_drawn(drawn: DrawnPhoto) -> tuple[Any, Geometry]:
    """The painted photo scanned with the truth reading the cells (the shipped model judges the lattice,
    as in a real scan); the scan and the geometry it used."""
    result = scan_rgb(drawn.photo, classifier=MmTruthClassifier(drawn), judge=shipped_classifier())
    assert result.geometry is not None
    return result, result.geometry


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "turn", "tilt"),
    [(0, 0.0, 0.0), (1, 90.0, 20.0), (2, 180.0, 25.0), (3, 33.0, 15.0), (4, 270.0, 30.0), (5, None, 10.0)],
)
def test_geometry_reads_the_painted_city_exactly(seed: int, turn: float | None, tilt: float) -> None:
    drawn = draw_city_photo(seed, turn_deg=turn, tilt_deg=tilt)
    result, geometry = scan_drawn(drawn)
    city = result.city
    assert same_city(city, drawn.city), f"read\n{city}\nexpected\n{drawn.city}"
    # The rectified view is at the contract's scale: the fitted pitch is the block size within 4%.
    assert geometry.lattice.pitch_x == pytest.approx(PX_PER_MM * BLOCK_W_MM, rel=0.04)
    assert geometry.lattice.pitch_y == pytest.approx(PX_PER_MM * BLOCK_H_MM, rel=0.04)
    assert 1.25 < geometry.rectification.aspect < 1.6


@pytest.mark.slow
def test_a_long_city_of_eighteen_blocks_in_a_row_is_read_exactly() -> None:
    drawn = draw_city_photo(489, turn_deg=10.0, tilt_deg=25.0, compact=0.0)
    assert max(drawn.city.n_rows, drawn.city.n_cols) == 18  # the seed's city: 18 × 7 blocks
    city = scan_drawn(drawn)[0].city
    assert same_city(city, drawn.city), f"read\n{city}\nexpected\n{drawn.city}"


@pytest.mark.slow
def test_rectified_lattice_centres_land_on_block_centres() -> None:
    drawn = draw_city_photo(7, turn_deg=120.0, tilt_deg=25.0)
    _, g = scan_drawn(drawn)
    to_mm = np.linalg.inv(drawn.mm_to_photo) @ np.linalg.inv(g.to_rectified)
    errors = []
    for r in range(g.lattice.rows):
        for c in range(g.lattice.cols):
            if not g.occupied[r, c]:
                continue
            p = to_mm @ np.array([*g.lattice.center(r, c), 1.0])
            x, y = p[:2] / p[2]
            # distance from the nearest block centre, in mm
            dx = (x / BLOCK_W_MM - 0.5) % 1.0
            dy = (y / BLOCK_H_MM - 0.5) % 1.0
            errors.append(np.hypot(min(dx, 1 - dx) * BLOCK_W_MM, min(dy, 1 - dy) * BLOCK_H_MM))
    # Cards are placed with up to 2 mm of jitter; the centres stay well inside their blocks.
    assert np.median(errors) < 3.0 and max(errors) < 8.0


@pytest.mark.slow
def test_locate_finds_the_two_line_directions() -> None:
    drawn = draw_city_photo(11, turn_deg=25.0, tilt_deg=0.0)
    small = cv2.resize(drawn.photo, (1008, 756), interpolation=cv2.INTER_AREA)
    located = locate_city(small)
    angles = sorted(f.angle % 90 for f in located.families)
    assert angles[0] == pytest.approx(25.0, abs=2.0) and angles[1] == pytest.approx(25.0, abs=2.0)
    x, y, w, h = located.bbox
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[drawn.city.n_cols * BLOCK_W_MM, drawn.city.n_rows * BLOCK_H_MM]]], np.float32),
        drawn.mm_to_photo.astype(np.float32),
    )
    centre = corners.reshape(-1, 2).mean(axis=0) * 0.5
    assert x < centre[0] < x + w and y < centre[1] < y + h
    assert located.touches_border == ()


def _family(angle_deg: float, length: float, count: int) -> np.ndarray:
    """``count`` segments of ``length`` px about ``angle_deg`` (spread over ±1°, as edges found in a photo
    are), side by side (N × 4: x1, y1, x2, y2)."""
    angles = np.radians(angle_deg + np.tile([-1.0, 0.0, 0.0, 1.0], count)[:count])
    starts = np.stack([np.arange(count) * 13.0, np.arange(count) * 7.0], axis=1) + 100.0
    ends = starts + length * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return np.hstack([starts, ends])


def test_the_second_line_family_is_the_one_near_perpendicular_over_a_stronger_slanted_texture() -> None:
    # Random edition 7040's card edges at 74° and 163°, and its woven fills' stripes at 129° (55° off the
    # first family, at the edge of what perspective can bend a perpendicular family to) longer in all.
    seg = np.vstack([_family(74.0, 60.0, 40), _family(163.0, 40.0, 10), _family(129.0, 40.0, 14)])
    first, second = _dominant_pair(seg)
    assert first == pytest.approx(74.0, abs=1.0) and second == pytest.approx(163.0, abs=1.0)


@pytest.mark.slow
def test_city_cut_by_the_frame_is_read_with_a_warning() -> None:
    drawn = draw_city_photo(12, turn_deg=90.0, tilt_deg=5.0, fill=0.9, shift=(0.45, 0.0))
    result, _ = scan_drawn(drawn)
    assert any("runs off the right edge" in w for w in result.warnings)
    assert result.retake is not None and "step back or zoom out" in result.retake
    # What is read is exactly the visible part: a block of the true grid, and less than all of it.
    read = result.city
    assert read.n_rows * read.n_cols < drawn.city.n_rows * drawn.city.n_cols
    assert is_part_of(read, drawn.city) or is_part_of(read, drawn.city.rotated())


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((600, 800, 3), np.uint8),
        np.full((600, 800, 3), 200, np.uint8),
        (np.random.default_rng(0).random((600, 800, 3)) * 255).astype(np.uint8),
    ],
    ids=["black", "grey", "noise"],
)
def test_no_city_in_plain_or_noisy_pictures(image: np.ndarray) -> None:
    with pytest.raises(NoCityFound) as err:
        read_geometry(image, shipped_classifier())
    assert err.value.code == "no_city_found"


def test_a_table_busy_along_one_side_only_is_given_a_second_look_and_is_still_no_city() -> None:
    # Grain along the left side makes that stretch of the border band far busier than the rest, as the
    # cards of a city cut by the frame do: the second look measures the table on the calm stretches.
    table = np.full((600, 800, 3), (214, 196, 150), np.uint8)
    grain = (np.random.default_rng(1).random((600, 160)) * 120).astype(np.uint8)
    table[:, :160] -= grain[:, :, None]
    small, _ = small_copy(table)
    assert cards_in_border(small) and not cards_in_border(np.full_like(small, 200))
    with pytest.raises(NoCityFound) as err:
        read_geometry(table, shipped_classifier())
    assert err.value.code == "no_city_found"


@pytest.mark.slow
def test_a_single_card_is_too_little_of_a_city() -> None:
    drawn = draw_city_photo(3, n_cards=1, fill=0.3)
    with pytest.raises(NoCityFound, match="no city found"):
        scan_drawn(drawn)


def test_lines_on_a_table_are_not_a_city() -> None:
    # A ruled page: one family of parallel lines, nothing perpendicular, no blocks.
    page = np.full((900, 1200, 3), 235, np.uint8)
    for y in range(40, 900, 30):
        cv2.line(page, (0, y), (1199, y + 40), (60, 60, 160), 2)
    with pytest.raises(NoCityFound):
        read_geometry(page, shipped_classifier())


# ---- lattice pieces -----------------------------------------------------------------------------------


def test_estimate_period_finds_the_fundamental_not_a_multiple() -> None:
    boundaries = np.arange(20, 800, 63.5)
    roads = np.arange(20 + 31.75, 800, 63.5)[::3]  # a few road edges half a pitch away
    positions = np.concatenate([boundaries, roads])
    weights = np.concatenate([np.full(len(boundaries), 10.0), np.full(len(roads), 3.0)])
    profile = position_profile(positions, weights, 820)
    period, strength = estimate_period(profile, 40, 300)
    assert period == pytest.approx(63.5, abs=0.6) and strength > 0.3


def test_folded_peak_is_the_middle_of_a_flat_top() -> None:
    profile = np.zeros(600)
    for start in np.arange(10, 560, 88.9):
        profile[int(start) : int(start) + 20] = 5.0  # flat tops 20 px wide, centred at start + 9.5
    phase = folded_peak(profile, 88.9, width=20)
    assert (phase - 19.5) % 88.9 == pytest.approx(0, abs=1.5) or (phase - 19.5) % 88.9 > 87.4


def test_occupied_cells_follow_the_mask() -> None:
    lattice = Lattice((10.0, 20.0), 88.9, 63.5, 3, 4)
    mask = np.zeros((300, 400), np.uint8)
    mask[20:147, 10:188] = 255  # the top-left 2 × 2 cells
    occ = occupied_cells(mask, lattice)
    assert occ.tolist() == [[True, True, False, False], [True, True, False, False], [False] * 4]


def _drifted_city(rows: int, cols: int) -> tuple[Lattice, np.ndarray, np.ndarray, np.ndarray]:
    """A uniform lattice, and the card edges of a city that drifts off it: 4% and 5% scale errors and a
    little shear, as a perspective not fully undone leaves them (up to ~9 mm at the far corners). Also
    road edges 3 mm either side of every other block's middle, as distractors. Returns the lattice, the
    vertical and horizontal segments and the true block centres (rows, cols, 2)."""
    px, py = PX_PER_MM * BLOCK_W_MM, PX_PER_MM * BLOCK_H_MM
    lattice = Lattice((50.0, 40.0), px, py, rows, cols)
    mid = np.array([50.0 + cols * px / 2, 40.0 + rows * py / 2])

    def true(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        dx, dy = x - mid[0], y - mid[1]
        return np.stack([x + 0.04 * dx + 0.02 * dy, y + 0.05 * dy + 0.01 * dx], axis=-1)

    vertical, horizontal = [], []
    for r in range(rows):
        for c in range(cols + 1):  # the boundary left of column c, one segment per row
            x = 50.0 + c * px
            a, b = (
                true(np.array(x), np.array(40.0 + r * py + 6)),
                true(np.array(x), np.array(40.0 + (r + 1) * py - 6)),
            )
            vertical.append([*a, *b])
    for r in range(rows + 1):
        for c in range(cols):
            y = 40.0 + r * py
            a, b = (
                true(np.array(50.0 + c * px + 8), np.array(y)),
                true(np.array(50.0 + (c + 1) * px - 8), np.array(y)),
            )
            horizontal.append([*a, *b])
    for r in range(rows):
        for c in range(0, cols, 2):
            for side in (-6.0, 6.0):
                y = 40.0 + (r + 0.5) * py + side
                a, b = (
                    true(np.array(50.0 + c * px + 4), np.array(y)),
                    true(np.array(50.0 + (c + 1) * px - 4), np.array(y)),
                )
                horizontal.append([*a, *b])
    centres = true(*np.meshgrid(50.0 + (np.arange(cols) + 0.5) * px, 40.0 + (np.arange(rows) + 0.5) * py))
    return lattice, np.array(vertical), np.array(horizontal), centres


def test_drift_offsets_follow_a_drifting_city_to_its_far_corners() -> None:
    lattice, vertical, horizontal, centres = _drifted_city(6, 8)
    shift = 4.0 * PX_PER_MM

    def worst_mm(offsets: np.ndarray) -> float:
        moved = Lattice(lattice.origin, lattice.pitch_x, lattice.pitch_y, lattice.rows, lattice.cols, offsets)
        got = np.array([[moved.center(r, c) for c in range(lattice.cols)] for r in range(lattice.rows)])
        return float(np.hypot(*(got - centres).transpose(2, 0, 1)).max() / PX_PER_MM)

    assert worst_mm(cell_offsets(lattice, vertical, horizontal, shift)) > 6.0  # one local search falls short
    assert worst_mm(drift_offsets(lattice, vertical, horizontal, shift, search=2 * shift)) < 1.5


def test_drift_offsets_leave_an_undrifted_city_alone() -> None:
    lattice, vertical, horizontal, _ = _drifted_city(4, 4)
    px, py = lattice.pitch_x, lattice.pitch_y
    v = np.array(
        [
            [50.0 + c * px, 40.0 + r * py + 6, 50.0 + c * px, 40.0 + (r + 1) * py - 6]
            for r in range(4)
            for c in range(5)
        ]
    )
    h = np.array(
        [
            [50.0 + c * px + 8, 40.0 + r * py, 50.0 + (c + 1) * px - 8, 40.0 + r * py]
            for r in range(5)
            for c in range(4)
        ]
    )
    offsets = drift_offsets(lattice, v, h, 4.0 * PX_PER_MM, search=8.0 * PX_PER_MM)
    assert np.abs(offsets).max() < 0.5


def test_period_hypotheses_start_with_the_best_and_skip_near_duplicates() -> None:
    ranked = [
        (1.40, 100.0, 70.0),
        (1.39, 102.0, 71.0),
        (1.20, 50.0, 70.0),
        (1.10, 100.0, 140.0),
        (0.9, 52.0, 72.0),
    ]
    periods = Periods(np.eye(3), (0.0, 0.0), ranked, (float("nan"), float("nan")), (0.5, 0.5))
    assert periods.best == (100.0, 70.0)
    assert periods.hypotheses(6) == [(100.0, 70.0), (50.0, 70.0), (100.0, 140.0)]
    assert periods.hypotheses(2) == [(100.0, 70.0), (50.0, 70.0)]
    unranked = Periods(np.eye(3), (0.0, 0.0), [], (64.0, 45.0), (0.5, 0.5))
    assert unranked.hypotheses(6) == [(64.0, 45.0)]


def _predictions(conf: np.ndarray, zones: np.ndarray) -> list[list[CellReading]]:
    return [
        [CellReading.certain(z if z != "." else None, None, float(c)) for c, z in zip(cr, zr, strict=True)]
        for cr, zr in zip(conf, zones, strict=True)
    ]


def test_lattice_evidence_prefers_clear_readings_and_counts_confident_blocks() -> None:
    on_cards = np.zeros((4, 5), bool)
    on_cards[1:3, 1:4] = True
    geometry = cast(Geometry, SimpleNamespace(occupied=on_cards, visible=np.ones((4, 5), bool)))
    zones = np.full((4, 5), ".")
    zones[1:3, 1:4] = "R"
    clear = lattice_evidence(geometry, _predictions(np.full((4, 5), 0.95), zones))
    doubtful_conf = np.full((4, 5), 0.95)
    doubtful_conf[1:3, 1:4] = [[0.5, 0.9, 0.4], [0.95, 0.6, 0.7]]
    doubtful = lattice_evidence(geometry, _predictions(doubtful_conf, zones))
    assert clear.mean_log_confidence == pytest.approx(np.log(0.95))
    assert clear.confident_blocks == 6 and doubtful.confident_blocks == 2
    assert clear.score > doubtful.score
    # Off the card region only confident blocks count; a cell cut by the frame counts for nothing.
    zones[0, 0] = "C"
    geometry.visible[1, 1] = False
    more = lattice_evidence(geometry, _predictions(np.full((4, 5), 0.95), zones))
    assert more.confident_blocks == 6 and more.score == pytest.approx(clear.score)


# ---- assembly -----------------------------------------------------------------------------------------


def _readings(
    text: str, conf: dict[tuple[int, int], list[tuple[str | None, str | None, float]]] | None = None
):
    city = parse_city(text)
    out = []
    for r, row in enumerate(city.grid):
        line = []
        for c, cell in enumerate(row):
            options = (conf or {}).get((r, c), [(cell.zone, cell.road, 0.99)])
            line.append(CellReading.from_options(tuple(options)))
        out.append(line)
    return out


def test_assembly_trims_empty_borders_and_keeps_cards() -> None:
    readings = _readings(".  .  .\n.  R:EW  C:EW\n.  P  I\n.  .  .\n")
    out = assemble_city(readings, cards=[8, 7, 17])
    assert out.city.grid == ((block("R", "EW"), block("C", "EW")), (block("P"), block("I")))
    assert out.city.cards == (8, 7, 17) and out.origin == (1, 1) and out.warnings == []


def test_a_low_confidence_cell_is_in_no_warning_but_keeps_its_confidence_for_the_doubt() -> None:
    # Which cells are in doubt is the scan's doubt (vision/city/doubt.py) alone: no second, looser list.
    readings = _readings("R  C\nI  P\n", {(1, 0): [("I", None, 0.55), ("C", None, 0.4)]})
    out = assemble_city(readings)
    assert out.warnings == [] and out.labels[1][0] == "I"
    assert out.confidence[1, 0] == pytest.approx(0.55) and out.confidence[0, 0] == pytest.approx(0.99)


def test_a_doubtful_road_takes_a_close_second_that_meets_its_neighbour() -> None:
    # B1's road leaves east... A1 reads a road going north-south (doubtful); its second reading, east-west,
    # meets B1's road, so it is taken and reported.
    readings = _readings(
        "R:NS  C:EW\n",
        {(0, 0): [("R", "NS", 0.5), ("R", "EW", 0.45), ("I", "EW", 0.05)]},
    )
    out = assemble_city(readings)
    assert out.city.cell(0, 0) == block("R", "EW")
    # The change made is explained (it is not a doubt list: A1's low confidence is in no warning).
    assert out.warnings == ["A1: read as R:EW (second choice) so that its road meets B1's"]


def test_a_confident_dead_end_is_left_alone() -> None:
    readings = _readings("R:NS  C:EW\n", {(0, 0): [("R", "NS", 0.95), ("R", "EW", 0.05)]})
    out = assemble_city(readings)
    assert out.city.cell(0, 0) == block("R", "NS") and out.warnings == []


def test_off_region_cells_are_empty() -> None:
    readings = _readings("R  C\nI  P\n")
    readings[0][0] = None
    out = assemble_city(readings)
    assert out.city.cell(0, 0) == EMPTY and out.city.cell(1, 1) == block("P")


def test_wrecktar_and_expansion_marks_are_carried_into_the_city() -> None:
    readings = _readings("R:EW  C:EW\nI  P\n")
    readings[0][1] = CellReading.from_options((("C", "EW", 0.97),), "block", poi=True, confidence=0.95)
    readings[1][0] = CellReading.from_options((("I", None, 0.98),), "block", construction=True)
    readings[1][1] = CellReading.from_options(((None, None, 0.02),), "wrecktar", confidence=0.93)
    out = assemble_city(readings)
    assert out.labels == [["R:EW", "C:EW*"], ["I!", "W"]]
    assert out.confidence[0, 1] == pytest.approx(0.95) and out.confidence[1, 1] == pytest.approx(0.93)


def test_a_repaired_road_keeps_the_blocks_mark() -> None:
    readings = _readings("R:NS  C:EW\n", {(0, 0): [("R", "NS", 0.5), ("R", "EW", 0.45)]})
    readings[0][0] = CellReading.from_options(readings[0][0].options, "block", poi=True)
    out = assemble_city(readings)
    assert out.city.cell(0, 0) == block("R", "EW", poi=True)


def test_a_city_of_wrecktar_alone_is_not_trimmed_away() -> None:
    readings = [
        [
            CellReading.from_options(((None, None, 0.9),), "empty"),
            CellReading.from_options(((None, None, 0.1),), "wrecktar"),
        ]
    ]
    out = assemble_city(readings)
    assert out.labels == [["W"]]


def _geometry(lattice: Lattice, occupied: np.ndarray) -> Geometry:
    """Just enough of a Geometry for the stages after the lattice fit: every cell visible, a blank view."""
    height = int(lattice.origin[1] + lattice.rows * lattice.pitch_y) + 40
    width = int(lattice.origin[0] + lattice.cols * lattice.pitch_x) + 40
    view = TopDown(np.zeros((height, width, 3), np.uint8), np.eye(3), lattice_box(lattice))
    return cast(
        Geometry,
        SimpleNamespace(
            lattice=lattice,
            view=view,
            visible=np.ones((lattice.rows, lattice.cols), bool),
            occupied=np.asarray(occupied, bool),
        ),
    )


def test_doubtful_cells_are_read_again_a_little_shifted_and_the_clearest_reading_kept() -> None:
    lattice = Lattice((0.0, 0.0), 89.0, 63.5, 2, 3)
    # Cell (0, 1)'s block sits 4 px right of its lattice centre, and reads doubtfully there.
    true_centres = {(r, c): lattice.center(r, c) for r in range(2) for c in range(3)}
    true_centres[0, 1] = (true_centres[0, 1][0] + 4.0, true_centres[0, 1][1])
    seen: dict[int, tuple[float, float]] = {}
    views: list[TopDown] = []

    def classify(view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        views.append(view)
        out = []
        for x, y in centres:
            nearest = min(true_centres.items(), key=lambda kv: np.hypot(kv[1][0] - x, kv[1][1] - y))
            cell, (tx, ty) = nearest
            off = np.hypot(tx - x, ty - y)
            zone = None if cell == (1, 2) else "R"
            reading = CellReading.certain(zone, None, max(0.05, 0.97 - 0.12 * off))
            seen[id(reading)] = (x, y)
            out.append(reading)
        return out

    geometry = _geometry(lattice, np.array([[True, True, True], [True, True, False]]))
    first = read_lattice(classify, geometry.view, lattice)
    assert first[0][1].confidence < REFINE_BELOW <= first[0][0].confidence
    refined = refine_doubtful(geometry, first, classify)
    # The re-reads see the city's own view (and so its white balance), not a strip of table.
    assert views[-1] is geometry.view
    assert refined[0][1].confidence > first[0][1].confidence + REFINE_MARGIN
    assert seen[id(refined[0][1])][0] > lattice.center(0, 1)[0]  # the reading taken to the right
    # Clear cells, and the empty cell off the card region, keep their first reading.
    assert all(refined[r][c] is first[r][c] for r in range(2) for c in range(3) if (r, c) != (0, 1))


def test_refining_judges_the_place_not_the_mark_and_keeps_the_marks() -> None:
    lattice = Lattice((0.0, 0.0), 89.0, 63.5, 1, 2)
    # A0: zone and road clear, only its construction mark in doubt: not read again.
    sure_place = CellReading("R", "EW", 0.5, "R:EW!", (("R", "EW", 0.95),), construction=True)
    # B0: the place itself in doubt (a road half seen); read again, the shifted crops see it clearly
    # but not the mark, which stays.
    doubtful = CellReading("C", "NS", 0.4, "C:NS*", (("C", "NS", 0.45), ("C", "NE", 0.4)), poi=True)
    clear = CellReading("C", "NE", 0.9, "C:NE", (("C", "NE", 0.9),))
    calls: list[int] = []

    def classify(view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        calls.append(len(centres))
        return [clear] * len(centres)

    geometry = _geometry(lattice, np.ones((1, 2), bool))
    refined = refine_doubtful(geometry, [[sure_place, doubtful]], classify)
    assert calls == [8]  # one cell, eight shifts
    assert refined[0][0] is sure_place
    assert (refined[0][1].zone, refined[0][1].road, refined[0][1].poi) == ("C", "NE", True)
    assert refined[0][1].label == "C:NE*"


def test_a_block_the_lattice_missed_on_the_card_region_is_found_nearby() -> None:
    lattice = Lattice((0.0, 0.0), 89.0, 63.5, 1, 3)
    # A0's block lies 0.2 pitch to the right of its lattice centre; B0 is a true hole; C0 is off the region.
    block_at = (lattice.center(0, 0)[0] + 0.2 * 89.0, lattice.center(0, 0)[1])
    empty = CellReading(None, None, 0.9, ".", ((None, None, 0.9),), kind="empty", empty_probability=0.9)
    block = CellReading("I", "EW", 0.95, "I:EW", (("I", "EW", 0.95),))
    searched: list[tuple[float, float]] = []

    def classify(view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        searched.extend((float(x), float(y)) for x, y in centres)
        return [block if np.hypot(x - block_at[0], y - block_at[1]) < 6.0 else empty for x, y in centres]

    geometry = _geometry(lattice, np.array([[True, True, False]]))
    found = find_lost_blocks(geometry, [[empty, empty, empty]], classify)
    assert found[0][0] is block
    assert found[0][1] is empty and found[0][2] is empty
    assert len(searched) == 2 * 16  # A0 and B0, two rings of eight; C0 is not searched
