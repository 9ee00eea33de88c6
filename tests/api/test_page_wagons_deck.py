"""Teaching a Circle the Wagons deck from the phone page, in Chromium against a running service: in town
mode the page suggests teaching before the first town scan and says why; the deck photo (the print of the
town photo of tests/api/test_town_scan_cli.py) is taught, its game shown, the suggestion gone, and the next
town photo is read with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.api.test_page import Session, browser  # noqa: F401  (the module's browser fixture)
from tests.api.test_page_town_scan import page_rows
from tests.api.test_town_scan_cli import town_photo, truth_rows
from tests.api.test_wagons_teach import wagons_deck_jpeg

pytestmark = pytest.mark.browser


@pytest.fixture()
def session(browser: Browser, server: str) -> Iterator[Session]:  # noqa: F811
    s = Session(browser, server, 390)
    try:
        yield s
        s.check_origin()
    finally:
        s.context.close()


def test_the_page_teaches_a_wagons_deck_and_then_reads_a_town_with_it(
    session: Session, tmp_path: Path
) -> None:
    deck, town = tmp_path / "deck.jpg", tmp_path / "town.jpg"
    deck.write_bytes(wagons_deck_jpeg())
    town.write_bytes(town_photo().jpeg)
    page = session.open()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    hint = page.locator("#town-photo-hint")
    expect(hint).to_be_visible()  # before the first town scan: teach the deck first, and why
    expect(hint).to_contain_text("Before your first town scan")
    expect(hint).to_contain_text("rulebook's key")

    page.locator("#deck-photo").set_input_files(str(deck))
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-status")).to_contain_text(
        "All 18 Circle the Wagons cards found", timeout=90_000
    )
    expect(page.locator("#deck-game")).to_contain_text("Circle the Wagons cards, used for your town photos")
    expect(page.locator("#deck-cards td")).to_have_count(18)
    expect(page.locator(".deck-overlay polygon")).to_have_count(18)
    expect(hint).to_be_hidden()  # taught: nothing left to suggest
    page.locator('#deck-cards button[data-place="0,0,0"]').click()
    expect(page.locator("#deck-error")).to_contain_text("cannot be corrected yet")
    expect(page.locator("#deck-fix")).to_be_hidden()

    with page.expect_response("**/api/v1/scans", timeout=90_000) as answer:
        page.locator("#photo").set_input_files(str(town))
    result = answer.value.json()
    assert result["game"] == "wagons" and result["taught_deck"] is True
    expect(page.locator("#city-h")).to_have_text("2 · Town", timeout=60_000)
    expect(page.locator("#total")).to_be_visible(timeout=60_000)
    assert page_rows(page) == truth_rows()

    page.reload()  # the deck is kept for this device: its game is shown again and the hint stays away
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#deck-game")).to_contain_text("Circle the Wagons cards")
