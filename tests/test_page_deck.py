"""The page's "Teach your deck" step in a real browser against a real ``sprawlscan serve``: a rendered deck
photo (our own look-alike art) taught from the page, its cards shown as laid, the next photo scan read with
it, and the deck forgotten again; what the page shows is checked against the service's own answer."""

from __future__ import annotations

import urllib.error
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from models.synth.deck import city_photo, deck_art, deck_photo, png
from tests.test_browser import ARTIFACTS, _get

pytestmark = pytest.mark.browser

_rng = np.random.default_rng(3)
DECK = [(int(n), bool(_rng.random() < 0.5)) for n in _rng.permutation(np.arange(1, 19))]


def test_teach_a_deck_from_the_page_scan_with_it_and_forget_it(server: str, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    art = deck_art(5, 3.0)
    deck_file, city_file = tmp_path / "deck.png", tmp_path / "city.png"
    deck_file.write_bytes(png(deck_photo(art, DECK, ppm=3.0, gap_mm=8.0, jitter_mm=2.0, turn_deg=10.0)))
    city_file.write_bytes(png(city_photo(art, DECK[:10], ppm=3.0)))
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    expect(page.locator("#deck-none")).to_be_visible()
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-error")).to_have_text("Choose a photo of your cards first.")
    page.locator("#deck-photo").set_input_files(str(deck_file))
    expect(page.locator("#deck-files")).to_have_text("Chosen: deck.png")
    page.locator("#deck-teach").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    expect(page.locator("#deck-status")).to_contain_text("All 18 cards found", timeout=90_000)
    cells = page.locator("#deck-cards td").all_inner_texts()
    assert len(cells) == 18
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    kept = _get(server + "/api/v1/deck", token)["cards"]
    by_place = {(c["row"], c["col"]): f"{c['card']}{' ⟲' if c['rotated'] else ''}" for c in kept}
    assert cells == [by_place[(r, c)] for r in range(3) for c in range(6)]
    assert sorted(int(t.split()[0]) for t in cells) == list(range(1, 19))

    # The next scan from this browser is read with the deck.
    with page.expect_response("**/api/v1/scans") as answer:
        page.locator("#photo").set_input_files(str(city_file))
    assert answer.value.json()["taught_deck"] is True
    page.locator("#result").wait_for(state="visible", timeout=60_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#deck-card").screenshot(path=str(ARTIFACTS / "page-deck.png"))

    # A reload shows the deck kept for this device; then it is forgotten.
    page.reload()
    expect(page.locator("#deck-cards td")).to_have_text(cells)
    page.locator("#deck-forget").scroll_into_view_if_needed()
    page.locator("#deck-forget").click()
    expect(page.locator("#deck-status")).to_contain_text("forgotten")
    expect(page.locator("#deck-none")).to_be_visible()
    expect(page.locator("#deck-cards td")).to_have_count(0)
    with pytest.raises(urllib.error.HTTPError) as gone:
        _get(server + "/api/v1/deck", token)
    assert gone.value.code == 404


def test_a_refused_deck_photo_is_named_on_the_page(server: str, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    art = deck_art(5, 3.0)
    short = tmp_path / "short.png"
    short.write_bytes(png(deck_photo(art, [c for c in DECK if c[0] != 4], ppm=3.0, gap_mm=8.0)))
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.locator("#deck-photo").set_input_files(str(short))
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-error")).to_contain_text("missing: card 4", timeout=90_000)
    expect(page.locator("#deck-none")).to_be_visible()
