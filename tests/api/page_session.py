"""A page session in the real browser the page tests share: a fresh browser context at one width that records
every request the page makes and its JavaScript errors (the fixtures are in ``tests/api/conftest.py``)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page


class Session:
    """A fresh browser context at one width, recording every request the page makes and its errors."""

    def __init__(self, browser: Browser, server: str, width: int) -> None:
        phone = width < 768
        self.context = browser.new_context(
            viewport={"width": width, "height": 844 if phone else 900},
            device_scale_factor=2 if phone else 1,
            is_mobile=phone,
            has_touch=phone,
            reduced_motion="reduce",  # no smooth scrolling: cells stay where they were measured
        )
        self.page = self.context.new_page()
        self.server = server
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self) -> Page:
        self.page.goto(self.server + "/")
        self.page.wait_for_selector("html[data-ready]")
        return self.page

    def check_origin(self) -> None:
        outside = [u for u in self.requests if not u.startswith((self.server + "/", "blob:", "data:"))]
        assert not outside, f"requests leaving the server's origin: {outside}"
        assert not self.errors, f"JavaScript errors on the page: {self.errors}"
