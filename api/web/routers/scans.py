"""The scan endpoints: ``POST /api/v1/scans`` reads and scores a photo; the result, its overlay and (when
kept) the photo are read back by ``scan_id`` from any worker, for a while.

A scan sent with a device token belongs to that device: read back without the token, or with another
device's, it answers 404 ``scan_not_found`` as an unknown id does. A scan sent without a token is
anonymous: its id (128 random bits, told only to its sender) is what reads it. A kept photo is stored
without its location and other metadata (:mod:`api.web.kept_photo`), pixels untouched.

A scan runs on one of the app's scan workers (:class:`api.web.scanning.ScanWorkers`) while the upload's
admission is held; it stops at its next stage boundary when the client disconnects, or past its deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from api.core import ScanOut
from api.storage import ScanStore, StoredScan, writing
from api.web import scanning
from api.web.deps import (
    AdmissionDep,
    OptionalDeviceDep,
    ScanStoreDep,
    ScanWorkersDep,
    SettingsDep,
    TaughtDeckDep,
    WriteCheckDep,
)
from api.web.error_handlers import ClientGone, ScanNotFound
from api.web.kept_photo import without_location
from api.web.uploads import form_schema, read_upload, sniff_image_type
from games import GameRequest, game_names, options_for
from vision.runtime import ScanCancelled, Stop

__all__ = ["SCANS_PATH", "router", "stored"]

SCANS_PATH = "/api/v1/scans"
router = APIRouter(prefix=SCANS_PATH, tags=["scan"])

# The upload's form, for the OpenAPI page (the body is parsed as a stream, not by FastAPI).
# The form's own fields; every other one is a game's choice (games.options_for), or refused.
SERVICE_FIELDS = ("game", "keep_photo")
SCAN_FORM = form_schema(
    "JPEG, PNG, WebP or HEIC photo of the cards",
    {
        "keep_photo": "1: keep the photo too (JPEG, PNG, WebP; without its metadata)",
        "game": f"{' or '.join(game_names())} (default: the scanner tells)",
        **{
            takers[0][1].key: "; ".join(f"{game.title}: {spec.help}" for game, spec in takers)
            for command in ("scan", "score")
            for takers in options_for(command)
        },
    },
)


@router.post(
    "",
    response_class=JSONResponse,
    responses={200: {"model": ScanOut, "description": "The breakdown of the city read from the photo"}},
    openapi_extra=SCAN_FORM,
)
async def create_scan(
    request: Request,
    settings: SettingsDep,
    store: ScanStoreDep,
    writable: WriteCheckDep,
    admission: AdmissionDep,
    workers: ScanWorkersDep,
    deck: TaughtDeckDep,
    owner: OptionalDeviceDep,
) -> JSONResponse:
    """Read the cards of any game (the scanner tells which, or ``game`` names it) from an uploaded photo
    and score them with the game's choices. The upload is streamed with a size limit; the
    result (and its overlay image) stays available under ``scan_id`` for a while. A device that taught its
    deck (``POST /api/v1/deck``) has its scans read with it. A scan sent with a device token is that
    device's: only that token reads it back."""
    try:
        async with admission.of(request) as take:
            # A scan is stored (its follow-ups read it back): refused before the work if it could not be.
            await anyio.to_thread.run_sync(writable.require, "the scan")
            form = await read_upload(request, take, max_body_bytes=settings.max_upload_bytes)
            request_game = photo_request(form.fields)
            # The photo itself is kept only when the user asks (keep_photo=1), without its metadata.
            keep = form.fields.get("keep_photo", "").strip().lower() in ("1", "true", "yes", "on")
            photo = _kept_photo(form.image) if keep else None
            run = partial(
                scanning.scan_and_score, form.image, request_game, settings.overlay_long_side, decks=deck
            )
            del form  # the worker holds the only reference to the photo bytes from here on
            scanned = await scan_while_connected(request, run, workers)
    except ScanCancelled:
        raise ClientGone("the client disconnected; its scan was stopped") from None
    scan_id = store.new_id()
    overlay_url = f"{SCANS_PATH}/{scan_id}/overlay" if scanned.overlay else None
    result = {**scanned.result, "scan_id": scan_id, "overlay": overlay_url}
    photo_type = f"image/{sniff_image_type(photo[:32])}" if photo else None
    put = partial(
        store.put, scan_id, result, scanned.city, scanned.overlay, "image/jpeg", photo, photo_type, owner
    )
    with writing("the scan"):
        await anyio.to_thread.run_sync(put)
    return JSONResponse(result)


@router.get("/{scan_id}", responses={200: {"model": ScanOut}})
def get_scan(scan_id: str, store: ScanStoreDep, owner: OptionalDeviceDep) -> JSONResponse:
    """The stored result of an earlier scan (404 when unknown, expired or another device's)."""
    return JSONResponse(stored(store, scan_id, owner).result)


@router.get(
    "/{scan_id}/overlay",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {}}, "description": "The overlay image"}},
)
def get_overlay(scan_id: str, store: ScanStoreDep, owner: OptionalDeviceDep) -> Response:
    """The photo with what was read drawn on it."""
    item = stored(store, scan_id, owner)
    if item.overlay is None:
        raise ScanNotFound(f"scan {scan_id} has no overlay image")
    return Response(
        item.overlay, media_type=item.overlay_type, headers={"Cache-Control": "private, max-age=3600"}
    )


@router.get(
    "/{scan_id}/photo",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {}}, "description": "The uploaded photo"}},
)
def get_photo(scan_id: str, store: ScanStoreDep, owner: OptionalDeviceDep) -> Response:
    """The uploaded photo, when the scan was sent with ``keep_photo=1``, without its EXIF location and
    other metadata (a HEIC photo is not kept)."""
    item = stored(store, scan_id, owner)
    if item.photo is None:
        raise ScanNotFound(f"scan {scan_id} kept no photo (send keep_photo=1 with the upload to keep it)")
    return Response(item.photo, media_type=item.photo_type, headers={"Cache-Control": "private"})


def photo_request(fields: Mapping[str, str]) -> GameRequest:
    """The game (``game``) and the choices of a scan form, checked before the photo is read: every field
    that some game takes as a choice (:func:`games.options_for`), the empty ones left out."""
    game = fields.get("game", "").strip().lower() or None
    given = {k: v for k, v in fields.items() if k not in SERVICE_FIELDS and v.strip()}
    request = GameRequest(game, given)
    request.check()
    return request


def _kept_photo(data: bytes) -> bytes | None:
    """The photo to keep: ``data`` without its metadata, or ``None`` when that cannot be had (HEIC)."""
    kind = sniff_image_type(data[:32])
    return without_location(data, kind) if kind else None


def stored(store: ScanStore, scan_id: str, owner: str | None) -> StoredScan:
    """The stored scan ``scan_id`` as device ``owner`` (``None``: no token) sees it (:class:`ScanNotFound`
    when unknown, expired or another device's)."""
    item = store.get(scan_id, owner)
    if item is None:
        raise ScanNotFound(f"no scan with id {scan_id!r} (unknown, or expired)")
    return item


async def scan_while_connected(
    request: Request, run: Callable[..., scanning.Scanned], workers: scanning.ScanWorkers
) -> scanning.Scanned:
    """``run(stop=stop)`` on a scan worker; ``stop`` is cancelled when the client disconnects, and the scan
    stops at its next stage boundary (:class:`~vision.runtime.stages.ScanCancelled`)."""
    stop = Stop()
    outcome: dict[str, Any] = {}

    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass  # the body is read: the next message is the disconnect
        stop.cancel("the client has gone")

    async def work() -> None:
        try:
            outcome["scanned"] = await workers.run(partial(run, stop=stop))
        except Exception as exc:  # re-raised below, outside the task group (no ExceptionGroup)
            outcome["error"] = exc
        finally:
            group.cancel_scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        group.start_soon(work)
    if "error" in outcome:
        raise outcome["error"]
    scanned: scanning.Scanned = outcome["scanned"]
    return scanned
