"""The web service: the app factory, its routers, the guards every request passes, and the phone page.

``app``            :func:`create_app`, the lifespan (migrations, the scanner warmed, threads shut down);
``asgi``           the app ``sprawlscan serve`` runs; ``server_protocol``: uvicorn with a header deadline;
``deps``           what a route depends on (settings, stores, device, taught deck, admission, workers);
``routers/``       one module per group of endpoints (scoring, scans, deck, games, the page);
``scanning``       a scan on a worker thread, with a deadline, its overlay encoded; ``choices``: ``/meta``;
``uploads``, ``admission``  streamed multipart uploads and how many may be in flight (one client: a share),
                   and the scoring requests' own worker; ``kept_photo``: a kept photo without its metadata;
``allocator``      glibc's arenas limited, a job's freed memory given back; ``excerpts``: input quoted short;
``guards``, ``hosts``, ``error_handlers``, ``settings``, ``docs_pages``; ``static/``: the phone page.
"""

from __future__ import annotations

from api.web.allocator import limit_arenas
from api.web.app import create_app
from api.web.server_protocol import server_options
from api.web.settings import Settings, SettingsError

__all__ = ["Settings", "SettingsError", "create_app", "limit_arenas", "server_options"]
