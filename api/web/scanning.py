"""A photo scan as the service runs it: on a worker thread, at most ``scan_workers`` at a time, with the
scanner's thread pools owned by the app, a deadline, and the overlay encoded for the page.

The city is read and scored along the one path the command line takes too (:func:`api.core.score_scan`);
the service adds the overlay JPEG, the stage timings and whether a taught deck read it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import cv2
import numpy as np

from api.core import (
    PhotoRequest,
    ScoreOptions,
    ServiceError,
    deck_for,
    read_photo,
    score_scan,
    score_town_scan,
)
from api.web.allocator import give_back_freed
from vision.stages import ScanPastDeadline, Stop
from vision.workers import Workers

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
    with the scanner's own thread pools (:class:`vision.workers.Workers`). Made with the app, closed with
    it (:meth:`close`)."""

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
    import vision.pipeline  # noqa: F401  (the scanner itself, loaded once per process)
    from vision.cells import get_classifier

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
    opts: ScoreOptions,
    overlay_long_side: int,
    *,
    stop: Stop | None = None,
    deck: Any = None,
    deadline_s: float = SCAN_DEADLINE_S,
    request: PhotoRequest | None = None,
) -> Scanned:
    """Read the city in photo ``data``, apply the requested cards/expansions, score it, encode the overlay.
    A photo of a Circle the Wagons town (the scanner's call, or ``request.game``) is read and scored with
    ``request.goals`` instead (:mod:`api.core.town_scan`), its overlay drawn as a city's.

    Raises the scanner's :class:`~scoring.errors.InputError` subclasses for bad photos (not an image,
    truncated, too large, no city found) and the engine's for bad cards or expansions;
    :class:`~vision.stages.ScanCancelled` at the first stage boundary after ``stop`` is cancelled, and
    :class:`ScanTooSlow` at the first one after ``deadline_s`` seconds from now. ``deck`` holds the device's
    taught decks (one per game, :mod:`vision.deck`): the one of the photo's game is read alongside the
    shipped model.
    """
    from vision.cells import ModelError
    from vision.towns.scan import TownScan

    cards = list(opts.cards) if opts.cards else None
    stop = (stop or Stop()).within(deadline_s)  # the deadline runs from here, on the worker thread
    timings: dict[str, float] = {}
    try:
        scan = read_photo(data, request or PhotoRequest(), cards=cards, overlay=True, deck=deck, stop=stop,
                          timings=timings)  # fmt: skip
    except ModelError as exc:  # the shipped cell model is missing or broken: a server fault
        raise ScannerUnavailable(f"the photo scanner cannot run: {exc}") from exc
    except ScanPastDeadline as exc:
        raise ScanTooSlow(f"{exc} (try again, or with a smaller photo)") from None
    if isinstance(scan, TownScan):
        town = score_town_scan(scan, deck=deck)
        used = deck_for(deck, "wagons") is not None
        result = {**town.to_json(), "taught_deck": used, "timings": _rounded(timings)}
        picture = encode_jpeg(scan.overlay, overlay_long_side) if scan.overlay is not None else None
        return Scanned(result, scan.text, picture)
    scored = score_scan(scan, opts)
    # The same shape as `sprawlscan scan --format json`.
    result = scored.to_json()
    result["taught_deck"] = deck_for(deck, "sprawlopolis") is not None
    result["timings"] = _rounded(scan.timings)
    overlay = encode_jpeg(scan.overlay, overlay_long_side) if scan.overlay is not None else None
    return Scanned(result, scored.breakdown.city, overlay)


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {stage: round(float(s), 4) for stage, s in timings.items()}


def encode_jpeg(rgb: np.ndarray, long_side: int, quality: int = 85) -> bytes:
    """Encode an RGB uint8 image as JPEG, shrunk so its longer side is at most ``long_side`` pixels."""
    from vision.decode import fit_long_side

    rgb, _ = fit_long_side(rgb, long_side)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode the overlay image")
    return buf.tobytes()
