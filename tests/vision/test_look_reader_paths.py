"""A taught print's reader follows each road piece's whole path (vision.deck.road_paths): a drawing by an
edge does not turn a curve into a straight, and a plain cell of a road zone's colour with no road on it is
no block of that zone (vision.deck.look_reader)."""

from __future__ import annotations

import numpy as np

from scoring.city import ROADS
from vision.cells import TopDown
from vision.deck.look import CityLook, apartness, ground_colour, road_logp, to_lab
from vision.deck.look_reader import LookClassifier, road_seen
from vision.deck.road_paths import centre_line, path_apartness

ROAD_SCALE = 10.0
H, W = 64, 89  # one block at the view's scale (landscape, as the rectified city lays it)


def _block(ground: tuple[int, int, int], road: str | None) -> np.ndarray:
    """A flat block of ``ground`` with a dark road band (10 px) along the piece ``road``'s whole path."""
    cell = np.full((H, W, 3), ground, np.uint8)
    if road is not None:
        ys, xs = np.mgrid[0:H, 0:W]
        for fx, fy in centre_line(road, 60, 0.0):
            cell[(xs - fx * (W - 1)) ** 2 + (ys - fy * (H - 1)) ** 2 <= 5.0**2] = (70, 70, 70)
    return cell


def test_a_curve_with_a_drawing_by_a_third_edge_is_read_as_the_curve_and_not_the_straight() -> None:
    cell = _block((90, 160, 90), "SE")
    cell[28:36, 3:12] = (200, 60, 60)  # a red roof just inside the west edge's midpoint
    lab = to_lab(cell)
    ground = ground_colour(lab)
    apart = apartness(lab, ground)
    by_edges = ROADS[int(np.argmax(road_logp(apart[None], ROAD_SCALE)[0]))]
    by_path = ROADS[int(np.argmax(road_logp(apart, ROAD_SCALE, path_apartness(lab, ground))))]
    assert by_edges != "SE"  # the roof's edge looks as much like a road's end as the curve's
    assert by_path == "SE"


def test_each_piece_s_own_path_shows_its_road_and_the_others_show_little() -> None:
    for road in ROADS:
        lab = to_lab(_block((90, 160, 90), road))
        paths = path_apartness(lab, ground_colour(lab))
        assert ROADS[int(np.argmax(paths))] == road
        assert paths.max() > 30 and np.sort(paths)[0] < 5


def test_a_plain_cell_of_a_road_zones_colour_on_a_table_of_that_colour_is_surely_the_table() -> None:
    # Its colour alone leaves it half table, half residential (a grey cloth by a grey zone); a residential
    # block would show its road, and it shows none.
    grey = (150, 150, 160)  # a residential ground as grey as the table's
    look = CityLook(
        to_lab(np.array([[grey, (230, 200, 120), (200, 80, 120), (60, 160, 60)]], np.uint8))[0],
        np.full(4, 8.0, np.float32),
        ROAD_SCALE,
    )
    view = np.full((3 * H, 4 * W, 3), (150, 150, 158), np.uint8)  # the table round the cells
    view[H : 2 * H, W : 2 * W] = _block(grey, "NS")
    view[H : 2 * H, 2 * W : 3 * W] = grey  # the same ground, no road
    top = TopDown(view, np.eye(3), (0, 0, view.shape[1], view.shape[0]), ready=True)
    centres = np.array([[1.5 * W, 1.5 * H], [2.5 * W, 1.5 * H]])
    with_road, bare = LookClassifier(look)(top, centres, (W, H))
    assert with_road.label == "R:NS"
    assert bare.label == "." and bare.confidence > 0.8


def test_a_road_shown_plainly_leaves_a_road_zone_as_likely_as_ever() -> None:
    assert road_seen(4.0) > 0.99
    assert road_seen(0.0) < 0.2 < road_seen(1.0) < road_seen(2.0)
