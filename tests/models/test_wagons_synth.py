"""Photos of Circle the Wagons towns and decks with their truth, and ``sprawlscan synth --game wagons``
(``models.synth.wagons.photo``, ``models.synth.wagons.deck``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from models.synth.wagons.card import CARD_H, CARD_W, TERR_H
from models.synth.wagons.deck import render_wagons_deck
from models.synth.wagons.photo import TownTruth, render_given_town, render_town_photo
from models.synth.wagons.town import stack_for_town
from scoring.wagons import parse_town, score_town

RULEBOOK = Path(__file__).resolve().parents[2] / "samples" / "wagons-rulebook.town"
KEY = {
    "D": (79, 14, 21),
    "F": (77, -14, 18),
    "S": (80, -13, -5),
    "M": (72, 1, 5),
    "P": (84, 0, 44),
    "W": (75, -15, -12),
}
PLAIN = {
    "long_side": 1200,
    "tilt": 0.0,
    "exposure": 1.0,
    "wb": (1, 1, 1),
    "light": 0.0,
    "glare": 0.0,
    "blur": 0.5,
}


def _rim_terrain(photo, r: int, c: int, x: float, y: float) -> str:
    """The key colour nearest the texture a third of a territory above the cell's centre (clear of the
    icon), measured in the photo through the truth's homography."""
    hom = np.array(photo.truth.homography)
    mm = np.linalg.inv(hom) @ np.array([x, y, 1.0])
    mm = mm[:2] / mm[2]
    pts = np.array(
        [[mm[0] + dx, mm[1] - 0.38 * TERR_H + dy, 1.0] for dx in (-3, 0, 3) for dy in (-1.5, 0, 1.5)]
    )
    px = pts @ hom.T
    px = (px[:, :2] / px[:, 2:]).round().astype(int)
    rgb = np.array([photo.image[v, u] for u, v in px], np.uint8)[None]
    lab = np.median(cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2Lab)[0], axis=0)
    return min(KEY, key=lambda t: float(np.linalg.norm(lab - np.array(KEY[t]))))


@pytest.mark.slow
def test_a_town_photo_s_truth_parses_scores_and_is_a_stack_of_its_cards() -> None:
    for seed in (1, 2, 3):
        photo = render_town_photo(seed, long_side=800)
        truth = photo.truth
        assert isinstance(truth, TownTruth) and truth.to_json()["game"] == "wagons"
        town = parse_town(truth.city)
        assert town.header("game") == "wagons"
        cards = [int(n) for n in (town.header("cards") or "").split()]
        assert [c.number for c in truth.cards] == cards and all(c.kind == "wagons" for c in truth.cards)
        assert stack_for_town(town, cards).town.grid == town.grid
        assert score_town(town, goals=["cool-water", "the-herd"]).total >= 1
        assert len(truth.cells) == town.n_rows * town.n_cols
        for r, c, _, _, token in truth.cells:
            cell = town.cell(r, c)
            assert token == (cell.token() if cell else ".")
        assert truth.scoring_cards == () and "look" in truth.conditions and "wrecktar" not in truth.conditions
        assert TownTruth.from_json(json.loads(truth.dumps())).city == truth.city


def test_the_truth_s_cells_lie_on_territories_of_the_type_it_names() -> None:
    photo = render_town_photo(11, n_cards=8, **PLAIN)
    cells = [(r, c, x, y, t) for r, c, x, y, t in photo.truth.cells if t != "."]
    hits = [_rim_terrain(photo, r, c, x, y) == token[0] for r, c, x, y, token in cells]
    assert len(cells) >= 12 and np.mean(hits) >= 0.9, np.mean(hits)


def test_cards_lie_portrait_in_the_photo_and_some_are_turned() -> None:
    photo = render_town_photo(2, n_cards=12, **PLAIN)
    for card in photo.truth.cards:
        tl, tr, _, bl = (np.array(p) for p in card.corners)
        ratio = np.linalg.norm(bl - tl) / np.linalg.norm(tr - tl)
        assert abs(ratio - CARD_H / CARD_W) < 0.05
    turned = [c.rotated for c in photo.truth.cards]
    assert any(turned) and not all(turned)


def test_the_rulebook_town_is_photographed_as_given_and_scores_20() -> None:
    town = parse_town(RULEBOOK.read_text(encoding="utf-8"))
    photo = render_given_town(town, seed=4, long_side=800)
    assert parse_town(photo.truth.city) == town
    assert sorted(c.number for c in photo.truth.cards) == [0, 1, 2, 4, 13, 14]
    assert score_town(parse_town(photo.truth.city), goals=[]).total == 20
    with pytest.raises(ValueError, match="no stack of cards"):
        render_given_town(town, cards=[1, 2, 3])


def test_a_town_photo_refuses_conditions_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="wrecktar is a Sprawlopolis condition"):
        render_town_photo(1, wrecktar=True)
    with pytest.raises(ValueError, match="n_cards must be 1..18"):
        render_town_photo(1, n_cards=19)
    with pytest.raises(ValueError, match="look must be"):
        render_town_photo(1, look=-2)


@pytest.mark.slow
def test_a_wagons_deck_photo_holds_the_18_cards() -> None:
    rgb, truth = render_wagons_deck(2)
    assert truth["game"] == "wagons" and sorted(c["card"] for c in truth["cards"]) == list(range(18))
    # The cards are the large bright shapes on the dark cloth.
    bright = (cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) > 120).astype(np.uint8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(bright)
    card_px = CARD_W * CARD_H * truth["px_per_mm"] ** 2
    sizes = stats[1:, cv2.CC_STAT_AREA]
    assert np.sum((sizes > 0.8 * card_px) & (sizes < 1.1 * card_px)) == 18


@pytest.mark.slow
def test_synth_game_wagons_writes_town_photos_beside_their_truth(tmp_path: Path) -> None:
    args = ["synth", "--game", "wagons", "--count", "2", "--seed", "3", "--long-side", "640"]
    for out in ("a", "b"):
        assert main([*args, "--out", str(tmp_path / out)]) == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["photo-0000.jpg", "photo-0000.json", "photo-0001.jpg", "photo-0001.json"]
    for name in names:  # the same arguments write the same bytes
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    truth = json.loads((tmp_path / "a" / "photo-0001.json").read_text(encoding="utf-8"))
    assert truth["game"] == "wagons" and truth["seed"] == 4
    assert parse_town(truth["city"]).n_territories >= 4
    image = cv2.imread(str(tmp_path / "a" / "photo-0001.jpg"))
    assert image is not None and max(image.shape[:2]) == 640


def test_synth_game_wagons_deck_writes_the_deck_photo(tmp_path: Path) -> None:
    assert main(["synth", "--game", "wagons", "--deck", "--seed", "5", "--out", str(tmp_path)]) == 0
    truth = json.loads((tmp_path / "deck-0000.json").read_text(encoding="utf-8"))
    assert truth["game"] == "wagons" and sorted(c["card"] for c in truth["cards"]) == list(range(18))
    assert cv2.imread(str(tmp_path / "deck-0000.jpg")).shape[:2] == (truth["height"], truth["width"])


def test_a_bad_wagons_condition_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["synth", "--game", "wagons", "--set", "poi=true", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "poi is a Sprawlopolis condition" in err[0]
    assert not list(tmp_path.iterdir())
