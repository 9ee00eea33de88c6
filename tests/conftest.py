"""Shared test setup and fixtures.

Every database the tests open by default lives in a temporary folder. The builders and fixtures that more
than one test module uses live here, once: cities from indented text and their points by line, the
service's test client and its error shape, small PNGs, the in-process command line, a real
``sprawlscan serve`` process and a headless Chromium page on it, and the scan whose cell classifier answers
from a synthetic photo's ground truth.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import tempfile
import textwrap
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pgserver import PostgresServer

# Before api.web.asgi is imported: its module-level app, and every server a test starts, would otherwise use
# the per-user database of whoever runs the tests.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="sprawlscan-tests-")
# FastAPI's test client sends `Host: testserver`: the in-process apps answer to it as a server started with
# `sprawlscan serve --host testserver` would (a real `serve` sets this to its own --host).
os.environ["SPRAWLSCAN_SERVE_HOST"] = "testserver"

# The service and the command line are imported by the fixtures that use them, after the line above
# (api.web.asgi builds its app on import) and only in the runs that need them.
from hypothesis import settings  # noqa: E402

from scoring.breakdown import Breakdown  # noqa: E402

# Property tests bound their own run time where it matters; Hypothesis's per-example deadline (200 ms) only
# turns a loaded machine into a flaky failure.
settings.register_profile("sprawlscan", deadline=None)
settings.load_profile("sprawlscan")
from scoring.city import City  # noqa: E402
from scoring.city_text import parse_city  # noqa: E402
from tests.live_server import serving  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# The example city of the city format (docs/city-format.md) with its three scoring cards, and the rulebook's
# example town.
CITY = """\
R:EW  I:EW  R:EW  C:EW  I:EW  C:EW
P     C:SE  I:SW  P     P     R:SE
.     C:NS  P     P     P     I:NS
"""
CARDS = [8, 7, 17]
TOWN = """\
.    .    .    .    P/c  P/f
D/w  D/g  D/f  P/b  P/m  F/b
D/c  M/f  M/c  M/c  P/g  .
W/m  W/b  M/f  M/m  .    .
S/w  W/g  D/b  M/w  .    .
"""


# ---- cities and breakdowns -------------------------------------------------------------------------------


def city(text: str) -> City:
    """A city from text in the city format, indented as it reads best in a test."""
    return parse_city(textwrap.dedent(text))


def points_by_key(breakdown: Breakdown) -> dict[str, int]:
    """The points of each line of ``breakdown``, by key."""
    return {item.key: item.points for item in breakdown.items}


def engine_json(text: str, cards: list[int] | None = None, **kw: object) -> dict:
    """The engine's own JSON breakdown of the city in ``text``, to compare the service's answers with."""
    from scoring.engine import score_city

    return score_city(parse_city(text), cards, **kw).to_json()  # type: ignore[arg-type]


# ---- the service -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The service in-process (FastAPI's test client, start-up included), uploads up to 4 MB."""
    from fastapi.testclient import TestClient

    from api.web import Settings, create_app

    with TestClient(create_app(Settings(max_upload_bytes=4_000_000))) as c:
        yield c


def assert_error(resp: Any, status: int, code: str, *words: str) -> str:
    """Check that ``resp`` is the service's JSON error with this status and code (and these words in its
    message); return the message."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    for word in words:
        assert word in message, message
    return message


def png_bytes(width: int = 80, height: int = 60, colour: tuple[int, int, int] = (120, 160, 90)) -> bytes:
    """A small plain PNG: a valid image with no city on it."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def png_bomb(width: int = 100_000, height: int = 100_000) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 1000)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# ---- the command line ------------------------------------------------------------------------------------

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``cli(*argv)`` runs ``sprawlscan ARGV…`` in this process: (exit status, standard output, standard
    error). argparse's own exits (``--help``, ``--version``, a usage error) count as the status they give."""

    from api.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


# ---- a real server and a real browser --------------------------------------------------------------------


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process (``sprawlscan serve`` on a free loopback port), one for the whole run; yields
    its base URL."""
    # Every browser test's page is a new device from the same address: the run's tokens are not bounded.
    env = {"SPRAWLSCAN_MAX_DEVICES_PER_CLIENT": "100000"}
    with serving(tmp_path_factory.mktemp("server") / "server.log", env=env) as (url, _):
        yield url


@pytest.fixture()
def page(tmp_path: Path) -> Iterator[Any]:
    """A fresh page in headless Chromium (Debian's package) at a phone's size; fails on a JavaScript error."""
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS, **PHONE
        )
        try:
            pg = context.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda exc: errors.append(str(exc)))
            yield pg
            assert not errors, f"JavaScript errors on the page: {errors}"
        finally:
            context.close()


# ---- the scan with the ground truth for a classifier ------------------------------------------------------


@pytest.fixture
def truth_scan() -> Callable[..., Any]:
    """``truth_scan(photo, data=None, **kw)`` scans a synthetic photo (or ``data`` in its place) with the
    stand-in classifier that answers from the photo's ground truth (tests/synth_truth.py)."""
    from tests.synth_truth import TruthClassifier
    from vision.pipeline import scan_image, shipped_classifier

    def scan(p: Any, data: bytes | None = None, **kw: object) -> Any:
        # The shipped model still judges the lattice, as in a real scan.
        return scan_image(
            p.jpeg if data is None else data, classifier=TruthClassifier(p), judge=shipped_classifier(), **kw
        )

    return scan


# ---- databases -------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server of the test run's own (started on first use, stopped at the end)."""
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: a SQLite file, or a fresh database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sprawlscan.db'}"
    return request.getfixturevalue("postgres").new_database()
