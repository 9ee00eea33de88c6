"""End to end in a real browser: headless Chromium (Debian's package) drives the page served by a real
``sprawlscan serve`` process on a free loopback port.

Expected totals are asked from the running service's JSON API, never hard-coded: the test checks that the
page shows what the engine computes and that a correction made by tapping a cell changes it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).parents[1] / "artifacts"


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def _grid_rows(city_text: str) -> list[list[str]]:
    """The cell rows of a canonical city text (header lines and the interstate line left out)."""
    rows = []
    for line in city_text.splitlines():
        words = line.split()
        if not words or set(line.strip()) == {"="} or (words[0].endswith(":") and len(words[0]) > 2):
            continue
        rows.append(words)
    return rows


def _find_correction(server: str, city: str, cards: list[int]) -> tuple[int, int, str, int]:
    """A cell and a new zone for it that change the total: (row, col, zone, new total), by asking the API."""
    before = _post(server + "/api/v1/score", {"city": city, "cards": cards})["total"]
    rows = _grid_rows(city)
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token[0] not in "RCIP" or ":" in token:  # roadless blocks: any zone may replace them
                continue
            for zone in "RCIP":
                if zone == token[0]:
                    continue
                trial = [list(x) for x in rows]
                trial[r][c] = zone + token[1:]
                after = _post(server + "/api/v1/score", {"rows": trial, "cards": cards})["total"]
                if after != before:
                    return r, c, zone, after
    raise AssertionError("no single-cell change alters the total of this city")


def _correct_cell(page, r: int, c: int, zone: str) -> None:  # type: ignore[no-untyped-def]
    page.locator(f'#grid .cell[data-row="{r}"][data-col="{c}"]').click()
    page.locator("#editor").wait_for(state="visible")
    page.locator(f'#editor input[name="kind"][value="{zone}"]').check(force=True)
    page.locator("#editor-ok").click()


def test_typed_city_score_correct_and_check_tally(server: str, page) -> None:  # type: ignore[no-untyped-def]
    city = (
        "R:EW  I:EW  R:EW  C:EW  I:EW  C:EW\n"
        "P     C:SE  I:SW  P     P     R:SE\n"
        ".     C:NS  P     P     P     I:NS\n"
    )
    cards = [8, 7, 17]
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.locator("summary").click()
    page.locator("#city-text").fill(city)
    for n in cards:
        page.locator(f'#cards [data-card="{n}"]').click()
    page.locator("#score-text").click()
    expected = _post(server + "/api/v1/score", {"city": city, "cards": cards})
    expect(page.locator("#total")).to_have_text(str(expected["total"]))
    assert page.locator("#items tr").count() == len(expected["items"])
    # Tapping a line of the breakdown outlines the cells it counted.
    roads = next(i for i in expected["items"] if i["key"] == "roads")
    page.locator('#items tr[data-key="roads"]').click()
    expect(page.locator("#grid .cell.hl")).to_have_count(len(roads["cells"]))

    r, c, zone, new_total = _find_correction(server, city, cards)
    _correct_cell(page, r, c, zone)
    expect(page.locator("#total")).to_have_text(str(new_total))
    assert page.locator("#sticky").inner_text().startswith(f"Total {new_total}")

    # A tally with one wrong line: the page marks exactly the lines the service says disagree.
    corrected = page.locator("#city-text").input_value()
    shown = _post(server + "/api/v1/score", {"city": corrected, "cards": cards})
    roads = next(i["points"] for i in shown["items"] if i["key"] == "roads")
    tally = f"roads {roads}\ntotal {shown['total'] + 3}\n"
    page.locator("#tally").fill(tally)
    page.locator("#check").click()
    page.locator("#tally-result li").first.wait_for()
    assert page.locator("#tally-result li.disagree").count() >= 1
    assert page.locator("#tally-result li.agree").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-typed-city.png"), full_page=True)


def test_photo_upload_breakdown_and_correction(server: str, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from models.synth.scene import render_photo

    path = tmp_path / "city.jpg"
    path.write_bytes(render_photo(3).jpeg)  # a 12 MP phone-like JPEG of a synthetic finished city
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.locator("#photo").set_input_files(str(path))
    page.locator("#result").wait_for(state="visible", timeout=60_000)
    expect(page.locator("#overlay")).to_be_visible()
    assert page.locator("#overlay").evaluate("img => img.decode().then(() => img.naturalWidth)") > 100
    total = int(page.locator("#total").inner_text())
    city = page.locator("#city-text").input_value()
    pressed = page.locator('#cards [aria-pressed="true"]')
    cards = [int(n) for n in pressed.evaluate_all("chips => chips.map(chip => chip.dataset.card)")]
    body = {"city": city, "cards": cards} if cards else {"city": city}
    assert _post(server + "/api/v1/score", body)["total"] == total
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-scan.png"), full_page=True)

    r, c, zone, new_total = _find_correction(server, city, cards)
    _correct_cell(page, r, c, zone)
    expect(page.locator("#total")).to_have_text(str(new_total))
    assert new_total != total
    page.screenshot(path=str(ARTIFACTS / "browser-scan-corrected.png"), full_page=True)


def test_wagons_town_score_and_correct(server: str, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    expect(page.locator("#photo-card")).to_be_visible()  # a town can be photographed too
    page.locator('#goals [data-goal="cool-water"]').click()
    page.locator("#score-text").click()
    town = page.locator("#city-text").input_value()
    options = {"goals": ["cool-water"]}
    expected = _post(server + "/api/v1/score", {"game": "wagons", "city": town, "options": options})
    expect(page.locator("#total")).to_have_text(str(expected["total"]))

    # Turn B2 (a desert between deserts) into water: the largest desert group shrinks.
    rows = _grid_rows(town)
    rows[1][1] = "W/" + rows[1][1].split("/")[1]
    changed = _post(server + "/api/v1/score", {"game": "wagons", "rows": rows, "options": options})
    assert changed["total"] != expected["total"]
    page.locator('#grid .cell[data-row="1"][data-col="1"]').click()
    page.locator('#editor input[name="terrain"][value="W"]').check(force=True)
    page.locator("#editor-ok").click()
    expect(page.locator("#total")).to_have_text(str(changed["total"]))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-wagons.png"), full_page=True)


def _get(url: str, token: str) -> dict:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def test_scan_save_reload_history_and_stats(server: str, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from models.synth.scene import render_photo

    path = tmp_path / "city.jpg"
    path.write_bytes(render_photo(5).jpeg)
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    expect(page.locator("#history-empty")).to_be_visible()  # a new browser profile: a new device
    page.locator("#photo").set_input_files(str(path))
    page.locator("#result").wait_for(state="visible", timeout=60_000)
    total = int(page.locator("#total").inner_text())
    city = page.locator("#city-text").input_value()
    page.locator("#game-label").fill("Browser test")
    page.locator("#game-players").fill("Ann, Bo")
    page.locator("#save-game-btn").click()
    expect(page.locator("#save-status")).to_have_text(f"Saved: {total} points.")
    expect(page.locator("#history li")).to_have_count(1)

    page.reload()
    # The game on screen survives the reload, and the saved one is in the history and the statistics.
    expect(page.locator("#total")).to_have_text(str(total))
    assert page.locator("#city-text").input_value() == city
    expect(page.locator("#save-status")).to_have_text("This game is saved.")  # no second copy by accident
    expect(page.locator("#save-game-btn")).to_be_disabled()
    item = page.locator("#history li")
    expect(item).to_have_count(1)
    expect(item.locator(".g-total")).to_have_text(f"{total} points")
    expect(item.locator(".g-meta")).to_contain_text("Browser test")
    expect(item.locator(".g-meta")).to_contain_text("Ann, Bo")
    overall = page.locator("#stats table").first.locator("tr.overall")
    expect(overall).to_be_visible()
    cells = overall.locator("td").all_inner_texts()
    assert cells[0] == "1" and cells[3] == str(total) and cells[4] == str(total)
    # What the page shows is what the service holds for this browser's device token.
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    history = _get(server + "/api/v1/games", token)
    assert history["count"] == 1 and history["games"][0]["total"] == total
    assert history["games"][0]["label"] == "Browser test" and history["games"][0]["players"] == ["Ann", "Bo"]
    stats = _get(server + "/api/v1/stats", token)
    assert stats["games"] == 1 and stats["sections"][0]["overall"]["best"] == total
    # The scan was sent with the token, so it is this device's alone: after the reload its picture came
    # back all the same (fetched with the token), and without the token the scan is not found.
    overlay = page.locator("#overlay")
    expect(overlay).to_be_visible()
    assert overlay.evaluate("img => img.decode().then(() => img.naturalWidth)") > 100
    scan_id = page.evaluate("JSON.parse(localStorage.getItem('sprawlscan:draft:v1')).scanId")
    assert _get(server + f"/api/v1/scans/{scan_id}", token)["scan_id"] == scan_id
    with pytest.raises(urllib.error.HTTPError) as anonymous:
        urllib.request.urlopen(server + f"/api/v1/scans/{scan_id}/overlay", timeout=30)
    assert anonymous.value.code == 404
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-games.png"), full_page=True)


def test_a_kept_token_the_server_never_issued_is_replaced_and_the_page_goes_on(server: str, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "/")
    page.locator("#cards .chip").first.wait_for()
    page.evaluate("localStorage.setItem('sprawlscan.device-token', 'q'.repeat(43))")  # a database replaced
    page.reload()
    page.locator("#cards .chip").first.wait_for()
    expect(page.locator("#history-empty")).to_be_visible()
    expect(page.locator("#games-error")).to_be_hidden()
    token = page.evaluate("localStorage.getItem('sprawlscan.device-token')")
    assert token != "q" * 43
    assert _get(server + "/api/v1/stats", token)["games"] == 0  # the new token is one the server issued
