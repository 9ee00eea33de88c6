"""Teach the scanner a deck: one photo of the player's 18 cards face up in a grid → a :class:`TaughtDeck`.

Each card is found on its own by its outline against the table (:mod:`vision.deck.outlines`), so wide or
uneven gaps and cards a little askew do not matter; when the outlines do not give a whole deck (cards
touching, or art in the table's colours at a card's edge), the grid is also fitted as one block lattice
(:func:`vision.city_geometry.geometry_for`, the gaps absorbed by its per-cell offsets) and its 2 × 2 groups
are the cards, and whichever the known layouts explain better is taken. The 18 known layouts are then given to
the cards as an assignment problem (each layout once, in the turn it fits better;
:func:`scipy.optimize.linear_sum_assignment`). A card that fits no layout it could be given, two cards showing
the same layout, a card missing, or a layout the cards cannot settle between two places: the photo is refused
with the cards named, never guessed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from vision.cells import CellReading, Classifier, Grid, get_classifier, read_lattice
from vision.city_geometry import Geometry, geometry_for, small_copy
from vision.deck.assign import FITS, assign_cards
from vision.deck.by_structure import StructureCards, question, structure_cards, with_look
from vision.deck.corrections import CardSeen, Correction, build_deck, card_labels, describe, place_name
from vision.deck.draw import draw_deck_overlay
from vision.deck.outlines import CARD_PX, find_cards
from vision.deck.taught import CARDS, MAX_SEEN, DeckError, block_features
from vision.deck.teach_structure import cards_by_structure
from vision.decode import decode_image
from vision.lattice import Lattice, NoCityFound, locate_city, measure_periods, project_points
from vision.run import WORK_LONG_SIDE

__all__ = ["CardSeen", "Teaching", "teach_deck"]

# A block's log-probability is floored here (the softmax underflows; one bad block must not dominate).
FLOOR = math.log(1e-4)
# The shipped classifier knows the print when every card fits its layout at least this well (a block 0.5).
KNOWN_PRINT = math.log(0.5)
# A 2 × 2 group holds a card when at least this many of its blocks read as a card.
CARD_CELLS = 3
# The grid's period shortened by these factors gives the block pitch candidates (gaps of 0 to ~12 mm).
PERIOD_FACTORS = (1.0, 0.94, 0.88)


@dataclass(frozen=True)
class Teaching:
    """What teaching found: the deck (a :class:`TaughtDeck`, or a Circle the Wagons deck of
    :mod:`vision.towns.deck`), its cards (the 18 and the expansion cards named, in the order of the deck's
    patches) and the working copy of each photo (for the overlay)."""

    deck: Any
    cards: list[CardSeen]
    seconds: float
    photos: list[np.ndarray] = field(default_factory=list, repr=False)
    ask: str | None = None

    def describe(self) -> str:
        """The assignment as a grid of card numbers per photo (``7r``: card 7 turned by 180°)."""
        return describe(self.cards)

    def overlay(self, photo: int = 0, long_side: int = 1400) -> np.ndarray:
        """Photo ``photo`` (0-based) with each card found outlined and labelled (RGB, long side at most
        ``long_side``): :func:`vision.deck.draw.draw_deck_overlay`."""

        cards = [c for c in self.cards if c.photo == photo]
        return draw_deck_overlay(self.photos[photo], cards, long_side=long_side)


@dataclass(frozen=True)
class PhotoCards:
    """The cards found in one deck photo: their places (card row, column), fit and turn matrices against
    the 18 layouts, their blocks' patches and classifier labels (4 a card) and outlines (working-copy
    pixels, TL, TR, BR, BL); ``score`` how well the layouts explain them, ``doubtful`` regions left."""

    score: float
    found: list[tuple[int, int]]
    fit: np.ndarray
    turn: np.ndarray
    patches: np.ndarray
    read: list[str]
    corners: np.ndarray
    doubtful: int = 0


def _log(pred: CellReading, label: tuple[str | None, str | None]) -> float:
    return max(FLOOR, math.log(max(pred.distribution.get(label, 0.0), 1e-12)))


def _fit_matrix(predictions: Sequence[Sequence[CellReading]]) -> tuple[np.ndarray, np.ndarray]:
    """For each card (its 4 readings TL, TR, BL, BR) and layout: the best sum of log-probabilities over
    the two turns, and which turn that was."""
    fit = np.empty((len(predictions), len(CARDS)))
    turn = np.zeros((len(predictions), len(CARDS)), bool)
    for i, blocks in enumerate(predictions):
        for j, n in enumerate(CARDS):
            ways = [
                sum(_log(p, lb) for p, lb in zip(blocks, card_labels(n, rot), strict=True))
                for rot in (False, True)
            ]
            fit[i, j], turn[i, j] = max(ways), ways[1] > ways[0]
    return fit, turn


def _card_centres(
    lattice: Lattice, r0: int, c0: int, holds: np.ndarray
) -> list[tuple[int, int, float, float]]:
    """The 2 × 2 groups starting at row/column phase (r0, c0) that hold a card: (card row, card column,
    centre x, centre y), the centre the mean of the group's four cell centres."""
    out = []
    for r in range(r0, lattice.rows - 1, 2):
        for c in range(c0, lattice.cols - 1, 2):
            if holds[r : r + 2, c : c + 2].sum() < CARD_CELLS:
                continue
            pts = [lattice.center(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
            out.append(((r - r0) // 2, (c - c0) // 2, *np.mean(pts, axis=0)))
    return out


def _block_centres(lattice: Lattice, cx: float, cy: float) -> list[tuple[float, float]]:
    hx, hy = lattice.pitch_x / 2, lattice.pitch_y / 2
    return [(cx - hx, cy - hy), (cx + hx, cy - hy), (cx - hx, cy + hy), (cx + hx, cy + hy)]


def _read_points(geometry: Geometry, points: list[tuple[float, float]], classify: Classifier) -> Grid:
    """The classifier's readings at arbitrary block centres of the geometry's top-down view (whose colour
    cast is measured over the whole grid)."""
    lat = geometry.lattice
    return list(classify(geometry.view, np.array(points, float), (lat.pitch_x, lat.pitch_y)))


def _read_cards(geometry: Geometry, classify: Classifier) -> tuple | None:
    """The cards of one fitted grid: (score, cards found, fit and turn matrices, block centres), at the
    row and column phase whose groups the layouts explain best; ``None`` when no group holds a card."""
    lattice = geometry.lattice
    first = read_lattice(classify, geometry.view, lattice)
    holds = np.array(
        [
            [bool(geometry.visible[r, c]) and p.empty_probability < 0.5 for c, p in enumerate(row)]
            for r, row in enumerate(first)
        ]
    )
    best = None
    for r0 in (0, 1):
        for c0 in (0, 1):
            found = _card_centres(lattice, r0, c0, holds)
            if not found:
                continue
            points = [pt for _, _, cx, cy in found for pt in _block_centres(lattice, cx, cy)]
            read = _read_points(geometry, points, classify)
            fit, turn = _fit_matrix([read[4 * i : 4 * i + 4] for i in range(len(found))])
            score = _score(fit)
            if best is None or score > best[0]:
                r_min = min(r for r, _, _, _ in found)
                c_min = min(c for _, c, _, _ in found)
                found = [(r - r_min, c - c_min, x, y) for r, c, x, y in found]
                best = (score, found, fit, turn, points, [p.label for p in read])
    return best


def teach_deck(
    photos: bytes | Sequence[bytes],
    *,
    names: Sequence[str] | None = None,
    extras: Sequence[Correction] = (),
) -> Teaching:
    """Learn the blocks' appearance from photos of the 18 cards face up in a grid (any order, either
    turn): one photo, or two or more for a big table, each card in one of them. ``extras`` name the
    expansion cards lying among them (their places, 0-based, and kinds): kept out of the 18. A print the
    shipped classifier cannot name at all is named by the deck's structure
    (:mod:`vision.deck.teach_structure`; one photo, no expansion cards).

    Raises :class:`~vision.deck.taught.DeckError` naming the cards that are missing, doubled or unreadable,
    and the decoding errors of a scan for a file that is not a usable photo.
    """
    start = time.perf_counter()
    try:
        return _teach_found(photos, names=names, extras=extras)
    except DeckError as refusal:
        many = not isinstance(photos, bytes) and len(photos) != 1
        if extras or many or not photos:
            raise
        photo = photos if isinstance(photos, bytes) else photos[0]
        label = names[0] if names else "deck photo"
        rgb = decode_image(photo, long_side=WORK_LONG_SIDE).rgb
        try:
            seen, patches, named = cards_by_structure([rgb], label, get_classifier())
        except DeckError:
            raise refusal from None
    source = {"cards": len(seen), "photos": 1, "extras": 0}
    deck = with_look(build_deck(patches, seen, source), named)
    ask = None if named.settled else question(seen)
    return Teaching(deck, seen, time.perf_counter() - start, [rgb], ask)


def _teach_found(
    photos: bytes | Sequence[bytes],
    *,
    names: Sequence[str] | None = None,
    extras: Sequence[Correction] = (),
) -> Teaching:
    """:func:`teach_deck` with the cards found as the shipped path finds them (outlines, else a lattice)."""
    start = time.perf_counter()
    photos = [photos] if isinstance(photos, bytes) else list(photos)
    if not photos:
        raise DeckError("no deck photo given")
    names = list(names) if names is not None else ["deck photo"] * len(photos)
    many = len(photos) > 1
    found: list[tuple[int, int, int]] = []
    fits, turns, patches, read, outlines, rgbs = [], [], [], [], [], []
    for k, (photo, name) in enumerate(zip(photos, names, strict=True)):
        rgb, seen = _read_photo(photo, name)
        found += [(k, r, c) for r, c in seen.found]
        fits.append(seen.fit)
        turns.append(seen.turn)
        patches.append(seen.patches)
        read += [tuple(seen.read[4 * i : 4 * i + 4]) for i in range(len(seen.found))]
        size = np.array(rgb.shape[1::-1], float)
        outlines += [tuple((round(x, 4), round(y, 4)) for x, y in (q / size).tolist()) for q in seen.corners]
        rgbs.append(rgb)
    label = ", ".join(dict.fromkeys(names))
    named = {(e.photo, e.row, e.col): e.extra for e in extras}
    if len(named) > MAX_SEEN - len(CARDS):
        raise DeckError(f"{label}: {len(named)} expansion cards named, {MAX_SEEN - len(CARDS)} at most")
    for place in named:
        if place not in found:
            raise DeckError(
                f"{label}: no card at {place_name((place[0] if many else None, *place[1:]))} to name"
            )
    cards = [i for i, place in enumerate(found) if place not in named]
    places = [(found[i][0] if many else None, found[i][1], found[i][2]) for i in cards]
    given, look = _named(
        rgbs, places, np.concatenate(fits)[cards], np.concatenate(turns)[cards], label, named
    )
    seen_cards = []
    for i, place in enumerate(found):
        if place in named:
            seen_cards.append(CardSeen(place[1], place[2], None, False, None, place[0], named[place]))
        else:
            seen_cards.append(given[cards.index(i)])
        seen_cards[-1] = replace(seen_cards[-1], photo=place[0], read=read[i], outline=outlines[i])
    source = {"cards": len(cards), "photos": len(photos), "extras": len(named)}
    deck = build_deck(np.concatenate(patches), seen_cards, source)
    if look is None:
        return Teaching(deck, seen_cards, time.perf_counter() - start, rgbs)
    deck = with_look(deck, look)
    ask = None if look.settled else question(seen_cards)
    return Teaching(deck, seen_cards, time.perf_counter() - start, rgbs, ask)


def _named(
    rgbs: list[np.ndarray],
    places: list[tuple[int | None, int, int]],
    fit: np.ndarray,
    turn: np.ndarray,
    label: str,
    named: dict,
) -> tuple[list[CardSeen], StructureCards | None]:
    """The cards named: by the shipped classifier when it knows the print (every card fits its layout
    surely), else by the deck's structure (:mod:`vision.deck.by_structure`) when that names them all,
    else by the shipped classifier when it names them at all (refused naming the cards otherwise)."""
    try:
        given, refusal = assign_cards(places, fit, turn, label), None
    except DeckError as exc:
        given, refusal = None, exc
    if given is not None and bool((fit.max(axis=1) >= 4 * KNOWN_PRINT).all()):
        return given, None
    structured = None if named else structure_cards(rgbs, places, label, get_classifier())
    if structured is not None and (given is None or _differ(given, structured.cards)):
        return structured.cards, structured
    if given is None:
        raise refusal  # type: ignore[misc]
    return given, None


def _differ(a: list[CardSeen], b: list[CardSeen]) -> bool:
    return [(c.place, c.card, c.rotated) for c in a] != [(c.place, c.card, c.rotated) for c in b]


def _score(fit: np.ndarray) -> float:
    """How well the known layouts explain the cards found: the assignment's log-probability, each layout
    that no card explains counted as a whole card at the floor."""
    rows, cols = linear_sum_assignment(-fit)
    return float(fit[rows, cols].sum() + 4 * FLOOR * (len(CARDS) - len(rows)))


def _outline_cards(rgb: np.ndarray, classify: Classifier) -> PhotoCards | None:
    """The cards found one by one by their outlines (:mod:`vision.deck.outlines`), or None when none is
    found."""
    mosaic = find_cards(rgb)
    if mosaic is None:
        return None
    points = mosaic.block_centres()
    pitch = (CARD_PX[0] / 2, CARD_PX[1] / 2)
    read = list(classify(mosaic.view, points, pitch))
    fit, turn = _fit_matrix([read[4 * i : 4 * i + 4] for i in range(len(mosaic.places))])
    patches = block_features(mosaic.view.balanced, points, *pitch)
    labels = [p.label for p in read]
    return PhotoCards(
        _score(fit), list(mosaic.places), fit, turn, patches, labels, mosaic.corners, mosaic.doubtful
    )


def _lattice_cards(rgb: np.ndarray, classify: Classifier) -> PhotoCards | None:
    """The cards found as 2 × 2 groups of one block lattice fitted to the whole grid (cards close together,
    even touching), as :func:`_outline_cards` finds them (nothing doubtful)."""

    small, _ = small_copy(rgb)
    try:
        located = locate_city(small)
        periods = measure_periods(located, small)
    except NoCityFound:
        return None
    best = None
    # The gaps between the cards make the grid's period a card and a gap, not a block: the block pitch is
    # that shortened by the gap's share (a few per cent), so each candidate is fitted and the one whose
    # cards the layouts explain best is taken.
    for factor in PERIOD_FACTORS:
        pitches = (periods.best[0] * factor, periods.best[1] * factor)
        try:
            geometry = geometry_for(rgb, small, located, periods, pitches)
        except NoCityFound:
            continue
        read = _read_cards(geometry, classify)
        if read is not None and (best is None or read[0] > best[0]):
            best = (*read, geometry)
    if best is None:
        return None
    score, found, fit, turn, points, labels, geometry = best
    lattice = geometry.lattice
    patches = block_features(geometry.view.balanced, points, lattice.pitch_x, lattice.pitch_y)
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * (lattice.pitch_x, lattice.pitch_y)
    to_photo = np.linalg.inv(geometry.to_rectified)
    corners = np.array([project_points(to_photo, square + (x, y)) for _, _, x, y in found])
    return PhotoCards(score, [(r, c) for r, c, _, _ in found], fit, turn, patches, labels, corners)


def _read_photo(photo: bytes, name: str) -> tuple[np.ndarray, PhotoCards]:
    """The working copy of one deck photo and the cards found in it: each card by its own outline when
    the outlines explain every region of a card's size and read as cards, else the better of that and
    one lattice."""
    classify = get_classifier()
    rgb = decode_image(photo, long_side=WORK_LONG_SIDE).rgb
    best = _outline_cards(rgb, classify)
    # Outlines that leave card-sized regions unexplained (cards touching) or cut a card badly (art in the
    # table's colours) try the lattice too; clean outlines of fewer cards are a deck with cards missing.
    if best is None or best.doubtful > 0 or bool((best.fit.max(axis=1) < 4 * FITS).any()):
        lattice = _lattice_cards(rgb, classify)
        if lattice is not None and (best is None or lattice.score > best.score):
            best = lattice
    if best is None:
        raise DeckError(f"{name}: no cards found (lay the cards face up in a grid, with small gaps)")
    return rgb, best
