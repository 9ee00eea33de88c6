"""Teaching a Circle the Wagons deck from the phone page, in Chromium against a running service: in town
mode the page suggests teaching before the first town scan and says why; the deck photo (the print of the
town photo of tests/api/test_town_scan_cli.py) is taught, its game shown, the suggestion gone, a card
tapped offers the Circle the Wagons cards (and "not a card"), and the next town photo is read with it.
A Sprawlopolis deck taught on the same device is kept beside it: the page lists both, one line per game,
corrects the wagons deck and forgets it while the other stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.api.page_session import Session
from tests.api.test_browser import _get
from tests.api.test_page_town_scan import page_rows
from tests.api.test_town_scan_cli import town_photo, truth_rows
from tests.api.test_wagons_teach import sprawl_photos, wagons_deck_jpeg

pytestmark = pytest.mark.browser


def test_the_page_teaches_a_wagons_deck_and_then_reads_a_town_with_it(
    session: Session, tmp_path: Path
) -> None:
    deck, town = tmp_path / "deck.jpg", tmp_path / "town.jpg"
    deck.write_bytes(wagons_deck_jpeg())
    town.write_bytes(town_photo().jpeg)
    page = session.open()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    hint = page.locator("#game-photo-hint")
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
    expect(page.locator("#deck-fix")).to_be_visible()  # the Circle the Wagons cards, and "not a card"
    options = page.locator("#deck-fix-card option").all_inner_texts()
    assert options == [f"Card {n}" for n in range(18)] + ["Not a card"]
    page.locator("#deck-fix-card").select_option("none")
    page.locator("#deck-fix-set").click()
    expect(page.locator("#deck-pending")).to_contain_text("row 1, card 1 → not a card")
    page.locator("#deck-fix-send").click()  # the 18 would not be complete: refused, the deck unchanged
    expect(page.locator("#deck-error")).to_contain_text("not corrected: missing: card")

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


def _teach(page, photo: Path, done: str) -> None:  # type: ignore[no-untyped-def]
    page.locator("#deck-photo").set_input_files(str(photo))
    page.locator("#deck-teach").click()
    expect(page.locator("#deck-status")).to_contain_text(done, timeout=90_000)


def test_the_page_keeps_a_deck_of_each_game_lists_both_corrects_one_and_forgets_one_keeping_the_other(
    session: Session, tmp_path: Path
) -> None:
    wagons, sprawl = tmp_path / "wagons.jpg", tmp_path / "sprawl.png"
    wagons.write_bytes(wagons_deck_jpeg())
    sprawl.write_bytes(sprawl_photos()[0])
    page = session.open()
    _teach(page, wagons, "All 18 Circle the Wagons cards found")
    _teach(page, sprawl, "All 18 cards found")
    lines = page.locator("#deck-kept li")
    expect(lines).to_have_count(2)  # teaching the other game's deck kept the first one
    expect(lines.nth(0)).to_contain_text("Sprawlopolis deck")
    expect(lines.nth(0)).to_contain_text("used for your city photos")
    expect(lines.nth(1)).to_contain_text("Circle the Wagons deck")
    expect(lines.nth(1)).to_contain_text("used for your town photos")
    assert page.evaluate("document.documentElement.dataset.deckGames") == "sprawlopolis wagons"

    page.reload()  # kept for this device: both listed again
    page.wait_for_selector("html[data-ready]")
    expect(lines).to_have_count(2)
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    # Show the wagons deck and correct two cards taken for each other.
    wagons_line = lines.filter(has_text="Circle the Wagons deck")
    wagons_line.get_by_role("button", name="Show").click()
    expect(page.locator("#deck-game")).to_contain_text("Circle the Wagons cards")
    taught = {
        (c["row"], c["col"]): c for c in _get(session.server + "/api/v1/deck?game=wagons", token)["cards"]
    }
    first, second = taught[(0, 0)], taught[(0, 1)]
    for place, card in (("0,0,0", second), ("0,0,1", first)):
        page.locator(f'#deck-cards button[data-place="{place}"]').click()
        page.locator("#deck-fix-card").select_option(str(card["card"]))
        page.locator("#deck-fix-turned").set_checked(card["rotated"])
        page.locator("#deck-fix-set").click()
    page.locator("#deck-fix-send").click()
    expect(page.locator("#deck-status")).to_contain_text("Corrected")
    fixed = {
        (c["row"], c["col"]): c for c in _get(session.server + "/api/v1/deck?game=wagons", token)["cards"]
    }
    assert fixed[(0, 0)]["card"] == second["card"] and fixed[(0, 1)]["card"] == first["card"]
    expect(lines).to_have_count(2)

    expect(lines.nth(1)).to_contain_text("Circle the Wagons deck")  # one line a game, in the games' order
    wagons_line.get_by_role("button", name="Forget").click()
    expect(page.locator("#deck-status")).to_contain_text("Your Circle the Wagons deck is forgotten")
    expect(lines).to_have_count(1)
    expect(lines.nth(0)).to_contain_text("Sprawlopolis deck")
    expect(page.locator("#deck-game")).to_contain_text("Sprawlopolis cards")  # the deck left is shown
    kept = _get(session.server + "/api/v1/deck", token)["kept"]
    assert [d["game"] for d in kept] == ["sprawlopolis"]
