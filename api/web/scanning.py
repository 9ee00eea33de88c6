"""A photo scan as the service runs it: on a worker thread, at most ``scan_workers`` at a time, with the
scanner's thread pools owned by the app, a deadline, and the overlay encoded for the page.

The photo is read and scored along the one path the command line takes too (:func:`games.scan_photo`);
the service adds the overlay JPEG, the stage timings and whether a taught deck read it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import cv2
import numpy as np

from api.core import ServiceError
from api.web.allocator import give_back_freed
from games import GameRequest, scan_photo
from vision.cells import ModelError, get_classifier
from vision.photo import fit_long_side
from vision.runtime import ScanPastDeadline, Stop, Workers

__all__ = [
    "SCAN_DEADLINE_S",
    "ScanTooSlow",
    "ScanWorkers",
    "Scanned",
    "ScannerUnavailable",
    "encode_jpeg",
    "scan_and_score",
    "scanner_available",
    "warm_up",
]

log = logging.getLogger("sprawlscan.api")
T = TypeVar("T")

# The CPU a scan may take, from the moment a worker starts it: an honest photo takes 1–5 s on the
# development machine (2 cores shared), so this is several times that. Checked at each stage's end; the
# longest stage, the decoding, is bounded before it starts (pixels, memory, a JPEG's scans).
SCAN_DEADLINE_S = 30.0


class ScannerUnavailable(Exception):
    """The scanner is not installed in this build (a server fault, not the client's)."""


class ScanTooSlow(ServiceError):
    """The scan ran past its deadline and was stopped (the server is overloaded, or the photo is hostile)."""

    code = "scan_too_slow"
    status = 503


@dataclass(frozen=True)
class Scanned:
    """A scanned photo: the JSON result (breakdown, cells, warnings), the city text and the overlay JPEG."""

    result: dict[str, Any]
    city: str
    overlay: bytes | None


class ScanWorkers:
    """Where the heavy work (scans, deck teaching) runs: on worker threads, at most ``count`` at once, each
    with the scanner's own thread pools (:class:`vision.runtime.workers.Workers`). Made with the app, closed
    with it (:meth:`close`)."""

    def __init__(self, count: int) -> None:
        self.limiter = anyio.CapacityLimiter(count)
        self.pools = Workers()

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on a worker thread once one is free, with these pools."""
        return await anyio.to_thread.run_sync(self._with_pools, work, *args, limiter=self.limiter)

    def _with_pools(self, work: Callable[..., T], *args: object) -> T:
        try:
            with self.pools.active():
                return work(*args)
        finally:
            give_back_freed()  # the job's freed working set leaves the process (api.web.allocator)

    def close(self) -> None:
        self.pools.close()


def scanner_available() -> bool:
    """Whether photos can be scanned in this process: the scanner's cell model loads."""
    try:
        get_classifier()  # cached: loads the ONNX session once per process, then costs nothing
    except (RuntimeError, OSError):
        return False
    return True


def warm_up() -> None:
    """Load the scanner and its model session once per process, so the first upload does not pay for it.

    A missing model is logged, not raised: the service still scores typed cities, and scans answer 503.
    """
    if not scanner_available():
        log.warning("photo scanning is unavailable (scanner or cell model missing); scans will answer 503")


def scan_and_score(
    data: bytes,
    request: GameRequest,
    overlay_long_side: int,
    *,
    stop: Stop | None = None,
    decks: Sequence[Any] = (),
    deadline_s: float = SCAN_DEADLINE_S,
) -> Scanned:
    """Read the game in photo ``data`` (the scanner's call, or ``request.game``), score it with the
    request's choices and encode the overlay.

    Raises the scanner's and the games' :class:`~scoring.errors.InputError` subclasses for bad photos (not
    an image, truncated, too large, no cards found) and bad choices;
    :class:`~vision.runtime.stages.ScanCancelled` at the first stage boundary after ``stop`` is cancelled,
    and :class:`ScanTooSlow` at the first one after ``deadline_s`` seconds from now. ``decks`` are the
    device's taught decks (one per game): the one of the photo's game is read alongside the shipped model.
    """
    stop = (stop or Stop()).within(deadline_s)  # the deadline runs from here, on the worker thread
    try:
        scored = scan_photo(data, request, decks=decks, overlay=True, stop=stop)
    except ModelError as exc:  # the shipped cell model is missing or broken: a server fault
        raise ScannerUnavailable(f"the photo scanner cannot run: {exc}") from exc
    except ScanPastDeadline as exc:
        raise ScanTooSlow(f"{exc} (try again, or with a smaller photo)") from None
    # The same shape as `sprawlscan scan --format json`, with whether a taught deck read it and the timings.
    result = {**scored.to_json(), "taught_deck": scored.taught, "timings": _rounded(scored.timings)}
    picture = encode_jpeg(scored.overlay, overlay_long_side) if scored.overlay is not None else None
    return Scanned(result, scored.text, picture)


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {stage: round(float(s), 4) for stage, s in timings.items()}


def encode_jpeg(rgb: np.ndarray, long_side: int, quality: int = 85) -> bytes:
    """Encode an RGB uint8 image as JPEG, shrunk so its longer side is at most ``long_side`` pixels."""
    rgb, _ = fit_long_side(rgb, long_side)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode the overlay image")
    return buf.tobytes()
