"""The web service through FastAPI's test client: every endpoint and every error path.

Scores are compared with the engine called directly (never hard-coded), so these tests check the service's
plumbing: requests become the right engine calls, results and errors come back in the documented shape.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Iterator
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.web import Settings, create_app
from api.web.uploads import sniff_image_type
from scoring.city import cell_name
from scoring.city_text import parse_city
from scoring.engine import score_city
from tests.conftest import CARDS, CITY, TOWN, assert_error, engine_json, png_bomb, png_bytes

# ---- service basics ----------------------------------------------------------------------------------------


def test_healthz(client: TestClient) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and isinstance(body["scanner"], bool) and body["version"]


def test_page_and_static_assets(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'capture="environment"' in page.text and 'accept="image/*"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset, kind in (("/static/app.js", "javascript"), ("/static/app.css", "text/css")):
        resp = client.get(asset)
        assert resp.status_code == 200 and kind in resp.headers["content-type"], asset


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path, method in (
        ("/api/v1/scans", "post"),
        ("/api/v1/scans/{scan_id}", "get"),
        ("/api/v1/scans/{scan_id}/overlay", "get"),
        ("/api/v1/score", "post"),
        ("/api/v1/check", "post"),
        ("/healthz", "get"),
    ):
        assert method in paths[path], path
    upload = paths["/api/v1/scans"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert upload["required"] == ["image"]
    assert client.get("/docs").status_code == 200


def test_meta_lists_cards_and_expansions(client: TestClient) -> None:
    from scoring.cards import CARD_NAMES

    meta = client.get("/api/v1/meta").json()
    assert [c["number"] for c in meta["cards"]] == list(range(1, 19))
    assert {c["number"]: c["name"] for c in meta["cards"]} == CARD_NAMES
    assert "easier" in meta["variants"]
    assert meta["max_upload_bytes"] == 4_000_000
    # Every expansion the page offers is accepted by the engine.
    split = CITY.replace("\n", "\n=====\n", 1)
    for exp in meta["expansions"]:
        city = split if exp["name"] == "interstate" else CITY
        resp = client.post("/api/v1/score", json={"city": city, "expansions": [exp["name"]]})
        assert resp.status_code == 200, (exp, resp.text)


def test_unknown_path_and_method_are_json(client: TestClient) -> None:
    assert_error(client.get("/api/v1/nothing"), 404, "not_found", "/api/v1/nothing")
    assert_error(client.delete("/api/v1/score"), 405, "method_not_allowed", "DELETE")
    assert_error(client.get("/api/v1/score"), 405, "method_not_allowed")


# ---- /api/v1/score -----------------------------------------------------------------------------------------


def test_score_city_text_matches_engine(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"city": CITY, "cards": CARDS})
    assert resp.status_code == 200
    assert resp.json() == engine_json(CITY, CARDS)


def test_score_rows_equals_text(client: TestClient) -> None:
    rows = [line.split() for line in CITY.splitlines()]
    by_rows = client.post("/api/v1/score", json={"rows": rows, "cards": CARDS}).json()
    assert by_rows == client.post("/api/v1/score", json={"city": CITY, "cards": CARDS}).json()


def test_score_header_cards_and_override(client: TestClient) -> None:
    text = "cards: 3 6 9\n" + CITY
    header = client.post("/api/v1/score", json={"city": text}).json()
    assert header["cards"] == [3, 6, 9] and header["target"] == 18
    override = client.post("/api/v1/score", json={"city": text, "cards": [12]}).json()
    assert override["cards"] == [12] and override["target"] == 12
    assert override == engine_json(text, [12])


def test_score_variant_and_options_reach_engine(client: TestClient) -> None:
    easier = client.post("/api/v1/score", json={"city": CITY, "variant": "easier"}).json()
    assert easier == engine_json(CITY, variant="easier")
    assert easier["total"] > client.post("/api/v1/score", json={"city": CITY}).json()["total"]
    city = CITY.replace("P     C:SE", "P     C:SE!", 1)
    body = {"city": city, "expansions": ["construction"], "options": {"construction-penalty": 3}}
    with_penalty = client.post("/api/v1/score", json=body).json()
    assert with_penalty == engine_json(
        city, expansions=["construction"], options={"construction-penalty": "3"}
    )
    assert [i["points"] for i in with_penalty["items"] if i["key"] == "construction"] == [-3]


def test_score_interstate_line_in_text(client: TestClient) -> None:
    lines = CITY.splitlines()
    split = "\n".join([lines[0], "=" * 20, *lines[1:]]) + "\n"
    resp = client.post("/api/v1/score", json={"city": split})
    assert resp.status_code == 200
    assert resp.json()["city"].splitlines()[1].startswith("===")


def test_malformed_city_names_line_and_column(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"city": "R:EW  P\nP     I:XW\n"})
    assert_error(resp, 400, "malformed_city", "line 2, column 9", "'X'")
    ragged = client.post("/api/v1/score", json={"city": "R:EW  P\nP\n"})
    assert_error(ragged, 400, "malformed_city", "line 2")
    bad_rows = client.post("/api/v1/score", json={"rows": [["R:EW", "P"], ["P", "Q"]]})
    assert_error(bad_rows, 400, "malformed_city", "line 2, column 2", "'Q'")
    empty = client.post("/api/v1/score", json={"city": "# nothing here\n"})
    assert_error(empty, 400, "malformed_city", "no city grid")


def test_unknown_and_repeated_cards(client: TestClient) -> None:
    assert_error(
        client.post("/api/v1/score", json={"city": CITY, "cards": [8, 19]}), 400, "unknown_card", "19"
    )
    assert_error(client.post("/api/v1/score", json={"city": CITY, "cards": [0]}), 400, "unknown_card")
    assert_error(
        client.post("/api/v1/score", json={"city": CITY, "cards": [8, 8]}), 400, "unknown_card", "twice"
    )
    header = client.post("/api/v1/score", json={"city": "cards: 40\n" + CITY})
    assert_error(header, 400, "unknown_card", "40")


def test_a_game_never_holds_more_scoring_cards_than_three(client: TestClient) -> None:
    four = client.post("/api/v1/score", json={"city": CITY, "cards": [1, 2, 3, 4]})
    assert_error(four, 400, "wrong_card_count", "exactly 3 scoring cards; 4 given (1 2 3 4)")
    header = client.post("/api/v1/score", json={"city": "cards: 5 9\n" + CITY})
    assert_error(header, 400, "wrong_card_count", "line 1, column 11", "2 given (5 9)")
    # The page scores the cards as they are picked, so a set of fewer than three is still scored.
    assert client.post("/api/v1/score", json={"city": CITY, "cards": [5, 9]}).json()["target"] == 14


def test_unknown_expansion_and_variant(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"city": CITY, "expansions": ["dragons"]})
    assert_error(resp, 400, "unknown_expansion", "dragons")
    resp = client.post("/api/v1/score", json={"city": CITY, "variant": "impossible"})
    assert_error(resp, 400, "unknown_variant", "impossible")
    resp = client.post("/api/v1/score", json={"city": CITY, "options": {"construction-penalty": [1]}})
    assert_error(resp, 400, "bad_form_field", "construction-penalty")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ["'city' or as 'rows'"]),
        ({"city": CITY, "rows": [["P"]]}, ["not both"]),
        ({"city": CITY, "cards": ["eight"]}, ["cards.0"]),
        ({"city": CITY, "surprise": 1}, ["surprise"]),
        ({"city": CITY, "game": "chess"}, ["game"]),
        ({"city": "P " * 20_000}, ["city"]),
    ],
)
def test_invalid_score_requests(client: TestClient, body: dict, words: list[str]) -> None:
    assert_error(client.post("/api/v1/score", json=body), 422, "invalid_request", *words)


def test_json_body_size_is_bounded() -> None:
    with TestClient(create_app(Settings(max_json_bytes=10_000))) as c:
        big = {"city": CITY, "rows": None, "tally": "x" * 20_000}
        assert_error(c.post("/api/v1/check", json=big), 413, "too_large", "10,000 bytes")

        def chunked() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"city": "'
            for _ in range(30):
                yield b"P " * 500
            yield b'"}'

        resp = c.post("/api/v1/score", content=chunked(), headers={"content-type": "application/json"})
        assert_error(resp, 413, "too_large")
        assert c.post("/api/v1/score", json={"city": CITY}).status_code == 200


def test_score_body_not_json(client: TestClient) -> None:
    resp = client.post("/api/v1/score", content=b"{city:", headers={"content-type": "application/json"})
    assert_error(resp, 422, "invalid_request", "not valid JSON")


# ---- /api/v1/scans: upload errors that never reach the scanner ---------------------------------------------


def test_scan_rejects_non_multipart(client: TestClient) -> None:
    resp = client.post("/api/v1/scans", json={"image": "x"})
    assert_error(resp, 415, "unsupported_media_type", "multipart/form-data")


def test_scan_requires_image_part(client: TestClient) -> None:
    resp = client.post("/api/v1/scans", data={"cards": "8 7 17"}, files={"other": ("a.txt", b"hi")})
    assert_error(resp, 400, "bad_upload", "'image'")


@pytest.mark.parametrize(
    "payload", [b"hello, this is text", b"", b"GIF89a" + b"\x00" * 64, b"%PDF-1.7\n" + b"x" * 100]
)
def test_scan_not_an_image(client: TestClient, payload: bytes) -> None:
    # The client's claimed type is ignored: the bytes decide.
    resp = client.post("/api/v1/scans", files={"image": ("city.jpg", payload, "image/jpeg")})
    assert_error(resp, 415, "not_an_image", "JPEG, PNG, WebP or HEIC")


def test_scan_too_large_by_declared_length_is_refused_before_reading(client: TestClient) -> None:
    consumed = []

    def body() -> Iterator[bytes]:
        for i in range(100):
            consumed.append(i)
            yield b"x" * 100_000

    headers = {"content-type": "multipart/form-data; boundary=xyz", "content-length": str(10_000_000)}
    resp = client.post("/api/v1/scans", content=body(), headers=headers)
    assert_error(resp, 413, "too_large", "4 MB")
    assert len(consumed) < 100  # the service answered without reading the whole body


def test_scan_too_large_when_streamed_without_length(client: TestClient) -> None:
    big = b"\xff\xd8\xff\xe0" + b"\x00" * 5_000_000
    boundary = b"b0undary"
    payload = (
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n" + big + b"\r\n--" + boundary + b"--\r\n"
    )

    def chunked() -> Iterator[bytes]:  # no Content-Length: the limit is enforced while streaming
        for i in range(0, len(payload), 65536):
            yield payload[i : i + 65536]

    resp = client.post(
        "/api/v1/scans",
        content=chunked(),
        headers={"content-type": "multipart/form-data; boundary=b0undary"},
    )
    assert_error(resp, 413, "too_large")


def test_scan_malformed_multipart(client: TestClient) -> None:
    resp = client.post(
        "/api/v1/scans",
        content=b"--zz\r\nno headers at all",
        headers={"content-type": "multipart/form-data; boundary=zz"},
    )
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "bad_upload"
    no_boundary = client.post("/api/v1/scans", content=b"x", headers={"content-type": "multipart/form-data"})
    assert_error(no_boundary, 400, "bad_upload", "boundary")


def test_scan_bad_form_fields(client: TestClient) -> None:
    files = {"image": ("a.png", png_bytes(), "image/png")}
    resp = client.post("/api/v1/scans", files=files, data={"cards": "8 seven"})
    assert_error(resp, 400, "bad_form_field", "seven")
    resp = client.post("/api/v1/scans", files=files, data={"options": "{not json"})
    assert_error(resp, 400, "bad_form_field", "options")


def _migrated(folder: Path) -> str:
    """A database with the schema, as the start-up leaves it (an app called without its start-up has none)."""
    from api.storage.engine import connect, migrate

    migrate(connect(f"sqlite:///{folder / 'api.db'}"))
    return str(folder / "api.db")


def test_busy_service_answers_503_with_retry_after(tmp_path: Path) -> None:
    import anyio
    import httpx

    app = create_app(Settings(max_pending_scans=1, database_path=_migrated(tmp_path)))
    headers = {"content-type": "multipart/form-data; boundary=b"}

    async def run() -> httpx.Response:
        release = anyio.Event()

        async def held_body() -> AsyncIterator[bytes]:  # the one allowed upload, still arriving
            yield b"--b\r\n"
            await release.wait()
            yield b"--b--\r\n"

        transport = httpx.ASGITransport(app=app)
        client = httpx.AsyncClient(transport=transport, base_url="http://localhost")
        async with client, anyio.create_task_group() as group:
            group.start_soon(partial(client.post, "/api/v1/scans", content=held_body(), headers=headers))
            await anyio.sleep(0.2)
            files = {"image": ("a.png", png_bytes(), "image/png")}
            resp = await client.post("/api/v1/scans", files=files)
            release.set()
        return resp

    resp = anyio.run(run)
    assert_error(resp, 503, "busy")
    assert resp.headers["retry-after"]


def test_unknown_scan_id(client: TestClient) -> None:
    assert_error(client.get("/api/v1/scans/nope"), 404, "scan_not_found", "nope")
    assert_error(client.get("/api/v1/scans/nope/overlay"), 404, "scan_not_found")
    resp = client.post("/api/v1/check", json={"scan_id": "nope", "tally": "total 3"})
    assert_error(resp, 404, "scan_not_found")


# ---- the upload helpers ----------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "name"), [("JPEG", "jpeg"), ("PNG", "png"), ("WEBP", "webp")])
def test_sniff_real_images(fmt: str, name: str) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), (10, 20, 30)).save(buf, fmt)
    assert sniff_image_type(buf.getvalue()[:32]) == name


def test_sniff_heic_brand() -> None:
    assert sniff_image_type(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic") == "heif"
    assert sniff_image_type(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00") is None  # an MP4 video


def test_settings_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRAWLSCAN_MAX_UPLOAD_BYTES", "1234")
    monkeypatch.setenv("SPRAWLSCAN_SCAN_TTL_S", "2.5")
    monkeypatch.setenv("SPRAWLSCAN_DATABASE_URL", "postgresql://db.example/sprawlscan")
    settings = Settings.from_env()
    assert settings.max_upload_bytes == 1234 and settings.scan_ttl_s == 2.5
    assert settings.database_url == "postgresql://db.example/sprawlscan"
    monkeypatch.setenv("SPRAWLSCAN_SCAN_WORKERS", "many")
    with pytest.raises(ValueError, match="SPRAWLSCAN_SCAN_WORKERS must be a positive whole number"):
        Settings.from_env()


# ---- /api/v1/scans: photos that reach the scanner ----------------------------------------------------------


def image_bytes(
    fmt: str, size: tuple[int, int] = (1200, 900), colour: tuple[int, int, int] = (205, 200, 190)
) -> bytes:
    if fmt == "HEIF":
        import pillow_heif

        pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, fmt)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "HEIF"])
def test_scan_photo_without_a_city(client: TestClient, fmt: str) -> None:
    # Every supported format is decoded (by content), and a blank table is "no city", not a made-up grid.
    files = {"image": ("table.bin", image_bytes(fmt), "application/octet-stream")}
    assert_error(client.post("/api/v1/scans", files=files), 422, "no_city_found", "no city")


def test_scan_truncated_image(client: TestClient) -> None:
    data = image_bytes("JPEG", colour=(90, 140, 200))
    cut = data[: len(data) // 2]
    resp = client.post("/api/v1/scans", files={"image": ("city.jpg", cut, "image/jpeg")})
    assert_error(resp, 400, "truncated_image", "JPEG")


def test_scan_pixel_bomb(client: TestClient) -> None:
    bomb = png_bomb()
    assert len(bomb) < 2000  # a tiny file that claims 10 gigapixels
    resp = client.post("/api/v1/scans", files={"image": ("bomb.png", bomb, "image/png")})
    assert_error(resp, 413, "image_too_large", "pixels")


def test_scan_image_too_small(client: TestClient) -> None:
    resp = client.post("/api/v1/scans", files={"image": ("tiny.png", png_bytes(40, 30), "image/png")})
    assert_error(resp, 400, "image_too_small")


@pytest.fixture(scope="module")
def city_photo() -> bytes:
    from models.synth.scene import render_photo

    return render_photo(3).jpeg


@pytest.mark.slow
def test_scan_city_photo_end_to_end(city_photo: bytes) -> None:
    app = create_app(Settings(max_upload_bytes=25_000_000))
    with TestClient(app) as c:
        resp = c.post(
            "/api/v1/scans", files={"image": ("city.jpg", city_photo, "image/jpeg")}, data={"cards": "8 7 17"}
        )
        assert resp.status_code == 200, resp.text
        result = resp.json()
        # The breakdown is the engine's for the city that was read, with the cards given.
        scan_fields = (
            "cells",
            "placements",
            "scoring_cards_from_city",
            "cards_source",
            "scoring_cards",
            "warnings",
            "doubt",
            "retake",
            "needs_deck",
            "scan_id",
            "overlay",
            "timings",
            "taught_deck",
        )
        breakdown = {k: v for k, v in result.items() if k not in scan_fields}
        assert result["cards_source"] == "given" and result["scoring_cards"]["cards"] == [7, 8, 17]
        assert result["retake"] is None  # a clear photo is scored
        assert result["timings"]["total"] > 0
        assert breakdown == engine_json(result["city"], CARDS)
        city = parse_city(result["city"])
        assert len(result["cells"]) == city.n_rows * city.n_cols
        # The city was read as known cards: the cards it placed, and each block's card.
        assert result["placements"] and {"card", "rotated", "row", "col"} == set(result["placements"][0])
        assert any(cell["card"] is not None for cell in result["cells"])
        for cell in result["cells"]:
            assert cell["label"] == city.cell(cell["row"], cell["col"]).token()
            assert cell["name"] == cell_name(cell["row"], cell["col"])
            assert 0.0 <= cell["confidence"] <= 1.0
        assert all(isinstance(w, str) for w in result["warnings"])
        # The result, its overlay and a tally check by scan id are all available afterwards.
        assert c.get(f"/api/v1/scans/{result['scan_id']}").json() == result
        overlay = c.get(result["overlay"])
        assert overlay.headers["content-type"] == "image/jpeg"
        assert Image.open(io.BytesIO(overlay.content)).size[0] > 100
        report = c.post(
            "/api/v1/check", json={"scan_id": result["scan_id"], "cards": CARDS, "tally": "total 1"}
        )
        assert report.json()["total"]["computed"] == result["total"]


def test_scan_unknown_card_expansion_or_variant(client: TestClient, city_photo: bytes) -> None:
    # Refused before the photo is scanned.
    files = {"image": ("city.jpg", city_photo)}
    assert_error(
        client.post("/api/v1/scans", files=files, data={"cards": "8 7 19"}), 400, "unknown_card", "19"
    )
    resp = client.post("/api/v1/scans", files=files, data={"expansions": "dragons"})
    assert_error(resp, 400, "unknown_expansion", "dragons")
    assert_error(client.post("/api/v1/scans", files=files, data={"variant": "hard"}), 400, "unknown_variant")


# ---- /api/v1/check -----------------------------------------------------------------------------------------


def engine_check(text: str, tally: str, cards: list[int] | None = None) -> dict:
    from scoring.tally import check_tally, parse_tally

    breakdown = score_city(parse_city(text), cards)
    return {**check_tally(breakdown, parse_tally(tally)).to_json(), "breakdown": breakdown.to_json()}


def test_check_text_tally_matches_engine(client: TestClient) -> None:
    computed = engine_json(CITY, CARDS)
    roads = next(i["points"] for i in computed["items"] if i["key"] == "roads")
    tally = f"roads {roads}\ncard 8: 99\ntotal {computed['total']}\n"
    resp = client.post("/api/v1/check", json={"city": CITY, "cards": CARDS, "tally": tally})
    assert resp.status_code == 200
    report = resp.json()
    assert report == engine_check(CITY, tally, CARDS)
    verdicts = {line["item"]: line["agree"] for line in report["lines"]}
    assert verdicts == {"roads": True, "card 8": False}
    assert report["agree"] is False


def test_check_json_tally(client: TestClient) -> None:
    computed = engine_json(CITY, CARDS)
    tally = {item["key"]: item["points"] for item in computed["items"]} | {"total": computed["total"]}
    report = client.post(
        "/api/v1/check",
        json={"rows": [ln.split() for ln in CITY.splitlines()], "cards": CARDS, "tally": tally},
    ).json()
    assert report["agree"] is True
    assert all(line["agree"] for line in report["lines"])


def test_check_malformed_tally_and_missing_city(client: TestClient) -> None:
    resp = client.post("/api/v1/check", json={"city": CITY, "tally": "parks 7\nroads minus five\n"})
    assert_error(resp, 400, "malformed_tally", "tally line 2")
    resp = client.post("/api/v1/check", json={"tally": "parks 7"})
    assert_error(resp, 422, "invalid_request", "'city', 'rows' or 'scan_id'")
    resp = client.post("/api/v1/check", json={"city": "P  Q\n", "tally": "parks 1"})
    assert_error(resp, 400, "malformed_city", "line 1, column 4")


def test_stored_scan_result_overlay_and_check_by_id() -> None:
    # The database is filled the way a scan fills it; the endpoints that read it are checked here.
    app = create_app(Settings())
    with TestClient(app) as c:
        result = {**engine_json(CITY, CARDS), "scan_id": "s1", "overlay": "/api/v1/scans/s1/overlay"}
        app.state.services.scans.put("s1", result, CITY, b"\xff\xd8\xff fake jpeg bytes")
        app.state.services.scans.put("s2", engine_json(CITY), CITY, None)
        assert c.get("/api/v1/scans/s1").json() == result
        overlay = c.get("/api/v1/scans/s1/overlay")
        assert overlay.status_code == 200 and overlay.headers["content-type"] == "image/jpeg"
        assert overlay.content.startswith(b"\xff\xd8\xff")
        assert_error(c.get("/api/v1/scans/s2/overlay"), 404, "scan_not_found", "no overlay")
        tally = f"total {result['total']}"
        report = c.post("/api/v1/check", json={"scan_id": "s1", "cards": CARDS, "tally": tally}).json()
        assert report == engine_check(CITY, tally, CARDS)


# ---- Circle the Wagons -------------------------------------------------------------------------------------


def test_score_wagons_town_matches_engine(client: TestClient) -> None:
    from scoring.wagons import parse_town, score_town

    resp = client.post("/api/v1/score", json={"game": "wagons", "city": TOWN})
    assert resp.status_code == 200
    assert resp.json() == score_town(parse_town(TOWN)).to_json()
    with_goals = client.post(
        "/api/v1/score",
        json={"game": "wagons", "city": TOWN, "options": {"goals": ["cool-water", "badlands"]}},
    ).json()
    assert with_goals == score_town(parse_town(TOWN), goals=["cool-water", "badlands"]).to_json()
    assert {i["key"] for i in with_goals["items"]} > {i["key"] for i in resp.json()["items"]}


def test_wagons_errors(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"game": "wagons", "city": "D/w  X/q\n"})
    assert_error(resp, 400, "malformed_town", "line 1")
    resp = client.post("/api/v1/score", json={"game": "wagons", "city": TOWN, "cards": [3]})
    assert_error(resp, 400, "wrong_game_option", "cards is a Sprawlopolis option")
    resp = client.post(
        "/api/v1/score", json={"game": "wagons", "city": TOWN, "options": {"goals": "no-such-goal"}}
    )
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "unknown_name"


def test_check_wagons_tally(client: TestClient) -> None:
    from scoring.wagons import parse_town, score_town

    total = score_town(parse_town(TOWN)).total
    report = client.post(
        "/api/v1/check", json={"game": "wagons", "city": TOWN, "tally": f"total {total + 1}"}
    ).json()
    assert report["total"] == {
        "tally": total + 1,
        "stated": total + 1,
        "sum_of_lines": 0,
        "computed": total,
        "difference": 1,
    }
    assert report["agree"] is False


def test_check_wagons_tally_sends_opponent_lines_to_the_opponent(client: TestClient) -> None:
    from pathlib import Path

    from scoring.wagons import parse_town, score_town

    town_text = (Path(__file__).parents[2] / "samples" / "wagons-lone-cowboy.town").read_text()
    town = parse_town(town_text)
    scored = score_town(town, scenario=town.header("scenario"), opponent_pile=town.header("opponent-pile"))
    opponent_total = dict(scored.extra)["opponent"]["total"]
    report = client.post(
        "/api/v1/check",
        json={"game": "wagons", "city": town_text, "tally": f"opponent {opponent_total - 2}"},
    ).json()
    assert report["opponent"]["total"]["computed"] == opponent_total
    assert report["opponent"]["total"]["difference"] == -2
    assert report["unmatched"] == []


# ---- concurrency bounds ------------------------------------------------------------------------------------


def test_scans_run_at_most_scan_workers_at_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Twelve uploads at once: all succeed, never more than ``scan_workers`` scans run together."""
    import asyncio
    import threading
    import time

    import httpx

    from api.web import scanning

    running, peak, lock = [0], [0], threading.Lock()

    def slow_scan(data: bytes, opts: object, long_side: int, **kw: object) -> scanning.Scanned:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)  # stands in for the CPU-bound scan
        with lock:
            running[0] -= 1
        return scanning.Scanned({**engine_json(CITY), "cells": [], "warnings": []}, CITY, None)

    monkeypatch.setattr(scanning, "scan_and_score", slow_scan)
    settings = Settings(
        scan_workers=2, max_pending_scans=64, max_client_uploads=64, database_path=_migrated(tmp_path)
    )
    app = create_app(settings)  # one client sends all 12: its share of the slots is raised to them

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            files = {"image": ("a.png", png_bytes(), "image/png")}
            return await asyncio.gather(*(client.post("/api/v1/scans", files=files) for _ in range(12)))

    responses = asyncio.run(run())
    assert [r.status_code for r in responses] == [200] * 12
    assert len({r.json()["scan_id"] for r in responses}) == 12
    assert peak[0] == 2


def test_serve_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import build_parser
    from api.cli.serve import run

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.workers, args.func) == ("127.0.0.1", 8000, 1, run)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000", "--workers", "3"])
    assert (args.host, args.port, args.workers) == ("0.0.0.0", 9000, 3)
    for bad in (["--port", "0"], ["--port", "http"], ["--workers", "0"]):
        with pytest.raises(SystemExit) as exc:
            build_parser().parse_args(["serve", *bad])
        assert exc.value.code == 2
    assert "port: expected a whole number from 1 to 65535" in capsys.readouterr().err


def test_the_scan_threads_belong_to_the_app_and_stop_with_it(tmp_path: Path) -> None:
    app = create_app(Settings(database_path=str(tmp_path / "t.db")))
    pools = app.state.services.workers.pools
    with TestClient(app):
        assert pools.backs.submit(lambda: 3).result() == 3  # started on first use, not at import
        assert pools._pools
    assert not pools._pools  # shut down with the app
