"""Which game a photo shows: a Sprawlopolis city or a Circle the Wagons town (:func:`which_game`).

Both games use the same cards and the same lattice of quadrants, 31.75 × 44.45 mm, so the geometry does
not tell them apart: the cells measure 1.4 : 1 either way, and which way up the art stands is lost when a
photo may be turned. The art does. Each game's reader reads the cells (the Sprawlopolis cell classifier
on the landscape view, the territory reader on the portrait one) and each game's card decoding explains
the reading with that game's 18 cards. A reader shown the other game's art still reads something, often
confidently, but what it reads does not fit that game's cards quadrant by quadrant: the decoding leaves
it unexplained or calls it table. A game's evidence is therefore the fraction of the card region its
cards explain (:class:`GameEvidence`); the game whose cards explain at least :data:`MIN_EXPLAINED` of it,
and :data:`CLEAR_BY` more than the other's, is the photo's. Otherwise the verdict names no game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.arbitrate import read_geometry
from vision.cards import CardStacking, evidence_grid, stack_cards
from vision.cells import Classifier, get_classifier
from vision.city_geometry import Geometry
from vision.lattice import NoCityFound
from vision.towns.geometry import RING, locate_town
from vision.towns.scan import shipped_reader
from vision.towns.scan_support import Reader, best_lattice

__all__ = [
    "CLEAR_BY",
    "GAMES",
    "MIN_EXPLAINED",
    "GameEvidence",
    "GameVerdict",
    "cards_evidence",
    "which_game",
]

GAMES = ("sprawlopolis", "wagons")
# A game's cards must explain at least this fraction of the card region (right readings explain 0.9 and
# more: a misread cell or two, a card cut by the photo's edge) ...
MIN_EXPLAINED = 0.6
# ... and this much more of it than the other game's cards.
CLEAR_BY = 0.2


@dataclass(frozen=True)
class GameEvidence:
    """How well one game's reader and cards explain the photo: ``explained`` is the fraction of the
    ``cells`` on the card region that a decoded card shows (0 with ``why`` when the game's lattice could
    not be read at all); ``region`` which group of cards was read (0 the largest, 1 the next)."""

    game: str
    explained: float
    cells: int
    why: str = ""
    region: int = 0


@dataclass(frozen=True)
class GameVerdict:
    """The game the photo shows (``None``: neither, or no telling), each game's evidence and why."""

    game: str | None
    evidence: tuple[GameEvidence, ...]
    why: str


def city_evidence(photo: np.ndarray, classifier: Classifier) -> GameEvidence:
    """How well the Sprawlopolis cards explain ``photo`` as read by the cell ``classifier``."""
    try:
        verdict = read_geometry(photo, classifier)
    except NoCityFound as exc:
        return GameEvidence("sprawlopolis", 0.0, 0, str(exc))
    geometry, readings = verdict.geometry, verdict.readings
    decoding = stack_cards(evidence_grid(readings, geometry.counts(readings), geometry.visible), checks=False)
    return cards_evidence(geometry, decoding)


def cards_evidence(geometry: Geometry, decoding: CardStacking) -> GameEvidence:
    """How much of the card region of ``geometry`` the Sprawlopolis card ``decoding`` shows a card in: the
    measure of :func:`city_evidence`, for a city scan already made (its own blocks explained are not it: a
    scan may have found a small city in a corner of a town's card region)."""
    region = geometry.occupied & geometry.visible
    shown = sum(cell.source == "card" and bool(region[rc]) for rc, cell in decoding.cells.items())
    cells = int(region.sum())
    return GameEvidence("sprawlopolis", shown / max(1, cells), cells)


def town_evidence(photo: np.ndarray, reader: Reader, ring: int = RING) -> GameEvidence:
    """How well the Circle the Wagons cards explain ``photo`` as read by the territory ``reader`` on a
    lattice grown by ``ring`` cells (as the scan will read it): in the largest group of cards, or in the
    next largest when the largest is poorly explained (the goal cards beside a small town may be the
    larger group)."""
    best = GameEvidence("wagons", 0.0, 0)
    for rank in (0, 1):
        try:
            found = locate_town(photo, rank=rank)
            reading = best_lattice(photo, found, reader, margins=False, ring=ring)
        except NoCityFound as exc:
            best = best if best.cells else GameEvidence("wagons", 0.0, 0, str(exc))
            continue
        found = GameEvidence("wagons", reading.explained, int(reading.geometry.occupied.sum()), region=rank)
        best = found if found.explained > best.explained else best
        if best.explained >= MIN_EXPLAINED:
            break
    return best


def _percent(e: GameEvidence) -> str:
    return f"{e.game} cards explain {100 * e.explained:.0f}% of the cards' cells" + (
        f" ({e.why})" if e.why else ""
    )


def decide(evidence: tuple[GameEvidence, ...]) -> GameVerdict:
    """The verdict from each game's evidence (see the module note)."""
    ranked = sorted(evidence, key=lambda e: -e.explained)
    best = ranked[0]
    runner = ranked[1].explained if len(ranked) > 1 else 0.0
    said = "; ".join(_percent(e) for e in ranked)
    if best.explained < MIN_EXPLAINED:
        return GameVerdict(None, evidence, f"neither game's cards explain the photo: {said}")
    if best.explained - runner < CLEAR_BY:
        return GameVerdict(None, evidence, f"the photo fits both games' cards: {said}")
    return GameVerdict(best.game, evidence, said)


def which_game(
    photo_rgb: np.ndarray,
    *,
    classifier: Classifier | None = None,
    reader: Reader | None = None,
    town_reader: Callable[[], Reader] | None = None,
) -> GameVerdict:
    """Which game the upright RGB ``photo_rgb`` shows (see the module note).

    ``classifier`` is the Sprawlopolis cell classifier (default: the shipped one) and ``reader`` the
    territory reader; without a ``reader``, ``town_reader`` is asked for one (by default
    :func:`vision.towns.scan.shipped_reader`), and when none is installed the town side is left out: a
    photo is then a city when the Sprawlopolis cards explain it and no game otherwise (never a town).
    """
    evidence = [city_evidence(photo_rgb, classifier or get_classifier())]
    if reader is None:
        try:
            reader = (town_reader or shipped_reader)()
        except RuntimeError as exc:
            evidence.append(GameEvidence("wagons", 0.0, 0, str(exc)))
    if reader is not None:
        evidence.append(town_evidence(photo_rgb, reader))
    return decide(tuple(evidence))
