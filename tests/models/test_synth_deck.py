"""``sprawlscan synth`` makes what a newcomer needs to try the scanner: a deck photo for ``teach`` (and
the one shipped in samples/), and city photos whose scoring cards a scan reads without a warning."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from models.synth.conditions import sample_conditions
from models.synth.deck import deck_layout, render_deck

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "deck.jpg"
SAMPLE_SEED = 1  # samples/deck.jpg is `sprawlscan synth --deck --seed 1 --out samples/` renamed
NO_CARDS_SEED = 4  # a seed whose drawn conditions leave the scoring cards out of the photo


def test_a_deck_layout_holds_each_of_the_18_cards_once_six_a_row() -> None:
    lay = deck_layout(SAMPLE_SEED)
    assert sorted(n for n, _ in lay.cards) == list(range(1, 19))
    assert lay.cols == 6 and 5 <= lay.gap_mm <= 12 and abs(lay.turn_deg) <= 12
    assert deck_layout(SAMPLE_SEED) == lay and deck_layout(SAMPLE_SEED + 1).cards != lay.cards
    assert any(turned for _, turned in lay.cards) and not all(turned for _, turned in lay.cards)
    rows = lay.grid().splitlines()
    assert len(rows) == 3 and [len(r.split()) for r in rows] == [6, 6, 6]
    truth = lay.truth(100, 50, 3.0)
    n, turned = lay.cards[7]
    assert truth["cards"][7] == {"row": 1, "col": 1, "card": n, "rotated": turned}
    assert rows[1].split()[1] == f"{n}r" if turned else str(n)


def test_a_deck_photo_refuses_a_bad_seed_or_scale() -> None:
    with pytest.raises(ValueError, match="seed"):
        render_deck(-1)
    with pytest.raises(ValueError, match="px per mm"):
        render_deck(1, ppm=0.5)


@pytest.mark.parametrize(("extra", "message"), [(["--set", "tilt=3"], "--set"), (["--heic"], "--heic")])
def test_deck_options_that_do_not_apply_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["synth", "--deck", "--out", str(tmp_path), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "--deck" in err[0]
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_synth_deck_writes_a_photo_teach_reads_as_its_truth(tmp_path: Path, capsys) -> None:
    for out in ("a", "b"):
        assert main(["synth", "--deck", "--seed", "3", "--out", str(tmp_path / out)]) == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["deck-0000.jpg", "deck-0000.json"]
    for name in names:  # the same arguments write the same bytes
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    truth = json.loads((tmp_path / "a" / "deck-0000.json").read_text())
    assert truth["grid"] == deck_layout(3).grid() and len(truth["cards"]) == 18
    capsys.readouterr()
    photo, deck = tmp_path / "a" / "deck-0000.jpg", tmp_path / "my.deck"
    assert main(["teach", str(photo), "--out", str(deck), "--format", "json"]) == 0
    taught = json.loads(capsys.readouterr().out)["cards"]
    got = [{k: c[k] for k in ("row", "col", "card", "rotated")} for c in taught]
    assert sorted(got, key=lambda c: (c["row"], c["col"])) == truth["cards"]


@pytest.mark.slow
def test_the_shipped_deck_photo_is_the_commands_and_teaches_as_laid(tmp_path: Path, capsys) -> None:
    assert SAMPLE.stat().st_size < 400_000
    shipped = cv2.imread(str(SAMPLE))
    assert main(["synth", "--deck", "--seed", str(SAMPLE_SEED), "--out", str(tmp_path)]) == 0
    made = cv2.imread(str(tmp_path / "deck-0000.jpg"))
    assert made.shape == shipped.shape
    assert float(np.abs(made.astype(int) - shipped.astype(int)).mean()) < 2  # our renderer's, no other art
    capsys.readouterr()
    assert main(["teach", str(SAMPLE), "--out", str(tmp_path / "my.deck")]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(deck_layout(SAMPLE_SEED).grid() + "\n")


@pytest.mark.slow
def test_a_synth_photo_shows_its_scoring_cards_and_a_scan_reads_them_without_a_warning(
    tmp_path: Path, capsys
) -> None:
    from models.synth.scene import seed_streams

    assert not sample_conditions(seed_streams(NO_CARDS_SEED)[0]).scoring_cards  # drawn without them
    args = ["synth", "--count", "1", "--seed", str(NO_CARDS_SEED), "--long-side", "2016"]
    assert main([*args, "--out", str(tmp_path)]) == 0
    truth = json.loads((tmp_path / "photo-0000.json").read_text())
    assert all(s["in_photo"] for s in truth["scoring_cards"]) and truth["conditions"]["scoring_cards"]
    capsys.readouterr()
    assert main(["scan", str(tmp_path / "photo-0000.jpg"), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cards"] == sorted(s["number"] for s in truth["scoring_cards"])
    assert out["cards_source"] in ("backs", "both")
    assert not [w for w in out["warnings"] if "scoring card" in w]
    # Left out when asked: the truth says so, and the scan asks for them.
    assert main([*args, "--out", str(tmp_path / "none"), "--set", "scoring_cards=false"]) == 0
    truth = json.loads((tmp_path / "none" / "photo-0000.json").read_text())
    assert not any(s["in_photo"] for s in truth["scoring_cards"])
