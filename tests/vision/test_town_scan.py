"""Reading a Circle the Wagons town from a photo (vision.towns.geometry, vision.towns.scan), on rendered
photos read by the stand-in that knows the rendered truth (the shipped territory classifier is written
elsewhere), and each stage on hand-made inputs."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.synth.wagons.photo import render_given_town, render_town_photo
from models.synth.wagons.town import TownPlay, visible_town
from scoring.placement import Placement
from scoring.wagons import Town, parse_town
from tests.vision.town_standins import REACH, TruthReader
from vision.lattice import PX_PER_MM, Lattice, NoCityFound, project_points
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.towns.geometry import CELL_MM, TownGeometry
from vision.towns.scan import TownScan, scan_town

RULEBOOK = Path(__file__).resolve().parents[2] / "samples" / "wagons-rulebook.town"
# Quiet conditions: the photo's own variation is measured by the benchmark; these tests hold the stages.
QUIET = {"tilt": 6.0, "clutter": 0, "glare": 0.0, "partial": False}


def rulebook() -> Town:
    return parse_town(RULEBOOK.read_text(encoding="utf-8"))


@cache
def rulebook_photo(roll: float) -> tuple[np.ndarray, dict]:
    photo = render_given_town(rulebook(), seed=7, roll=roll, **QUIET)
    return photo.image, photo.truth.to_json()


@cache
def rulebook_scan(roll: float, goals: tuple[str, ...] = ()) -> TownScan:
    image, truth = rulebook_photo(roll)
    return scan_town(image, goals=goals, reader=TruthReader(image, truth))


def truth_in_view(geometry: TownGeometry, truth: dict) -> dict[tuple[int, int], np.ndarray]:
    """The rendered territories' centres (town row, col) in the top-down view."""
    territories = [(r, c, x, y) for r, c, x, y, token in truth["cells"] if token != "."]
    xy = project_points(geometry.to_view, np.array([[x, y] for _, _, x, y in territories], float))
    return {(r, c): p for (r, c, _, _), p in zip(territories, xy, strict=True)}


@pytest.mark.slow
@pytest.mark.parametrize("roll", [0.0, 90.0])
def test_a_rendered_town_gets_a_lattice_of_portrait_cells_at_the_territory_pitch(roll: float) -> None:
    # The lattice the scan keeps: the period hypotheses are judged by how well the cards explain them.
    _, truth = rulebook_photo(roll)
    geometry = rulebook_scan(roll).geometry
    pitch_x, pitch_y = geometry.pitch_mm
    assert pitch_x == pytest.approx(CELL_MM[0], rel=0.03) and pitch_y == pytest.approx(CELL_MM[1], rel=0.03)
    # The rendered territories themselves have that pitch in the view, portrait (a town column is a
    # step along the view's x axis or, turned by 180°, against it) ...
    centres = truth_in_view(geometry, truth)
    steps_x = [centres[(r, c + 1)] - p for (r, c), p in centres.items() if (r, c + 1) in centres]
    steps_y = [centres[(r + 1, c)] - p for (r, c), p in centres.items() if (r + 1, c) in centres]
    along_x = np.median(np.abs(np.array(steps_x)), axis=0) / PX_PER_MM
    along_y = np.median(np.abs(np.array(steps_y)), axis=0) / PX_PER_MM
    assert along_x[0] == pytest.approx(CELL_MM[0], rel=0.03) and along_x[1] < 3
    assert along_y[1] == pytest.approx(CELL_MM[1], rel=0.03) and along_y[0] < 3
    # ... and each of the 21 lies in one cell of the lattice, near its centre.
    lattice_centres = geometry.lattice.centres().reshape(-1, 2)
    pitch = np.array([geometry.lattice.pitch_x, geometry.lattice.pitch_y])
    cells = set()
    for p in centres.values():
        off = np.abs(lattice_centres - p) / pitch
        nearest = int(np.argmin(off.max(axis=1)))
        assert off[nearest].max() < REACH
        cells.add(nearest)
    assert len(cells) == len(centres) == 21


@pytest.mark.slow
@pytest.mark.parametrize("roll", [0.0, 90.0])
def test_the_rulebook_town_photographed_scans_to_the_same_town_and_scores_20(roll: float) -> None:
    scan = rulebook_scan(roll)
    assert scan.town.grid == rulebook().grid
    assert scan.breakdown().total == 20
    assert scan.decoding.cards == (0, 1, 2, 4, 13, 14)
    assert scan.doubt == () and scan.warnings == ()
    assert scan.to_json()["game"] == "wagons" and scan.to_json()["total"] == 20


@pytest.mark.slow
def test_each_town_cell_in_the_json_carries_its_outline_round_the_territory_in_the_photo() -> None:
    image, truth = rulebook_photo(90.0)
    out = rulebook_scan(90.0).to_json()
    h, w = image.shape[:2]
    centres = {(r, c): (x / w, y / h) for r, c, x, y, token in truth["cells"] if token != "."}
    cells = {(cell["row"], cell["col"]): cell for cell in out["cells"]}
    assert len(cells) == len(truth["cells"])
    first = cv2.contourArea(np.array(cells[(0, 0)]["outline"], np.float32))
    for where, (x, y) in centres.items():
        quad = np.array(cells[where]["outline"], np.float32)
        assert cv2.pointPolygonTest(quad, (x, y), False) > 0, where
        # A territory's outline is its own cell: about a territory's area, not half or twice it.
        assert 0.6 < cv2.contourArea(quad) / first < 1.6


@pytest.mark.slow
def test_the_goals_named_are_scored_and_written_in_the_town_text() -> None:
    scan = rulebook_scan(0.0, ("cool-water", "badlands", "the-clearing"))
    assert "goals: cool-water, badlands, the-clearing" in scan.text
    assert scan.breakdown().total == 34  # the sample's own header gives the same
    assert {i["key"] for i in scan.to_json()["items"]} >= {"goal:cool-water", "goal:badlands"}


@pytest.mark.slow
def test_a_misread_territory_is_corrected_by_the_card_decoding() -> None:
    image, truth = rulebook_photo(0.0)
    reader = TruthReader(image, truth, misread={(2, 1): "M/w"})  # the rulebook's B3 is M/f
    scan = scan_town(image, reader=reader)
    assert scan.town.grid == rulebook().grid
    r0, c0 = scan.origin
    cell = scan.decoding.cells[r0 + 2][c0 + 1]
    assert cell.corrected and cell.token == "M/f" and cell.read is not None and cell.read.token() == "M/w"


@pytest.mark.slow
def test_a_town_of_one_row_of_cards_two_territories_across_is_found_and_read() -> None:
    # Six cards side by side: the town is 2 cells across, fewer than a city ever is.
    placements = tuple(Placement(card, False, 0, 2 * i) for i, card in enumerate((3, 7, 1, 12, 16, 9)))
    play = TownPlay(placements, visible_town(placements))
    photo = render_town_photo(11, play=play, table="wood", roll=90.0, **QUIET)
    scan = scan_town(photo.image, reader=TruthReader(photo.image, photo.truth.to_json()))
    assert scan.town.grid in (play.town.grid, tuple(row[::-1] for row in play.town.grid[::-1]))
    assert int(scan.geometry.occupied.sum()) == 24


@pytest.mark.slow
def test_a_town_whose_cards_edges_repeat_at_many_lags_keeps_its_row_pitch() -> None:
    # A 27-territory town tilted 19° on a white table: its cards' hand shifts and the icons' ovals add
    # autocorrelation peaks before the true row period, and picking one stretched the view by a quarter.
    photo = render_town_photo(9_500_069, art_spread=2.0)
    image = decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb  # as a scan decodes the upload
    truth = photo.truth.to_json()
    at = image.shape[1] / photo.image.shape[1]
    truth["cells"] = [[r, c, x * at, y * at, token] for r, c, x, y, token in truth["cells"]]
    scan = scan_town(image, reader=TruthReader(image, truth))
    town = parse_town(photo.truth.city)
    assert scan.town.grid in (town.grid, tuple(row[::-1] for row in town.grid[::-1]))


def test_a_photo_of_an_empty_table_is_no_town() -> None:
    table = np.full((900, 1200, 3), (96, 120, 84), np.uint8)
    with pytest.raises(NoCityFound, match="town") as refused:
        scan_town(table, reader=lambda view, lattice: [])
    assert "city" not in str(refused.value) and "Sprawlopolis" not in str(refused.value)


def test_without_a_reader_the_scan_says_the_territory_classifier_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "vision.towns.territories", None)
    with pytest.raises(RuntimeError, match="territory classifier is not installed"):
        scan_town(np.zeros((10, 10, 3), np.uint8))


def test_a_geometry_turned_by_180_degrees_maps_each_cell_to_its_opposite() -> None:
    view = np.arange(300 * 400 * 3, dtype=np.uint8).reshape(300, 400, 3)
    offsets = np.random.default_rng(1).normal(0, 2, (2, 3, 2))
    lattice = Lattice((20.0, 30.0), 63.5, 88.9, 2, 3, offsets)
    occupied = np.array([[True, False, True], [True, True, False]])
    geometry = TownGeometry(view, view, np.eye(3), lattice, occupied, 1.4)
    turned = geometry.turned()
    assert turned.half_turned and np.array_equal(turned.occupied, occupied[::-1, ::-1])
    for r in range(2):
        for c in range(3):
            x, y = turned.lattice.center(1 - r, 2 - c)
            assert (x, y) == pytest.approx((399 - lattice.center(r, c)[0], 299 - lattice.center(r, c)[1]))
            assert np.array_equal(
                turned.view[int(round(y)), int(round(x))], view[299 - int(round(y)), 399 - int(round(x))]
            )
    again = turned.turned()
    assert np.allclose(again.lattice.centres(), lattice.centres()) and np.array_equal(again.view, view)
    assert np.allclose(again.to_view, np.eye(3))
