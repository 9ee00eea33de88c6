"""A photo that cannot be read reliably asks for another one, with what to change, instead of a score; glare
that spoils only a few cells makes those cells doubtful instead."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from api.cli import main
from models.synth.scene import render_photo
from scoring.city_text import parse_city
from tests.bench.perturb import glare_spot, jpeg_bytes, shadow_band
from vision.cards import CardReading, CardStacking
from vision.cells import CellReading
from vision.city.assemble import assemble_city
from vision.city.doubt import CellDoubt
from vision.city.light import Light, glare_spots, read_light, shadow_depth
from vision.city.retake import GLARE_RETAKE, ask_retake, needs_deck, unread_city
from vision.photo import OVEREXPOSED_SHARE
from vision.pipeline import ScanResult, scan_image

# A plain rendered photo: a city of 15 cards on cloth, seen from nearly straight above, lit evenly.
SEED = 50_000_003
CLEAN = {"table": "cloth", "tilt": 4.0, "roll": 0.0, "fill": 0.8, "glare": 0.0, "light": 0.05}
CLEAN.update(clutter=0, long_side=2016, exif_orientation=1, partial=False)


@cache
def _photo(kind: str) -> bytes:
    if kind == "overexposed":  # the phone exposed for a dark corner: a white table and the whites clip
        return jpeg_bytes(render_photo(SEED, **{**CLEAN, "table": "white", "exposure": 1.6}).image)
    rgb = render_photo(SEED, **CLEAN).image
    if kind == "glare":  # a lamp's reflection over most of the city
        rgb = glare_spot(rgb, centre=(0.5, 0.5), radius=0.2, strength=1.4)
    elif kind == "spot":  # a small reflection over a few cells (the bench's glare)
        rgb = glare_spot(rgb)
    elif kind == "shadow":  # a dark band across the middle of the city, most of its light gone
        rgb = shadow_band(rgb, width=0.3, depth=0.85)
    elif (
        kind == "overexposed"
    ):  # the phone exposed for a dark corner: a white table and the cards' whites clip
        rgb = render_photo(SEED, **{**CLEAN, "table": "white", "exposure": 1.6}).image
    return jpeg_bytes(rgb)


@cache
def _scan(kind: str) -> ScanResult:
    return scan_image(_photo(kind))


def test_a_clean_rendered_photo_is_read_without_a_retake() -> None:
    result = _scan("clean")
    assert result.retake is None
    assert result.to_json()["retake"] is None


def test_a_strong_glare_spot_across_the_city_asks_for_another_photo_without_glare() -> None:
    retake = _scan("glare").retake
    assert retake is not None and "glare" in retake
    assert "tilt the phone" in retake and "lamp" in retake


def test_a_deep_shadow_band_across_the_city_asks_for_another_photo_without_the_shadow() -> None:
    retake = _scan("shadow").retake
    assert retake is not None and "shadow" in retake and "light the cards evenly" in retake


def test_a_small_glare_spot_makes_the_cells_under_it_doubtful_rather_than_asking_for_a_retake() -> None:
    result = _scan("spot")
    assert result.retake is None
    glared = [d for d in result.doubts if "glare" in d.sources]
    assert 1 <= len(glared) <= 6
    assert all(d.alternatives for d in glared)


def test_a_shadow_band_is_deeper_than_the_blocks_own_light_and_dark() -> None:
    rng = np.random.default_rng(1)
    art = rng.uniform(120, 200, (6, 8))  # light and dark blocks, evenly lit
    blocks = np.ones(art.shape, bool)
    shaded = art * np.r_[1, 1, 0.4, 0.4, 1, 1][:, None]
    assert shadow_depth(shaded, blocks) > shadow_depth(art, blocks) + 0.2


CITY = "\n".join(["R:EW  C:EW  I:EW  P     R:NS"] * 4) + "\n"  # 20 blocks


def _read(text: str, explained: float = 1.0) -> tuple[Any, CardReading]:
    readings = [[CellReading.certain(c.zone, c.road, 0.97) for c in row] for row in parse_city(text).grid]
    decoding = CardStacking((), {}, 0.0, explained)
    cards = CardReading(readings, [[None] * len(r) for r in readings], decoding, False, readings)
    return assemble_city(readings), cards


def _doubts(n: int) -> tuple[CellDoubt, ...]:
    return tuple(CellDoubt(c // 5, c % 5, "R:EW", ("C:EW",), "test", ("classifier",)) for c in range(n))


def test_a_city_read_with_most_blocks_in_doubt_under_a_shadow_asks_to_light_it_evenly() -> None:
    assembled, cards = _read(CITY)
    light = Light(np.zeros((4, 5)), shadow=0.5)
    retake = ask_retake(light, assembled, cards, _doubts(8))
    assert retake is not None and "shadow" in retake and "8 of its 20 blocks" in retake
    assert ask_retake(light, assembled, cards, _doubts(2)) is None  # a few doubts: checked one by one


def test_a_grid_the_known_cards_hardly_explain_names_both_causes_a_print_to_teach_and_the_angle() -> None:
    assembled, cards = _read(CITY, explained=0.05)
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, ())
    assert retake is not None and "sprawlscan teach" in retake and "straight above" in retake


def test_a_grid_a_taught_decks_cards_hardly_explain_asks_for_another_photo_before_teaching_again() -> None:
    # The deck read by is this print's, most likely: the photo is the first thing to change.
    assembled, cards = _read(CITY, explained=0.05)
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, (), taught=True)
    assert retake is not None and "sprawlscan teach" not in retake
    assert 0 < retake.find("straight above") < retake.find("teach the deck again")


def test_cards_a_taught_deck_reads_too_few_blocks_of_are_asked_again_before_the_deck_is() -> None:
    cards_everywhere = SimpleNamespace(occupied=np.ones((6, 6), bool), visible=np.ones((6, 6), bool))
    shipped = unread_city(cards_everywhere, 2, 8)  # type: ignore[arg-type]
    taught = unread_city(cards_everywhere, 2, 8, taught=True)  # type: ignore[arg-type]
    assert shipped.code == taught.code == "needs_deck"
    assert "sprawlscan teach" in str(shipped) and "sprawlscan teach" not in str(taught)
    assert 0 < str(taught).find("straight above") < str(taught).find("teach the deck again")


def test_a_doubtful_reading_without_glare_or_shadow_asks_for_a_photo_from_above() -> None:
    assembled, cards = _read(CITY)
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, _doubts(10))
    assert retake is not None and "straight above" in retake


def test_a_reading_the_known_cards_cannot_explain_asks_for_another_photo_even_without_doubt() -> None:
    assembled, cards = _read(CITY, explained=0.0)  # a wrong period: no stacking of the 18 cards fits
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, ())
    assert retake is not None and "the known cards explain only 0% of the cards' grid" in retake
    assembled, cards = _read(CITY, explained=0.4)  # a grid half off: the photo's angle, not the print
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, ())
    assert retake is not None and "explain only 40% of it" in retake and "teach" not in retake
    assembled, cards = _read(CITY, explained=0.85)  # a real city with expansion marks, or cut by the frame
    assert ask_retake(Light(np.zeros((4, 5)), shadow=0.05), assembled, cards, ()) is None


def test_glare_over_a_fifth_of_the_blocks_asks_for_a_retake_even_when_read_surely() -> None:
    assembled, cards = _read(CITY)
    glare = np.zeros((4, 5))
    glare.flat[: int(np.ceil(GLARE_RETAKE * 20))] = 1.0
    retake = ask_retake(Light(glare, shadow=0.0), assembled, cards, ())
    assert retake is not None and "tilt the phone or move the lamp" in retake
    glare.flat[:] = 0.0
    glare[0, 0] = 1.0
    assert ask_retake(Light(glare, shadow=0.0), assembled, cards, ()) is None


def test_an_overexposed_photos_retake_names_the_exposure_not_the_glare_or_shadow_its_whites_look_like() -> (
    None
):
    assembled, cards = _read(CITY)
    glare = np.zeros((4, 5))
    glare.flat[: int(np.ceil(GLARE_RETAKE * 20))] = 1.0
    retake = ask_retake(Light(glare, shadow=0.0, clipped=0.6), assembled, cards, ())
    assert retake is not None and "overexposed (60% of it is pure white)" in retake and "lamp" not in retake
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.5, clipped=0.6), assembled, cards, _doubts(8))
    assert retake is not None and "overexposed" in retake and "shadow" not in retake
    # A little white clipped (a white table's brightest corner) leaves the light's own advice.
    retake = ask_retake(Light(glare, shadow=0.0, clipped=OVEREXPOSED_SHARE / 2), assembled, cards, ())
    assert retake is not None and "tilt the phone or move the lamp" in retake
    # A grid the known cards hardly explain is a print to teach (needs_deck), overexposed or not.
    unexplained, unknown = _read(CITY, explained=0.0)
    retake = ask_retake(Light(np.zeros((4, 5)), shadow=0.0, clipped=0.6), unexplained, unknown, _doubts(10))
    assert retake is not None and "teach" in retake and needs_deck(retake, unknown)
    # Overexposed, yet read surely: nothing to retake.
    assert ask_retake(Light(np.zeros((4, 5)), shadow=0.0, clipped=0.6), assembled, cards, ()) is None


def test_the_light_measured_on_an_overexposed_photo_says_so_and_on_a_clean_one_does_not() -> None:
    for kind, over in (("clean", False), ("overexposed", True)):
        result = _scan(kind)
        assert result.geometry is not None and result.assembled is not None
        clipped = read_light(result.geometry, result.assembled).clipped
        assert (clipped >= OVEREXPOSED_SHARE) is over, (kind, clipped)


def test_pale_cells_count_as_glare_only_beside_a_cell_washed_out_whole() -> None:
    glare = np.array([[0.5, 0.0, 0.0, 0.5], [1.0, 0.4, 0.0, 0.0]])
    kept = glare_spots(glare)
    assert kept.tolist() == [[0.5, 0.0, 0.0, 0.0], [1.0, 0.4, 0.0, 0.0]]


def _cli(tmp_path: Path, kind: str, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / f"{kind}.jpg"
    path.write_bytes(_photo(kind))
    code = main(["scan", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_prints_the_reading_and_the_retake_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _cli(tmp_path, "glare", capsys=capsys)
    assert code == 2
    assert "not scored" in out and "Total" not in out
    (line,) = [x for x in err.splitlines() if x.startswith("sprawlscan: retake: ")]
    assert "glare" in line


def test_the_cli_json_of_a_retake_has_the_reading_but_no_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _cli(tmp_path, "glare", "--format", "json", capsys=capsys)
    body = json.loads(out)
    assert code == 2
    assert body["retake"] and body["total"] is None and body["won"] is None and body["items"] == []
    assert body["cells"] and body["city"]
    assert all(a["total"] is None for d in body["doubt"] for a in d["alternatives"])


def test_checking_a_tally_against_a_photo_that_needs_a_retake_exits_2_with_the_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "glare.jpg"
    path.write_bytes(_photo("glare"))
    tally = Path(__file__).resolve().parents[2] / "samples" / "example.tally"
    assert main(["check", str(path), "--tally", str(tally), "--cards", "1", "2", "3"]) == 2
    _, err = capsys.readouterr()
    assert "retake" in err and "glare" in err and err.count("\n") == 1


def test_the_service_answers_a_retake_with_200_the_reading_and_no_total(client: Any) -> None:
    resp = client.post("/api/v1/scans", files={"image": ("glare.jpg", _photo("glare"), "image/jpeg")})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert "glare" in body["retake"]
    assert body["total"] is None and body["target"] is None and body["items"] == []
    assert body["cells"] and "doubt" in body
    again = client.get(f"/api/v1/scans/{body['scan_id']}").json()
    assert again["retake"] == body["retake"] and again["total"] is None


def test_the_service_answers_a_clean_photo_with_a_total_and_no_retake(client: Any) -> None:
    resp = client.post("/api/v1/scans", files={"image": ("clean.jpg", _photo("clean"), "image/jpeg")})
    body = resp.json()
    assert resp.status_code == 200 and body["retake"] is None and isinstance(body["total"], int)
