"""``sprawlscan teach`` on a deck photo of a Sprawlopolis print the scanner does not know: taught from the
deck's structure, the question of the zones' cycle printed, and ``deck fix`` answering it (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from models.synth.deck import render_deck
from tests.conftest import Cli
from tests.vision.test_city_any_print import FLAT  # grounds of no shipped colour, flat


def test_teaching_a_flat_print_asks_for_one_card_and_deck_fix_names_every_card(
    cli: Cli, tmp_path: Path
) -> None:
    rgb, truth = render_deck(21, ppm=3.0, edition=FLAT)
    photo = tmp_path / "deck.jpg"
    cv2.imwrite(str(photo), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    deck = tmp_path / "mine.deck"
    code, out, err = cli("teach", str(photo), "--out", str(deck), "--format", "json")
    assert code == 0, err
    taught = json.loads(out)
    assert "deck fix" in taught["ask"]
    first = taught["cards"][0]
    want = next(c for c in truth["cards"] if (c["row"], c["col"]) == (first["row"], first["col"]))
    fix = f"{first['row'] + 1},{first['col'] + 1}={want['card']}{'r' * want['rotated']}"
    code, out, err = cli("deck", "fix", str(deck), fix, "--format", "json")
    assert code == 0, err
    fixed = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in json.loads(out)["cards"]}
    assert fixed == {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in truth["cards"]}
