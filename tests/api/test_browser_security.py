"""In a real browser (headless Chromium against a real ``sprawlscan serve``): the API docs render from the
service's own assets under its Content-Security-Policy, and a form on another site cannot post here."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def watch(pg: Any) -> tuple[list[str], list[str]]:
    """Console errors, and every request to another host (there must be none: no CDN)."""
    errors: list[str] = []
    foreign: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("request", lambda req: foreign.append(req.url) if "127.0.0.1" not in req.url else None)
    return errors, foreign


def test_swagger_ui_renders_offline_under_the_policy(page: Any, server: str) -> None:  # noqa: F811
    errors, foreign = watch(page)
    page.goto(server + "/docs")
    expect(page.locator(".opblock").first).to_be_visible(timeout=20_000)
    assert page.locator(".opblock").count() >= 5
    assert not [e for e in errors if "Content Security Policy" in e], errors
    assert foreign == []


def test_redoc_renders_offline_under_the_policy(page: Any, server: str) -> None:  # noqa: F811
    errors, foreign = watch(page)
    page.goto(server + "/redoc")
    expect(page.get_by_role("heading", name="sprawlscan").first).to_be_visible(timeout=30_000)
    # ReDoc's footer logo comes from its vendor's CDN: the policy blocks it (the point), nothing else.
    blocked = [e for e in errors if "Content Security Policy" in e]
    assert all(e.startswith("Loading the image 'https://cdn.redoc.ly/") for e in blocked), errors
    logo = "https://cdn.redoc.ly/redoc/logo-mini.svg"
    assert [url for url in foreign if not url.startswith(("data:", "blob:")) and url != logo] == []


def test_a_form_on_another_site_cannot_post_a_scan(page: Any, server: str) -> None:  # noqa: F811
    page.set_content(
        f'<form method="post" enctype="multipart/form-data" action="{server}/api/v1/score">'
        '<input name="city" value="R C"><button>go</button></form>'
    )
    with page.expect_navigation():
        page.click("button")
    assert "cross_site_request" in page.content()
