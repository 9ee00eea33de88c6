"""The phone page in Chromium, each game clean, tried as a new player would: a new photo or a typed city
starts a new game (the last one's tally, comparison, label and players go); a typed city's bad token is
named at the line and column the command line names, under the button pressed; a photo's scoring cards are
said to be read from the photo; a photo of the deck laid out is called one and offered for teaching; a
town photo from the Sprawlopolis tab is called a Circle the Wagons town; and a reload brings the photo back
while the server keeps the scan, or says that it is not kept. The real scanner reads the shipped samples
and a rendered town; the stand-in (tests/page_stubs.py) answers only where a scan's content does not
matter, and every score still comes from the running service."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.api.page_session import Session
from tests.api.test_town_scan_cli import town_photo
from tests.conftest import Cli
from tests.page_stubs import FakeScan, ScanStub, photo_jpeg

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CITY_A = "R:EW  I:EW  R:EW  C:EW\nP     C:SE  I:SW  P\n.     C:NS  P     R:NS\n"
CITY_B = "P     R:NS  C:EW\nI:EW  R:NS  P\nC:NS  P     I\n"
SCAN_S = 60_000  # a real scan on the 2-core machine, with other sessions on it


@pytest.fixture()
def photo(tmp_path: Path) -> str:
    path = tmp_path / "photo.jpg"
    path.write_bytes(photo_jpeg(600, 800))
    return str(path)


def _save_checked_game(page: Page, tally: str, label: str, players: str) -> None:
    """Write and compare a tally, then save the game on screen with a label and players."""
    page.locator("#tally").fill(tally)
    page.locator("#check").click()
    expect(page.locator("#tally-result .tally-summary")).to_contain_text("your total")
    page.locator("#game-label").fill(label)
    page.locator("#game-players").fill(players)
    page.locator("#save-game-btn").click()
    expect(page.locator("#save-status")).to_contain_text("Saved:")


def _expect_new_game(page: Page) -> None:
    expect(page.locator("#tally")).to_have_value("")
    expect(page.locator("#tally-result")).to_be_empty()
    expect(page.locator("#game-label")).to_have_value("")
    expect(page.locator("#game-players")).to_have_value("")
    expect(page.locator("#save-status")).to_be_empty()


def _type_city(page: Page, text: str) -> None:
    if not page.locator("#text-box").evaluate("d => d.open"):
        page.locator("#text-box summary").click()
    page.locator("#city-text").fill(text)
    page.locator("#score-text").click()


def test_a_new_photo_or_a_typed_city_starts_a_new_games_tally_label_and_players(
    session: Session, photo: str
) -> None:
    stub = ScanStub(session.server, [FakeScan(CITY_A, [7, 12, 13], "backs"), FakeScan(CITY_B)])
    stub.install(session.page)
    page = session.open()
    page.locator("#photo").set_input_files(photo)
    expect(page.locator("#total")).to_be_visible()
    _save_checked_game(page, "total 35", "Sunday with Sam", "Sam, Alex")

    page.locator("#photo").set_input_files(photo)  # the second photo: a new game
    expect(page.locator("#overlay-svg .ov-cell")).to_have_count(9)
    _expect_new_game(page)
    expect(page.locator("#save-game-btn")).to_be_enabled()

    _save_checked_game(page, "total 40", "Monday", "Kim")
    _type_city(page, CITY_A)  # a typed city: a new game too
    expect(page.locator("#total")).to_be_visible()
    _expect_new_game(page)

    # Retyping the unsaved typed city (a correction) keeps what was written for it; the stale
    # comparison goes.
    page.locator("#tally").fill("total 12")
    page.locator("#check").click()
    expect(page.locator("#tally-result")).not_to_be_empty()
    page.locator("#game-label").fill("Tuesday")
    _type_city(page, CITY_A.replace("P     R:NS", "P     R:EW"))
    expect(page.locator("#tally-result")).to_be_empty()
    expect(page.locator("#tally")).to_have_value("total 12")
    expect(page.locator("#game-label")).to_have_value("Tuesday")


def test_a_typed_citys_bad_token_is_named_at_the_clis_line_beside_the_button(
    session: Session, cli: Cli, tmp_path: Path
) -> None:
    typed = "cards: 7 12 13\nR:EW X:EW R:EW C:EW\nP    C:SE  I:SW P\n"  # the bad token on line 2
    city = tmp_path / "typed.city"
    city.write_text(typed)
    code, _, err = cli("score", str(city))
    assert code == 2 and err.startswith(f"sprawlscan: error: {city}: line 2, column 6: ")
    said = err.strip().removeprefix(f"sprawlscan: error: {city}: ")

    page = session.open()
    _type_city(page, typed)
    box = page.locator("#text-error")
    expect(box).to_have_text(said)
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#city-text")).to_have_value(typed)  # the text the line and column count in
    # Right under the button pressed, inside the same section.
    button = page.locator("#score-text").bounding_box()
    under = box.bounding_box()
    assert button and under
    assert 0 <= under["y"] - (button["y"] + button["height"]) < 30
    assert page.locator("#text-box #text-error").count() == 1

    _type_city(page, typed.replace("X:EW", "I:EW"))  # corrected: scored, and the error goes
    expect(page.locator("#total")).to_be_visible()
    expect(box).to_be_hidden()


def test_a_photos_scoring_cards_are_said_to_be_read_from_the_photo(session: Session) -> None:
    page = session.open()
    page.locator("#photo").set_input_files(str(SAMPLES / "demo.jpg"))
    expect(page.locator("#total")).to_be_visible(timeout=SCAN_S)
    # The demo's backs and the cards its city lacks agree (cards_source "both").
    expect(page.locator("#cards-source")).to_have_text(
        "Scoring cards 7, 12, 13: read from their backs in the photo, and the city agrees."
    )
    expect(page.locator("#scan-note")).to_be_hidden()  # a city, not a deck


def test_a_deck_photo_scanned_as_a_city_is_called_a_deck_and_offered_for_teaching(session: Session) -> None:
    page = session.open()
    page.locator("#photo").set_input_files(str(SAMPLES / "deck.jpg"))
    note = page.locator("#scan-note")
    expect(note).to_be_visible(timeout=SCAN_S)
    expect(note).to_contain_text("looks like your deck laid out, not a finished city")
    page.locator("#scan-note-teach").click()
    expect(page.locator("#deck-files")).to_contain_text("deck.jpg")
    expect(page.locator("#deck-teach")).to_be_focused()
    # The next photo, a city, is not called a deck.
    page.locator("#photo").set_input_files(str(SAMPLES / "demo.jpg"))
    expect(page.locator("#cards-source")).to_contain_text("7, 12, 13", timeout=SCAN_S)
    expect(note).to_be_hidden()


def test_a_town_photo_from_the_sprawlopolis_tab_is_called_a_circle_the_wagons_town(
    session: Session, tmp_path: Path
) -> None:
    town = tmp_path / "town.jpg"
    town.write_bytes(town_photo().jpeg)
    page = session.open()
    page.locator("#photo").set_input_files(str(town))
    expect(page.locator('input[name="game"][value="wagons"]')).to_be_checked(timeout=SCAN_S)
    note = page.locator("#scan-note")
    expect(note).to_contain_text(
        "This photo is a Circle the Wagons town: the page has switched to Circle the Wagons."
    )
    expect(note.locator('a[href="#deck-card"]')).to_have_text("teach the scanner your deck")
    expect(note).to_be_visible()


def test_a_reload_brings_the_photo_back_while_the_server_keeps_it_or_says_it_is_not_kept(
    session: Session, photo: str
) -> None:
    stub = ScanStub(session.server, [None, FakeScan(CITY_A, [7, 12, 13], "backs")])
    stub.install(session.page)
    page = session.open()
    page.locator("#photo").set_input_files(str(SAMPLES / "demo.jpg"))  # the real scanner: kept a while
    expect(page.locator("#total")).to_be_visible(timeout=SCAN_S)
    # The cells are drawn once the overlay's picture has loaded, which may come after the total.
    expect(page.locator("#overlay-svg .ov-cell").first).to_be_attached(timeout=SCAN_S)
    cells = page.locator("#overlay-svg .ov-cell").count()
    assert cells > 40
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#overlay-box")).to_be_visible()
    expect(page.locator("#overlay-svg .ov-cell")).to_have_count(cells)
    expect(page.locator("#photo-note")).to_contain_text("as the server kept it")

    page.locator("#photo").set_input_files(photo)  # a scan the server does not know (the stand-in's)
    expect(page.locator("#overlay-svg .ov-cell")).to_have_count(12)
    expect(page.locator("#photo-note")).to_be_hidden()
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#photo-note")).to_contain_text("Your photo is not kept after a reload")
    expect(page.locator("#overlay-box")).to_be_hidden()
    expect(page.locator("#total")).to_be_visible()  # the game itself is kept
