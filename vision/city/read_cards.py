"""The cards stage: the scoring cards' backs beside the city, and the city read as the known cards.

The city is decoded on its own first (:mod:`vision.cards.city`), so that its blocks and its three missing
cards are a reading independent of the backs and of the player. The scoring cards (given, or read from
their backs) then only choose which cards show those blocks (:func:`vision.cards.read_same_blocks`): a
card the city cannot do without is reported with its cells, never absorbed by moving a block. The backs
and the city's missing cards are weighed (:mod:`vision.backs.choose`); a city unsure of them names the
cards it cannot tell apart (:func:`vision.cards.read_alike`) instead of suggesting three.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scoring.city import cell_name
from vision.backs import (
    BACKS_OVER_CITY,
    CITY_SURE,
    BackNumber,
    NumberModelError,
    ScoringCardReading,
    ScoringCards,
    choose_scoring_cards,
    find_scoring_cards,
)
from vision.cards import (
    CITY_CARDS,
    PLACEMENT_COST,
    CardReading,
    Label,
    read_alike,
    read_as_cards,
    read_same_blocks,
)
from vision.cells import Grid
from vision.city.geometry import Geometry, px_per_mm
from vision.city.stack_order import label_text

__all__ = ["CardAgainst", "CityCards", "backs_on_blocks", "city_lacks", "read_backs", "stack_city"]

#: How much worse (log-probability) the city must be explained without a scoring card, every block read
#: the same, before it counts as holding that card: twice the decoding's own doubt margin. Two cards that
#: show the same blocks swap for nothing; a card the blocks need leaves a cell unexplained (8 nats).
CITY_AGAINST_CARDS = 3.0
#: The margin (nats) of a city sure of its missing cards (vision.backs.CITY_SURE as a log-odds): cards
#: told apart by less are named as cards the city cannot tell apart.
SURE_MARGIN = math.log(CITY_SURE / (1.0 - CITY_SURE))
# A warning names at most this many cells the city would read otherwise without a card it holds.
MAX_OTHERWISE = 4
# A cell's half-width on the blocks mask, in pitches: a little over half, so the gaps between blocks and
# the cards' borders around the city are covered too.
BLOCKS_MASK_MARGIN = 0.6
#: A circle on the cells read as blocks is still a scoring card's when its number reads as surely as a back
#: that outweighs the city, its title band runs from it, and at most this share of the card placed from it
#: lies on those cells. The first reading of a print the shipped classifier does not know can take a white
#: back's paper for blocks: on 100 random editions it hid 6 backs this way (each 8–46 % on the blocks),
#: while the city's own yellow lies wholly on the city (a share of 1.0 on the devset).
BACK_ON_BLOCKS_AT_MOST = 0.5


@dataclass(frozen=True)
class CardAgainst:
    """A scoring card (given or read from its back) that the city seems to hold: the decoding cannot
    explain the blocks as read without it; ``cells`` (the lattice's) are those it shows."""

    card: int
    cells: tuple[tuple[int, int], ...]
    # The best reading without the card, where it reads cells otherwise: (cell, its label there).
    otherwise: tuple[tuple[tuple[int, int], Label], ...] = ()


@dataclass(frozen=True)
class CityCards:
    """The city as cards (its readings settled by the decoding), the scoring cards chosen, the three cards
    the city lacks with how sure that is, and the warnings for the player."""

    as_cards: CardReading
    scoring: ScoringCards
    from_city: tuple[int, ...] | None
    certainty: float
    warnings: tuple[str, ...]
    # The scoring cards (given or read) that the city seems to hold, with the cells it shows them in.
    against: tuple[CardAgainst, ...] = ()
    # The cells three backs read surely settled (see stack_city), each with the label the city alone had.
    moved: tuple[tuple[tuple[int, int], Label], ...] = ()
    # The readings of the photo's own colours, when the colour correction read the cells again (a second
    # look at the same pixels, for vision.city.doubt).
    photographed: Grid | None = None

    def against_warnings(self, origin: tuple[int, int]) -> tuple[str, ...]:
        """One warning for each scoring card the city seems to hold, naming its cells in the city read
        (whose top-left cell is the lattice's ``origin``)."""
        given = self.scoring.source == "given"
        how = "given" if given else "read on a back"
        lacks = f"; the city lacks {', '.join(map(str, self.from_city))}" if self.from_city else ""
        used = "" if given else f"; used {_used(self.scoring)}"
        read = {rc: d.label for rc, d in self.as_cards.decoding.cells.items()}
        out = []
        for a in self.against:
            cells = ", ".join(_named((r, c), origin) for r, c in a.cells)
            changes = ", ".join(
                f"{_named((r, c), origin)} as {label_text(*label)} (read {label_text(*read[(r, c)])})"
                for (r, c), label in a.otherwise[:MAX_OTHERWISE]
            )
            without = f"; without it the city reads {changes}" if changes else ""
            out.append(
                f"scoring card {a.card} ({how}) seems to lie in the city, at {cells or 'cells hidden'}"
                f"{without}{lacks}{used}: please check card {a.card} and those blocks"
            )
        return tuple(out)

    def held_cells(self) -> dict[tuple[int, int], tuple[int, str]]:
        """The lattice's cells the city reads otherwise without a scoring card read on a back that it seems
        to hold, each with (that card, its label there in the city format). Cards the player gave are not
        weighed so: the player's word against a city read surely is the player's to check, and the warning
        (:meth:`against_warnings`) names those blocks."""
        if self.scoring.source == "given":
            return {}
        return {rc: (a.card, label_text(*label)) for a in self.against for rc, label in a.otherwise}

    def settled_cells(self) -> dict[tuple[int, int], str]:
        """The lattice's cells three backs read surely settled (see :func:`stack_city`), each with the label
        (city format) the city alone read there: the backs outweighed the photo's own reading of it by less
        than :data:`CITY_AGAINST_CARDS` nats, so that reading is still a likely one."""
        return {rc: label_text(*label) for rc, label in self.moved}

    def moved_warnings(self, origin: tuple[int, int]) -> tuple[str, ...]:
        """One warning for each cell the backs settled (see :func:`stack_city`)."""
        read = {rc: d.label for rc, d in self.as_cards.decoding.cells.items()}
        cards = ", ".join(map(str, self.scoring.cards or ()))
        return tuple(
            f"{_named((r, c), origin)}: read as {label_text(*read[(r, c)])} (at first {label_text(*label)}) "
            f"so that the scoring cards read on their backs ({cards}) lie beside the city"
            for (r, c), label in self.moved
        )


def _named(cell: tuple[int, int], origin: tuple[int, int]) -> str:
    """The lattice ``cell``'s name in the city read (top-left at ``origin``); a cell above or left of the
    city's first row or column (one the decoding made table) has none there, and is named so."""
    r, c = cell[0] - origin[0], cell[1] - origin[1]
    return cell_name(r, c) if r >= 0 and c >= 0 else "a cell beside the city"


def _used(scoring: ScoringCards) -> str:
    if scoring.cards is None:
        return "none: give the scoring cards to score them"
    return f"{', '.join(map(str, scoring.cards))} from the {scoring.source}"


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
    scale = px_per_mm(geometry)
    try:
        found = find_scoring_cards(geometry.photo, city_mask=city, px_per_mm=scale)
        if readings is not None and len({r.number for r in found if r.number is not None}) < 3:
            found += backs_on_blocks(geometry.photo, city, found, scale)
    except NumberModelError as exc:  # the number reader is not installed: the city can still be read
        return [], [f"scoring cards not read from their backs: {exc}"]
    return [r.to_back_number() for r in found], []


def backs_on_blocks(
    photo: np.ndarray, blocks: np.ndarray, found: Sequence[ScoringCardReading], scale: float | None = None
) -> list[ScoringCardReading]:
    """The scoring cards in the RGB ``photo`` whose circles lie on the ``blocks`` mask (any size, non-zero
    on the cells read as blocks, see :func:`blocks_mask`) yet are backs (:data:`BACK_ON_BLOCKS_AT_MOST`),
    other than the numbers already ``found``; ``scale``: the photo's px per mm near the city, if known."""
    numbers = {r.number for r in found}
    on_photo = cv2.resize(blocks, (photo.shape[1], photo.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    out = []
    for r in find_scoring_cards(photo, px_per_mm=scale):
        if r.number is None or r.number in numbers or r.confidence < BACKS_OVER_CITY or not r.band_found:
            continue
        card = np.zeros(on_photo.shape, np.uint8)
        cv2.fillPoly(card, [np.round(r.corners).astype(np.int32)], 1)
        inside = card.astype(bool)
        if inside.any() and on_photo[inside].mean() <= BACK_ON_BLOCKS_AT_MOST:
            numbers.add(r.number)
            out.append(r)
    return out


def stack_city(
    geometry: Geometry,
    readings: Grid,
    backs: Sequence[BackNumber],
    given: Sequence[int] | None,
) -> CityCards:
    """Decode the city as cards and choose its scoring cards from the backs, the city and ``given``.

    The blocks are the city's own decoding's: the scoring cards only choose which cards show them
    (:func:`vision.cards.read_same_blocks`), and a scoring card the city cannot do without is reported
    (``against``), never absorbed by moving a block. One exception, said in a warning: three backs read
    surely whose cards the city holds only through a reading less than :data:`CITY_AGAINST_CARDS` nats
    likelier than the best without them settle those blocks (the photo's own evidence, never the
    player's word: given cards move nothing)."""
    counts, visible = geometry.counts(readings), geometry.visible
    settled = [[rd if counts[r, c] else None for c, rd in enumerate(row)] for r, row in enumerate(readings)]
    claimed = tuple(given) if given is not None else _claimed(backs)
    # A program of its own (fresh): the same inputs always give the same decoding, whatever ran before.
    own = read_as_cards(settled, readings, counts, visible, again_if=claimed, fresh=True)
    _, certainty = missing_cards(own)

    def cost(other: CardReading) -> float:
        # A card more placed (a city holds 15, not all of them seen) is no evidence against the cards.
        more = len(other.decoding.placements) - len(own.decoding.placements)
        return own.decoding.objective - other.decoding.objective - PLACEMENT_COST * more

    def told_without(cards: Sequence[int]) -> tuple[CardReading | None, float]:
        told = read_same_blocks(own, settled, readings, counts, visible, cards)
        return (None, math.inf) if told is None else (told, cost(told))

    def read_without(cards: Sequence[int]) -> tuple[CardReading, float]:
        other = read_as_cards(settled, readings, counts, visible, exclude=cards)
        return other, cost(other) if other.used else math.inf

    as_cards, against = _with_claimed(own, claimed, told_without)
    against = tuple(replace(a, otherwise=_otherwise(own, read_without([a.card])[0])) for a in against)
    moved: tuple[tuple[tuple[int, int], Label], ...] = ()
    if against and given is None and _sure(backs, claimed, [a.card for a in against]):
        other, settle_cost = read_without(claimed)
        if settle_cost < CITY_AGAINST_CARDS:
            as_cards, against, moved = other, (), _otherwise(other, own)
    from_city = city_lacks(as_cards)
    doubt = tuple(sorted(a.card for a in against))
    if given is not None:
        scoring = ScoringCards(tuple(sorted(given)), "given", tuple(backs), from_city, doubt)
    else:
        alike = ()
        if from_city is not None and certainty < CITY_SURE and len(claimed) < 3:
            alike = read_alike(as_cards, readings, counts, visible, claimed, SURE_MARGIN)
        scoring = choose_scoring_cards(backs, from_city, certainty, against=doubt, alike=alike)
    warnings = tuple(scoring.warnings)
    return CityCards(as_cards, scoring, from_city, certainty, warnings, against=against, moved=moved)


def _sure(backs: Sequence[BackNumber], claimed: Sequence[int], held: Sequence[int]) -> bool:
    """Whether three backs were read, those of the cards the city holds (``held``) each at least
    :data:`vision.backs.choose.BACKS_OVER_CITY` sure (the third may be less: it is not in question)."""
    sure = {b.number for b in backs if b.number is not None and b.confidence >= BACKS_OVER_CITY}
    return len(claimed) == 3 and set(held) <= sure


def _claimed(backs: Sequence[BackNumber]) -> tuple[int, ...]:
    """The numbers read on the backs, the three surest (the cards :func:`choose_scoring_cards` weighs)."""
    read = sorted((b for b in backs if b.number is not None), key=lambda b: -b.confidence)
    return tuple(b.number for b in read[:3] if b.number is not None)


def _with_claimed(
    own: CardReading,
    claimed: Sequence[int],
    told_without: Callable[[Sequence[int]], tuple[CardReading | None, float]],
) -> tuple[CardReading, tuple[CardAgainst, ...]]:
    """The city's own decoding told without the ``claimed`` scoring cards where that costs less than
    :data:`CITY_AGAINST_CARDS`, and the claimed cards it cannot do without, each with its cells."""
    placed = {p.card for p in own.decoding.placements} if own.used else set()
    hit = sorted(placed & set(claimed))
    if not hit:
        return own, ()
    told, cost = told_without(claimed)
    if told is not None and cost < CITY_AGAINST_CARDS:
        return told, ()
    costs = {card: told_without([card])[1] for card in hit}
    held = [card for card in hit if costs[card] >= CITY_AGAINST_CARDS] or hit
    rest = [card for card in claimed if card not in held]
    as_cards = own
    if placed & set(rest):
        told, cost = told_without(rest)
        as_cards = told if told is not None and cost < CITY_AGAINST_CARDS else own
    against = tuple(
        CardAgainst(card, tuple(sorted(rc for rc, d in as_cards.decoding.cells.items() if d.card == card)))
        for card in held
    )
    return as_cards, against


def _otherwise(own: CardReading, without: CardReading) -> tuple[tuple[tuple[int, int], Label], ...]:
    """The cells the decoding ``without`` a card reads otherwise than ``own``, with their labels there."""
    if not without.used:
        return ()
    cells = own.decoding.cells
    return tuple(
        sorted(
            (rc, d.label)
            for rc, d in without.decoding.cells.items()
            if rc in cells and cells[rc].label != d.label
        )
    )


def city_lacks(as_cards: CardReading) -> tuple[int, ...] | None:
    """The three cards no placement uses, when the decoding placed 15 known cards."""
    if not as_cards.used or len(as_cards.decoding.placements) != CITY_CARDS:
        return None
    missing = as_cards.decoding.missing_cards()
    return missing if len(missing) == 3 else None


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
