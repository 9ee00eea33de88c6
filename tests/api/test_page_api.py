"""What the phone page needs from the service: the cards with what they count, the scanner's working size,
each scanned cell's outline on the photo, and the installable shell's files (service worker at the root,
manifest, icons, favicon)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from scoring.card_rules import CARD_RULES


def test_meta_cards_say_what_they_count_and_the_scan_size(client: TestClient) -> None:
    from vision.pipeline import WORK_LONG_SIDE

    meta = client.get("/api/v1/meta").json()
    assert {c["number"]: c["counts"] for c in meta["cards"]} == CARD_RULES
    assert meta["photo_long_side"] == WORK_LONG_SIDE


def test_shell_files_are_served(client: TestClient) -> None:
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert "caches.open" in sw.text
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    for icon in json.loads(manifest.text)["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon
    assert client.get("/favicon.ico").headers["content-type"] == "image/png"
    page = client.get("/").text
    assert 'rel="manifest"' in page and 'rel="icon"' in page and 'type="module"' in page


@pytest.mark.slow
def test_scanned_cells_carry_their_outline_on_the_photo(client: TestClient) -> None:
    with open("samples/demo.jpg", "rb") as fh:
        resp = client.post("/api/v1/scans", files={"image": ("demo.jpg", fh, "image/jpeg")})
    assert resp.status_code == 200, resp.text
    cells = resp.json()["cells"]
    assert cells and all(len(c["outline"]) == 4 for c in cells)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for c in cells for x, y in c["outline"])
    # Neighbouring cells meet (within 1 % of the photo; the lattice drifts a little): B1 starts where A1 ends.
    by_name = {c["name"]: c["outline"] for c in cells}
    assert by_name["B1"][0] == pytest.approx(by_name["A1"][1], abs=0.01)
    assert by_name["A2"][0] == pytest.approx(by_name["A1"][3], abs=0.01)
