"""The whole scan, file bytes to City, on the project's simulated photos (models/synth) and edge cases.

The cell classifier is replaced by a stand-in that answers from each photo's ground truth *at the place
the pipeline asks about*: the stand-in maps every lattice centre back into the photo and reads the true
cell there, so the city comes out right only when decoding, locating, rectifying and the lattice are
right. (The trained classifier's own accuracy is measured by the classifier's benchmark.)
"""

from __future__ import annotations

import io
import json
from functools import cache

import numpy as np
import pytest
from PIL import Image

import vision.pipeline as pipeline
from models.synth.scene import SynthPhoto, render_photo
from scoring.city_text import parse_city
from tests.synth_truth import TruthClassifier, is_visible_part, same_city, visible_truth
from vision.cells.reading import Grid, read_lattice
from vision.city.arbitrate import read_geometry
from vision.city.assemble import assemble_city
from vision.city.geometry import Geometry, with_lattice
from vision.city.rereads import grow_to_blocks
from vision.city.result import OVERLAY_LONG_SIDE
from vision.lattice.fit import Lattice
from vision.photo.decode import NotAnImage, TruncatedImage, decode_image
from vision.pipeline import NoCityFound, scan_image, shipped_classifier

pytestmark = pytest.mark.slow


@cache
def photo(seed: int, **conditions: object) -> SynthPhoto:
    return render_photo(seed, **{"long_side": 2016, **conditions})


@pytest.mark.parametrize(
    ("seed", "conditions"),
    [
        (101, {}),
        (102, {"table": "cloth", "tilt": 20.0, "fill": 0.75}),
        (103, {"table": "wood", "roll": 30.0}),
        (104, {"table": "white", "blur": 2.0}),
        (105, {"table": "dark", "light": 0.4}),
    ],
)
def test_synthetic_photos_are_read_exactly(truth_scan, seed: int, conditions: dict[str, object]) -> None:
    p = photo(seed, partial=False, **conditions)
    result = truth_scan(p)
    assert same_city(result.city, visible_truth(p)), f"read\n{result.city}"
    assert result.retake is None  # the whole city shows: nothing cut by the frame
    assert {"decode", "locate", "rectify", "lattice", "classify", "assemble", "total"} <= set(result.timings)
    assert len(result.cells) == result.city.n_rows * result.city.n_cols
    assert all(cell.label == result.city.cell(cell.row, cell.col).token() for cell in result.cells)


def test_the_city_is_read_as_cards_and_every_block_names_its_card(truth_scan) -> None:
    from scoring.layouts import card_blocks

    p = photo(101, partial=False)
    result = truth_scan(p)
    assert same_city(result.city, visible_truth(p))
    out = result.to_json()
    assert out["placements"] and len({q["card"] for q in out["placements"]}) == len(out["placements"])
    shows = {}
    for q in out["placements"]:
        blocks = card_blocks(q["card"], q["rotated"])
        for dr in (0, 1):
            for dc in (0, 1):
                shows[(q["card"], q["row"] + dr, q["col"] + dc)] = blocks[dr][dc].token()
    carded = [c for c in out["cells"] if c["card"] is not None]
    assert len(carded) >= 0.9 * sum(1 for _ in result.city.blocks())
    assert all(shows[(c["card"], c["row"], c["col"])] == c["label"].rstrip("*!") for c in carded)


def test_classifier_judges_between_period_hypotheses(truth_scan) -> None:
    # A 12 MP photo (found by a search over seeds) whose first lattice the classifier reads doubtfully,
    # so the period hypotheses are weighed; among them the true lattice reads clearly and wins.
    p = render_photo(9085, long_side=4032)
    result = truth_scan(p)
    assert "arbitrate" in result.timings
    assert same_city(result.city, visible_truth(p)), f"read\n{result.city}"


def test_scoring_cards_beside_the_city_are_read_when_not_given(truth_scan) -> None:
    p = photo(130, partial=False, table="wood", scoring_cards=True, glare=0.0, blur=0.5, tilt=8.0)
    result = truth_scan(p)
    assert result.city.cards == tuple(sorted(parse_city(p.truth.city).cards)), result.warnings
    assert "cards" in result.timings
    given = truth_scan(p, cards=(1, 2, 3))
    assert given.city.cards == (1, 2, 3) and "cards" not in given.timings


def test_backs_and_the_city_agree_or_the_warning_names_the_cards(truth_scan, monkeypatch) -> None:
    p = photo(130, partial=False, table="wood", scoring_cards=True, glare=0.0, blur=0.5, tilt=8.0)
    true_cards = sorted(parse_city(p.truth.city).cards)
    result = truth_scan(p)
    out = result.to_json()
    assert out["cards_source"] == "both" and out["scoring_cards"]["cards"] == true_cards
    assert sorted(b["number"] for b in out["scoring_cards"]["backs"]) == true_cards
    assert all(len(b["corners"]) == 4 for b in out["scoring_cards"]["backs"])
    # A back misread as a card that lies in the city: the readings disagree, and the warning says which.
    in_city = next(n for n in range(1, 19) if n not in true_cards)
    misread = [*true_cards[:2], in_city]
    fake = [pipeline.BackNumber(n, 0.7, ((n, 0.7),), {"corners": [[0, 0]] * 4}) for n in misread]
    monkeypatch.setattr(pipeline, "read_backs", lambda geometry, readings: (fake, []))
    result = truth_scan(p)
    assert result.city.cards == tuple(true_cards)  # the surer reading: the city
    warning = next(w for w in result.warnings if "please check" in w)
    assert str(in_city) in warning and str(true_cards[2]) in warning
    assert result.to_json()["cards_source"] == "city"


def test_a_photo_without_backs_reports_no_cards_and_no_error(truth_scan) -> None:
    p = photo(131, partial=False, table="cloth", scoring_cards=False)
    result = truth_scan(p)
    assert result.to_json()["scoring_cards"]["backs"] == []
    assert result.to_json()["cards_source"] in (None, "city")


@pytest.mark.parametrize("roll", [0.0, 90.0, 180.0, 270.0])
def test_quarter_turns_of_the_city_in_the_frame(truth_scan, roll: float) -> None:
    p = photo(110, roll=roll, partial=False, tilt=12.0, table="wood")
    assert same_city(truth_scan(p).city, visible_truth(p))


@pytest.mark.parametrize("tag", [3, 6, 8])
def test_exif_rotated_files(truth_scan, tag: int) -> None:
    p = photo(111, exif_orientation=tag, partial=False, table="white")
    assert same_city(truth_scan(p).city, visible_truth(p))


def test_portrait_and_full_size_photo(truth_scan) -> None:
    p = render_photo(112, orientation="portrait", partial=False, long_side=4032)
    result = truth_scan(p)
    assert same_city(result.city, visible_truth(p))


def test_heic_upload(truth_scan) -> None:
    p = photo(113, partial=False, table="wood")
    buf = io.BytesIO()
    Image.fromarray(p.image).save(buf, format="HEIF", quality=90)
    assert same_city(truth_scan(p, buf.getvalue()).city, visible_truth(p))


def test_city_partly_out_of_frame_reads_what_is_visible_and_asks_for_another_photo(truth_scan) -> None:
    p = photo(114, partial=True, fill=1.3, table="white")
    try:
        result = truth_scan(p)
    except NoCityFound:  # a frame that shows too little is refused, never guessed
        return
    truth = visible_truth(p)
    assert any("runs off" in w for w in result.warnings)
    # Part of a city scores as a smaller city: no total, but the reading stays to correct by hand.
    assert result.retake is not None and "runs off the edge of the photo" in result.retake
    assert is_visible_part(result.city, truth) or is_visible_part(result.city, truth.rotated())
    assert sum(1 for _ in result.city.blocks()) < sum(1 for _ in truth.blocks())


def test_overlay_is_drawn_on_the_photo(truth_scan) -> None:
    p = photo(115, partial=False)
    result = truth_scan(p, overlay=True)
    assert result.overlay is not None and result.overlay.dtype == np.uint8
    h, w = result.overlay.shape[:2]
    assert max(h, w) <= OVERLAY_LONG_SIDE and abs(w / h - p.image.shape[1] / p.image.shape[0]) < 0.01
    small = np.asarray(Image.fromarray(p.image).resize((w, h)))
    assert np.abs(result.overlay.astype(int) - small).mean() > 2  # something is drawn


def _jpeg(rgb: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=90)
    return buf.getvalue()


@pytest.mark.parametrize(
    "image",
    [np.full((1512, 2016, 3), 255, np.uint8), np.full((1512, 2016, 3), 30, np.uint8)],
    ids=["white", "black"],
)
def test_blank_photo_is_no_city(image: np.ndarray) -> None:
    with pytest.raises(NoCityFound) as err:
        scan_image(_jpeg(image), classifier=lambda *_: pytest.fail("classifier must not run"))
    assert err.value.code == "no_city_found"


@pytest.mark.parametrize("kind", ["cloth", "wood", "white", "dark"])
def test_bare_table_is_no_city(kind: str) -> None:
    from models.synth.tables import render_table

    table = render_table(kind, np.random.default_rng(5), 400.0, 300.0, 5.0)
    with pytest.raises(NoCityFound):
        scan_image(_jpeg(table), classifier=lambda *_: pytest.fail("classifier must not run"))


def test_not_a_photo_and_truncated_photo() -> None:
    with pytest.raises(NotAnImage):
        scan_image(b"R:EW  C:EW\nP     I\n")
    data = photo(116, partial=False).jpeg
    with pytest.raises(TruncatedImage):
        scan_image(data[: len(data) // 2])


# ---- the command line -------------------------------------------------------------------------------


@pytest.fixture
def cli_with_truth(tmp_path):
    """Run ``sprawlscan scan`` in-process on a synthetic photo, the classifier that reads the cells
    replaced by the truth (which then also judges the lattice)."""
    from api.cli import main

    def run(p: SynthPhoto, *args: str) -> tuple[int, str]:
        path = tmp_path / "photo.jpg"
        path.write_bytes(p.jpeg)
        return main(["scan", str(path), *args], classifier=TruthClassifier(p)), str(path)

    return run


def test_cli_prints_the_city(cli_with_truth, capsys) -> None:
    p = photo(120, partial=False, table="wood")
    status, _ = cli_with_truth(p, "--format", "city", "--cards", "8", "7", "17")
    out = capsys.readouterr().out
    assert status == 0 and out.startswith("cards: 8 7 17\n")
    assert same_city(parse_city(out), visible_truth(p))


def test_cli_json_has_breakdown_cells_and_warnings(cli_with_truth, capsys, tmp_path) -> None:
    p = photo(121, partial=False, table="cloth")
    overlay = tmp_path / "overlay.png"
    status, _ = cli_with_truth(p, "--format", "json", "--cards", "3", "9", "12", "--overlay", str(overlay))
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["cards"] == [3, 9, 12] and data["target"] == 24
    assert {item["key"] for item in data["items"]} >= {"largest:R", "roads", "card:3"}
    assert data["total"] == sum(item["points"] for item in data["items"])
    assert data["warnings"] == [] or all(isinstance(w, str) for w in data["warnings"])
    assert {c["label"] for c in data["cells"]} - {"."} and {"row", "col", "name", "confidence"} <= set(
        data["cells"][0]
    )
    assert Image.open(overlay).format == "PNG"


def test_cli_text_breakdown(cli_with_truth, capsys) -> None:
    p = photo(122, partial=False, table="dark")
    status, _ = cli_with_truth(p, "--cards", "1", "2", "3")
    out = capsys.readouterr().out
    assert status == 0 and "Roads" in out


def test_cli_check_reads_a_photo_with_the_classifier_it_is_given(tmp_path, capsys) -> None:
    from api.cli import main
    from scoring.city import format_city

    p = photo(122, partial=False, table="dark")
    shot, typed, tally = tmp_path / "city.jpg", tmp_path / "city.txt", tmp_path / "tally.txt"
    shot.write_bytes(p.jpeg)
    typed.write_text(format_city(visible_truth(p)))
    tally.write_text("roads -3\ntotal 5\n")
    args = ["--tally", str(tally), "--cards", "1", "2", "3", "--format", "json"]

    def points(report: dict) -> list[tuple[str, int]]:  # cell names depend on where the city starts
        return [(item["label"], item["points"]) for item in report["breakdown"]["items"]]

    assert main(["check", str(typed), *args]) in (0, 1)
    from_text = json.loads(capsys.readouterr().out)
    stand_in = _Counted(p)
    assert main(["check", str(shot), *args], classifier=stand_in) in (0, 1)
    from_photo = json.loads(capsys.readouterr().out)
    assert stand_in.calls > 0 and points(from_photo) == points(from_text) and len(points(from_text)) >= 5


class _Counted(TruthClassifier):
    """The truth stand-in, counting its reads (so a test sees that the classifier given was the one used)."""

    calls = 0

    def __call__(self, *args: object) -> list:
        self.calls += 1
        return super().__call__(*args)  # type: ignore[arg-type]


def test_cli_bad_input_is_one_line_and_status_2(tmp_path, capsys) -> None:
    from api.cli import main

    text = tmp_path / "city.txt"
    text.write_text("R:EW  C:EW\n")
    assert main(["scan", str(text)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "city.txt" in err and "not an image" in err
    blank = tmp_path / "blank.jpg"
    blank.write_bytes(_jpeg(np.full((900, 1200, 3), 240, np.uint8)))
    assert main(["scan", str(blank)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no city found" in err
    assert main(["scan", str(blank), "--cards", "8", "99", "1"]) == 2
    assert "99" in capsys.readouterr().err


def _counted(g: Geometry, readings: Grid) -> list:
    counts = g.counts(readings)
    return [[rd if counts[r, c] else None for c, rd in enumerate(row)] for r, row in enumerate(readings)]


def test_the_lattice_grows_to_blocks_the_card_region_missed() -> None:
    p = photo(101, partial=False)
    stand_in = TruthClassifier(p)
    rgb = decode_image(p.jpeg, long_side=pipeline.WORK_LONG_SIDE).rgb
    g = read_geometry(rgb, shipped_classifier()).geometry
    full = read_lattice(stand_in, g.view, g.lattice)
    # Nothing to grow into: the first lattice already has an empty ring round the city.
    assert grow_to_blocks(g, full, stand_in)[0].lattice == g.lattice
    # As if the card region had missed the city's first column and row of blocks.
    lat = g.lattice
    offsets = None if lat.offsets is None else lat.offsets[2:, 2:]
    cut = Lattice(
        (lat.origin[0] + 2 * lat.pitch_x, lat.origin[1] + 2 * lat.pitch_y),
        lat.pitch_x,
        lat.pitch_y,
        lat.rows - 2,
        lat.cols - 2,
        offsets,
    )
    small = with_lattice(g, cut, g.occupied[2:, 2:])
    before = assemble_city(_counted(small, read_lattice(stand_in, small.view, small.lattice))).city
    truth = visible_truth(p)
    assert sum(1 for _ in before.blocks()) < sum(1 for _ in truth.blocks())
    grown, readings = grow_to_blocks(small, read_lattice(stand_in, small.view, small.lattice), stand_in)
    assert same_city(assemble_city(_counted(grown, readings)).city, truth)
