"""The scan's stage pieces: one cell-reading type, a view whose colours are corrected once, and the
classifier injected through one interface (reading a cell does not depend on which others are read)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.placement import simulate_play
from vision.cells.classify import get_classifier
from vision.cells.reading import CellReading, read_lattice
from vision.cells.topdown import TopDown
from vision.cells.white_balance import lattice_box
from vision.cells.zone_colour import ZoneMap
from vision.lattice.fit import PX_PER_MM, Lattice


def _rendered_view(seed: int) -> tuple[TopDown, Lattice]:
    from models.synth.art import render_city_topdown

    td = render_city_topdown(simulate_play(random.Random(seed), 15), np.random.default_rng(seed), PX_PER_MM)
    # A warm cast the view's white balance has to take out.
    cast = np.clip(td.image.astype(np.float32) * (1.1, 1.0, 0.85), 0, 255).astype(np.uint8)
    return TopDown(cast, np.eye(3), lattice_box(td.lattice)), td.lattice


def test_a_view_corrects_its_colours_once_per_scale() -> None:
    view, _ = _rendered_view(70_000_011)
    full, half = view.colours(), view.colours(0.5)
    assert view.colours() is full and view.colours(0.5) is half  # computed once, then reused
    assert half.shape[:2] == (round(full.shape[0] * 0.5), round(full.shape[1] * 0.5))
    assert view.colours(corrected=False) is view.image
    # The warm cast is taken out: blue rises against red.
    raw, fixed = view.image.reshape(-1, 3).mean(0), full.reshape(-1, 3).mean(0)
    assert fixed[2] / fixed[0] > raw[2] / raw[0] + 0.05
    # A zone map moves the corrected colours, with the same white gains.
    mapped = view.recoloured(ZoneMap(np.eye(2), np.array([0.0, 8.0]), {}))
    assert np.array_equal(mapped.gains, view.gains)
    assert np.abs(mapped.colours().astype(int) - full).mean() > 2


def test_a_ready_view_is_read_as_it_is() -> None:
    view, lattice = _rendered_view(70_000_012)
    ready = TopDown(view.image, view.to_rectified, view.white_box, ready=True)
    assert ready.colours() is ready.image


@pytest.mark.slow
def test_a_cell_reads_the_same_alone_as_with_its_whole_lattice() -> None:
    view, lattice = _rendered_view(70_000_013)
    clf = get_classifier()
    grid = read_lattice(clf, view, lattice)
    r, c = lattice.rows // 2, lattice.cols // 2
    alone = clf(view, np.array([lattice.center(r, c)]), (lattice.pitch_x, lattice.pitch_y))[0]
    assert alone.label == grid[r][c].label
    assert alone.confidence == pytest.approx(grid[r][c].confidence, abs=1e-6)


def test_settling_a_reading_keeps_its_marks_and_drops_the_other_options_unless_in_doubt() -> None:
    read = CellReading.from_options((("C", "NS", 0.5), ("I", "NS", 0.4)), poi=True)
    assert read.label == "C:NS*" and read.probability == 0.5
    sure = read.settled("I", "NS", 0.9)
    assert (sure.label, sure.options, sure.poi) == ("I:NS*", (("I", "NS", 0.9),), True)
    doubt = read.settled("I", "NS", 0.55, others=True)
    assert doubt.options == (("I", "NS", 0.55), ("C", "NS", 0.5))
    hole = read.settled(None, None, 0.8)
    assert (hole.kind, hole.label, hole.cell().token()) == ("empty", ".", ".")


def test_a_reread_takes_the_first_readings_marks() -> None:
    first = CellReading.from_options((("R", "EW", 0.6),), construction=True)
    again = CellReading.from_options((("R", "NE", 0.9),))
    assert again.with_marks_of(first).label == "R:NE!"
    assert CellReading.certain(None).with_marks_of(first).kind == "empty"


def test_the_judge_is_the_classifier_unless_another_is_given() -> None:
    from models.synth.scene import render_photo
    from tests.synth_truth import TruthClassifier
    from vision.pipeline import scan_image

    photo = render_photo(101, long_side=2016, partial=False)

    class Counting:
        def __init__(self) -> None:
            self.calls = 0
            self.truth = TruthClassifier(photo)

        def __call__(
            self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]
        ) -> list[CellReading]:
            self.calls += 1
            return self.truth(view, centres, pitch)

    reader = Counting()
    scan_image(photo.jpeg, classifier=reader, cards=[1, 2, 3])
    judge, reader_only = Counting(), Counting()
    timings: dict[str, float] = {}
    scan_image(photo.jpeg, classifier=reader_only, judge=judge, cards=[1, 2, 3], timings=timings)
    # One reader judges the first lattice (and a rival pitch's, one per axis at most, where the lines
    # nearly tie one) and reads on from it; with a judge of its own, the reader reads the chosen lattice
    # once more, and the judge reads nothing after the lattice is chosen.
    rivals = judge.calls - 1
    assert 0 <= rivals <= 2 and (rivals > 0) == ("rival" in timings)
    assert reader.calls >= 1
    assert reader_only.calls == reader.calls - rivals
