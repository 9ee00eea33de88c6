"""A print's look learned from the deck's structure alone: which ground is which zone and what its road
looks like, with no prior look.

Each of the 18 cards is one park (no road) and one residential, one commercial and one industrial block,
each with one road piece (``shared/reference/real-cards.md``, "The deck's structure"). A photo of the
whole deck is therefore a puzzle:

1. The blocks' grounds (:func:`vision.deck.look.ground_colour`) fall into four groups, one per zone
   (:func:`ground_groups`); the group whose blocks show no road is the parks.
2. The road's colour is where the blocks' edge patches differ most from their ground; each block's road
   share at each edge (:func:`vision.deck.look.road_shares`) then says where its road runs.
3. Each naming of the other three groups scores every card against the 18 known cards (zones and road
   edges, either turn) by an assignment; three namings fit equally (the true one and its two cycles of
   residential → commercial → industrial: the deck is the same deck under them), the others worse.
4. One more cue picks the cycle (:mod:`vision.deck.by_structure`): the shipped classifier on the blocks
   recoloured to the shipped grounds under each naming. Without a clear winner the cycle is left for the
   player to settle (one correction names it).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from scoring.city import ROADS
from scoring.layouts import card_blocks
from vision.deck.assign import best_assignment
from vision.deck.look import LAB_WEIGHTS, ZONES, CityLook, lab_distance, road_logp
from vision.deck.taught import CARDS

__all__ = ["Naming", "NoStructure", "block_logp", "city_look", "ground_groups", "name_groups", "park_group"]

# A zone's ground spread is never taken below this (weighted ΔE): one photo's grounds spread by 2–4, a
# city photo of the same print, smaller and in other light, by more.
MIN_SPREAD = 6.0
# The road scale is this share of the usual gap between a road block's road edges and its others.
ROAD_SCALE_SHARE = 0.3
MIN_ROAD_SCALE = 1.5
# A block's log-probability is floored here (one bad block must not dominate a card).
FLOOR = math.log(1e-4)
# The cue settles the cycle when its naming's blocks read as their zones at even odds or better on average
# (mean log-probability a block, the naming's own doubt its negative) and beat the next naming's by its own
# doubt plus CYCLE_MARGIN a block: the less surely the best naming's blocks read, the more it must lead.
# On the decks of random city editions 37 000–37 099 (60 textured), wrong namings led by up to 0.68 a
# block, each with a doubt of 0.5 to 0.9 (37 091: lead 0.54, doubt 0.50, settled wrongly by a flat lead of
# 0.5 a block); right ones led by 0.03 to 1.97, doubts 0.03 to 0.8, 31 of them by their doubt plus 0.2.
# A margin too small names every card of the deck wrong, silently; one too large only asks the player to
# name one card.
MIN_CUE = math.log(0.5)
CYCLE_MARGIN = 0.2
# Namings whose assignments differ by less than this (nats) fit the structure equally.
TIE = 1.0


class NoStructure(ValueError):
    """The deck photo's blocks could not be matched to the 18 cards' structure (why in the text)."""


@dataclass(frozen=True)
class Naming:
    """The deck's blocks named: ``zone_of`` each ground group's zone (a string, group 0, 1, …), the fit and
    turn matrices of the cards against the 18 under it, and its assignment's total."""

    zone_of: str
    fit: np.ndarray
    turn: np.ndarray
    total: float


def ground_groups(grounds: np.ndarray, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` groups of the blocks' ``grounds`` (N, 3): each block's group (N,) and the groups' centres
    (k, 3), by k-means on the weighted Lab colours (seeded: the same photo groups the same)."""
    if len(grounds) < 4 * k:
        raise NoStructure(f"only {len(grounds) // 4} cards found, too few to learn their colours")
    return colour_groups(grounds, LAB_WEIGHTS, k)


def colour_groups(colours: np.ndarray, weights: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``k`` groups of the Lab ``colours`` (N, 3), by k-means on them scaled by ``weights`` (3,), seeded so
    that the same photo groups the same: each colour's group (N,) and the groups' centres (k, 3). Both
    games' decks learn a print's colours so (a city's grounds, a town's fills)."""
    data = (colours * weights).astype(np.float32)
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.1)
    _, labels, centres = cv2.kmeans(data, k, None, criteria, 8, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    return labels.ravel().astype(int), centres / weights


def park_group(apart: np.ndarray, groups: np.ndarray) -> tuple[int, float]:
    """The parks' group (its blocks' two edges most unlike their ground are the least so: no road), and
    the road scale: a share of the other blocks' usual gap between their two most unlike edges and the
    other two."""
    ranked = np.sort(apart, axis=1)
    gap = ranked[:, 2:].mean(axis=1) - ranked[:, :2].mean(axis=1)
    park = int(np.argmin([np.median(gap[groups == g]) for g in range(4)]))
    usual = float(np.median(gap[groups != park]))
    return park, max(MIN_ROAD_SCALE, ROAD_SCALE_SHARE * usual)


def _spreads(grounds: np.ndarray, groups: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.array(
        [
            max(MIN_SPREAD, 2.5 * float(np.median(lab_distance(grounds[groups == g], centres[g]))))
            for g in range(4)
        ]
    )


def naming_fit(zone_logp: np.ndarray, roads: np.ndarray, zone_of: str) -> Naming:
    """The cards (four blocks each, TL, TR, BL, BR) against the 18 under the naming ``zone_of`` (group →
    zone): each block's group log-probabilities ``zone_logp`` (N, 4 groups) and road pieces' ``roads``
    (N, 6: :func:`vision.deck.look.road_logp`; a park's none)."""
    group_of = {z: g for g, z in enumerate(zone_of)}
    n = len(zone_logp) // 4
    fit, turn = np.empty((n, len(CARDS))), np.zeros((n, len(CARDS)), bool)
    for j, card in enumerate(CARDS):
        ways = []
        for rotated in (False, True):
            (tl, tr), (bl, br) = card_blocks(card, rotated)
            labels = [(b.zone, b.road) for b in (tl, tr, bl, br)]
            per = np.zeros(n)
            for q, (zone, road) in enumerate(labels):
                blocks = np.arange(n) * 4 + q
                zl = zone_logp[blocks, group_of[zone]]
                rl = roads[blocks, ROADS.index(road)] if road else 0.0
                per += np.maximum(FLOOR, zl + rl)
            ways.append(per)
        fit[:, j], turn[:, j] = np.maximum(*ways), ways[1] > ways[0]
    rows, cols = best_assignment(fit)
    return Naming(zone_of, fit, turn, float(fit[rows, cols].sum()))


def name_groups(
    zone_logp: np.ndarray, roads: np.ndarray, park: int, cue: Callable[[str], float]
) -> tuple[Naming, list[Naming], bool]:
    """The namings of the ground groups that fit the 18 cards best (the parks' group fixed): the one the
    ``cue`` (mean nats a block, larger better) prefers, the others that fit as well (the cycles), and
    whether the cue settled it (its best is at least :data:`MIN_CUE` and beats the next by its own doubt,
    minus its best, plus :data:`CYCLE_MARGIN`)."""
    others = [g for g in range(4) if g != park]
    namings = []
    for perm in itertools.permutations("RCI"):
        zone_of = ["P"] * 4
        for g, z in zip(others, perm, strict=True):
            zone_of[g] = z
        namings.append(naming_fit(zone_logp, roads, "".join(zone_of)))
    namings.sort(key=lambda n: -n.total)
    tied = [n for n in namings if n.total >= namings[0].total - TIE]
    if len(tied) == 1:
        return tied[0], [], True
    cues = sorted(((cue(n.zone_of), i) for i, n in enumerate(tied)), reverse=True)
    best = tied[cues[0][1]]
    (best_cue, _), (next_cue, _) = cues[0], cues[1]
    settled = best_cue >= MIN_CUE and best_cue - next_cue >= CYCLE_MARGIN - best_cue
    return best, [n for n in tied if n is not best], settled


def city_look(
    grounds: np.ndarray, groups: np.ndarray, centres: np.ndarray, zone_of: str, road_scale: float
) -> CityLook:
    """The look under the naming ``zone_of`` (group → zone): each zone's ground and spread."""
    order = [zone_of.index(z) for z in ZONES]
    spread = np.array(
        [
            max(MIN_SPREAD, 2.5 * float(np.median(lab_distance(grounds[groups == g], centres[g]))))
            for g in range(4)
        ]
    )
    return CityLook(centres[order].astype(np.float32), spread[order].astype(np.float32), road_scale)


def block_logp(
    look_groups: CityLook, grounds: np.ndarray, apart: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each block's group log-probabilities (N, 4) and road pieces' (N, 6), the groups taken as a look's
    zones (:func:`city_look` under the naming ``"RCIP"``)."""
    return look_groups.zone_logp(grounds)[0], road_logp(apart, look_groups.road_scale)
