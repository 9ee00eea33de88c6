"""The phone page in Chromium across scans: each photo's scoring cards are its own (sent only when the
player picked them for that scan), the page says next to the score where they came from, warnings sit with
the score, a Sprawlopolis game keeps exactly three cards, a failed scan clears the last one's overlay and
says so near the upload, and "Start over" forgets the whole last game. The scanner is stood in for
(tests/page_stubs.py) except for the failed scan, which the real server answers; every score still comes
from the running service."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.api.page_session import Session
from tests.page_stubs import FakeScan, ScanStub, photo_jpeg, post

pytestmark = pytest.mark.browser

CITY_A = "R:EW  I:EW  R:EW  C:EW\nP     C:SE  I:SW  P\n.     C:NS  P     R:NS\n"
CITY_B = "P     R:NS  C:EW\nI:EW  R:NS  P\nC:NS  P     I\n"


@pytest.fixture()
def photo(tmp_path: Path) -> str:
    path = tmp_path / "photo.jpg"
    path.write_bytes(photo_jpeg(600, 800))
    return str(path)


def _upload(page: Page, photo: str) -> None:
    page.locator("#photo").set_input_files(photo)


def _pressed(page: Page) -> list[int]:
    return [
        int(n)
        for n in page.locator('#cards [aria-pressed="true"]').evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        )
    ]


def _inside(page: Page, inner: str, outer: str) -> bool:
    return bool(
        page.evaluate(
            """([a, b]) => { const i = document.querySelector(a).getBoundingClientRect();
             const o = document.querySelector(b).getBoundingClientRect();
             return i.height > 0 && i.top >= o.top && i.bottom <= o.bottom
               && i.left >= o.left && i.right <= o.right; }""",
            [inner, outer],
        )
    )


def test_a_new_photo_reads_its_own_cards_and_says_where_they_came_from_next_to_the_score(
    session: Session, photo: str
) -> None:
    warn = "scoring card 12: its back was hard to read; check it"
    stub = ScanStub(
        session.server,
        [
            FakeScan(CITY_A, [7, 12, 13], "backs", [warn]),
            FakeScan(CITY_B, [], None, []),
            FakeScan(CITY_A, [1, 2, 3], "given", []),
        ],
    )
    stub.install(session.page)
    page = session.open()
    _upload(page, photo)
    expect(page.locator("#cards-source")).to_have_text(
        "Scoring cards 7, 12, 13: read from their backs in the photo."
    )
    # The source line and the card warning sit in the score itself, under the total.
    assert _inside(page, "#cards-source", "#result") and _inside(page, "#warnings", "#result")
    expect(page.locator("#warnings li")).to_have_text([warn])
    assert _pressed(page) == [7, 12, 13] and stub.sent_cards() == [None]

    # Another city: the last photo's cards are not sent, nor kept, nor called "yours".
    _upload(page, photo)
    expect(page.locator("#verdict")).to_contain_text("No target")
    expected = post(session.server + "/api/v1/score", {"city": CITY_B})
    expect(page.locator("#total")).to_have_text(str(expected["total"]))
    assert stub.sent_cards() == [None, None] and _pressed(page) == []
    expect(page.locator("#cards-source")).to_have_text(
        "No scoring cards: none read from this photo; pick the three in play under 3 · Scoring cards."
    )
    expect(page.locator("#warnings li")).to_have_count(0)

    # Cards the player picks for the next scan are sent with it and shown as theirs.
    for n in (1, 2, 3):
        page.locator(f'#cards [data-card="{n}"]').click()
    expect(page.locator("#cards-source")).to_have_text("Scoring cards 1, 2, 3: given by you.")
    _upload(page, photo)
    page.wait_for_function("() => window.__sentCards.length === 3")
    expect(page.locator("#cards-source")).to_have_text("Scoring cards 1, 2, 3: given by you.")
    expect(page.locator("#overlay-svg .ov-cell")).to_have_count(12)
    assert stub.sent_cards() == [None, None, "1 2 3"]


def test_start_over_forgets_everything_of_the_last_game(session: Session, photo: str) -> None:
    stub = ScanStub(session.server, [FakeScan(CITY_A, [7, 12, 13], "backs", ["check card 12"])])
    stub.install(session.page)
    page = session.open()
    page.locator('#expansions [data-expansion="construction"]').click()
    page.locator("#variant").select_option("easier")
    _upload(page, photo)
    expect(page.locator("#overlay-box")).to_be_visible()
    page.locator("#tally").fill("total 3")
    page.locator("#check").click()
    expect(page.locator("#tally-result")).not_to_be_empty()
    page.locator("#start-over").click()
    for sel in ("#overlay-box", "#cards-source", "#result", "#sticky", "#card-info", "#grid-tools"):
        expect(page.locator(sel)).to_be_hidden()
    expect(page.locator("#warnings li")).to_have_count(0)
    expect(page.locator("#tally-result")).to_be_empty()
    expect(page.locator("#tally")).to_have_value("")
    assert _pressed(page) == []
    expect(page.locator('#expansions [aria-pressed="true"]')).to_have_count(0)
    expect(page.locator("#variant")).to_have_value("")
    # Nothing of it comes back with a reload either (neither the draft nor the last scored game).
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.wait_for_timeout(500)
    expect(page.locator("#grid .cell")).to_have_count(0)
    expect(page.locator("#result")).to_be_hidden()
    assert _pressed(page) == []


def test_tapping_a_card_does_what_the_hint_says_and_a_fourth_card_replaces_the_first(
    session: Session,
) -> None:
    page = session.open()
    hint = page.locator("#cards-hint")
    expect(hint).to_contain_text("Tap a card to put it in the game")
    page.locator('#cards [data-card="8"]').click()
    expect(page.locator('#cards [data-card="8"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#card-info li[data-card="8"]')).to_contain_text("In play")
    page.locator('#cards [data-card="8"]').click()  # a second tap takes it out again
    expect(page.locator('#cards [data-card="8"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator('#card-info li[data-card="8"]')).to_contain_text("Not in play")

    page.locator("#text-box summary").click()
    page.locator("#city-text").fill(CITY_A)
    page.locator("#score-text").click()
    for n in (1, 2, 3, 4):
        page.locator(f'#cards [data-card="{n}"]').click()
    expect(page.locator("#cards-note")).to_have_text(
        "Card 4 replaces card 1: a Sprawlopolis game has three scoring cards."
    )
    assert _pressed(page) == [2, 3, 4]
    expected = post(session.server + "/api/v1/score", {"city": CITY_A, "cards": [2, 3, 4]})
    expect(page.locator("#verdict")).to_contain_text(f"target {expected['target']}")
    expect(page.locator("#total")).to_have_text(str(expected["total"]))


def test_a_failed_scan_clears_the_last_overlay_and_says_so_near_the_upload(
    session: Session, photo: str
) -> None:
    stub = ScanStub(session.server, [FakeScan(CITY_A, [7, 12, 13], "backs", ["check card 12"]), None])
    stub.install(session.page)
    page = session.open()
    _upload(page, photo)
    expect(page.locator("#overlay-box")).to_be_visible()
    expect(page.locator("#warnings li")).to_have_count(1)
    _upload(page, photo)  # the real server: a plain photo holds no city
    error = page.locator("#scan-error")
    expect(error).to_contain_text("no city found")
    expect(page.locator("#overlay-box")).to_be_hidden()
    expect(page.locator("#warnings li")).to_have_count(0)
    expect(page.locator("#cards-source")).to_be_hidden()
    expect(page.locator("#result")).to_be_hidden()  # the last photo's score is not shown as this one's
    assert _inside(page, "#scan-error", "#photo-card")
    page.wait_for_function(
        """() => { const b = document.querySelector('#scan-error').getBoundingClientRect();
             return b.top >= -1 && b.bottom <= innerHeight + 1; }"""  # scrolling lands on fractions of a px
    )
