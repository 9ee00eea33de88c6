"""The service against an unfriendly client (issue 14), one defect at a time: numbers and nesting in every
field, malformed multipart, slow and vanishing clients, cross-site posts, security headers, the log, the
settings. Deadlines are driven through the ASGI interface with small limits; tests/api/test_server.py runs the
real server."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from api.web import Settings, SettingsError, create_app, scanning
from api.web.guards import BodyDeadline
from api.web.routers import scoring as scoring_routes
from tests.conftest import assert_error, png_bytes
from vision.runtime.stages import ScanCancelled, Stop

CITY = "R:EW  C:EW\nP     I\n"
HUGE = "9" * 5000


# ---- numbers and nesting in every field ------------------------------------------------------------------


def test_superscript_and_huge_numbers_are_4xx_everywhere(client: TestClient) -> None:
    files = {"image": ("a.png", png_bytes(), "image/png")}
    for bad in ("²", HUGE):
        # Form fields stop at 4 096 bytes, so a form number stays under the 4 300 digits int() refuses.
        resp = client.post("/api/v1/scans", files=files, data={"cards": f"8 {bad[:4000]}"})
        assert "whole number" in assert_error(resp, 400, "bad_form_field")
        resp = client.post("/api/v1/score", json={"city": f"cards: {bad}\n{CITY}"})
        code = "malformed_city" if bad == "²" else "unknown_card"  # all digits: a card number out of range
        assert "line 1, column 8" in assert_error(resp, 400, code)
        resp = client.post("/api/v1/check", json={"city": CITY, "tally": f"parks {bad}"})
        assert_error(resp, 400, "malformed_tally")
        wagons = {"game": "wagons", "city": "D/w  P/c\n", "options": {"opponent-undiscovered": bad}}
        assert client.post("/api/v1/score", json=wagons).status_code == 400


@pytest.mark.parametrize("special", ["1e999", "NaN", "-Infinity", HUGE])
def test_json_specials_in_a_body_are_422_not_500(client: TestClient, special: str) -> None:
    body = '{"city": "R C\\n", "cards": [8], "options": {"roadwork-unplayed": ' + special + "}}"
    resp = client.post("/api/v1/score", content=body, headers={"content-type": "application/json"})
    assert "not usable JSON" in assert_error(resp, 422, "invalid_request")
    body = '{"city": "R C\\n", "tally": {"parks": ' + special + "}}"
    resp = client.post("/api/v1/check", content=body, headers={"content-type": "application/json"})
    assert_error(resp, 422, "invalid_request")
    resp = client.post("/api/v1/check", json={"city": CITY, "tally": '{"parks": ' + special + "}"})
    assert_error(resp, 400, "malformed_tally")


def test_deep_nesting_in_bodies_tallies_and_scan_options_is_4xx(client: TestClient) -> None:
    deep = "[" * 2000 + "]" * 2000
    body = '{"city": "R C\\n", "tally": ' + deep + "}"
    resp = client.post("/api/v1/check", content=body, headers={"content-type": "application/json"})
    assert "nested 2001 levels" in assert_error(resp, 422, "invalid_request")
    resp = client.post("/api/v1/check", json={"city": CITY, "tally": deep})
    assert "nested 2000" in assert_error(resp, 400, "malformed_tally")
    files = {"image": ("a.png", png_bytes(), "image/png")}
    resp = client.post("/api/v1/scans", files=files, data={"options": '{"a": ' + deep + "}"})
    assert "nested" in assert_error(resp, 400, "bad_form_field")


def test_rows_width_and_empty_rows_are_refused(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"rows": [["P"] * 5000]})
    assert "at most 64 cells wide" in assert_error(resp, 400, "malformed_city")
    resp = client.post("/api/v1/score", json={"rows": [[]]})
    assert_error(resp, 400, "malformed_city")
    resp = client.post("/api/v1/score", json={"city": "  ".join(["P"] * 3000)})
    assert "at most 64 cells wide" in assert_error(resp, 400, "malformed_city")
    resp = client.post("/api/v1/score", json={"city": "P " * 20_000})
    assert_error(resp, 422, "invalid_request")  # over the 20 000-character city limit
    resp = client.post("/api/v1/score", json={"city": "P " * 65})
    assert "at most 64 cells wide" in assert_error(resp, 400, "malformed_city")


def test_unknown_sprawlopolis_option_is_refused(client: TestClient) -> None:
    resp = client.post("/api/v1/score", json={"city": CITY, "options": {"construction-penalt": 2}})
    assert "construction-penalty" in assert_error(resp, 400, "unknown_option")


# ---- the scan form -----------------------------------------------------------------------------------------


def test_boundary_longer_than_the_parser_allows_is_400(client: TestClient) -> None:
    boundary = "b" * 300
    body = f"--{boundary}\r\n".encode()
    headers = {"content-type": f"multipart/form-data; boundary={boundary}"}
    resp = client.post("/api/v1/scans", content=body, headers=headers)
    assert "boundary" in assert_error(resp, 400, "bad_upload")


def test_a_photo_in_the_wrong_field_is_named(client: TestClient) -> None:
    resp = client.post("/api/v1/scans", files={"file": ("a.png", png_bytes(200, 3000), "image/png")})
    message = assert_error(resp, 400, "bad_upload")
    assert "'image'" in message and "'file'" in message and "longer" not in message


def test_duplicate_cards_are_refused_before_the_scan(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_scan(*args: object) -> None:
        raise AssertionError("the photo was scanned")

    monkeypatch.setattr(scanning, "scan_and_score", no_scan)
    files = {"image": ("a.png", png_bytes(), "image/png")}
    resp = client.post("/api/v1/scans", files=files, data={"cards": "8 7 8"})
    # One check of a game's cards (scoring.card_set) for the form, the JSON, the CLI and city files.
    assert "given twice" in assert_error(resp, 400, "unknown_card")


# ---- cross-site posts and security headers ---------------------------------------------------------------


def test_cross_site_posts_are_refused_while_the_page_and_scripts_work(client: TestClient) -> None:
    files = {"image": ("a.png", png_bytes(), "image/png")}
    for headers in ({"sec-fetch-site": "cross-site"}, {"origin": "https://evil.example"}, {"origin": "null"}):
        resp = client.post("/api/v1/scans", files=files, headers=headers)
        assert_error(resp, 403, "cross_site_request")
        resp = client.post("/api/v1/score", json={"city": CITY}, headers=headers)
        assert_error(resp, 403, "cross_site_request")
    page = {"sec-fetch-site": "same-origin", "origin": "http://testserver"}
    assert client.post("/api/v1/score", json={"city": CITY}, headers=page).status_code == 200
    assert client.post("/api/v1/score", json={"city": CITY}).status_code == 200  # the CLI, curl
    assert client.get("/api/v1/meta", headers={"sec-fetch-site": "cross-site"}).status_code == 200


@pytest.mark.parametrize(
    "path", ["/", "/api/v1/meta", "/healthz", "/nowhere", "/docs", "/redoc", "/openapi.json"]
)
def test_security_headers_on_every_answer(client: TestClient, path: str) -> None:
    resp = client.get(path)
    assert resp.headers["x-content-type-options"] == "nosniff"
    assert resp.headers["referrer-policy"] == "no-referrer"
    assert resp.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in resp.headers["content-security-policy"]


def test_api_docs_are_served_locally_under_a_policy_without_inline_script(client: TestClient) -> None:
    for page in ("/docs", "/redoc"):
        resp = client.get(page)
        assert resp.status_code == 200
        csp = resp.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "http" not in resp.text.replace('lang="en"', "")  # no CDN: every URL is on this server
        assert "<script>" not in resp.text
        for src in [part.split('"')[0] for part in resp.text.split('src="')[1:]]:
            asset = client.get(src)
            assert asset.status_code == 200 and len(asset.content) > 300, src
    init = client.get("/docs/init.js")
    assert init.status_code == 200 and "SwaggerUIBundle" in init.text
    css = client.get("/docs/assets/swagger-ui.css")
    assert css.status_code == 200


# ---- the log ---------------------------------------------------------------------------------------------


def test_one_log_line_per_client_fault_and_one_traceback_per_server_fault(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with caplog.at_level(logging.INFO, logger="sprawlscan.api"):
        client.post("/api/v1/score", json={"city": "R  ?\n"})
    records = [r for r in caplog.records if r.name == "sprawlscan.api"]
    assert len(records) == 1 and records[0].exc_info is None
    assert "400 malformed_city" in records[0].getMessage()
    caplog.clear()

    def broken(body: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(scoring_routes, "score_request", broken)
    with caplog.at_level(logging.INFO):
        resp = client.post("/api/v1/score", json={"city": CITY})
    assert_error(resp, 500, "internal_error")
    assert resp.headers["x-content-type-options"] == "nosniff"
    tracebacks = [r for r in caplog.records if r.exc_info is not None]
    assert len(tracebacks) == 1 and tracebacks[0].name == "sprawlscan.api"


# ---- slow and vanishing clients, through the ASGI interface ------------------------------------------------


async def call(
    app: Any, path: str, headers: dict[str, str], receive: Callable[[], Awaitable[dict[str, Any]]]
) -> tuple[int, dict[str, str], bytes]:
    """One request through the ASGI interface with the given ``receive``; the status, headers, body."""
    out: dict[str, Any] = {"body": b""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    return out["status"], out["headers"], out["body"]


def trickle(first: bytes, every_s: float) -> Callable[[], Awaitable[dict[str, Any]]]:
    sent = [False]

    async def receive() -> dict[str, Any]:
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": first, "more_body": True}
        await anyio.sleep(every_s)
        return {"type": "http.request", "body": b"x", "more_body": True}

    return receive


QUICK = Settings(body_grace_s=0.3, min_body_rate=1000, body_timeout_s=2.0)
MULTIPART = {"content-type": "multipart/form-data; boundary=b"}


@pytest.mark.parametrize(
    ("path", "headers"),
    [("/api/v1/scans", MULTIPART), ("/api/v1/score", {"content-type": "application/json"})],
)
def test_a_trickling_body_is_cut_with_408_and_its_slot_freed(path: str, headers: dict[str, str]) -> None:
    app = create_app(Settings(body_grace_s=0.3, min_body_rate=1000, body_timeout_s=2.0, max_pending_scans=1))
    start = time.monotonic()
    status, out_headers, body = anyio.run(call, app, path, headers, trickle(b"--b\r\n", 0.1))
    took = time.monotonic() - start
    assert status == 408 and b"request_timeout" in body and out_headers["connection"] == "close"
    assert 0.3 <= took < 1.5
    # The pending-scan slot is free again: the next upload is scanned (or refused for its content), not 503.
    with TestClient(app) as c:
        resp = c.post("/api/v1/scans", files={"image": ("a.png", png_bytes(), "image/png")})
    assert resp.status_code != 503


def test_body_deadline_keeps_up_with_a_steady_client() -> None:
    deadline = BodyDeadline(grace_s=10, min_rate=16_000, total_s=120)
    assert deadline.seconds_left(0.0, 0, 0.0) == 10
    assert deadline.seconds_left(0.0, 1_600_000, 50.0) == pytest.approx(60)  # 100 s earned, 50 s used
    assert deadline.seconds_left(0.0, 25_000_000, 0.0) == 120  # the total caps it


def test_a_client_leaving_mid_upload_is_one_line_not_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(QUICK)
    messages = [
        {"type": "http.request", "body": b"--b\r\nContent-Disposition: form-data; name=", "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    with caplog.at_level(logging.INFO):
        status, _, body = anyio.run(call, app, "/api/v1/scans", MULTIPART, receive)
    assert status == 400 and b"client_disconnected" in body
    assert not [r for r in caplog.records if r.exc_info is not None]
    assert len([r for r in caplog.records if "client_disconnected" in r.getMessage()]) == 1


def test_a_scan_whose_client_left_stops_at_the_next_stage(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import games.sprawlopolis.game
    from api.storage.engine import connect, migrate

    db = tmp_path / "api.db"
    migrate(connect(f"sqlite:///{db}"))  # as the start-up leaves it: the upload is stored before its scan
    stages: list[str] = []

    def fake_scan(rgb: object, *, stop: Stop, **kwargs: object) -> None:
        for stage in ("locate", "rectify", "classify", "grow", "colour", "refine", "stacking", "assemble"):
            time.sleep(0.1)
            stages.append(stage)
            stop.check(stage)  # where the pipeline asks, at each stage's end
        raise AssertionError("the scan ran to its end")

    monkeypatch.setattr(games.sprawlopolis.game, "scan_rgb", fake_scan)  # the photo is decoded, then scanned
    app = create_app(replace(QUICK, database_path=str(db)))
    part = b'--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n'
    body = part + png_bytes(160, 120) + b"\r\n--b--\r\n"
    sent = [False]

    async def receive() -> dict[str, Any]:
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": body, "more_body": False}
        await anyio.sleep(0.25)  # the client gives up while its photo is being scanned
        return {"type": "http.disconnect"}

    status, _, out = anyio.run(call, app, "/api/v1/scans", MULTIPART, receive)
    assert status == 400 and b"client_disconnected" in out
    assert 2 <= len(stages) <= 4


def test_a_stop_stops_a_scan_only_once_the_client_has_gone() -> None:
    stop = Stop()
    stop.within(60.0).check("decode")  # the deadline the service adds shares the client's cancel
    stop.cancel("the client has gone")
    with pytest.raises(ScanCancelled, match="after the 'locate' stage: the client has gone"):
        stop.within(60.0).check("locate")


# ---- settings ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("MAX_PENDING_SCANS", "0"),
        ("SCAN_WORKERS", "-1"),
        ("SCAN_TTL_S", "nan"),
        ("BODY_TIMEOUT_S", "inf"),
        ("MAX_UPLOAD_BYTES", "²"),
        ("HEADER_TIMEOUT_S", "soon"),
    ],
)
def test_bad_settings_are_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, raw: str
) -> None:
    monkeypatch.setenv(f"SPRAWLSCAN_{name}", raw)
    with pytest.raises(SettingsError, match=f"SPRAWLSCAN_{name} must be a positive"):
        Settings.from_env()
    with pytest.raises(SettingsError):
        Settings(max_pending_scans=0)


def test_pending_uploads_are_bounded_by_the_bytes_they_have_sent(tmp_path: Path) -> None:
    from api.storage.engine import connect, migrate

    db = tmp_path / "s.db"
    migrate(connect(f"sqlite:///{db}"))  # what the start-up does (a bare ASGI call has none)
    app = create_app(Settings(max_upload_bytes=1_000_000, max_pending_bytes=1_500_000, database_path=str(db)))
    declared = {**MULTIPART, "content-length": "900000"}
    part = b'--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n'

    async def run() -> tuple[int, bytes]:
        # Two uploads declaring 900 kB each fit in 1.5 MB until their bytes come: only what was sent counts.
        async with anyio.create_task_group() as group:
            group.start_soon(call, app, "/api/v1/scans", declared, trickle(part, 0.05))
            await anyio.sleep(0.1)
            held = trickle(part + b"\x89PNG" + b"x" * 800_000, 0.05)  # 800 kB of the 1.5 MB, still coming
            group.start_soon(call, app, "/api/v1/scans", declared, held)
            await anyio.sleep(0.1)
            status, _, body = await call(app, "/api/v1/scans", declared, trickle(part + b"y" * 800_000, 0.05))
            group.cancel_scope.cancel()
        return status, body

    status, body = anyio.run(run)
    assert status == 503 and b'"busy"' in body
    with pytest.raises(SettingsError, match="MAX_PENDING_BYTES"):
        Settings(max_upload_bytes=2_000_000, max_pending_bytes=1_000_000)


def test_a_content_length_of_thousands_of_digits_is_413(client: TestClient) -> None:
    for path in ("/api/v1/score", "/api/v1/scans"):
        status, _, body = anyio.run(
            call, client.app, path, {**MULTIPART, "content-length": HUGE}, trickle(b"", 0)
        )
        assert status == 413 and b"too_large" in body
