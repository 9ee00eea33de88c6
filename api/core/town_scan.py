"""A photo of either game, read and scored: the one path ``sprawlscan scan`` and ``POST /api/v1/scans``
share.

Which game the photo shows is the scanner's call (:mod:`vision.towns.detect`) unless the player names it.
A photo is a Circle the Wagons town only when the town cards explain it (at least ``MIN_EXPLAINED`` of the
card region) and clearly better than the Sprawlopolis cards do, the rule of
:func:`vision.towns.detect.which_game`; any other photo goes the Sprawlopolis way untouched, so a city is
read exactly as before (a photo of no game is refused by the city scan, as before). A city that its cards
explain well pays only for that evidence, not for the territory reader (see :func:`_is_town`).

A town is read by :func:`vision.towns.scan.scan_town` with the goal cards the player names, or when they
name none the goal cards read from the photo (:mod:`vision.towns.goals`: a card read unsurely is asked for
in the warnings, never guessed), and scored by ``scoring.wagons``; without goal cards it is scored without
them and the breakdown says so. Options of the other game (scoring cards, expansions for a town; goal
cards for a city) are refused, never dropped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from api.core.flags import breakdown_in_flag_words
from scoring.breakdown import Breakdown
from scoring.errors import InputError

if TYPE_CHECKING:
    import numpy as np

    from vision.cells import Classifier
    from vision.result import ScanResult
    from vision.stages import Stop
    from vision.towns.scan import TownScan

__all__ = [
    "GAMES",
    "NO_GOALS_NOTE",
    "GameOptionError",
    "UnknownLook",
    "PhotoRequest",
    "ScoredTown",
    "read_photo",
    "score_town_scan",
]

GAMES = ("sprawlopolis", "wagons")
NO_GOALS_NOTE = (
    "No goal cards were given: the town is scored without them (name the goal cards to score them)."
)


class GameOptionError(InputError):
    """An option of one game given with a photo of the other (or an unknown game named)."""

    code = "wrong_game_option"


@dataclass(frozen=True)
class PhotoRequest:
    """What the player asked of a photo: the game (``None``: the scanner tells), the goal cards (a town's)
    and whether Sprawlopolis options (scoring cards, expansions, variant, options) were given, by name."""

    game: str | None = None
    goals: tuple[str, ...] = ()
    sprawl_options: tuple[str, ...] = field(default=())

    def check(self) -> None:
        """Refuse an unknown game, unknown goal names and options that cannot go together (cheap: before
        the photo is read)."""
        from scoring.wagons.score import resolve_goals

        if self.game is not None and self.game not in GAMES:
            raise GameOptionError(f"unknown game {self.game!r}: sprawlopolis or wagons")
        resolve_goals(self.goals)
        if self.game == "wagons":
            self.refuse_for("wagons")
        if self.game == "sprawlopolis":
            self.refuse_for("sprawlopolis")

    def refuse_for(self, game: str) -> None:
        """Raise :class:`GameOptionError` when an option given belongs to the other game than ``game``."""
        if game == "wagons" and self.sprawl_options:
            raise GameOptionError(
                f"{self.sprawl_options[0]} is a Sprawlopolis option, but the photo shows a Circle the Wagons "
                "town: leave it out (a town takes goal cards)"
            )
        if game == "sprawlopolis" and self.goals:
            raise GameOptionError(
                "goal cards are Circle the Wagons options, but the photo shows a Sprawlopolis city: "
                "leave them out (a city takes scoring cards)"
            )


class UnknownLook(InputError):
    """The photo shows a lattice of cards that neither game's reader knows the look of (no taught deck
    fits them): teaching is what to do."""

    code = "needs_deck"


UNKNOWN_CARDS = (
    "the photo shows cards, but they do not look like any print of Sprawlopolis or Circle the Wagons the "
    "scanner knows ({why}): if they are cards of another print, teach the scanner your cards with one photo "
    "of the 18 fronts face up (`sprawlscan teach DECK.jpg`, or the page's deck step), then scan with that "
    "deck"
)


def _town_beats(
    rgb: np.ndarray, city: ScanResult | None, refusal: InputError | None, reader: Any = None
) -> tuple[bool, int]:
    """Whether ``rgb`` shows a town by :func:`vision.towns.detect.which_game`'s rule, given the city scan
    already made of it (``city``, or the ``refusal`` it met). A city its cards explain more than
    ``1 - CLEAR_BY`` of cannot be beaten, and the territory reader (several times the cost of a whole city
    scan) is not run: a Sprawlopolis photo costs what it did before towns were read. Also which group of
    cards the town was found in (for the town scan to read first). A photo the city scan refused as a
    patterned surface (:class:`~vision.lattice.TooManyCards`) is refused at once."""
    from vision.lattice import TooManyCards
    from vision.towns.detect import CLEAR_BY, GameEvidence, cards_evidence, decide, town_evidence
    from vision.towns.geometry import RING, WIDE_RING
    from vision.towns.scan import shipped_reader

    if isinstance(refusal, TooManyCards):  # a patterned surface: a town's lattices would find the same
        raise refusal
    if city is not None:
        evidence = cards_evidence(city.geometry, city.cards_read.as_cards.decoding)
        if evidence.explained > 1 - CLEAR_BY:
            return False, 0
    else:
        evidence = GameEvidence("sprawlopolis", 0.0, 0, str(refusal))
    try:
        # A taught reader reads a town on the wider lattice (geometry.WIDE_RING): so is its evidence.
        town = town_evidence(rgb, reader or shipped_reader(), WIDE_RING if reader else RING)
    except RuntimeError:  # no territory classifier in this build: no photo is a town (never a city lost)
        return False, 0
    verdict = decide((evidence, town))
    if verdict.game is None and city is None and town.cells > 0:  # cards of a look neither game knows
        raise UnknownLook(UNKNOWN_CARDS.format(why=verdict.why))
    return verdict.game == "wagons", town.region


def read_photo(
    data: bytes,
    request: PhotoRequest,
    *,
    cards: Sequence[int] | None = None,
    overlay: bool = False,
    deck: Any = None,
    classifier: Classifier | None = None,
    stop: Stop | None = None,
    timings: dict[str, float] | None = None,
) -> ScanResult | TownScan:
    """The city (:class:`~vision.result.ScanResult`, as :func:`vision.pipeline.scan_image` reads it) or
    the town (:class:`~vision.towns.scan.TownScan`) in photo ``data``. ``timings`` receives each stage's
    seconds (a city's are in its result too). ``deck`` is a taught deck or several (one per game): the
    one of the game the photo shows is used (:func:`api.core.decks.deck_for`); a city read with only a
    Circle the Wagons deck given says so in its warnings, a town in :func:`score_town_scan`'s. With
    ``overlay`` either carries its picture of what was read (``overlay``). Raises the scanner's InputErrors
    and :class:`GameOptionError`."""
    from api.core.decks import deck_for, deck_not_used
    from vision.decode import decode_image
    from vision.pipeline import scan_rgb
    from vision.run import WORK_LONG_SIDE
    from vision.stages import Stages, StageTimer
    from vision.stages import Stop as NoStop

    stages = Stages(StageTimer(timings), stop or NoStop())
    stages.stop.check()
    start = time.perf_counter()
    rgb = stages.run("decode", partial(decode_image, long_side=WORK_LONG_SIDE), data).rgb
    city: ScanResult | None = None
    refusal: InputError | None = None
    if request.game != "wagons":
        if request.game:
            request.refuse_for("sprawlopolis")
        try:
            city = scan_rgb(
                rgb, cards=cards, overlay=overlay, classifier=classifier, timings=stages.timer.timings,
                deck=deck_for(deck, "sprawlopolis"), stop=stages.stop,
            )  # fmt: skip
        except InputError as exc:  # no city: it may be a town
            if request.game:
                raise
            refusal = exc
    town_reader = _town_reader(deck_for(deck, "wagons"))
    town, region = request.game == "wagons", 0
    if request.game is None:
        town, region = stages.run("game", _town_beats, rgb, city, refusal, town_reader)
    request.refuse_for("wagons" if town else "sprawlopolis")
    if town:
        wagons_deck = deck_for(deck, "wagons")
        result: ScanResult | TownScan = _read_town(rgb, request, wagons_deck, overlay, stages, region)
    elif city is None:
        raise refusal or InputError("no city found")
    else:
        unused = deck_not_used(deck, "sprawlopolis")
        result = city if unused is None else replace(city, warnings=[*city.warnings, unused])
    stages.timer.timings["total"] = time.perf_counter() - start  # a city's result shares this dict
    return result


def _read_town(
    rgb: Any, request: PhotoRequest, deck: Any, overlay: bool, stages: Any, region: int = 0
) -> TownScan:
    """The town in the decoded photo ``rgb``, read with the Circle the Wagons ``deck`` (or the shipped
    reader) through ``stages``, with its picture when ``overlay``; ``region`` the group of cards game
    detection found it in; scored with the goals the player gave, else with those read from the photo
    (``goals_source`` says which)."""
    from vision.result import OVERLAY_LONG_SIDE
    from vision.towns.overlay import draw_town_overlay
    from vision.towns.scan import scan_town

    reader = _town_reader(deck)
    goals, source = request.goals, ("given" if request.goals else None)
    notes: tuple[str, ...] = ()
    if not request.goals:  # the player named none: the goal cards beside the town, read from the photo
        from vision.towns.goals import read_goal_cards

        reading = stages.run("goals", read_goal_cards, rgb)
        goals, notes = reading.scored, reading.warnings
        source = "read" if reading.scored else None
    read = partial(scan_town, goals=goals, reader=reader, taught=deck is not None, region=region)
    scanned = stages.run("town", read, rgb)
    scanned = replace(scanned, goals_source=source, warnings=(*scanned.warnings, *notes))
    if overlay:
        picture = stages.run("overlay", partial(draw_town_overlay, long_side=OVERLAY_LONG_SIDE), scanned)
        scanned = replace(scanned, overlay=picture)
    return scanned


def _town_reader(deck: Any) -> Any:
    """The territory reader of a town scan: the shipped one, with the taught Circle the Wagons ``deck``
    (:func:`vision.towns.deck.taught_reader`) when there is one; ``None`` (the scan's default) else."""
    if deck is None:
        return None
    from vision.towns.deck import taught_reader
    from vision.towns.scan import shipped_reader

    return taught_reader(deck, shipped_reader())


_NAME = re.compile(r"^([A-Z]+)(\d+)$")


def _row_col(name: str) -> tuple[int, int]:
    """The (row, col) of a cell name such as ``B3`` (A1 is the town's top-left cell)."""
    letters, digits = _NAME.match(name).groups()  # type: ignore[union-attr]  # names come from cell_name
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - ord("A") + 1
    return int(digits) - 1, col - 1


@dataclass(frozen=True)
class ScoredTown:
    """A town read from a photo and scored with the goal cards given: ``breakdown`` (noting when no goal
    card was given), ``warnings`` (the scan's, and a taught deck left unused) and ``doubt`` (each with the
    cell's ``row`` and ``col`` in the town, as the page takes them)."""

    scan: TownScan
    breakdown: Breakdown
    warnings: tuple[str, ...]
    doubt: tuple[dict[str, Any], ...]

    @property
    def retake(self) -> str | None:
        """Why the town is not scored and what to do (the reader does not know the look of these cards)."""
        return self.scan.retake

    def to_json(self) -> dict[str, Any]:
        out = {**self.scan.to_json(), **self.breakdown.to_json(), "game": "wagons", "city": self.scan.text}
        out.update(warnings=list(self.warnings), doubt=list(self.doubt))
        out.update(retake=self.scan.retake, needs_deck=self.scan.needs_deck)
        if (
            self.retake is not None
        ):  # the reading stays, to see; no score from a look the reader does not know
            out.update(items=[], total=None)
        return out


def score_town_scan(scan: TownScan, *, deck: Any = None) -> ScoredTown:
    """``scan`` scored with its goals (see :class:`ScoredTown`); ``deck`` is the taught deck(s) the scan was
    given (only a Sprawlopolis one, left unused, is said in the warnings)."""
    from api.core.decks import deck_not_used

    breakdown = breakdown_in_flag_words(scan.breakdown())
    if not scan.goals:
        breakdown = replace(breakdown, notes=(*breakdown.notes, NO_GOALS_NOTE))
    unused = deck_not_used(deck, "wagons")
    warnings = (*scan.warnings, *([unused] if unused else []))
    doubt = tuple(
        {**d.to_json(), **dict(zip(("row", "col"), _row_col(d.cell), strict=True))} for d in scan.doubt
    )
    return ScoredTown(scan, breakdown, warnings, doubt)
