"""The phone page: ``/`` (the app shell), its service worker at ``/sw.js``, the icon, and its files under
``/static`` (:data:`STATIC_DIR`, plain ES modules, no build step)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

__all__ = ["PAGE_CSP", "STATIC_DIR", "router"]

# What the page (and its service worker) may load: its own files, pictures it makes, the service's API.
PAGE_CSP = (
    "default-src 'self'; img-src 'self' blob: data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
)
STATIC_DIR = Path(__file__).resolve().parents[1] / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
def page() -> FileResponse:
    return FileResponse(
        STATIC_DIR / "index.html",
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_CSP},
    )


# The service worker is served from the root so that its scope covers the page at "/".
@router.get("/sw.js")
def service_worker() -> FileResponse:
    # A worker runs under its script's own policy: the API's "nothing" would stop it fetching the shell.
    return FileResponse(
        STATIC_DIR / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_CSP},
    )


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    return FileResponse(STATIC_DIR / "icon-192.png", media_type="image/png")
