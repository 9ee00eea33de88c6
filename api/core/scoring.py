"""What the web endpoints do, free of HTTP: build a city from a request, score it, scan a photo, check a
tally. Every bad input raises an :class:`~scoring.errors.InputError` subclass, which the app turns into a
4xx JSON error.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from api.core.errors import ServiceError
from api.core.flag_words import breakdown_in_flag_words
from api.core.schemas import CheckRequest, CityRequest
from api.core.score_options import ScoreOptions
from scoring.breakdown import Breakdown
from scoring.city import City, city_from_rows
from scoring.city_text import parse_city

log = logging.getLogger("sprawlscan.api")

# Expansion choices the page offers: the engine's canonical names with a label and the options each reads.
# Beach scoring cards are chosen as "beach:<card>", which the engine reads as the Beaches expansion.
_EXPANSIONS: tuple[dict[str, Any], ...] = (
    {"name": "poi", "label": "Points of Interest"},
    {
        "name": "construction",
        "label": "Construction Zones",
        "options": [
            {"name": "construction-penalty", "label": "Penalty per unfinished zone"},
            {
                "name": "construction-card",
                "label": "Card",
                "choices": ["", "Sudden Demolition", "Noisy Neighbours", "Bulldozed", "Business is Closed"],
            },
        ],
    },
    {"name": "wrecktar", "label": "Wrecktar"},
    {"name": "beach:peninsula", "label": "Beach: Peninsula"},
    {"name": "beach:lookout-point", "label": "Beach: Lookout Point"},
    {"name": "beach:scenic-route", "label": "Beach: Scenic Route"},
    {"name": "beach:waterfront", "label": "Beach: Waterfront"},
    {
        "name": "interstate",
        "label": "Interstate",
        "options": [
            {
                "name": "interstate-mode",
                "label": "Mode",
                "choices": ["", "cooperative", "solo", "competitive"],
            },
            {
                "name": "interstate-card",
                "label": "Interstate card",
                "choices": [
                    "",
                    "Main Boulevard",
                    "Central Highway",
                    "Great Valley Road",
                    "Mountainside Drive",
                ],
            },
        ],
    },
    {
        "name": "roadwork",
        "label": "Roadwork",
        "options": [{"name": "roadwork-unplayed", "label": "Unplayed cards"}],
    },
)


# ---- scoring ---------------------------------------------------------------------------------------------


def city_of(body: CityRequest, text: str | None = None) -> City:
    """The Sprawlopolis city of a request: ``text`` when given (a stored scan), else ``city`` or ``rows``."""
    if text is None:
        text = body.city
    if text is not None:
        return parse_city(text)
    return city_from_rows(body.rows or [])


def score_city_json(city: City, opts: ScoreOptions) -> dict[str, Any]:
    """Score a Sprawlopolis city; return the JSON breakdown."""
    return _breakdown(city, opts).to_json()


def score_request(body: CityRequest) -> dict[str, Any]:
    """``POST /api/v1/score``: the JSON breakdown of the request's city (or town)."""
    if body.game == "wagons":
        return _score_town(body)
    return score_city_json(city_of(body), ScoreOptions.from_request(body))


def _score_town(body: CityRequest, text: str | None = None) -> dict[str, Any]:
    from api.core.wagons_request import town_request_breakdown

    return breakdown_in_flag_words(town_request_breakdown(body, text)).to_json()


def check_request(body: CheckRequest, stored_city: str | None) -> dict[str, Any]:
    """``POST /api/v1/check``: compare the tally with the breakdown of the city (or the stored scan's)."""
    from scoring.tally import check_tally, parse_tally

    text = body.tally if isinstance(body.tally, str) else json.dumps(body.tally)
    lines = parse_tally(text)
    if body.game == "wagons":
        # The Wagons checker also sends "opponent …" lines to the opponent's breakdown.
        from api.core.wagons_request import town_request_breakdown
        from scoring.wagons.check import check_town_tally

        town = breakdown_in_flag_words(town_request_breakdown(body, stored_city))
        return {**check_town_tally(town, lines).to_json(), "breakdown": town.to_json()}
    breakdown = _breakdown(city_of(body, stored_city), ScoreOptions.from_request(body))
    return {**check_tally(breakdown, lines).to_json(), "breakdown": breakdown.to_json()}


def _breakdown(city: City, opts: ScoreOptions) -> Breakdown:
    from scoring.engine import score_city

    opts.check(city)
    breakdown = score_city(city, opts.cards, opts.expansions, variant=opts.variant, options=opts.options)
    return breakdown_in_flag_words(breakdown)


def metadata() -> dict[str, Any]:
    """The choices the page offers: Sprawlopolis scoring cards (number, name, what it counts), expansions
    with their options and variants; Circle the Wagons goal cards (id, name, provenance) and Lone Cowboy
    scenarios; and the long side (pixels) the scanner works at, to which the page shrinks photos."""
    from scoring.base import VARIANTS
    from scoring.card_rules import card_list
    from scoring.wagons import GOAL_CARDS, GOALS, SCENARIO_CARDS, SCENARIOS, WILDEST_WEST
    from scoring.wagons.cards import CARDS as WAGON_CARDS

    cards = {**GOAL_CARDS, WILDEST_WEST.id: WILDEST_WEST}
    return {
        "cards": card_list(),
        "photo_long_side": _photo_long_side(),
        "expansions": list(_EXPANSIONS),
        "variants": list(VARIANTS),
        "wagons": {
            "goals": [
                {"id": gid, "name": name, "provenance": cards[gid].provenance} for gid, name in GOALS.items()
            ],
            "scenarios": [
                {"id": sid, "name": name, "goals": list(SCENARIO_CARDS[sid].goals)}
                for sid, name in SCENARIOS.items()
            ],
            # The page shows an opponent's pile as each card's four territories (TL, TR, BL, BR), which a
            # player can find on the table, not by this project's own card numbers.
            "cards": [
                {"number": n, "territories": [f"{t.terrain}/{t.icon}" for t in four]}
                for n, four in WAGON_CARDS.items()
            ],
        },
    }


def _photo_long_side() -> int:
    """The scanner's working size: it shrinks larger photos to this long side, so the page does it first."""
    from vision.pipeline import WORK_LONG_SIDE

    return WORK_LONG_SIDE


# ---- scanning --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scanned:
    """A scanned photo: the JSON result (breakdown, cells, warnings), the city text and the overlay JPEG."""

    result: dict[str, Any]
    city: str
    overlay: bytes | None


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


class ScannerUnavailable(Exception):
    """The scanner is not installed in this build (a server fault, not the client's)."""


class ScanCancelled(Exception):
    """The scan was stopped at a stage boundary because its client had gone."""


# The CPU a scan may take, from the moment a worker starts it: an honest photo takes 1–5 s on the
# development machine (2 cores shared), so this is several times that. Checked at each stage's end; the
# longest stage, the decoding, is bounded before it starts (pixels, memory, a JPEG's scans).
SCAN_DEADLINE_S = 30.0


class ScanTooSlow(ServiceError):
    """The scan ran past its deadline and was stopped (the server is overloaded, or the photo is hostile)."""

    code = "scan_too_slow"
    status = 503


class StageClock(dict[str, float]):
    """The scanner's per-stage timings; each stage's end is also where a scan whose client has gone
    (``left`` set) stops, by raising :class:`ScanCancelled`, and one that has run ``deadline_s`` seconds
    since the clock was made by raising :class:`ScanTooSlow`."""

    def __init__(self, left: threading.Event, deadline_s: float = float("inf")) -> None:
        super().__init__()
        self.left = left
        self.deadline_s = deadline_s
        self.deadline = time.monotonic() + deadline_s

    def __setitem__(self, stage: str, seconds: float) -> None:
        super().__setitem__(stage, seconds)
        if self.left.is_set():
            raise ScanCancelled(f"stopped after the {stage!r} stage: the client has gone")
        if time.monotonic() > self.deadline:
            raise ScanTooSlow(
                f"the scan was stopped after its {stage!r} stage: it ran past its {self.deadline_s:g} s "
                "deadline (try again, or with a smaller photo)"
            )


def scan_and_score(
    data: bytes,
    opts: ScoreOptions,
    overlay_long_side: int,
    left: threading.Event | None = None,
    deck: Any = None,
    deadline_s: float = SCAN_DEADLINE_S,
) -> Scanned:
    """Read the city in photo ``data``, apply the requested cards/expansions, score it, encode the overlay.

    Raises the scanner's :class:`~scoring.errors.InputError` subclasses for bad photos (not an image,
    truncated, too large, no city found) and the engine's for bad cards or expansions; with ``left``,
    :class:`ScanCancelled` at the first stage boundary after it is set, and :class:`ScanTooSlow` at the
    first one after ``deadline_s`` seconds. ``deck`` is the device's taught deck (:mod:`vision.deck`), read
    alongside the shipped model.
    """
    clock = StageClock(left or threading.Event(), deadline_s)
    if clock.left.is_set():
        raise ScanCancelled("the client left before its scan started")
    from vision.cells import ModelError
    from vision.pipeline import scan_image

    try:
        cards = list(opts.cards) if opts.cards else None
        scan = scan_image(data, cards=cards, overlay=True, timings=clock, deck=deck)
    except ModelError as exc:  # the shipped cell model is missing or broken: a server fault
        raise ScannerUnavailable(f"the photo scanner cannot run: {exc}") from exc
    from api.core.scan_score import score_scan

    scored = score_scan(scan, opts)
    # The same shape as `sprawlscan scan --format json`.
    result = scored.to_json()
    result["taught_deck"] = deck is not None
    result["timings"] = {stage: round(float(s), 4) for stage, s in scan.timings.items()}
    overlay = encode_jpeg(scan.overlay, overlay_long_side) if scan.overlay is not None else None
    return Scanned(result, scored.breakdown.city, overlay)


def encode_jpeg(rgb: np.ndarray, long_side: int, quality: int = 85) -> bytes:
    """Encode an RGB uint8 image as JPEG, shrunk so its longer side is at most ``long_side`` pixels."""
    from vision.decode import fit_long_side

    rgb, _ = fit_long_side(rgb, long_side)
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode the overlay image")
    return buf.tobytes()
