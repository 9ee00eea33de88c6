"""The live camera's frame check: ``POST /api/v1/frames`` takes a small preview frame and says whether a
city (or town) is in it, where (its outline) and what to change before the photo (:mod:`vision.frames`).

The page sends a frame several times a second while the camera is open, so the check is admitted like a
scan but apart from it and cheaper: at most :data:`FRAME_SLOTS` frames in flight (503 ``busy`` past it), at
most :data:`CLIENT_FRAMES` from one address (429), each at most :data:`MAX_FRAME_BYTES` and
:data:`MAX_FRAME_SIDE` px on its long side, checked on at most :data:`FRAME_WORKERS` threads of its own (a
frame never waits behind a scan). A frame is never stored: its bytes live for the request only.
"""

from __future__ import annotations

import io
import time
from typing import Any

import anyio
import cv2
import numpy as np
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from PIL import Image, UnidentifiedImageError

from api.core import ServiceError
from api.web.admission import Admission
from api.web.uploads import form_schema, read_upload
from games import Game, GameOptionError, game_named, game_names, registered
from vision.frames import check_frame
from vision.photo import MAX_JPEG_MARKERS, MAX_JPEG_SCANS, ImageTooComplex, NotAnImage, jpeg_layout

__all__ = ["FRAMES_PATH", "FrameTooLarge", "UnsupportedFrame", "router"]

FRAMES_PATH = "/api/v1/frames"
router = APIRouter(prefix=FRAMES_PATH, tags=["scan"])

# A preview frame: its long side at most this (the page sends 960), its file at most this many bytes.
MAX_FRAME_SIDE = 1024
MAX_FRAME_BYTES = 2_000_000
# Frames in flight at once, from one address, and checked at once (each takes tens of ms of one core).
FRAME_SLOTS = 8
CLIENT_FRAMES = 2
FRAME_WORKERS = 2
FRAME_FORM = form_schema(
    f"JPEG or PNG frame, long side at most {MAX_FRAME_SIDE} px",
    {"game": f"{' or '.join(game_names())} (default: {game_names()[0]})"},
)


class FrameTooLarge(ServiceError):
    """A preview frame larger than the check takes (send the camera's frame shrunk, not the photo)."""

    code = "frame_too_large"
    status = 413


class UnsupportedFrame(ServiceError):
    """A preview frame that is an image, but neither JPEG nor PNG."""

    code = "unsupported_frame"
    status = 415


class BadFrameGame(ServiceError):
    """A frame check for a game no one registered."""

    code = "wrong_game_option"


class FrameGate:
    """The frame checks' own admission and threads (one per app, made on its first frame)."""

    def __init__(self) -> None:
        most = FRAME_SLOTS * MAX_FRAME_BYTES
        self.admission = Admission(FRAME_SLOTS, most, CLIENT_FRAMES * MAX_FRAME_BYTES, CLIENT_FRAMES)
        self.limiter = anyio.CapacityLimiter(FRAME_WORKERS)

    @staticmethod
    def of(request: Request) -> FrameGate:
        state = request.app.state
        if getattr(state, "frame_gate", None) is None:
            state.frame_gate = FrameGate()
        gate: FrameGate = state.frame_gate
        return gate


def decode_frame(data: bytes) -> np.ndarray:
    """The frame's RGB pixels, its size read from the header first (:class:`FrameTooLarge` before any
    pixel is decoded) and a JPEG's scans counted before that (each costs a pass over the whole frame:
    more than a photo has is ``image_too_complex``, as for a scan)."""
    if data.startswith(b"\xff\xd8"):
        layout = jpeg_layout(data, max_scans=MAX_JPEG_SCANS, max_markers=MAX_JPEG_MARKERS)
        if layout.scans > MAX_JPEG_SCANS or layout.markers > MAX_JPEG_MARKERS:
            raise ImageTooComplex(
                f"the frame has more than {MAX_JPEG_SCANS} scans or {MAX_JPEG_MARKERS} markers (a camera's "
                "frame has 1 scan), so it is refused before decoding"
            )
    try:
        with Image.open(io.BytesIO(data)) as head:
            kind, (w, h) = head.format, head.size
    except (UnidentifiedImageError, OSError):
        raise NotAnImage("the uploaded 'image' is not a picture: send a JPEG or PNG frame") from None
    if kind not in ("JPEG", "PNG"):
        raise UnsupportedFrame(f"a preview frame must be JPEG or PNG (got {kind})")
    if max(w, h) > MAX_FRAME_SIDE:
        raise FrameTooLarge(
            f"the frame is {w} × {h} px: a preview frame is at most {MAX_FRAME_SIDE} px on its long side "
            "(shrink it; the photo itself goes to /api/v1/scans)"
        )
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if bgr is None:
        raise NotAnImage("the frame could not be decoded (a truncated or broken JPEG or PNG)")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def check(data: bytes, game: Game) -> dict[str, Any]:
    """The frame check's answer for the frame ``data`` of ``game``'s cards (on a worker thread)."""
    start = time.perf_counter()
    result = check_frame(decode_frame(data), game.frame_cards()).to_json()
    result["ms"] = round(1000 * (time.perf_counter() - start), 1)
    return result


def _game(name: str) -> Game:
    """The game a frame is checked for (the first registered when none is named)."""
    try:
        return game_named(name) if name.strip() else registered()[0]
    except GameOptionError as exc:
        raise BadFrameGame(str(exc)) from None


@router.post("", response_class=JSONResponse, openapi_extra=FRAME_FORM)
async def check_frame_upload(request: Request) -> JSONResponse:
    """Check one live preview frame: ``found``, ``game``, ``outline`` (four corners as shares of the
    frame's width and height), ``ready``, ``hints`` (``{code, text}``, in the order to act on them),
    ``measures`` and ``ms``. Nothing is stored."""
    gate = FrameGate.of(request)
    async with gate.admission.of(request) as take:
        form = await read_upload(request, take, max_body_bytes=MAX_FRAME_BYTES, max_parts=3)
        game = _game(form.fields.get("game", ""))
        data = form.image
        del form
        result = await anyio.to_thread.run_sync(check, data, game, limiter=gate.limiter)
    return JSONResponse(result, headers={"Cache-Control": "no-store"})
