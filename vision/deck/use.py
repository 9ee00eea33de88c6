"""Use a taught deck in a scan: the player's own blocks, compared with every cell, sharpen what it reads.

Each visible cell that may hold a card is compared with the 144 prototypes (72 blocks, each as its card
lies either way round) by normalised correlation of their Lab channels, slid a few pixels to take up the
hand-placement error, each channel trusted by how plainly the cell shows a drawing in it
(:func:`channel_trust`); a block's label then gets the evidence of the prototype that fits the cell best
among those showing that label. The similarity becomes a log-likelihood ratio by a logistic fit made when
the deck was taught (how its own blocks compare with themselves, shifted, against the other blocks), and
it reweights the classifier's distribution over the *blocks* only: the cell's chance of holding no card,
or Wrecktar, stays the classifier's, so a deck that does not match the photo (another print, other art)
leaves every cell's ranking between block and empty as it was, and moves the blocks only as far as chance
similarities reach. The adjusted distributions go to the joint card decoding as before.

The expansion cards the player named when teaching add their blocks' prototypes (each either way round)
with the labels they teach: a cell like a taught Wrecktar gets that evidence for Wrecktar (and against no
card), a cell like a taught Point of Interest or construction block gets it for that block's label, and
its mark when that prototype is the cell's best match by a clear margin (:data:`MARK_LLR`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from scoring.city import block, rotate_road
from scoring.layouts import LAYOUTS
from vision.cells import CellReading, Grid
from vision.city import Geometry
from vision.deck.features import SLIDE
from vision.deck.taught import CARDS, TaughtDeck, block_features, sliding_windows

__all__ = ["apply_deck", "similarities", "template_labels", "template_marks", "use_deck"]

# Lab channels' weights in the similarity: the lightness carries the art's drawing, a* b* its colours.
CHANNEL_WEIGHTS = np.array([0.5, 0.25, 0.25], np.float32)
# A channel's drawing is trusted by how plainly it shows: s² / (s² + CONTRAST_NOISE²) for a window whose
# channel varies by s (its standard deviation, Lab units). Each channel is compared normalised, so a nearly
# flat one (a road hardly bluer than its ground) would count as much as a drawn one, and a lamp's colour
# cast turns its faint pattern over: random city edition 37 078's residential blocks, whose road lies a
# few b* units from the ground, matched the commercial prototypes by 5 nats under a bluish shade.
CONTRAST_NOISE = 3.0
# Cells the classifier thinks surely empty (no card) are not compared, but on the card region and the
# cells beside it: a block of a print the classifier never saw, the colour of the cloth under it, reads
# surely empty to it, and the region found by colour stops short of it (random city edition 37 087: blocks
# of its blue print on a blue cloth, industrial ones with their roads among them, read as the table 0.99 and
# scored so, two named nowhere); the deck knows those blocks.
COMPARE_BELOW_EMPTY = 0.95
# The log-likelihood ratio a similarity gives is bounded: one photo's evidence must not overrule all else.
MAX_LLR = 6.0
# A cell whose best match is a taught expansion block with a mark, worth at least this, carries the mark.
MARK_LLR = 3.0
WRECKTAR = ("W", None)


def template_labels(deck: TaughtDeck | None = None) -> list[tuple[str | None, str | None]]:
    """The (zone, road) each prototype shows: the 72 unturned, then the 72 turned by 180°, then the
    ``deck``'s expansion blocks as they lay and turned (none without a deck)."""
    out = []
    for turned in (False, True):
        for n in CARDS:
            for cell in LAYOUTS[n]:
                shown = cell.rotated() if turned else cell
                out.append((shown.zone, shown.road))
    extra = deck.extra_labels if deck is not None else ()
    out += [(z, r) for z, r, _ in extra] + [(z, rotate_road(r)) for z, r, _ in extra]
    return out


def template_marks(deck: TaughtDeck) -> list[str]:
    """The mark each prototype of :func:`template_labels` carries ("" none, "poi", "construction")."""
    marks = [m for _, _, m in deck.extra_labels]
    return [""] * 144 + marks + marks


def _templates(deck: TaughtDeck) -> np.ndarray:
    p, x = deck.prototypes, deck.extras
    every = np.concatenate([p, p[:, :, ::-1, ::-1], x, x[:, :, ::-1, ::-1]])
    return every * CHANNEL_WEIGHTS[None, :, None, None]


def similarities(
    balanced: np.ndarray, centres: Sequence[tuple[float, float]], pitch: tuple[float, float], deck: TaughtDeck
) -> np.ndarray:
    """Best similarity (−1…1) of each cell at ``centres`` with each of the prototypes (the 144 and the
    expansion blocks' of :func:`template_labels`): (N, T)."""
    if not len(centres):
        return np.zeros((0, len(template_labels(deck))), np.float32)
    patches = block_features(balanced, centres, *pitch)
    return similarities_of(sliding_windows(patches), deck, channel_trust(patches))


def channel_trust(patches: np.ndarray) -> np.ndarray:
    """How far each channel of each patch (N, 3, h, w) is trusted in a comparison (N, 3), 0–1, by how
    plainly it shows a drawing (see :data:`CONTRAST_NOISE`)."""
    spread = patches[:, :, SLIDE:-SLIDE, SLIDE:-SLIDE].std(axis=(2, 3))
    return (spread**2 / (spread**2 + CONTRAST_NOISE**2)).astype(np.float32)


def similarities_of(windows: np.ndarray, deck: TaughtDeck, trust: np.ndarray | None = None) -> np.ndarray:
    """Best similarity of each cell's windows (N, S, 3, h, w) with each prototype: (N, T); ``trust``
    (N, 3): each cell's channels' weights beside :data:`CHANNEL_WEIGHTS` (:func:`channel_trust`), all 1
    when not given."""
    n, s = windows.shape[:2]
    t = _templates(deck)
    trust = np.ones((n, 3), np.float32) if trust is None else trust
    per = [
        (windows[:, :, c].reshape(n * s, -1) @ t[:, c].reshape(len(t), -1).T).reshape(n, s, len(t))
        for c in range(3)
    ]
    # Each channel's share as before, times the cell's trust in it; a cell trusting every channel fully
    # compares as without trust (the calibration's scale).
    weights = trust * CHANNEL_WEIGHTS[None, :]
    scale = CHANNEL_WEIGHTS.sum() / np.maximum(weights.sum(axis=1), 1e-6)
    mixed = sum(per[c] * (trust[:, c] * scale)[:, None, None] for c in range(3))
    return np.asarray(mixed).max(axis=1)


def llr(similarity: np.ndarray, deck: TaughtDeck) -> np.ndarray:
    """Log-likelihood ratio "this cell is that block" of similarities, from the deck's own calibration."""
    a, b = deck.calibration
    return np.clip(a * (similarity - b), -MAX_LLR, MAX_LLR)


def use_deck(geometry: Geometry, readings: Grid, deck: TaughtDeck | None) -> Grid:
    """The scan's hook: ``readings`` reweighted by ``deck`` (returned as they are without one)."""
    if deck is None:
        return readings
    return apply_deck(geometry, readings, deck)


def apply_deck(geometry: Geometry, readings: Grid, deck: TaughtDeck) -> Grid:
    """The classifier's ``readings`` on ``geometry.lattice`` with their block distributions reweighted
    by the taught deck (see the module note); cells without a distribution are left as they are, and so
    are those off the card region and not beside it that the classifier reads surely empty
    (:data:`COMPARE_BELOW_EMPTY`)."""
    lattice = geometry.lattice
    # The deck knows the player's own inks: compared with its white balance only, no zone colour map.
    balanced = geometry.view.balanced
    predictions = readings
    near = _near_cards(geometry.occupied)
    cells = [
        (r, c)
        for r, row in enumerate(predictions)
        for c, p in enumerate(row)
        if geometry.visible[r, c]
        and p.distribution
        and (p.empty_probability < COMPARE_BELOW_EMPTY or near[r, c])
    ]
    out = [list(row) for row in predictions]
    if not cells:
        return out
    sims = similarities(
        balanced, [lattice.center(r, c) for r, c in cells], (lattice.pitch_x, lattice.pitch_y), deck
    )
    evidence = llr(sims, deck)
    labels = template_labels(deck)
    marks = template_marks(deck)
    for (r, c), ev in zip(cells, evidence, strict=True):
        per_label: dict[tuple[str | None, str | None], float] = {}
        for label, e in zip(labels, ev.tolist(), strict=True):
            per_label[label] = max(per_label.get(label, -MAX_LLR), e)
        best = int(ev.argmax())
        mark = marks[best] if marks[best] and ev[best] >= MARK_LLR else None
        out[r][c] = reweighted(out[r][c], per_label, mark)
    return out


def _near_cards(occupied: np.ndarray) -> np.ndarray:
    """The card region's cells (``occupied``, (rows, cols) bool) and those beside them (a side shared)."""
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    return cv2.dilate(occupied.astype(np.uint8), cross).astype(bool)


def reweighted(
    pred: CellReading, per_label: dict[tuple[str | None, str | None], float], mark: str | None = None
) -> CellReading:
    """``pred`` with its block probabilities times exp(evidence), renormalised within the blocks' share;
    Wrecktar's evidence (a taught Wrecktar) raises Wrecktar against the rest; ``mark`` (``"poi"``,
    ``"construction"``) replaces the classifier's mark of a block."""
    per_label = dict(per_label)
    wrecktar = per_label.pop(WRECKTAR, None)
    dist = dict(pred.distribution)
    blocks = {k: v for k, v in dist.items() if k[0] not in (None, "W")}
    mass = sum(blocks.values())
    if mass <= 0:
        return pred
    floor = min(per_label.values(), default=0.0)
    weighted = {k: v * math.exp(per_label.get(k, floor)) for k, v in blocks.items()}
    total = sum(weighted.values())
    dist.update({k: mass * v / total for k, v in weighted.items()})
    # A cell that shows one of the player's blocks clearly holds a card: no card (or Wrecktar over it)
    # loses that evidence; a deck that matches nothing (negative evidence) changes neither.
    sure = math.exp(-max(0.0, max(per_label.values(), default=0.0)))
    for k in dist:
        if k[0] in (None, "W"):
            dist[k] *= sure
    # A cell like the player's Wrecktar: Wrecktar gains, no card loses (no evidence against either).
    if wrecktar is not None and wrecktar > 0 and WRECKTAR in dist:
        dist[WRECKTAR] *= math.exp(wrecktar)
        if (None, None) in dist:
            dist[(None, None)] *= math.exp(-wrecktar)
    norm = sum(dist.values())
    return _with_distribution(pred, {k: v / norm for k, v in dist.items()}, mark, wrecktar is not None)


def _with_distribution(
    pred: CellReading,
    dist: dict[tuple[str | None, str | None], float],
    mark: str | None = None,
    taught_wrecktar: bool = False,
) -> CellReading:
    """A prediction whose answer, confidence and alternatives follow the new distribution (its marks,
    unless ``mark`` is given, and the chance of an empty cell kept). With a taught Wrecktar, Wrecktar
    becomes the answer when it is the most probable."""
    ranked = sorted(((k, v) for k, v in dist.items() if k[0] != "W"), key=lambda kv: -kv[1])
    alternatives = tuple((k[0], k[1], float(v)) for k, v in ranked[:3])
    empty = float(dist.get((None, None), 0.0))
    if taught_wrecktar and dist.get(WRECKTAR, 0.0) > ranked[0][1]:
        return replace(
            pred,
            zone=None,
            road=None,
            label="W",
            kind="wrecktar",
            poi=False,
            construction=False,
            confidence=float(dist[WRECKTAR]),
            alternatives=alternatives,
            empty_probability=empty,
            distribution=dist,
        )
    if pred.kind == "wrecktar" or ranked[0][0][0] is None:
        return replace(pred, distribution=dist, alternatives=alternatives, empty_probability=empty)
    (zone, road), p = ranked[0]
    mark_share = pred.confidence / max(pred.alternatives[0][2], 1e-9) if pred.alternatives else 1.0
    poi, construction = (pred.poi, pred.construction) if mark is None else (mark == "poi", mark != "poi")
    label = block(zone, road, poi=poi, construction=construction).token()
    return replace(
        pred,
        zone=zone,
        road=road,
        label=label,
        kind="block",
        poi=poi,
        construction=construction,
        empty_probability=empty,
        confidence=float(p) * min(1.0, mark_share),
        alternatives=alternatives,
        distribution=dist,
    )
