"""A Circle the Wagons town read from a photo: :func:`scan_town`.

Stages: the top-down view with its lattice of portrait cells (:mod:`vision.towns.geometry`), each cell's
territory read by a *reader* (by default the shipped territory classifier,
``vision.towns.territories.read_territories``: per lattice cell a distribution over
:data:`vision.towns.LABELS`), the town decoded as a stack of the 18 cards (:func:`vision.towns.decode_town`)
and handed to ``scoring.wagons`` with the goals the player names.

Which of the two portrait turns shows the icons upright: a card may lie either way round, so the reading
alone does not say; the players lay most cards one way, so the turn in which most decoded cards lie
unturned is kept (the photo's own up breaks a tie). When the first turn has most cards turned, the view
turned by 180° is read too, and kept unless the reader explains it clearly worse. When the card decoding
leaves too much of the card region unexplained the other period hypotheses are tried
(:func:`vision.towns.arbitrate.best_lattice`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.breakdown import Breakdown
from scoring.wagons import Town, parse_town, score_town
from vision.advice import TEACH_AGAIN, TEACH_COMMAND, teach_your_cards
from vision.city import lattice_outlines
from vision.lattice import NoCityFound
from vision.towns.arbitrate import Reader, Reading, best_lattice, read_and_decode
from vision.towns.cut import cut_by_frame
from vision.towns.decode import DOUBT_MARGIN, TownDecoding, decode_town
from vision.towns.doubt import (
    CellDoubt,
    cards_beyond,
    land_beyond,
    read_land_doubt,
    region_table_doubt,
    town_doubt,
)
from vision.towns.geometry import RING, WIDE_RING, TownGeometry, locate_town
from vision.towns.region import unseen_cards
from vision.towns.text import NoTerritory, decoded_town, town_text

__all__ = ["CUT_BY_FRAME", "MIN_LOOK_FIT", "Reader", "TownScan", "look_fit", "scan_town", "shipped_reader"]

# A town is scored only when at least this share of its card region is read surely (the reader's best
# label at 0.5 or more) and as the decoded cards say. Renders of the print the reader knows: 0.75–1.0 (14
# photos); the print-and-play sheets, untaught: 0.02–0.47 (16 photos). Below it the reader does not know the
# look of these cards, and its reading is not scored.
MIN_LOOK_FIT = 0.6
TEACH_TOWN_DECK = TEACH_COMMAND + " --game wagons"
UNKNOWN_LOOK = (
    "these cards do not look like the Circle the Wagons print the scanner knows ({fit:.0%} of the town read "
    "surely as its cards): " + teach_your_cards(TEACH_TOWN_DECK)
)
UNSEEN_CARDS = (
    "these cards do not look like the Circle the Wagons print the scanner knows (cards lie at {cells} but "
    "read as the table): " + teach_your_cards(TEACH_TOWN_DECK)
)
CUT_BY_FRAME = (
    "the photo's edge cuts the town beside {cells}: the town may go on beyond it. Take the photo again "
    "with the whole town and some table all round it"
)
CARDS_BEYOND = (
    "cards lie beyond the town read ({cells}) but were read as the table: the town may go on there. Take "
    "the photo again with the whole town evenly lit and some table all round it"
)
# A taught deck read poorly: a glare spot or a deep shadow over the town does that to the right deck as
# much as a deck of another print does (rendered random edition 7026, its own deck, a lamp's reflection
# over the middle: 42 %), so the cheaper remedy comes first.
UNFIT_DECK = (
    "the taught deck does not fit these cards ({fit:.0%} of the town read surely as its cards): take the "
    "photo again with the whole town evenly lit (no glare or shadow on the cards); if it still does not "
    "fit, " + TEACH_AGAIN
)


def shipped_reader() -> Reader:
    """The shipped territory classifier, ``vision.towns.territories.read_territories``.

    Raises :class:`RuntimeError` naming what is missing while that module is not there."""
    try:
        module = importlib.import_module("vision.towns.territories")
    except ModuleNotFoundError as exc:
        raise RuntimeError(f"the territory classifier is not installed ({exc.name} is missing)") from None
    return module.read_territories  # type: ignore[no-any-return]


@dataclass(frozen=True)
class TownScan:
    """A town read from a photo.

    ``town`` is the decoded town (headers ``game``, ``cards`` and the ``goals`` given) and ``text`` the
    same in the town format; ``origin`` the lattice cell (row, col) of the town's top-left cell;
    ``doubt`` the cells a person should look at (:class:`~vision.towns.doubt.CellDoubt`), ``warnings``
    anything else; ``readings`` the reader's distributions per lattice cell and ``geometry`` the view
    and lattice they were read on; ``overlay`` the picture of what was read (RGB, on a downscaled copy of
    the photo: :func:`vision.towns.overlay.draw_town_overlay`) when it was asked for; ``retake`` why the
    reading is not scored and what to do (the reader does not know the look of these cards:
    ``needs_deck``), None when it is. ``goals_source`` says where ``goals`` came from: ``"given"`` by the
    player, ``"read"`` from the goal cards in the photo (:mod:`vision.towns.goals`), None when there are none.
    """

    town: Town
    text: str
    goals: tuple[str, ...]
    decoding: TownDecoding
    geometry: TownGeometry
    readings: list[list[dict[str, float]]]
    origin: tuple[int, int]
    doubt: tuple[CellDoubt, ...]
    warnings: tuple[str, ...]
    overlay: np.ndarray | None = field(default=None, repr=False)
    retake: str | None = None
    needs_deck: bool = False
    goals_source: str | None = None

    def breakdown(self) -> Breakdown:
        """The town scored by ``scoring.wagons`` with its goals."""
        return score_town(self.town, goals=list(self.goals))

    def outlines(self) -> dict[tuple[int, int], list[list[float]]]:
        """Each town cell's corners (TL, TR, BR, BL), keyed (row, col) from the town's top-left, as
        fractions of the photo (:func:`vision.city.overlay.lattice_outlines`)."""
        g, shape = self.geometry, (self.town.n_rows, self.town.n_cols)
        return lattice_outlines(g.to_view, g.photo.shape, g.lattice, self.origin, shape)

    def to_json(self) -> dict[str, object]:
        """The JSON breakdown (``interfaces.md``) with what was read (:meth:`reading_json`)."""
        out = self.breakdown().to_json()
        if (
            self.retake is not None
        ):  # the reading stays, to see; no score from a look the reader does not know
            out.update(items=[], total=None)
        return {**out, **self.reading_json()}

    def reading_json(self) -> dict[str, object]:
        """What was read, for beside a breakdown: the scan's ``cells`` (each with its ``outline`` in the
        photo, as a city scan's), ``doubt``, ``warnings``, the town text (``city``), ``retake`` and where
        the goals came from."""
        r0, c0 = self.origin
        outlines = self.outlines()
        cells = []
        for r in range(self.town.n_rows):
            for c in range(self.town.n_cols):
                cell = self.decoding.cells[r + r0][c + c0]
                read = {"row": r, "col": c, "label": cell.token, "source": cell.source}
                cells.append({**read, "outline": outlines[(r, c)]})
        return {
            "retake": self.retake,
            "needs_deck": self.needs_deck,
            "game": "wagons",
            "goals_source": self.goals_source,
            "city": self.text,
            "cells": cells,
            "doubt": [d.to_json() for d in self.doubt],
            "warnings": list(self.warnings),
        }


def _orientation(first: Reading, reader: Reader) -> Reading:
    """The reading of ``first``'s geometry or of its view turned by 180°, whichever lies with most cards
    unturned (see the module note)."""
    placements = first.decoding.placements
    if 2 * sum(p.rotated for p in placements) <= len(placements):
        return first
    other = read_and_decode(first.geometry.turned(), reader)
    worse = first.decoding.objective - other.decoding.objective
    return first if worse > DOUBT_MARGIN else other


def _reading_order(d: CellDoubt) -> tuple[int, str]:
    """A doubt's place in reading order: row by row (the digits of ``B3``), then column (its letters)."""
    letters = d.cell.rstrip("0123456789")
    return int(d.cell[len(letters) :]), letters.rjust(3)


def look_fit(reading: Reading) -> float:
    """The share of the card region's cells that the reader reads surely (best label at 0.5 or more) and as
    the decoded cards say: about 1 for a print the reader knows, low for one it does not."""
    occupied = reading.geometry.occupied
    right = total = 0
    for r, c in zip(*np.nonzero(occupied), strict=True):
        cell, dist = reading.decoding.cells[r][c], reading.readings[r][c]
        best = max(dist, key=dist.__getitem__)
        total += 1
        shown = "." if cell.territory is None else cell.territory.token()
        right += cell.source == "card" and dist[best] >= 0.5 and best == shown
    return right / max(1, total)


def _read_region(
    photo_rgb: np.ndarray, read: Reader, ring: int, region: int, found: Reading | None = None
) -> Reading:
    """The town read in the group of cards ``region`` (0 the largest, 1 the next), or in the other group
    when the first reads poorly as a town and the other better (the goal cards may be the larger group).
    ``found`` is the lattice of ``region`` read already (by game telling), decoded now with margins."""
    first, second = (region, 1 - region) if region in (0, 1) else (0, 1)
    if found is None:
        found = best_lattice(photo_rgb, locate_town(photo_rgb, first), read, ring=ring)
    else:
        found = Reading(found.geometry, found.readings, decode_town(found.readings))
    reading = _orientation(found, read)
    if look_fit(reading) >= MIN_LOOK_FIT:
        return reading
    try:
        found = locate_town(photo_rgb, rank=second)
        other = _orientation(best_lattice(photo_rgb, found, read, ring=ring), read)
    except NoCityFound:
        return reading
    return other if look_fit(other) > look_fit(reading) else reading


def _doubts(
    reading: Reading, origin: tuple[int, int], goals: Sequence[str], taught: bool, unseen: Sequence[CellDoubt]
) -> tuple[tuple[CellDoubt, ...], tuple[str, ...]]:
    """The town's cells in doubt and the warnings for those beyond its edge: the decoding's margins, for
    a taught reader its own sureness too (a territory it reads that no card placed shows), and the cards
    ``unseen`` (:func:`~vision.towns.doubt.region_table_doubt`)."""
    doubt, warnings = town_doubt(reading.decoding, origin, goals)
    occupied = reading.geometry.occupied
    more: tuple[CellDoubt, ...] = ()
    if taught:
        more, more_warnings = read_land_doubt(reading.decoding, reading.readings, occupied, origin, goals)
        warnings = (*warnings, *more_warnings)
    more = (*more, *unseen)
    named = {d.cell for d in doubt}
    for d in more:
        if d.cell not in named:
            doubt, named = (*doubt, d), named | {d.cell}
    return tuple(sorted(doubt, key=_reading_order)), warnings


def _retake(
    reading: Reading,
    origin: tuple[int, int],
    taught: bool,
    unseen: Sequence[str],
    beyond: Sequence[str],
    read_beyond: Sequence[str] = (),
) -> tuple[str | None, bool]:
    """Why the reading is not scored (None when it is) and whether that is for want of a taught deck: a
    look read poorly, cards read as the table (``unseen`` in the town, ``beyond`` its edge: see
    :func:`scan_town`), territories read beside the town that no card placed (``read_beyond``), a town
    the photo's edge cuts."""
    fit = look_fit(reading)
    retake = None if fit >= MIN_LOOK_FIT else (UNFIT_DECK if taught else UNKNOWN_LOOK).format(fit=fit)
    if retake is None and (unseen or beyond) and not taught:  # the shipped reader does not see these cards
        retake = UNSEEN_CARDS.format(cells=", ".join([*unseen, *beyond]))
    needs_deck = retake is not None
    beyond = list(dict.fromkeys([*beyond, *read_beyond]))
    if retake is None and beyond:  # territories outside the town, where no doubt can name them
        retake = CARDS_BEYOND.format(cells=", ".join(beyond))
    if retake is not None:  # the photo's edge is not looked at: its table colours cost a measure
        return retake, needs_deck
    cut = cut_by_frame(reading.geometry, reading.decoding, origin)
    if cut:  # territories may lie beyond the photo's edge, where no doubt can name them
        retake = CUT_BY_FRAME.format(cells=", ".join(cut))
    return retake, needs_deck


def scan_town(
    photo_rgb: np.ndarray,
    *,
    goals: Sequence[str] = (),
    reader: Reader | None = None,
    taught: bool = False,
    region: int = 0,
    reading: Reading | None = None,
) -> TownScan:
    """Read the Circle the Wagons town in an upright RGB photo and make it ready to score.

    ``goals`` are the goal cards' names as ``sprawlscan score`` takes them (checked: an unknown name
    raises :class:`~scoring.wagons.town.TownFormatError`); ``reader`` reads the territories (default:
    :func:`shipped_reader`), ``taught`` whether it reads with a taught deck; ``region`` the group of cards
    read first (0 the largest, 1 the next: where game detection found the town), the other read too when
    the first reads poorly; ``reading`` the lattice of that region read already, with this reader and
    ring (game telling's: :func:`vision.towns.detect.town_evidence`), read on rather than found again.
    A reading that fits the
    cards poorly (:func:`look_fit` under :data:`MIN_LOOK_FIT`) carries a ``retake`` naming teaching and
    is not scored; so is a town the photo's edge cuts (:func:`vision.towns.cut.cut_by_frame`: its missing
    territories lie outside the town, where no doubt can name them), with a retake that does not name
    teaching; and so is a town beside which cells of the card region show a card by their own pixels
    though read as the table (:func:`vision.towns.doubt.cards_beyond`: no doubt can name them either),
    naming teaching when untaught. Raises :class:`~vision.lattice.NoCityFound` when the photo shows no
    town.
    """
    read = reader if reader is not None else shipped_reader()
    reading = _read_region(photo_rgb, read, WIDE_RING if taught else RING, region, reading)
    decoding = reading.decoding
    try:
        text = town_text(decoding, goals)
        _, origin = decoded_town(decoding)
    except NoTerritory:
        raise NoCityFound("no town found: no cell of the card region reads as a territory") from None
    unseen_cells = unseen_cards(reading.geometry, decoding)
    unseen = region_table_doubt(decoding, unseen_cells, origin, goals)
    doubt, doubt_warnings = _doubts(reading, origin, goals, taught, unseen)
    warnings = (*reading.geometry.warnings, *decoding.notes, *doubt_warnings)
    beyond = cards_beyond(decoding, unseen_cells, origin)
    read_beyond = land_beyond(decoding, reading.readings, origin)
    retake, needs_deck = _retake(reading, origin, taught, [d.cell for d in unseen], beyond, read_beyond)
    return TownScan(
        town=parse_town(text),
        text=text,
        goals=tuple(goals),
        decoding=decoding,
        geometry=reading.geometry,
        readings=reading.readings,
        origin=origin,
        doubt=doubt,
        warnings=tuple(warnings),
        retake=retake,
        needs_deck=needs_deck,
        goals_source="given" if goals else None,
    )
