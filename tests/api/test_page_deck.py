"""The page's "Teach your deck" step in a real browser against a real ``sprawlscan serve``: a rendered deck
photo (our own look-alike art) taught from the page, its cards shown on the photo and as laid, two cards
corrected by tapping them (one alone refused: it would double a card), the next photo scan read with it,
and the deck forgotten again; what the page shows is checked against the service's own answer."""

from __future__ import annotations

import urllib.error
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from models.synth.deck import city_photo, deck_art, deck_photo, png
from tests.api.test_browser import ARTIFACTS, _get

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

    # The photo with the cards drawn, a tap target over each card.
    expect(page.locator(".deck-overlay img")).to_be_visible()
    assert page.evaluate("document.querySelector('.deck-overlay img').naturalWidth") > 0
    expect(page.locator(".deck-overlay polygon")).to_have_count(18)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Correct two cards: the first said to be the second's card (alone refused), then the second the first's.
    first, second = by_place[(0, 0)], by_place[(0, 1)]
    page.locator('.deck-overlay polygon[data-place="0,0,0"]').dispatch_event("click")
    expect(page.locator("#deck-fix-place")).to_have_text("The card at row 1, card 1")
    page.locator("#deck-fix-card").select_option(first.split()[0])
    expect(page.locator("#deck-fix-turned")).to_be_checked(checked=first.endswith("⟲"))
    page.locator("#deck-fix-card").select_option(second.split()[0])
    page.locator("#deck-fix-turned").set_checked(second.endswith("⟲"))
    page.locator("#deck-fix-set").click()
    expect(page.locator("#deck-fix")).to_be_hidden()
    expect(page.locator("#deck-pending")).to_contain_text(f"row 1, card 1 → card {second.split()[0]}")
    expect(page.locator("#deck-cards td").first).to_have_text(second)
    page.locator("#deck-fix-send").click()
    expect(page.locator("#deck-error")).to_contain_text(f"card {second.split()[0]} would lie twice")
    assert _get(server + "/api/v1/deck", token)["cards"] == kept  # nothing changed
    page.locator('#deck-cards button[data-place="0,0,1"]').click()
    page.locator("#deck-fix-card").select_option(first.split()[0])
    page.locator("#deck-fix-turned").set_checked(first.endswith("⟲"))
    page.locator("#deck-fix-set").click()
    expect(page.locator("#deck-fix-send")).to_have_text("Send 2 corrections")
    page.locator("#deck-fix-send").click()
    expect(page.locator("#deck-status")).to_contain_text("Corrected")
    swapped = [second, first, *cells[2:]]
    expect(page.locator("#deck-cards td")).to_have_text(swapped)
    expect(page.locator(".deck-overlay svg text")).to_have_count(2)  # the new labels over the old picture
    fixed = {(c["row"], c["col"]): c for c in _get(server + "/api/v1/deck", token)["cards"]}
    assert fixed[(0, 0)]["card"] == int(second.split()[0]) and fixed[(0, 1)]["card"] == int(first.split()[0])
    # Put them back as the scanner had them (the city below is read with the deck as taught).
    for place, label in (("0,0,0", first), ("0,0,1", second)):
        page.locator(f'#deck-cards button[data-place="{place}"]').click()
        page.locator("#deck-fix-card").select_option(label.split()[0])
        page.locator("#deck-fix-turned").set_checked(label.endswith("⟲"))
        page.locator("#deck-fix-set").click()
    page.locator("#deck-fix-send").click()
    expect(page.locator("#deck-cards td")).to_have_text(cells)

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


def _teach_from_the_page(page, server: str, photo: Path) -> None:  # type: ignore[no-untyped-def]
    """Open the page, choose ``photo`` in the deck step and press "Teach"."""
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.locator("#deck-photo").set_input_files(str(photo))
    page.locator("#deck-teach").click()


def test_a_refused_deck_photo_is_named_on_the_page(server: str, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    art = deck_art(5, 3.0)
    short = tmp_path / "short.png"
    short.write_bytes(png(deck_photo(art, [c for c in DECK if c[0] != 4], ppm=3.0, gap_mm=8.0)))
    _teach_from_the_page(page, server, short)
    expect(page.locator("#deck-error")).to_contain_text("missing: card 4", timeout=90_000)
    expect(page.locator("#deck-none")).to_be_visible()


def test_an_expansion_card_beside_the_deck_is_named_from_the_refusal(
    server: str, page, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    art = deck_art(5, 3.0)
    photo = tmp_path / "with-wrecktar.png"
    photo.write_bytes(png(deck_photo(art, [*DECK, ("wrecktar", False)], ppm=3.0, gap_mm=8.0)))
    _teach_from_the_page(page, server, photo)
    expect(page.locator("#deck-error")).to_contain_text("extra at row 4 card 1", timeout=90_000)
    # The refusal fills in the extra card's place: the player says what it is and teaches again.
    expect(page.locator("#deck-extras-box")).to_be_visible()
    expect(page.locator("#deck-extras-toggle")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#deck-extra-row")).to_have_value("4")
    expect(page.locator("#deck-extra-col")).to_have_value("1")
    page.locator("#deck-extra-kind").select_option("wrecktar")
    page.locator("#deck-extra-add").click()
    expect(page.locator("#deck-extras li")).to_have_count(1)
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-status")).to_contain_text(
        "All 18 cards and 1 expansion card found", timeout=90_000
    )
    cells = page.locator("#deck-cards td").all_inner_texts()
    assert cells[18] == "W" and sorted(int(t.split()[0]) for t in cells[:18]) == list(range(1, 19))
    expect(page.locator(".deck-overlay polygon")).to_have_count(19)
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    kept = _get(server + "/api/v1/deck", token)["cards"]
    assert [(c["row"], c["col"]) for c in kept if c["extra"] == "wrecktar"] == [(3, 0)]
