"""The API documentation pages (Swagger UI at ``/docs``, ReDoc at ``/redoc``) served from this process.

FastAPI's own pages load their scripts from a CDN (blank offline) and start Swagger UI with an inline
script, which a strict Content-Security-Policy forbids. Here the assets come from the ``fastapi-offline``
package, which bundles both, and the start-up script is a file of ours, so the pages need no inline script.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"
# Swagger UI and ReDoc set inline styles; ReDoc also runs a worker from a blob URL. No inline script.
DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "worker-src blob:; connect-src 'self'; frame-ancestors 'none'"
)

_SWAGGER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} – API</title>
<link rel="stylesheet" href="{root}{assets}/swagger-ui.css">
<link rel="icon" href="{root}{assets}/favicon.png">
</head><body><div id="swagger-ui" data-openapi="{root}{openapi}"></div>
<script src="{root}{assets}/swagger-ui-bundle.js"></script><script src="{root}/docs/init.js"></script>
</body></html>
"""
_REDOC = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} – API</title>
<link rel="icon" href="{root}{assets}/favicon.png"></head>
<body><redoc spec-url="{root}{openapi}"></redoc><script src="{root}{assets}/redoc.standalone.js"></script>
</body></html>
"""
_INIT = """// Starts Swagger UI on the element naming the OpenAPI document (no inline script: see the CSP).
const target = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: target.dataset.openapi,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


def assets_dir() -> Path:
    """The folder of bundled Swagger UI and ReDoc files inside the installed ``fastapi_offline`` package."""
    return Path(str(files("fastapi_offline") / "static"))


def install(app: FastAPI) -> None:
    """Add ``/docs``, ``/redoc``, ``/docs/init.js`` and the assets under :data:`ASSETS` to ``app``
    (created with ``docs_url=None, redoc_url=None``)."""
    headers = {"Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-cache"}

    def page(template: str, request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        html = template.format(title=app.title, root=root, assets=ASSETS, openapi=app.openapi_url)
        return HTMLResponse(html, headers=headers)

    @app.get("/docs", include_in_schema=False)
    def swagger_ui(request: Request) -> HTMLResponse:
        return page(_SWAGGER, request)

    @app.get("/redoc", include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        return page(_REDOC, request)

    @app.get("/docs/init.js", include_in_schema=False)
    def swagger_init() -> Response:
        return Response(_INIT, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount(ASSETS, StaticFiles(directory=assets_dir()), name="docs-assets")
