"""Name the cards of a deck photo of any print by the deck's structure (:mod:`vision.deck.structure`).

The cards are found by their outlines (:func:`vision.deck.find_cards`) and set top-down side by side; each
block's ground, edge colours and road shares are measured there (:mod:`vision.deck.look`), the grounds
grouped into four zones and the groups named so that the cards are the 18 known ones. The parks and every
card's roads are fixed by that; residential, commercial and industrial only up to a cycle, which the
shipped classifier settles where the print's drawings are the shipped ones in other colours: the blocks are
recoloured so that each group's ground becomes the shipped ground of the zone a naming gives it, and the
naming whose blocks the classifier then reads as their zones wins by a clear margin. Otherwise the deck
is taught under the likeliest naming with the cycle left open, and the player is asked to name one card
(one correction, ``deck fix``, settles every card: :func:`settle_cycle`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cells import Classifier, TopDown
from vision.deck.assign import assign_cards, best_assignment
from vision.deck.look import (
    CityLook,
    apartness,
    block_crops,
    ground_colour,
    ground_texture,
    lab_distance,
    to_lab,
)
from vision.deck.outlines import CARD_PX, DeckMosaic, find_cards
from vision.deck.seen import CardSeen, place_name
from vision.deck.structure import NoStructure, block_logp, city_look, ground_groups, name_groups, park_group
from vision.deck.taught import CARDS, DeckError, TaughtDeck

__all__ = [
    "SHIPPED_GROUNDS",
    "StructureCards",
    "name_by_structure",
    "Question",
    "question",
    "settle_cycle",
    "shipped_colours",
    "structure_cards",
    "with_look",
]

# The shipped print's grounds (RGB, the renderer's models/synth/palette.py GROUND) that the classifier
# learned each zone on.
SHIPPED_GROUNDS = {"R": (188, 144, 118), "C": (110, 147, 168), "I": (162, 157, 160), "P": (160, 194, 150)}
PITCH = (CARD_PX[0] / 2, CARD_PX[1] / 2)
# A print whose blocks' corner squares stray this far (median ΔE) from their ground is drawn (a flat
# print's measure 0–1, the shipped drawings' 12 and more): only then can the classifier tell its zones.
TEXTURED = 5.0
# A look whose every zone's ground lies this near (weighted ΔE) the shipped one's is the shipped print's
# colouring (a deck photo's light moves the grounds by up to ~15).
SHIPPED_NEAR = 25.0


@dataclass(frozen=True)
class StructureCards:
    """The cards named by structure: ``cards`` as the assignment gave them, the print's ``look``, whether
    the cue ``settled`` the zones' cycle, and the cards under each other naming that fits the structure as
    well (``cycles``: (card, rotated) per card found, for :func:`settle_cycle`) with their looks."""

    cards: list[CardSeen]
    look: CityLook
    settled: bool
    cycles: tuple[tuple[tuple[int, bool], ...], ...] = ()
    cycle_looks: tuple[CityLook, ...] = ()


def _measure(mosaics: Sequence[DeckMosaic]) -> tuple[np.ndarray, np.ndarray, float]:
    """Every block's ground (N, 3) and its edges' apartness (N, 4), card by card (TL, TR, BL, BR), and the
    print's texture: the median over the blocks of how far their corner squares stray from their ground."""
    crops: list[np.ndarray] = []
    for m in mosaics:
        crops += [c for c in block_crops(m.view.balanced, m.block_centres(), PITCH) if c is not None]
    if len(crops) != 4 * sum(len(m.places) for m in mosaics):
        raise NoStructure("a card lies too near the photo's edge to be measured (leave table round it)")
    grounds = np.array([ground_colour(c) for c in crops], np.float32)
    apart = np.array([apartness(c, g) for c, g in zip(crops, grounds, strict=True)], np.float32)
    texture = float(np.median([ground_texture(c) for c in crops]))
    return grounds, apart, texture


def _colour_cue(centres: np.ndarray) -> Callable[[str], float]:
    """The naming cue of a flat print (no drawings for the classifier to know): only a naming that gives
    every group nearly the shipped ground of its zone counts (a print coloured as the shipped one)."""
    shipped = to_lab(np.array([[SHIPPED_GROUNDS[z] for z in "RCIP"]], np.uint8))[0]

    def score(zone_of: str) -> float:
        d = lab_distance(centres, shipped[["RCIP".index(z) for z in zone_of]])
        return 0.0 if bool((d <= SHIPPED_NEAR).all()) else -1e3

    return score


def shipped_colours(look: CityLook) -> bool:
    """Whether ``look`` colours the zones as the shipped print does (the shipped classifier reads it)."""
    shipped = to_lab(np.array([[SHIPPED_GROUNDS[z] for z in "RCIP"]], np.uint8))[0]
    return bool((lab_distance(look.grounds, shipped) <= SHIPPED_NEAR).all())


def _recoloured(mosaic: DeckMosaic, groups: np.ndarray, shifts: np.ndarray) -> TopDown:
    """The mosaic with each block moved in Lab by its group's shift (the classifier's view of it)."""
    lab = to_lab(mosaic.view.image)
    w, h = PITCH
    for i, (x, y) in enumerate(mosaic.block_centres()):
        x0, y0 = max(0, round(x - w / 2)), max(0, round(y - h / 2))
        lab[y0 : round(y + h / 2), x0 : round(x + w / 2)] += shifts[groups[i]]
    lab[..., 0] = np.clip(lab[..., 0], 0, 100)
    rgb = np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB) * 255 + 0.5, 0, 255).astype(np.uint8)
    # Its grounds are the shipped ones already: the classifier's own white balance, taken from a print
    # without white (a pale zone taken for it), would cast them again.
    return TopDown(rgb, np.eye(3), (0, 0, rgb.shape[1], rgb.shape[0]), ready=True)


def _raw_centres(mosaics: Sequence[DeckMosaic], groups: np.ndarray) -> np.ndarray:
    """Each ground group's median ground (4, 3 Lab) in the mosaics as photographed (no white balance: the
    colours :func:`_recoloured` shifts)."""
    crops: list[np.ndarray | None] = []
    for m in mosaics:
        crops += block_crops(m.view.image, m.block_centres(), PITCH)
    grounds = np.array([ground_colour(c) for c in crops if c is not None], np.float32)
    return np.array([np.median(grounds[groups == g], axis=0) for g in range(4)], np.float32)


def _cue(mosaics: Sequence[DeckMosaic], groups: np.ndarray, classify: Classifier) -> Callable[[str], float]:
    """The naming cue: the classifier's mean log-probability of each road block's zone under a naming,
    the blocks recoloured to the shipped grounds of the zones it names."""
    shipped = to_lab(np.array([[SHIPPED_GROUNDS[z] for z in "RCIP"]], np.uint8))[0]
    centres = _raw_centres(mosaics, groups)

    def score(zone_of: str) -> float:
        shifts = np.array([shipped["RCIP".index(z)] - centres[g] for g, z in enumerate(zone_of)], np.float32)
        total, k, named = 0.0, 0, 0
        for m in mosaics:
            n = 4 * len(m.places)
            view = _recoloured(m, groups[k : k + n], shifts)
            for i, reading in enumerate(classify(view, m.block_centres(), PITCH)):
                zone = zone_of[groups[k + i]]
                if zone != "P":
                    p = sum(v for (z, _), v in reading.distribution.items() if z == zone)
                    total += max(math.log(1e-4), math.log(max(p, 1e-12)))
                    named += 1
            k += n
        return total / max(1, named)

    return score


def name_by_structure(
    mosaics: Sequence[DeckMosaic], places: list[tuple[int | None, int, int]], label: str, classify: Classifier
) -> StructureCards:
    """The cards of ``mosaics`` (one a photo; ``places`` in their order) named by the deck's structure;
    raises :class:`~vision.deck.taught.DeckError` naming what does not fit."""
    try:
        grounds, apart, texture = _measure(mosaics)
        groups, centres = ground_groups(grounds)
    except NoStructure as exc:
        raise DeckError(f"{label}: {exc}") from None
    park, road_scale = park_group(apart, groups)
    group_logp, roads = block_logp(city_look(grounds, groups, centres, "RCIP", road_scale), grounds, apart)
    drawn = texture >= TEXTURED
    cue = _cue(mosaics, groups, classify) if drawn else _colour_cue(centres)
    best, others, settled = name_groups(group_logp, roads, park, cue)
    cards = assign_cards(places, best.fit, best.turn, label)
    cycles = []
    for other in others:  # each other naming's own assignment, kept for the player's one correction
        rows, cols = best_assignment(other.fit)
        given = dict(zip(rows.tolist(), cols.tolist(), strict=True))
        cycles.append(tuple((CARDS[given[i]], bool(other.turn[i, given[i]])) for i in range(len(places))))
    looks = tuple(city_look(grounds, groups, centres, n.zone_of, road_scale) for n in others)
    look = city_look(grounds, groups, centres, best.zone_of, road_scale)
    return StructureCards(cards, look, settled, tuple(cycles), looks)


def settle_cycle(
    deck: TaughtDeck, seen: list[CardSeen], place: tuple[int, int, int], card: int, rotated: bool
) -> tuple[list[CardSeen], TaughtDeck] | None:
    """When ``deck``'s zones' cycle is open and one of its other namings puts ``card`` (turned or not) at
    ``place``: that naming's cards (``seen`` renamed) and deck (its look, the cycle settled); else None."""
    if deck.source.get("cycle") != "open":
        return None
    for option in deck.source.get("cycles") or ():
        cards = option["cards"]
        at = [i for i, c in enumerate(seen) if c.place == place and c.card is not None]
        if len(cards) != sum(c.card is not None for c in seen) or not at:
            continue
        order = [i for i, c in enumerate(seen) if c.card is not None]
        if tuple(cards[order.index(at[0])]) != (card, rotated):
            continue
        renamed = list(seen)
        for k, i in enumerate(order):
            renamed[i] = replace(seen[i], card=int(cards[k][0]), rotated=bool(cards[k][1]), fit=None)
        look = replace(deck.look, grounds=np.array(option["grounds"], np.float32),
                       spread=np.array(option["spread"], np.float32))  # fmt: skip
        source = {k: v for k, v in deck.source.items() if k != "cycles"} | {"cycle": "settled"}
        return renamed, replace(deck, look=look, source=source)
    return None


@dataclass(frozen=True)
class Question:
    """What teaching asks the player when the zones' cycle is not settled: which card lies at one place
    (``photo``, card ``row`` and ``col``, 0-based), taken for ``taken``; naming it names every card."""

    photo: int
    row: int
    col: int
    taken: str

    @property
    def text(self) -> str:
        """The question as the command line puts it."""
        return (
            "the cards' colours name every park but leave residential, commercial and industrial to one of "
            f"three namings: say which card lies at {place_name((None, self.row, self.col))} (taken for card "
            f"{self.taken}) with `sprawlscan deck fix DECK {self.row + 1},{self.col + 1}=N` (N the card's "
            "number, 'r' after it when turned), or on the page's deck step; every other card follows"
        )

    def to_json(self) -> dict[str, object]:
        return {"photo": self.photo, "row": self.row, "col": self.col, "taken": self.taken, "text": self.text}


def question(cards: Sequence[CardSeen]) -> Question:
    """What to ask the player when the cycle is not settled: name one card (any), which names them all."""
    first = cards[0]
    return Question(first.photo, first.row, first.col, first.label())


def structure_cards(
    rgbs: Sequence[np.ndarray], places: list[tuple[int | None, int, int]], label: str, classify: Classifier
) -> StructureCards | None:
    """The cards of the deck photos (working copies) named by structure, or None when the outlines do not
    find exactly the cards at ``places`` (the photos' cards found otherwise) or the structure does not
    name them all."""
    mosaics = []
    for k, rgb in enumerate(rgbs):
        mosaic = find_cards(rgb)
        want = [(r, c) for p, r, c in places if (p or 0) == k]
        if mosaic is None or list(mosaic.places) != want:
            return None
        mosaics.append(mosaic)
    try:
        return name_by_structure(mosaics, places, label, classify)
    except DeckError:
        return None


def with_look(deck: TaughtDeck, structured: StructureCards) -> TaughtDeck:
    """``deck`` reading by the print's look, and keeping the other namings of an open cycle (the cards
    and look of each) for the player's one correction to choose from (:func:`settle_cycle`)."""
    source = {**deck.source, "named_by": "structure", "cycle": "settled" if structured.settled else "open"}
    if not structured.settled:
        source["cycles"] = [
            {
                "cards": [[n, r] for n, r in cards],
                "grounds": look.grounds.tolist(),
                "spread": look.spread.tolist(),
            }
            for cards, look in zip(structured.cycles, structured.cycle_looks, strict=True)
        ]
    return replace(deck, look=structured.look, source=source)
