"""A Circle the Wagons town photographed on the phone page, in Chromium: the page follows the game the
scanner tells (switching to its town mode from Sprawlopolis), shows the town in the grid and outlined on
the photo, lets a cell be corrected and the goal cards be picked, and shows the breakdown the running
service gives for that town; before the first town scan it suggests teaching the deck. The first test
reads a rendered town photo (models.synth.wagons, seed 501) with the real scanner; the second stands in
for the scanner to give a town with a doubtful cell, as the page must mark it and apply its alternative
in one tap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from tests.api.page_session import Session
from tests.api.test_town_scan_cli import grid_rows, town_photo, truth_rows
from tests.page_stubs import photo_jpeg, post

pytestmark = pytest.mark.browser


def page_rows(page: Page) -> list[str]:
    """The grid on the page, row by row, as town tokens (an empty cell shows none: '.')."""
    rows = page.evaluate(
        """() => { const out = [];
           for (const b of document.querySelectorAll('#grid .cell')) {
             const r = Number(b.dataset.row); const t = b.querySelector('.tok');
             (out[r] = out[r] || [])[Number(b.dataset.col)] = t ? t.textContent : '.'; }
           return out.map(r => r.join(' ')); }"""
    )
    return list(rows)


def score(server: str, rows: list[str], goals: list[str]) -> dict:
    return post(
        server + "/api/v1/score", {"game": "wagons", "city": "\n".join(rows), "options": {"goals": goals}}
    )


def test_a_town_photo_switches_the_page_to_its_town_and_scores_the_corrected_town_with_the_goals_picked(
    session: Session, tmp_path: Path
) -> None:
    photo = tmp_path / "town.jpg"
    photo.write_bytes(town_photo().jpeg)
    page = session.open()
    hint = page.locator("#game-photo-hint")
    expect(hint).to_be_hidden()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    expect(hint).to_be_visible()  # before the first town scan: teach the deck, and why
    expect(hint).to_contain_text("rulebook")
    expect(page.locator("#deck-game-note")).to_contain_text("lay your 18 Circle the Wagons cards")
    page.locator(".game-switch label", has_text="Sprawlopolis").click()

    page.locator("#photo").set_input_files(str(photo))  # uploaded in Sprawlopolis mode
    expect(page.locator('input[name="game"][value="wagons"]')).to_be_checked(timeout=60_000)
    expect(page.locator("#city-h")).to_have_text("2 · Town")
    rows = truth_rows()
    assert page_rows(page) == rows
    expect(page.locator("#total")).to_have_text(str(score(session.server, rows, [])["total"]))
    # The photo shows each cell of the town outlined where it lies, a territory labelled with its type.
    expect(page.locator("#overlay-box")).to_be_visible()
    expect(page.locator("#overlay-svg .ov-cell")).to_have_count(sum(len(row.split()) for row in rows))
    expect(page.locator("#overlay-svg .ov-cell.t-D, #overlay-svg .ov-cell.t-F, #overlay-svg .ov-cell.t-M, "
                        "#overlay-svg .ov-cell.t-P, #overlay-svg .ov-cell.t-S, #overlay-svg .ov-cell.t-W")
           ).to_have_count(sum(t != "." for row in rows for t in row.split()))  # fmt: skip
    page.locator(".game-switch label", has_text="Sprawlopolis").click()
    page.locator(".game-switch label", has_text="Circle the Wagons").click()
    expect(hint).to_be_hidden()  # a town was scanned in this browser

    page.locator("#photo").set_input_files(str(photo))
    expect(page.locator("#total")).to_be_visible(timeout=60_000)
    r, c = next((r, c) for r, row in enumerate(rows) for c, t in enumerate(row.split()) if t != ".")
    page.locator(f'#grid .cell[data-row="{r}"][data-col="{c}"]').click()
    page.locator('#editor input[name="terrain"][value="W"]').check(force=True)
    page.locator('#editor input[name="icon"][value="g"]').check(force=True)
    page.locator("#editor-ok").click()
    corrected = [row.split() for row in rows]
    corrected[r][c] = "W/g"
    corrected_rows = [" ".join(row) for row in corrected]
    for goal in ("cool-water", "badlands"):
        page.locator(f'#goals [data-goal="{goal}"]').click()
    expected = score(session.server, corrected_rows, ["cool-water", "badlands"])
    expect(page.locator("#total")).to_have_text(str(expected["total"]))
    assert page_rows(page) == corrected_rows
    table = page.locator("#score-table")
    expect(table).to_contain_text("Cool Water")
    expect(table).to_contain_text("Badlands")


def test_a_towns_doubtful_cell_is_marked_and_one_tap_puts_its_alternative_in_and_rescores(
    session: Session, tmp_path: Path
) -> None:
    rows = truth_rows()
    r, c = next((r, c) for r, row in enumerate(rows) for c, t in enumerate(row.split()) if t != ".")
    read = rows[r].split()[c]
    other = "S/m" if read != "S/m" else "D/m"
    changed = [row.split() for row in rows]
    changed[r][c] = other
    changed_rows = [" ".join(row) for row in changed]
    name = f"{chr(65 + c)}{r + 1}"
    town = "game: wagons\n" + "\n".join(rows) + "\n"
    alternative = {"label": other, "total": score(session.server, changed_rows, [])["total"]}
    why = "read otherwise by the territory reader"
    answer = {
        **post(session.server + "/api/v1/score", {"game": "wagons", "city": town}),
        "scan_id": "stub-town",
        "overlay": None,
        "cells": [],
        "warnings": [],
        "retake": None,
        "doubt": [
            {"cell": name, "row": r, "col": c, "reading": read, "why": why, "alternatives": [alternative]}
        ],
    }
    assert answer["game"] == "wagons" and grid_rows(answer["city"]) == rows

    def fulfil(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    session.page.route("**/api/v1/scans", fulfil)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photo_jpeg(600, 800))
    page = session.open()
    page.locator("#photo").set_input_files(str(photo))
    expect(page.locator('input[name="game"][value="wagons"]')).to_be_checked()
    expect(page.locator("#doubt-count")).to_have_text("1 cell to check")
    expect(page.locator(f'#grid .cell.doubt[data-row="{r}"][data-col="{c}"]')).to_have_count(1)
    alt = page.locator(f'#doubts button.alt[data-label="{other}"]')
    expect(alt).to_contain_text(str(answer["doubt"][0]["alternatives"][0]["total"]))
    alt.click()
    expect(page.locator("#total")).to_have_text(str(answer["doubt"][0]["alternatives"][0]["total"]))
    expect(page.locator("#grid .cell.doubt")).to_have_count(0)
    assert page_rows(page) == changed_rows
