"""The page tests' browser (Debian's Chromium, one per test module) and a page session on it, phone-wide
unless a test asks for another width (``@pytest.mark.parametrize("session", [1280], indirect=True)``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.api.page_session import Session
from tests.conftest import CHROMIUM, CHROMIUM_FLAGS


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture()
def session(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Session]:
    s = Session(browser, server, getattr(request, "param", 390))
    try:
        yield s
        s.check_origin()
    finally:
        s.context.close()
