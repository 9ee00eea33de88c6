"""The scoring endpoints, free of photos: score a city (``/score``), check a hand tally (``/check``), the
choices the page offers (``/meta``), and the service's health (``/healthz``).

Scoring is pure Python and a grid may be 64 × 64 (about 0.1 s of CPU): ``/score`` and ``/check`` run on
the JSON requests' worker (:class:`api.web.admission.JsonWork`, 503 ``busy`` or 429 ``too_many_requests``
when it is full), so a flood of them neither holds the event loop nor slows ``/healthz``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.core import (
    BreakdownOut,
    CheckOut,
    CheckRequest,
    Health,
    ScoreRequest,
    check_request,
    score_request,
    version,
)
from api.web import scanning
from api.web.choices import metadata
from api.web.deps import JsonWorkDep, OptionalDeviceDep, ScanStoreDep, SettingsDep, WriteCheckDep
from api.web.routers.scans import stored

__all__ = ["router"]

router = APIRouter()


@router.get("/healthz", response_model=Health, tags=["service"])
def healthz(writable: WriteCheckDep) -> dict[str, Any] | JSONResponse:
    """Liveness: the process answers and says whether photo scanning is available; 503 when the database
    cannot be written (nothing could be saved or scanned)."""
    health = {"status": "ok", "version": version(), "scanner": scanning.scanner_available()}
    problem = writable.problem()
    if problem is None:
        return health
    error = {"code": "store_unavailable", "message": f"the database cannot be written: {problem}"}
    return JSONResponse({**health, "status": "unavailable", "error": error}, status_code=503)


@router.get("/api/v1/meta", tags=["scoring"])
def meta(settings: SettingsDep) -> dict[str, Any]:
    """The cards, expansions and variants the page offers (see api.web.choices), and the upload limit."""
    return {**metadata(), "max_upload_bytes": settings.max_upload_bytes}


# The engine's JSON is returned as it is (the schemas document it): no field is added or dropped.
@router.post("/api/v1/score", responses={200: {"model": BreakdownOut}}, tags=["scoring"])
async def score(request: Request, body: ScoreRequest, work: JsonWorkDep) -> JSONResponse:
    """Score a city sent as text (``city``) or as ``rows`` of cell tokens."""
    return JSONResponse(await work.run(request, score_request, body))


@router.post("/api/v1/check", responses={200: {"model": CheckOut}}, tags=["scoring"])
async def check(
    request: Request, body: CheckRequest, store: ScanStoreDep, owner: OptionalDeviceDep, work: JsonWorkDep
) -> JSONResponse:
    """Compare a hand tally with the computed score, line by line. The city comes from ``city``,
    ``rows`` or an earlier scan's ``scan_id`` (a scan made with a device token: sent with that token)."""

    def checked() -> dict[str, Any]:
        city_text = stored(store, body.scan_id, owner).city if body.scan_id is not None else None
        return check_request(body, city_text)

    return JSONResponse(await work.run(request, checked))
