"""The cards stage: the scoring cards' backs beside the city, and the city read as the known cards.

The city is decoded on its own first (:mod:`vision.cards.city`), so that its three missing cards are a
reading independent of the backs; the backs and that reading are weighed (:mod:`vision.backs.choose`);
and the city is decoded again without the chosen scoring cards only when it used one of them (had it not,
the result would be the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.backs import BackNumber, NumberModelError, ScoringCards, choose_scoring_cards, find_scoring_cards
from vision.cards import CITY_CARDS, CardReading, read_as_cards
from vision.cells import Grid
from vision.city_geometry import Geometry, px_per_mm

__all__ = ["CityCards", "stack_city", "read_backs"]

#: How much worse (log-probability) the city must be explained without the cards three backs name before
#: it counts as contradicting them: twice the decoding's own doubt margin.
CITY_AGAINST_BACKS = 3.0
# A cell's half-width on the blocks mask, in pitches: a little over half, so the gaps between blocks and
# the cards' borders around the city are covered too.
BLOCKS_MASK_MARGIN = 0.6


@dataclass(frozen=True)
class CityCards:
    """The city as cards (its readings settled by the decoding), the scoring cards chosen, the three cards
    the city lacks with how sure that is, and the warnings for the player."""

    as_cards: CardReading
    scoring: ScoringCards
    from_city: tuple[int, ...] | None
    certainty: float
    warnings: tuple[str, ...]
    # The readings of the photo's own colours, when the colour correction read the cells again (a second
    # look at the same pixels, for vision.doubt).
    photographed: Grid | None = None


def blocks_mask(geometry: Geometry, readings: Grid) -> np.ndarray:
    """The cells read as holding a card, as a mask the size of the card region's (uint8 0/255).

    The backs are looked for off these cells rather than off the card region itself: a glare spot or a
    shadow can join the region to the scoring cards beside the city, and no circle would be looked at."""
    mask = np.zeros(geometry.located.mask.shape[:2], np.uint8)
    for r, row in enumerate(readings):
        for c, reading in enumerate(row):
            if reading.kind == "empty" or not geometry.visible[r, c]:
                continue
            poly = geometry.outline_on_mask(geometry.lattice, r, c, BLOCKS_MASK_MARGIN)
            cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    return mask


def read_backs(geometry: Geometry, readings: Grid | None = None) -> tuple[list[BackNumber], list[str]]:
    """The numbers on the scoring cards' backs beside the city (:mod:`vision.backs.read`), and warnings;
    circles on the cells ``readings`` hold a card (:func:`blocks_mask`) are the city's own, and with no
    readings those on the card region are."""
    city = geometry.located.mask if readings is None else blocks_mask(geometry, readings)
    try:
        found = find_scoring_cards(geometry.photo, city_mask=city, px_per_mm=px_per_mm(geometry))
    except NumberModelError as exc:  # the number reader is not installed: the city can still be read
        return [], [f"scoring cards not read from their backs: {exc}"]
    return [r.to_back_number() for r in found], []


def stack_city(
    geometry: Geometry,
    readings: Grid,
    backs: Sequence[BackNumber],
    given: Sequence[int] | None,
) -> CityCards:
    """Decode the city as cards and choose its scoring cards from the backs, the city and ``given``."""
    counts = geometry.counts(readings)
    settled = [[rd if counts[r, c] else None for c, rd in enumerate(row)] for r, row in enumerate(readings)]
    # The city is decoded again without the scoring cards when it used one: they are given, or read from
    # their backs (the city's own missing cards it never uses).
    maybe = given if given is not None else [b.number for b in backs if b.number is not None]
    # A program of its own (fresh): the same inputs always give the same decoding, whatever ran before.
    as_cards = read_as_cards(settled, readings, counts, geometry.visible, again_if=maybe, fresh=True)
    from_city, certainty = missing_cards(as_cards)
    scoring = choose_scoring_cards(backs, from_city, certainty, given=given)
    placed = {p.card for p in as_cards.decoding.placements} if as_cards.used else set()
    if scoring.cards and placed & set(scoring.cards):
        honoured = read_as_cards(settled, readings, counts, geometry.visible, exclude=scoring.cards)
        if scoring.source == "backs" and scoring.in_doubt and as_cards.used and honoured.used:
            # The city disagreed with three backs read surely; it only contradicts them if it is explained
            # much worse without their cards (two cards that show the same blocks can swap for free).
            cost = as_cards.decoding.objective - honoured.decoding.objective
            if cost < CITY_AGAINST_BACKS:
                scoring = replace(scoring, in_doubt=(), warnings=())
        as_cards = honoured
    return CityCards(as_cards, scoring, from_city, certainty, tuple(scoring.warnings))


def missing_cards(as_cards: CardReading) -> tuple[tuple[int, ...] | None, float]:
    """The three cards no placement uses, when the decoding placed 15 distinct known cards, and how sure
    that is (0–1, from how much worse the city is explained with another card among the fifteen; below
    0.82 the decoding itself says "in doubt", see vision.cards.stacking.DOUBT_MARGIN)."""
    decoding = as_cards.decoding
    if not as_cards.used or len(decoding.placements) != CITY_CARDS or decoding.missing_margin is None:
        return None, 0.0
    missing = decoding.missing_cards()
    certainty = 1.0 / (1.0 + float(np.exp(-decoding.missing_margin)))
    return (missing, certainty) if len(missing) == 3 else (None, 0.0)
