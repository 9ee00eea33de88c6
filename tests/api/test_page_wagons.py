"""Circle the Wagons on the phone page, in Chromium: the opponent's pile is picked by each card's four
territories (as the service's /api/v1/meta lists them), never by the project's own card numbers, and the
goal cards' "review" and "reading" badges say what they mean. Expected scores come from the running
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


def test_the_goal_badges_explain_themselves(session: Session) -> None:
    page = session.open()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    badges = page.locator("#goals .prov")
    expect(badges.first).to_be_visible()
    for word in set(badges.all_inner_texts()):
        assert word in ("review", "reading")
    legend = page.locator("#goal-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("review the wording comes from a published review")
    expect(legend).to_contain_text("reading the card's text was not available")
    titles = badges.evaluate_all("bs => bs.map(b => [b.textContent, b.title])")
    assert all(title.startswith(word + ":") for word, title in titles), titles
