"""Photo bytes → the city on the table, stage by stage; :func:`scan_image` is the one entry point for the
command line, the web service and the benchmarks.

Each stage is a module with one job; its seconds go into ``ScanResult.timings`` under its name, and a
scan given a :class:`~vision.runtime.stages.Stop` is stopped at the end of a stage once it is cancelled or
past its deadline (:mod:`vision.runtime.stages`):

``decode``    bytes → upright RGB at most :data:`WORK_LONG_SIDE` px (:mod:`vision.photo.decode`);
``locate``    card region and the two line families on a small copy (:mod:`vision.lattice.locate`);
``rectify``   the block periods, the homography to the top-down view and its warp
              (:mod:`vision.lattice.rectify`);
``lattice``   pitch, phase, extent and per-cell offsets (:mod:`vision.lattice.fit`,
              :mod:`vision.city.geometry`);
``classify``  the cell classifier on the first lattice (:mod:`vision.cells.classify`), which also judges it;
``rival``     only where the lattice's lines nearly tie its pitch with another: the lattice at that pitch,
              read too and taken when it reads clearly better (:mod:`vision.city.arbitrate`);
``arbitrate`` only when that reading is doubtful: the other period hypotheses (:mod:`vision.city.arbitrate`);
``cards``     the scoring cards' backs beside the city (:mod:`vision.backs.read`), read while the cells
              are read again (unless the cards are given); a cell lying on a back read surely is table
              (:mod:`vision.city.under_backs`);
``grow``, ``colour``, ``refine``  cells read again: the lattice grown towards blocks beyond the card
              region, the photo's zone colours mapped to the classifier's (:mod:`vision.city.recolour`), and
              doubtful or lost cells read a little shifted (:mod:`vision.city.rereads`);
``stacking``  the city as a stack of the 18 known cards and the scoring cards chosen
              (:mod:`vision.city.read_cards`);
``unexplained``  a lone block no card explains (or that the decoding calls table) read over a wider
              search, and the city decoded again when the cards then explain more
              (:mod:`vision.city.unexplained`; rare);
``assemble``  the City, road consistency and warnings (:mod:`vision.city.result`); ``overlay`` when asked.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.backs import BackNumber
from vision.cells import Classifier, Grid, get_classifier, read_lattice
from vision.city import (
    CARDS_DOUBT_MARGIN,
    OVERLAY_LONG_SIDE,
    CityCell,
    Geometry,
    ScanResult,
    assemble_scan,
    clear_under_backs,
    find_lost_blocks,
    grow_to_blocks,
    normalise_zone_colours,
    overlay_base,
    read_backs,
    read_geometry,
    read_unexplained_again,
    refine_doubtful,
    refuse_unknown_colours,
    stack_city,
    with_overlay,
)
from vision.deck import LOOK_DOUBT_MARGIN, LookClassifier, TaughtDeck, use_deck
from vision.lattice import NoCityFound
from vision.photo import WORK_LONG_SIDE, DecodedImage, decode_image
from vision.runtime import Stages, StageTimer, Stop, Workers, serving

__all__ = [
    "WORK_LONG_SIDE",
    "CityCell",
    "NoCityFound",
    "ScanResult",
    "scan_image",
    "scan_rgb",
    "shipped_classifier",
]


def shipped_classifier() -> Classifier:
    """The shipped ONNX cell classifier (loaded once per process; raises ``ModelError`` when missing)."""
    return get_classifier()


def _backs(geometry: Geometry, readings: Grid) -> tuple[list[BackNumber], list[str], float]:
    timer = StageTimer()
    with timer("cards"):
        backs, warnings = read_backs(geometry, readings)
    return backs, warnings, timer.timings["cards"]


def scan_rgb(
    photo: np.ndarray,
    *,
    cards: Sequence[int] | None = None,
    overlay: bool = False,
    classifier: Classifier | None = None,
    judge: Classifier | None = None,
    timings: dict[str, float] | None = None,
    deck: TaughtDeck | None = None,
    stop: Stop | None = None,
    workers: Workers | None = None,
) -> ScanResult:
    """Scan an upright RGB photo (see :func:`scan_image`)."""
    stages = Stages(StageTimer(timings), stop or Stop())
    with serving(workers) as pools:
        classify = classifier or (LookClassifier(deck.look) if deck and deck.look else shipped_classifier())
        return _read(photo, stages, pools, cards, overlay, classify, judge, deck)


def _read(
    photo: np.ndarray,
    stages: Stages,
    pools: Workers,
    cards: Sequence[int] | None,
    overlay: bool,
    classify: Classifier,
    judge: Classifier | None,
    deck: TaughtDeck | None,
) -> ScanResult:
    # The overlay's picture needs only the photo: shrunk on a worker thread while the city is read, as the
    # backs are (OpenCV and onnxruntime release the GIL, so the two overlap on a machine with two cores).
    base = pools.backs.submit(overlay_base, photo, OVERLAY_LONG_SIDE) if overlay else None
    verdict = read_geometry(photo, judge or classify, stages)
    geometry, readings = verdict.geometry, verdict.readings
    if judge is not None and judge is not classify:
        readings = stages.run("classify", read_lattice, classify, geometry.view, geometry.lattice)
    backs = pools.backs.submit(_backs, geometry, readings) if cards is None else None
    geometry, readings = stages.run("grow", grow_to_blocks, geometry, readings, classify)
    photographed = readings
    taught = isinstance(classify, LookClassifier)
    if not taught:  # a taught print's look reads its own colours
        geometry, readings = stages.run("colour", normalise_zone_colours, geometry, readings, classify)
    readings = stages.run("refine", refine_doubtful, geometry, readings, classify)
    readings = stages.run("refine", find_lost_blocks, geometry, readings, classify)
    readings = stages.run("deck", use_deck, geometry, readings, deck)
    found: list[BackNumber] = []
    back_warnings: list[str] = []
    if backs is not None:
        found, back_warnings, seconds = backs.result()
        stages.timer.add("cards", seconds)
        same = photographed is readings  # the backs read lie beside the city: cells on them are table
        readings = stages.run("cards", clear_under_backs, geometry, readings, found)
        photographed = readings if same else clear_under_backs(geometry, photographed, found)
        stages.stop.check("cards")
    city_cards = stages.run("stacking", stack_city, geometry, readings, found, cards)
    city_cards = stages.run(
        "unexplained", read_unexplained_again, geometry, readings, city_cards, classify, found, cards
    )
    if readings is not photographed:  # the colours were corrected: the first look is a second opinion
        city_cards = replace(city_cards, photographed=photographed)
    # A taught print's look weighs its cells otherwise than the shipped classifier: its own doubt margin.
    margin = LOOK_DOUBT_MARGIN if taught else CARDS_DOUBT_MARGIN
    timings = stages.timer.timings
    result = stages.run(
        "assemble", assemble_scan, geometry, city_cards, back_warnings, timings, margin, taught
    )
    if not taught:  # never a score of colours the classifier does not know
        result = refuse_unknown_colours(result)
    return stages.run("overlay", with_overlay, result, base.result()) if base is not None else result


def _decode(data: bytes) -> DecodedImage:
    return decode_image(data, long_side=WORK_LONG_SIDE)


def scan_image(
    data: bytes,
    *,
    cards: Sequence[int] | None = None,
    overlay: bool = False,
    classifier: Classifier | None = None,
    judge: Classifier | None = None,
    timings: dict[str, float] | None = None,
    deck: TaughtDeck | None = None,
    stop: Stop | None = None,
    workers: Workers | None = None,
) -> ScanResult:
    """Read the city in a photo (JPEG, PNG, WebP or HEIC bytes).

    ``cards`` are the scoring cards to put in the city's header; when not given, the scoring cards lying
    face up beside the city are read (and a warning says when they could not be). With ``overlay`` the
    result carries an RGB picture of what was read. ``classifier`` replaces the shipped cell classifier
    and ``judge`` the one that judges the lattice (by default the classifier itself; tests and
    benchmarks). ``timings`` receives each stage's seconds as the stage ends. ``stop`` is asked before the
    first stage and at each stage's end (:class:`~vision.runtime.stages.ScanStopped` when it says stop).
    ``deck``, a taught deck, is read alongside the classifier (:mod:`vision.deck.use`); without one the
    scan is as before. ``workers`` are the thread pools the scan works on (:mod:`vision.runtime.workers`).
    Raises :class:`~vision.photo.decode.ImageError` for files that are not usable photos and
    :class:`NoCityFound` when the photo shows no city, or too little of one; both are InputErrors.
    """
    stages = Stages(StageTimer(timings), stop or Stop())
    stages.stop.check()
    start = time.perf_counter()
    decoded = stages.run("decode", _decode, data)
    result = scan_rgb(
        decoded.rgb,
        cards=cards,
        overlay=overlay,
        classifier=classifier,
        judge=judge,
        timings=stages.timer.timings,
        deck=deck,
        stop=stages.stop,
        workers=workers,
    )
    # Wall time: the backs are read while the cells are read again, so the stages add up to more.
    result.timings["total"] = time.perf_counter() - start
    return result
