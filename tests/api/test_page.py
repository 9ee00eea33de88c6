"""The phone page in a real browser (Debian's Chromium) at phone, tablet and desktop widths, against a real
``sprawlscan serve`` process: layout, coordinates, the link from a breakdown line to its cells, paint mode,
the photo overlay following corrections, the photo shrunk before upload, the installable shell and its
offline behaviour, and that no request leaves the server's origin.

Expected totals are asked from the running service's JSON API, never hard-coded. Screenshots go to
``tests/artifacts/`` for people to look at.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.cards import CARD_NAMES
from tests.api.page_session import Session
from tests.api.test_browser import ARTIFACTS, _find_correction, _grid_rows, _post
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

WIDTHS = (320, 390, 768, 1280)
DEMO = "".join(line for line in (ROOT / "samples" / "demo.city").open() if not line.startswith("#"))
CLI_WORDS = re.compile(r"(^|\s)--[a-z]")


def _type_city(page: Page, city: str) -> None:
    page.locator("#text-box summary").click()
    page.locator("#city-text").fill(city)
    page.locator("#score-text").click()
    page.locator("#result").wait_for(state="visible")


def _cell(page: Page, r: int, c: int):  # type: ignore[no-untyped-def]
    return page.locator(f'#grid .cell[data-row="{r}"][data-col="{c}"]')


def _in_viewport(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate(
            """sel => { const b = document.querySelector(sel).getBoundingClientRect();
                 return b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth; }""",
            selector,
        )
    )


@pytest.mark.parametrize("session", WIDTHS, indirect=True, ids=lambda w: f"{w}px")
def test_layout_coordinates_breakdown_link_and_paint(session: Session) -> None:
    page = session.open()
    width = page.viewport_size["width"]  # type: ignore[index]
    _type_city(page, DEMO)
    expected = _post(session.server + "/api/v1/score", {"city": DEMO})
    expect(page.locator("#total")).to_have_text(str(expected["total"]))

    # No sideways scroll of the page; the 9-column grid whole inside its card from a tablet up. On a phone
    # its cells keep a finger's width (44 px) and the grid scrolls inside its own box instead.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wrap = page.evaluate(
        "(() => { const w = document.querySelector('.grid-wrap'); return [w.scrollWidth, w.clientWidth]; })()"
    )
    assert wrap[0] <= wrap[1] or width < 768, f"the grid is cut off at {width}px: {wrap}"
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#grid .cell')].map(c => c.getBoundingClientRect().right))"
    )
    assert right <= width or width < 768
    heights = page.locator("#grid .cell").evaluate_all("cs => cs.map(c => c.getBoundingClientRect().height)")
    assert min(heights) >= 44

    # Coordinates in the breakdown's own terms: column letters and row numbers.
    assert page.locator("#grid .coord.col").all_inner_texts() == list("ABCDEFGHI")
    assert page.locator("#grid .coord.row").all_inner_texts() == [str(n) for n in range(1, 7)]
    assert _cell(page, 2, 3).get_attribute("aria-label").startswith("D3: ")  # type: ignore[union-attr]

    # Tapping a breakdown line far below the grid scrolls back to it and flashes the line's cells.
    roads = next(i for i in expected["items"] if i["key"] == "roads")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not _in_viewport(page, "#grid") or width >= 1280
    page.locator('#items tr[data-key="roads"]').click()
    expect(page.locator("#grid .cell.hl")).to_have_count(len(roads["cells"]))
    expect(page.locator("#grid .cell.flash").first).to_be_attached()
    names = page.locator("#grid .cell.hl").evaluate_all("cells => cells.map(c => c.dataset.name)")
    assert sorted(names) == sorted(roads["cells"])
    page.wait_for_function(
        """() => { const b = document.querySelector('#grid .cell.hl').getBoundingClientRect();
             return b.top >= 0 && b.bottom <= innerHeight; }"""
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"page-{width}px.png"), full_page=True)

    # Paint mode: commercial, dragged along row 2 (A2..D2), changes all four cells and the total.
    page.locator("#paint-toggle").click()
    page.locator('#palette .brush[data-type="zone"][data-value="C"]').click()
    rows = _grid_rows(DEMO)
    before = [rows[1][c] for c in range(4)]
    for c in range(4):
        token = rows[1][c]
        rows[1][c] = "C" if token == "P" else "C" + token[1:]
    painted = _post(session.server + "/api/v1/score", {"rows": rows, "cards": expected["cards"]})
    assert painted["total"] != expected["total"]
    points = [_cell(page, 1, c).bounding_box() for c in range(4)]
    page.mouse.move(points[0]["x"] + 5, points[0]["y"] + points[0]["height"] / 2)  # type: ignore[index]
    page.mouse.down()
    for box in points:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)  # type: ignore[index]
    page.mouse.up()
    for c in range(4):
        expect(_cell(page, 1, c)).to_have_class(re.compile(r"\bz-C\b"))
    expect(page.locator("#total")).to_have_text(str(painted["total"]))
    assert before != [rows[1][c] for c in range(4)]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(ARTIFACTS / f"page-{width}px-painted.png"), full_page=False)


def test_cards_explain_themselves_and_no_command_line_words(session: Session) -> None:
    page = session.open()
    meta = _post_get(session.server + "/api/v1/meta")
    burbs = next(c for c in meta["cards"] if c["number"] == 8)
    page.locator('#cards [data-card="8"]').click()
    info = page.locator('#card-info li[data-card="8"]')
    expect(info).to_contain_text(f"8 · {CARD_NAMES[8]}")
    expect(info).to_contain_text(burbs["counts"])
    # A construction game without its penalty: the engine's advice names the page's field, not a flag.
    page.locator('#expansions [data-expansion="construction"]').click()
    _type_city(page, "R:EW!  C:EW  P\nP      I    C\n")
    expect(page.locator('#items tr[data-key="construction"]')).to_be_visible()
    text = page.locator("body").inner_text()
    assert not CLI_WORDS.search(text), CLI_WORDS.search(text)
    assert "header" not in text
    assert "Penalty per unfinished zone" in page.locator('#items tr[data-key="construction"]').inner_text()
    # Circle the Wagons speaks of a town.
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    expect(page.locator("#score-text")).to_have_text("Score this town")
    expect(page.locator("#city-h")).to_have_text("2 · Town")
    assert "town" in page.locator("#lead").inner_text()  # a town is photographed or typed in, like a city


def _engine_advice() -> list[str]:
    """Every line and note in which the engine (or the scanner) gives advice, as the service sends it."""
    from games.flags import breakdown_in_flag_words
    from scoring.city_text import parse_city
    from scoring.engine import score_city

    out = [
        "scoring cards not recognised: no model; give them with --cards",
        "scoring cards: 2 of 3 read; give their numbers (--cards) to score them",
    ]
    for city, expansions in (
        ("R:EW!  C:EW  P\nP I C\n", ["construction"]),
        ("R:EW C P\nP I C\n", ["beaches"]),
        ("R:EW C P\n=====\nP I C\n", ["interstate"]),
        ("R:EW C P\nP I C\n", ["roadwork"]),
        ("R:EW* C P\nP I C\n", []),
    ):
        bd = breakdown_in_flag_words(score_city(parse_city(city), [], expansions)).to_json()
        out += [i["detail"] for i in bd["items"] if "--" in i["detail"]] + [
            n for n in bd.get("notes", []) if "--" in n
        ]
    assert len(out) >= 8
    return out


def test_engine_advice_is_reworded_for_the_page(session: Session) -> None:
    page = session.open()
    reworded = page.evaluate(
        "async (texts) => { const m = await import('/static/wording.js'); return texts.map(m.pageWords); }",
        _engine_advice(),
    )
    for text in reworded:
        assert not CLI_WORDS.search(text) and "header" not in text and "=N" not in text, text
    assert any("“Penalty per unfinished zone” under Construction Zones" in t for t in reworded)
    assert any("pick them under 3 · Scoring cards" in t for t in reworded)


def _post_get(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


# Playwright does not see the bytes of a FormData body, so the page's own XMLHttpRequest.send records them:
# the body exactly as serialised for the wire, and the image part.
RECORD_UPLOADS = """
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (body) {
  if (body instanceof FormData) {
    window.__upload = (async () => {
      const wire = await new Response(body).arrayBuffer();
      const image = new Uint8Array(await body.get("image").arrayBuffer());
      let s = "";
      for (let i = 0; i < image.length; i += 8192) s += String.fromCharCode(...image.subarray(i, i + 8192));
      return { bytes: wire.byteLength, image: btoa(s) };
    })();
  }
  return send.call(this, body);
};
"""


@pytest.mark.slow
def test_photo_is_shrunk_and_the_overlay_follows_corrections(session: Session, tmp_path: Path) -> None:
    from PIL import Image

    from models.synth.scene import render_photo

    photo = render_photo(3)  # a 12 MP phone-like photo of a synthetic finished city
    path = tmp_path / "city.jpg"
    Image.fromarray(photo.image).save(path, "JPEG", quality=100, subsampling=0)
    assert path.stat().st_size > 3_000_000 and photo.image.shape[0] * photo.image.shape[1] >= 12_000_000
    session.context.add_init_script(RECORD_UPLOADS)
    page = session.open()
    with page.expect_request(lambda r: r.url.endswith("/api/v1/scans")):
        page.locator("#photo").set_input_files(str(path))
    upload = page.evaluate("window.__upload")
    assert upload["bytes"] < 3_000_000, f"upload body {upload['bytes']} bytes"
    sent = Image.open(io.BytesIO(base64.b64decode(upload["image"])))
    assert max(sent.size) <= 2016 and sent.size[0] < sent.size[1]  # portrait, as the photo
    page.locator("#result").wait_for(state="visible", timeout=60_000)
    page.wait_for_selector("#overlay-svg .ov-cell")

    city = page.locator("#city-text").input_value()
    rows = _grid_rows(city)
    assert page.locator("#overlay-svg .ov-cell").count() == sum(len(r) for r in rows)
    coords = page.locator("#overlay-svg .ov-coord").all_text_contents()
    assert coords[: len(rows[0])] == [chr(65 + c) for c in range(len(rows[0]))]
    assert coords[len(rows[0]) :] == [str(r + 1) for r in range(len(rows))]
    # The photo is shown turned like the grid: letters above the first row, numbers left of column A.
    where = page.evaluate(
        """() => {
             const mid = (el) => {
               const b = el.getBoundingClientRect();
               return [b.x + b.width / 2, b.y + b.height / 2];
             };
             const labels = [...document.querySelectorAll('#overlay-svg .ov-coord')];
             const label = (t) => labels.find(l => l.textContent === t);
             const cell = (n) => document.querySelector(`#overlay-svg .ov-cell[data-name="${n}"] polygon`);
             return { A: mid(label('A')), one: mid(label('1')), a1: mid(cell('A1')), b1: mid(cell('B1')) };
           }"""
    )
    assert where["A"][1] < where["a1"][1] and where["one"][0] < where["a1"][0], where
    assert where["b1"][0] > where["a1"][0] and abs(where["b1"][1] - where["a1"][1]) < abs(
        where["b1"][0] - where["a1"][0]
    )

    pressed = page.locator('#cards [aria-pressed="true"]')
    cards = [int(n) for n in pressed.evaluate_all("chips => chips.map(chip => chip.dataset.card)")]
    r, c, zone, new_total = _find_correction(session.server, city, cards)
    target = page.locator(f'#overlay-svg .ov-cell[data-row="{r}"][data-col="{c}"]')
    target.locator("polygon").click()  # a tap on the photo opens the same cell
    expect(page.locator("#editor-h")).to_have_text(f"Cell {chr(65 + c)}{r + 1}")
    page.locator(f'#editor input[name="kind"][value="{zone}"]').check(force=True)
    page.locator("#editor-ok").click()
    expect(page.locator("#total")).to_have_text(str(new_total))
    new_token = zone + rows[r][c][1:]
    expect(target).to_have_class(re.compile(rf"\bz-{zone}\b.*\bcorrected\b"))
    expect(target.locator("text")).to_have_text(new_token)
    expect(_cell(page, r, c)).to_have_class(re.compile(rf"\bz-{zone}\b"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#overlay-box").screenshot(path=str(ARTIFACTS / "page-overlay.png"))
    # The photo opens zoomed onto the city; "All" shows the whole photo, + and − step the zoom.
    assert int(page.locator("#zoom-level").inner_text().split()[0]) > 100
    page.locator("#zoom-fit").click()
    expect(page.locator("#zoom-level")).to_have_text("100 %")
    page.locator("#zoom-in").click()
    page.locator("#zoom-in").click()
    expect(page.locator("#zoom-level")).to_have_text("200 %")
    stage = page.evaluate("document.querySelector('#overlay-stage').getBoundingClientRect().width")
    assert stage > 1.9 * page.evaluate("document.querySelector('#overlay-view').clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    page.locator("#overlay-box").screenshot(path=str(ARTIFACTS / "page-overlay-zoomed.png"))
    # A pinch (two touch pointers moving apart) zooms in further.
    page.evaluate(
        """() => {
             const view = document.querySelector('#overlay-view');
             const b = view.getBoundingClientRect();
             const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
             const fire = (type, id, dx) => view.dispatchEvent(new PointerEvent(type, {
               pointerId: id, pointerType: 'touch', isPrimary: id === 1, bubbles: true,
               clientX: cx + dx, clientY: cy }));
             fire('pointerdown', 1, -20); fire('pointerdown', 2, 20);
             for (let d = 20; d <= 40; d += 5) { fire('pointermove', 1, -d); fire('pointermove', 2, d); }
             fire('pointerup', 1, -40); fire('pointerup', 2, 40);
           }"""
    )
    expect(page.locator("#zoom-level")).to_have_text("400 %")


def test_shrinking_honours_exif_orientation(session: Session) -> None:
    from PIL import Image

    # 4000 × 3000 pixels stored sideways, with EXIF orientation 6: it is shown (and must be sent) upright.
    stored = Image.new("RGB", (4000, 3000), (200, 40, 40))
    stored.paste((40, 40, 200), (0, 0, 400, 3000))  # a blue band on the stored image's left edge
    exif = Image.Exif()
    exif[0x0112] = 6
    buf = io.BytesIO()
    stored.save(buf, "JPEG", exif=exif.tobytes(), quality=92)
    page = session.open()
    out = page.evaluate(
        """async (b64) => {
             const { shrinkPhoto } = await import('/static/upload.js');
             const bytes = Uint8Array.from(atob(b64), ch => ch.charCodeAt(0));
             const small = await shrinkPhoto(new File([bytes], 'x.jpg', { type: 'image/jpeg' }), 2016);
             const buf = new Uint8Array(await small.blob.arrayBuffer());
             let s = ''; for (const x of buf) s += String.fromCharCode(x);
             return { w: small.width, h: small.height, jpeg: btoa(s) };
           }""",
        base64.b64encode(buf.getvalue()).decode(),
    )
    assert (out["w"], out["h"]) == (1512, 2016)
    sent = Image.open(io.BytesIO(base64.b64decode(out["jpeg"]))).convert("RGB")
    assert sent.size == (1512, 2016)
    # Turned 90° clockwise for viewing, the stored left edge is now the top.
    top, bottom = sent.getpixel((756, 20)), sent.getpixel((756, 2000))
    assert top[2] > 150 and top[0] < 100, top
    assert bottom[0] > 150 and bottom[2] < 100, bottom


def test_installable_and_the_shell_works_offline(session: Session) -> None:
    page = session.open()
    manifest = page.evaluate(
        """async () => {
             const href = document.querySelector('link[rel=manifest]').href;
             const m = await (await fetch(href)).json();
             const icons = await Promise.all(m.icons.map(i => fetch(i.src).then(r => [i.sizes, r.status])));
             return { m, icons };
           }"""
    )
    assert manifest["m"]["display"] == "standalone" and manifest["m"]["start_url"] == "/"
    assert {s for s, status in manifest["icons"] if status == 200} >= {"192x192", "512x512"}
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == session.server + "/"
    assert page.evaluate("fetch('/favicon.ico').then(r => r.status)") == 200
    shell = set(re.findall(r'"(/static/[^"]+)"', (ROOT / "api" / "web" / "static" / "sw.js").read_text()))
    served = {
        f"/static/{p.name}"
        for p in (ROOT / "api" / "web" / "static").iterdir()
        if p.name not in ("sw.js", "index.html")
    }
    assert served - shell <= {"/static/icon-512.png", "/static/icon-maskable-512.png"}, served - shell
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)

    session.context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("html[data-ready]", state="attached", timeout=10_000)
        expect(page.locator("h1")).to_have_text("sprawlscan")
        expect(page.locator("#offline")).to_be_visible()
        expect(page.locator("#offline")).to_contain_text("cannot be reached")
    finally:
        session.context.set_offline(False)


def test_no_photo_quick_path_paint_from_empty_and_keep_it(session: Session) -> None:
    page = session.open()
    page.locator("#no-photo").click()
    expect(page.locator("#city-text")).to_be_visible()
    page.locator("#empty-grid").click()
    expect(page.locator("#grid .cell.z-empty")).to_have_count(48)
    expect(page.locator("#paint-toggle")).to_have_attribute("aria-pressed", "true")
    boxes = [_cell(page, 0, c).bounding_box() for c in range(3)]
    page.mouse.move(boxes[0]["x"] + 4, boxes[0]["y"] + 4)  # type: ignore[index]
    page.mouse.down()
    for box in boxes:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=3)  # type: ignore[index]
    page.mouse.up()
    rows = [["R", "R", "R", *["."] * 5], *[["."] * 8 for _ in range(5)]]
    expected = _post(session.server + "/api/v1/score", {"rows": rows})
    expect(page.locator("#total")).to_have_text(str(expected["total"]))
    # What was entered survives a reload (kept on the phone), and is scored again.
    page.reload()
    page.wait_for_selector("html[data-ready]")
    expect(page.locator("#grid .cell.z-R")).to_have_count(3)
    expect(page.locator("#total")).to_have_text(str(expected["total"]))
