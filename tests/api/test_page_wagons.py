"""Circle the Wagons on the phone page, in Chromium: the opponent's pile is picked by each card's four
territories (as the service's /api/v1/meta lists them), never by the project's own card numbers, and the
provenance badges follow the rules: every goal card is printed, so only a pile's count-based line of a grid
card is badged "reading", with the note saying what that means. Expected scores come from the running
service."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.api.page_session import Session
from tests.api.test_page import _post_get
from tests.page_stubs import post

pytestmark = pytest.mark.browser


def test_the_opponents_pile_is_picked_by_each_cards_territories(session: Session) -> None:
    meta = _post_get(session.server + "/api/v1/meta")["wagons"]
    page = session.open()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    section = page.locator("section", has=page.locator("#goals-h"))
    assert "card numbers" not in section.inner_text()
    buttons = page.locator("#pile-cards .pile-card")
    expect(buttons).to_have_count(len(meta["cards"]))
    for i, card in enumerate(meta["cards"]):
        shown = buttons.nth(i).locator("span").all_inner_texts()
        assert [s.split()[0] for s in shown] == [t[0] for t in card["territories"]]
        assert str(card["number"]) not in buttons.nth(i).inner_text()
    box = buttons.first.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44

    page.locator("#score-text").click()
    page.locator("#result").wait_for(state="visible")
    town = page.locator("#city-text").input_value()
    scenario = meta["scenarios"][0]["id"]
    page.locator("#scenario").select_option(scenario)
    picked = [meta["cards"][i]["number"] for i in (2, 5, 11)]
    for i in (2, 5, 11):
        buttons.nth(i).click()
        expect(buttons.nth(i)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pile-count")).to_have_text("3 cards in the pile")
    options = {"scenario": scenario, "opponent-pile": " ".join(map(str, sorted(picked)))}
    expected = post(session.server + "/api/v1/score", {"game": "wagons", "city": town, "options": options})
    assert expected["opponent"]["total"] is not None
    expect(page.locator("#opp-total")).to_have_text(str(expected["opponent"]["total"]))
    buttons.nth(5).click()  # a second tap takes the card out of the pile again
    expect(page.locator("#pile-count")).to_have_text("2 cards in the pile")


def test_printed_goal_cards_carry_no_badge_and_only_the_piles_counted_wagon_train_reads_reading(
    session: Session,
) -> None:
    meta = _post_get(session.server + "/api/v1/meta")["wagons"]
    assert {g["provenance"] for g in meta["goals"]} == {"printed"}
    page = session.open()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    expect(page.locator("#goals .chip")).to_have_count(len(meta["goals"]))
    expect(page.locator("#goals .prov")).to_have_count(0)

    page.locator("#score-text").click()
    page.locator("#result").wait_for(state="visible")
    page.locator("#scenario").select_option("through-the-desert")
    buttons = page.locator("#pile-cards .pile-card")
    for i in (2, 5, 11):
        buttons.nth(i).click()
    expect(page.locator("#pile-count")).to_have_text("3 cards in the pile")
    # The player's Wagon Train and Badlands lines are the printed cards: no badge.
    expect(page.locator('#items tr[data-key="goal:wagon-train"]')).to_be_visible()
    expect(page.locator("#items .prov")).to_have_count(0)
    # The pile cannot hold a run of Wagons: its Wagon Train line is a count-based reading, and says so.
    expect(page.locator("#opp-items .prov")).to_have_count(1)
    expect(page.locator('#opp-items tr[data-key="goal:wagon-train"] .prov')).to_have_text("reading")
    expect(page.locator("#notes")).to_contain_text(
        "Lines marked 'reading' score a goal card that needs a grid"
    )
    session.check_origin()
