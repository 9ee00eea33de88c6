"""The page's "Teach your deck" step with a print the scanner does not know, in a real browser against a real
``sprawlscan serve``: its colours name every park but leave the other zones to one of three namings, so the
page asks which card lies at one place, opens the picker there, and the one answer names every card
(issue 37)."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import expect

from models.synth.deck import render_deck
from tests.api.test_browser import _get
from tests.vision.test_city_any_print import FLAT  # grounds of no shipped colour, flat

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_deck_of_an_unknown_print_asks_for_one_card_and_that_answer_names_them_all(  # type: ignore[no-untyped-def]
    server: str, page, tmp_path: Path
) -> None:
    rgb, truth = render_deck(21, ppm=3.0, edition=FLAT)
    photo = tmp_path / "deck.png"
    cv2.imwrite(str(photo), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    page.goto(server + "/")
    page.wait_for_selector("html[data-ready]")
    page.locator("#deck-photo").set_input_files(str(photo))
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-status")).to_contain_text("which card lies at row", timeout=90_000)
    expect(page.locator("#deck-fix")).to_be_visible()
    place = re.fullmatch(r"The card at row (\d+), card (\d+)", page.locator("#deck-fix-place").inner_text())
    assert place is not None
    row, col = int(place[1]) - 1, int(place[2]) - 1
    want = next(c for c in truth["cards"] if (c["row"], c["col"]) == (row, col))
    page.locator("#deck-fix-card").select_option(str(want["card"]))
    page.locator("#deck-fix-turned").set_checked(want["rotated"])
    page.locator("#deck-fix-set").click()
    page.locator("#deck-fix-send").click()
    expect(page.locator("#deck-status")).to_contain_text("Corrected")
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    kept = _get(server + "/api/v1/deck", token)["cards"]
    assert {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in kept} == {
        (c["row"], c["col"]): (c["card"], c["rotated"]) for c in truth["cards"]
    }
