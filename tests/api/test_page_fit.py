"""The page's layout as a person sees it, in Chromium: on a 1280 × 800 screen and on a 390 px phone the
city on the photo shows whole (every cell, column letter and row number inside the photo's box) without
pressing "City", also for a photo taken a quarter turn round and a city photographed close to the photo's
edge; the grid's cells are big enough to tap (44 CSS px) with their codes clear of the road drawings; the
taught deck's six columns fit a phone; the tally's lines stay inside their card. The scanner is stood in
for (tests/page_stubs.py); screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.page_session import Session
from tests.api.test_browser import ARTIFACTS
from tests.api.test_page import DEMO
from tests.page_stubs import FakeScan, ScanStub, photo_jpeg

pytestmark = pytest.mark.browser

ROWS = [line for line in DEMO.splitlines() if line.strip() and not line.split()[0].endswith(":")]
CITY = "\n".join(ROWS) + "\n"


@pytest.fixture()
def phone(session: Session) -> Session:
    """The phone-wide page session (tests/api/conftest.py)."""
    return session


@pytest.fixture()
def desktop(browser: Browser, server: str) -> Iterator[Session]:
    s = Session(browser, server, 1280)
    s.page.set_viewport_size({"width": 1280, "height": 800})
    try:
        yield s
        s.check_origin()
    finally:
        s.context.close()


def _outside(page: Page, items: str, box: str) -> list[str]:
    """The elements matching ``items`` whose box is not wholly inside the element ``box``."""
    return list(
        page.evaluate(
            """([items, box]) => { const o = document.querySelector(box).getBoundingClientRect();
                 return [...document.querySelectorAll(items)].filter(e => {
                   const b = e.getBoundingClientRect();
                   return b.left < o.left - 0.5 || b.right > o.right + 0.5 || b.top < o.top - 0.5
                     || b.bottom > o.bottom + 0.5;
                 }).map(e => e.textContent || e.parentNode.dataset.name); }""",
            [items, box],
        )
    )


def _scan(s: Session, tmp_path: Path, size: tuple[int, int], scan: FakeScan) -> Page:
    path = tmp_path / "photo.jpg"
    path.write_bytes(photo_jpeg(*size))
    ScanStub(s.server, [scan]).install(s.page)
    page = s.open()
    page.locator("#photo").set_input_files(str(path))
    page.wait_for_selector("#overlay-svg .ov-coord")
    page.wait_for_timeout(300)  # the zoom onto the city is set when the photo has loaded
    page.locator("#overlay-box").scroll_into_view_if_needed()
    return page


@pytest.mark.parametrize(
    ("where", "size", "box", "turned"),
    [
        ("desktop", (1512, 2016), (0.01, 0.45, 0.7, 0.99), False),  # the city near the photo's corner
        ("phone", (1512, 2016), (0.02, 0.0, 0.98, 0.99), True),  # a quarter turn, the city filling it
        ("phone", (2016, 1512), (0.3, 0.3, 0.7, 0.6), False),  # a small city in the middle
    ],
    ids=["1280x800-edge", "390-turned", "390-small"],
)
def test_the_whole_city_on_the_photo_shows_without_pressing_city(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    where: str,
    size: tuple[int, int],
    box: tuple,
    turned: bool,
) -> None:
    s: Session = request.getfixturevalue(where)
    page = _scan(s, tmp_path, size, FakeScan(CITY, box=box, turned=turned))
    expect(page.locator("#overlay-svg .ov-coord")).to_have_count(len(ROWS) + len(ROWS[0].split()))
    assert _outside(page, "#overlay-svg .ov-coord", "#overlay-view") == []
    assert _outside(page, "#overlay-svg .ov-cell polygon", "#overlay-view") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#overlay-box").screenshot(path=str(ARTIFACTS / f"fit-{request.node.callspec.id}.png"))


def test_grid_cells_are_big_enough_to_tap_and_their_codes_clear_the_roads(phone: Session) -> None:
    page = phone.open()
    page.locator("#text-box summary").click()
    page.locator("#city-text").fill(CITY)
    page.locator("#score-text").click()
    page.locator("#result").wait_for(state="visible")
    sizes = page.locator("#grid .cell").evaluate_all(
        "cs => cs.map(c => { const b = c.getBoundingClientRect(); return [b.width, b.height]; })"
    )
    assert len(sizes) == 9 * len(ROWS) and min(min(w, h) for w, h in sizes) >= 44, min(sizes)
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('#grid .cell')].filter(c => c.querySelector('.road path'))
             .filter(c => { const t = c.querySelector('.tok').getBoundingClientRect();
               const r = c.querySelector('.road').getBoundingClientRect();
               return t.bottom > r.top + 0.5 && t.top < r.bottom - 0.5; }).map(c => c.dataset.name)"""
    )
    assert overlaps == []
    # Nine columns that big do not fit a phone: the grid scrolls in its own box, never the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "fit-grid-390.png"))


DECK = {
    "cards": [
        {"photo": 0, "row": r, "col": c, "card": 6 * r + c + 1, "rotated": c % 2 == 1}
        for r in range(3)
        for c in range(6)
    ]
}


def test_the_taught_decks_six_columns_fit_a_phone(phone: Session) -> None:
    phone.page.add_init_script("localStorage.setItem('sprawlscan.device-token', 'a-token')")
    phone.page.route("**/api/v1/deck", lambda route: route.fulfill(json=DECK))
    page = phone.open()
    expect(page.locator("#deck-cards button")).to_have_count(18)
    assert _outside(page, "#deck-cards button", "#deck-cards") == []
    assert page.evaluate("(d => d.scrollWidth <= d.clientWidth)(document.querySelector('#deck-cards'))")
    sizes = page.locator("#deck-cards button").evaluate_all(
        "bs => bs.map(b => Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height))"
    )
    assert min(sizes) >= 44


def test_the_tally_lines_stay_inside_their_card(phone: Session) -> None:
    page = phone.open()
    page.locator("#text-box summary").click()
    page.locator("#city-text").fill(CITY)
    page.locator("#score-text").click()
    page.locator("#result").wait_for(state="visible")
    page.locator("#tally").fill(
        "parks 3\nroads -5\nlargest residential group 12\nresidential_blocks_in_the_biggest_group 4\ntotal 35"
    )
    page.locator("#check").click()
    expect(page.locator("#tally-result li").first).to_be_visible()
    inside = page.evaluate(
        """() => { const card = document.querySelector('#tally').closest('.card');
             const b = card.getBoundingClientRect(), st = getComputedStyle(card);
             const left = b.left + parseFloat(st.paddingLeft), right = b.right - parseFloat(st.paddingRight);
             return [...card.querySelectorAll('#tally-result li, #tally-result li *')].filter(e => {
               const r = e.getBoundingClientRect(); return r.left < left - 0.5 || r.right > right + 0.5; })
               .map(e => e.textContent); }"""
    )
    assert inside == []
    page.locator("#tally-result").screenshot(path=str(ARTIFACTS / "fit-tally-390.png"))
