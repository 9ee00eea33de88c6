"""A stand-in for the scanner in the page's browser tests: the photo upload is answered with what a scan of
a known city would answer (its breakdown asked from the running service's own /api/v1/score, the cells'
outlines laid on the photo, the scoring cards and where they came from), so that the page's handling of
scans can be tested without reading a real photo. Only the scanner is replaced: every score the page shows
still comes from the engine behind the real server."""

from __future__ import annotations

import io
import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, Route


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def photo_jpeg(width: int, height: int) -> bytes:
    """A plain table-coloured JPEG of ``width`` × ``height`` pixels."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (120, 100, 80)).save(buf, "JPEG", quality=80)
    return buf.getvalue()


def outlines(rows: int, cols: int, box: tuple[float, float, float, float], turned: bool) -> list[dict]:
    """Cells laid evenly in ``box`` (x0, y0, x1, y1 as fractions of the photo). ``turned``: the grid's rows
    run down the photo (the photo was taken a quarter turn round), so column c lies at height c."""
    x0, y0, x1, y1 = box
    out = []
    for r in range(rows):
        for c in range(cols):
            if turned:  # row r is a column of the photo counted from the right, col c goes down
                w, h = (x1 - x0) / rows, (y1 - y0) / cols
                left, top = x1 - (r + 1) * w, y0 + c * h
                quad = [[left + w, top], [left + w, top + h], [left, top + h], [left, top]]
            else:
                w, h = (x1 - x0) / cols, (y1 - y0) / rows
                left, top = x0 + c * w, y0 + r * h
                quad = [[left, top], [left + w, top], [left + w, top + h], [left, top + h]]
            out.append(
                {"row": r, "col": c, "name": f"{chr(65 + c)}{r + 1}", "confidence": 0.99, "outline": quad}
            )
    return out


@dataclass
class FakeScan:
    """One scan's answer: the city read, the cards and their source, the warnings and the photo layout."""

    city: str
    cards: list[int] = field(default_factory=list)
    source: str | None = None
    warnings: list[str] = field(default_factory=list)
    box: tuple[float, float, float, float] = (0.1, 0.2, 0.9, 0.7)
    turned: bool = False


# Playwright does not see the fields of a FormData body, so the page's own XMLHttpRequest.send records the
# "cards" field of every upload (null when the form has none).
RECORD_CARDS = """
const send = XMLHttpRequest.prototype.send;
window.__sentCards = [];
XMLHttpRequest.prototype.send = function (body) {
  if (body instanceof FormData) window.__sentCards.push(body.get("cards"));
  return send.call(this, body);
};
"""


@dataclass
class ScanStub:
    """Answers the page's uploads in turn with ``scans`` (None: the real server answers that one);
    :meth:`sent_cards` says whether each upload carried scoring cards (the form's ``cards`` field)."""

    server: str
    scans: list[FakeScan | None]
    answered: int = 0
    page: Page | None = None

    def install(self, page: Page) -> None:
        """Call before the page is opened (the recorder is an init script)."""
        self.page = page
        page.add_init_script(RECORD_CARDS)
        page.route("**/api/v1/scans", self._answer)

    def sent_cards(self) -> list[str | None]:
        assert self.page is not None
        return list(self.page.evaluate("window.__sentCards"))

    def _answer(self, route: Route) -> None:
        self.answered += 1
        scan = self.scans.pop(0)
        if scan is None:
            route.continue_()
            return
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.answer(scan)))

    def answer(self, scan: FakeScan) -> dict[str, Any]:
        bd = post(self.server + "/api/v1/score", {"city": scan.city, "cards": scan.cards})
        rows = [line.split() for line in scan.city.strip().splitlines()]
        cells = outlines(len(rows), len(rows[0]), scan.box, scan.turned)
        for cell in cells:
            cell["label"] = rows[cell["row"]][cell["col"]]
        sc = {
            "cards": scan.cards or None,
            "source": scan.source,
            "backs": [],
            "from_city": None,
            "in_doubt": [],
        }
        return {
            **bd,
            "scan_id": f"stub-{self.answered}",
            "overlay": None,
            "cells": cells,
            "placements": [],
            "cards_source": scan.source,
            "scoring_cards": sc if scan.cards else None,
            "warnings": scan.warnings,
        }
