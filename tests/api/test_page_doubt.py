"""The phone page in Chromium with what the scanner doubts: each doubtful cell of a scan (its ``doubt``) is
marked on the photo and in the grid and listed with the score, its reading, why, and each other reading it
could be as one tap that puts it in the cell and rescores, with the total it would give; after the tap the
total on the page is the one promised and the cell is no longer in doubt. A photo the scanner asks to
retake shows why above the score and prints no total, while its city stays to correct; a correction then
scores. The scanner is stood in for (tests/page_stubs.py); every total, the promised ones included, comes
from the engine behind the running server. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.page_session import Session
from tests.api.test_browser import ARTIFACTS
from tests.page_stubs import FakeScan, ScanStub, photo_jpeg, post

pytestmark = pytest.mark.browser

# As read: B2 is table where a block should be, and C3 a park that may be otherwise.
READ = [["R:EW", "I:EW", "R:EW", "C:EW"], ["P", ".", "I:SW", "P"], [".", "C:NS", "P", "R:NS"]]
CARDS = [7, 12, 13]
WHY_B2 = "table read where blocks lie on all four sides"
WHY_C3 = "read with 41% confidence"
RETAKE = "the card edges are unsure (glare on the cards): tilt the phone or move the lamp, then take it again"


def city_text(rows: list[list[str]]) -> str:
    return "\n".join("  ".join(row) for row in rows) + "\n"


def engine_total(server: str, rows: list[list[str]]) -> int:
    return int(post(server + "/api/v1/score", {"city": city_text(rows), "cards": CARDS})["total"])


def changed(rows: list[list[str]], r: int, c: int, label: str) -> list[list[str]]:
    return [[label if (i, j) == (r, c) else t for j, t in enumerate(row)] for i, row in enumerate(rows)]


def doubt(server: str, r: int, c: int, alternatives: list[str], why: str) -> dict[str, Any]:
    """A doubt entry as the service gives it, each alternative's total asked from the engine."""
    return {
        "cell": f"{chr(65 + c)}{r + 1}",
        "row": r,
        "col": c,
        "reading": READ[r][c],
        "why": why,
        "sources": ["enclosed"],
        "alternatives": [
            {"label": a, "total": engine_total(server, changed(READ, r, c, a))} for a in alternatives
        ],
    }


@dataclass
class DoubtStub(ScanStub):
    """Answers as :class:`ScanStub` with ``extra`` laid over each answer in turn (None: a key removed)."""

    extra: list[dict[str, Any]] = field(default_factory=list)
    confidence: dict[str, float] = field(default_factory=dict)  # cell name -> the confidence it was read with

    def answer(self, scan: FakeScan) -> dict[str, Any]:
        out = super().answer(scan)
        for cell in out["cells"]:
            cell["confidence"] = self.confidence.get(cell["name"], cell["confidence"])
        for k, v in self.extra.pop(0).items():
            if v is None:
                out.pop(k, None)
            else:
                out[k] = v
        return out


@pytest.fixture(params=[390, 1280], ids=["phone", "desktop"])
def session(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Session]:
    s = Session(browser, server, request.param)
    try:
        yield s
        s.check_origin()
    finally:
        s.context.close()


@pytest.fixture()
def photo(tmp_path: Path) -> str:
    path = tmp_path / "photo.jpg"
    path.write_bytes(photo_jpeg(800, 600))
    return str(path)


def _scan(
    session: Session,
    photo: str,
    extra: dict[str, Any],
    warnings: list[str] | None = None,
    then: int = 0,
    confidence: dict[str, float] | None = None,
) -> Page:
    """Open the page and scan ``photo``, answered with READ and ``extra`` (``confidence``: cells read with
    another confidence than 0.99); ``then`` more scans of READ with nothing laid over may follow."""
    scans = [FakeScan(city_text(READ), CARDS, "backs", warnings or [])] * (1 + then)
    stub = DoubtStub(session.server, scans, extra=[extra] + [{}] * then, confidence=confidence or {})
    stub.install(session.page)
    page = session.open()
    page.locator("#photo").set_input_files(photo)
    page.wait_for_function("() => !document.querySelector('#result').hidden")
    return page


def _alt(page: Page, cell: str, label: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#doubts li[data-cell="{cell}"] button.alt[data-label="{label}"]')


def _width(session: Session) -> int:
    return int(session.page.viewport_size["width"])  # type: ignore[index]


def test_a_doubtful_cell_is_marked_and_one_tap_on_an_alternative_gives_the_total_it_promised(
    session: Session, photo: str
) -> None:
    server = session.server
    b2 = doubt(server, 1, 1, ["P", "C:SE"], WHY_B2)
    c3 = doubt(server, 2, 2, ["R", "I"], WHY_C3)
    page = _scan(session, photo, {"doubt": [b2, c3]})
    read_total = engine_total(server, READ)
    expect(page.locator("#total")).to_have_text(str(read_total))
    # Marked on the photo (its own outline) and in the grid, and counted near the score.
    expect(page.locator("#overlay-svg .ov-cell.doubt")).to_have_count(2)
    assert page.locator("#overlay-svg .ov-cell.doubt").evaluate_all("gs => gs.map(g => g.dataset.name)") == [
        "B2",
        "C3",
    ]
    expect(page.locator("#grid .cell.doubt")).to_have_count(2)
    expect(page.locator('#grid .cell[data-name="B2"]')).to_have_class("cell z-empty doubt")
    expect(page.locator("#doubt-count")).to_have_text("2 cells to check")
    item = page.locator('#doubts li[data-cell="B2"]')
    expect(item).to_contain_text("B2 read as no block: " + WHY_B2)
    promised = b2["alternatives"][0]["total"]
    assert promised != read_total  # else the tap below could not show that it rescored
    expect(_alt(page, "B2", "P")).to_have_text(f"If it is a park: {promised}")
    expect(_alt(page, "B2", "C:SE")).to_have_text(
        f"If it is commercial with a road south–east: {b2['alternatives'][1]['total']}"
    )
    page.screenshot(path=str(ARTIFACTS / f"doubt-{_width(session)}.png"), full_page=True)

    _alt(page, "B2", "P").click()
    expect(page.locator("#total")).to_have_text(str(promised))
    expect(page.locator('#grid .cell[data-name="B2"]')).to_have_class("cell z-P")
    expect(page.locator('#overlay-svg .ov-cell[data-name="B2"]')).not_to_have_class("doubt")
    expect(page.locator("#doubt-count")).to_have_text("1 cell to check")
    # The other cell's promises are asked again for the city as it now is.
    fixed = changed(READ, 1, 1, "P")
    now_r = engine_total(server, changed(fixed, 2, 2, "R"))
    expect(_alt(page, "C3", "R")).to_have_text(f"If it is residential: {now_r}")
    # A reload keeps what is still in doubt, its totals asked again.
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#grid .cell.doubt")).to_have_count(1)
    expect(_alt(page, "C3", "R")).to_have_text(f"If it is residential: {now_r}")
    _alt(page, "C3", "R").click()
    expect(page.locator("#total")).to_have_text(str(now_r))
    expect(page.locator("#doubt-box")).to_be_hidden()
    expect(page.locator("#grid .cell.doubt, #overlay-svg .ov-cell.doubt")).to_have_count(0)
    assert engine_total(server, changed(fixed, 2, 2, "R")) == now_r


def test_the_cells_outlined_to_check_are_the_doubt_alone_and_a_hand_correction_unmarks_them(
    session: Session, photo: str
) -> None:
    # D3 was read with 30 % confidence but is in no doubt: it is not marked (one list of cells to check).
    server = session.server
    low = {"B2": 0.3, "C3": 0.41, "D3": 0.3, "A1": 0.6}
    doubts = [doubt(server, 1, 1, ["P"], WHY_B2), doubt(server, 2, 2, ["R"], WHY_C3)]
    page = _scan(session, photo, {"doubt": doubts}, confidence=low)
    marked = "#grid .cell.doubt, #overlay-svg .ov-cell.doubt"
    expect(page.locator(marked)).to_have_count(4)
    for where in ("#grid .cell", "#overlay-svg .ov-cell"):
        names = page.locator(where + ".doubt").evaluate_all("cs => cs.map(c => c.dataset.name)")
        assert names == ["B2", "C3"], where
    d3, b2 = page.locator('#grid .cell[data-name="D3"]'), page.locator('#grid .cell[data-name="B2"]')
    expect(d3).to_have_class("cell z-R")
    expect(page.locator('#overlay-svg .ov-cell[data-name="D3"]')).to_have_class("ov-cell z-R")
    expect(d3).not_to_have_attribute("aria-label", re.compile("check"))
    expect(b2).to_have_attribute("aria-label", re.compile("in doubt"))
    expect(page.locator("#grid .cell.unsure, #overlay-svg .ov-cell.unsure")).to_have_count(0)
    hint = page.locator("#doubt-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("in doubt about: check them first")

    # B2 corrected in the cell dialog: no longer marked, anywhere.
    b2.click()
    expect(page.locator("#editor-h")).to_have_text("Cell B2")
    page.locator('#editor input[name="kind"][value="P"]').check(force=True)
    page.locator("#editor-ok").click()
    expect(page.locator("#total")).to_have_text(str(engine_total(server, changed(READ, 1, 1, "P"))))
    expect(page.locator(marked)).to_have_count(2)
    expect(page.locator("#doubt-count")).to_have_text("1 cell to check")
    expect(hint).to_be_visible()
    # C3 painted with what it was read as: checked by hand, so no longer in doubt, and nothing left to check.
    page.locator("#paint-toggle").click()
    page.locator('#palette .brush[data-type="zone"][data-value="P"]').click()
    page.locator('#grid .cell[data-name="C3"]').click()
    expect(page.locator(marked)).to_have_count(0)
    expect(page.locator('#grid .cell[data-name="C3"]')).to_have_class(re.compile(r"^cell z-P\b"))
    expect(hint).to_be_hidden()
    expect(page.locator("#doubt-box")).to_be_hidden()


def test_the_cells_to_check_line_points_at_them_and_the_choices_are_big_enough_to_tap(
    session: Session, photo: str
) -> None:
    page = _scan(session, photo, {"doubt": [doubt(session.server, 1, 1, ["P"], WHY_B2)]})
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#doubt-count").click()
    expect(page.locator('#grid .cell[data-name="B2"]')).to_have_class("cell z-empty doubt flash")
    assert page.locator('#grid .cell[data-name="B2"]').evaluate(
        "e => { const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }"
    )
    box = _alt(page, "B2", "P").bounding_box()
    assert box is not None and box["height"] >= 44
    wide = page.evaluate("document.documentElement.scrollWidth > innerWidth")
    assert not wide, "the doubt list makes the page scroll sideways"


def test_a_photo_to_retake_says_why_above_the_score_prints_no_total_and_scores_once_corrected(
    session: Session, photo: str
) -> None:
    warning = "scoring card 12: its back was hard to read; check it"
    b2 = doubt(session.server, 1, 1, ["P"], WHY_B2)
    for alt in b2["alternatives"]:
        alt["total"] = None  # no total from a photo whose geometry is unsure
    extra = {"retake": RETAKE, "total": None, "items": None, "doubt": [b2]}
    page = _scan(session, photo, extra, [warning], then=1)
    box = page.locator("#retake")
    expect(box).to_be_visible()
    expect(page.locator("#retake-why")).to_have_text(RETAKE[0].upper() + RETAKE[1:])
    # Above everything else in the result, and no total anywhere.
    first = page.locator("#result > :not([hidden])").first
    expect(first).to_have_id("retake")
    for sel in ("#verdict", "#score-table", "#sticky"):
        expect(page.locator(sel)).to_be_hidden()
    assert "points" not in page.locator("#result").inner_text()
    expect(_alt(page, "B2", "P")).to_have_text("If it is a park")
    # The warning that is not about a cell stays; the city read stays to correct.
    expect(page.locator("#warnings li")).to_have_text([warning])
    expect(page.locator("#grid .cell")).to_have_count(12)
    page.screenshot(path=str(ARTIFACTS / f"retake-{_width(session)}.png"), full_page=True)
    # A reload does not score the unchecked city either.
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#retake")).to_be_visible()
    expect(page.locator("#grid .cell")).to_have_count(12)
    page.wait_for_timeout(300)
    for sel in ("#verdict", "#score-table", "#sticky"):
        expect(page.locator(sel)).to_be_hidden()

    _alt(page, "B2", "P").click()
    fixed_total = engine_total(session.server, changed(READ, 1, 1, "P"))
    expect(page.locator("#total")).to_have_text(str(fixed_total))
    expect(page.locator("#verdict")).to_contain_text(f"{fixed_total} points")
    expect(page.locator("#retake-scored")).to_be_visible()
    expect(page.locator("#sticky")).to_contain_text(f"Total {fixed_total}")
    # Corrected by hand, the city scores after a reload too.
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#total")).to_have_text(str(fixed_total))
    expect(page.locator("#retake-scored")).to_be_visible()

    # The box's own button takes another photo; a photo read with confidence has no retake.
    with page.expect_file_chooser() as chooser:
        page.locator("#retake label[for=photo]").click()
    chooser.value.set_files(photo)
    expect(box).to_be_hidden()
    expect(page.locator("#total")).to_have_text(str(engine_total(session.server, READ)))
