"""Teach the scanner a Circle the Wagons deck: photos of the player's 18 cards face up → a
:class:`~vision.towns.deck.TownDeck`.

The cards are found one by one by their outlines against the table, as a Sprawlopolis deck's are
(:func:`vision.deck.find_cards`), and each is stood portrait (its long side down the photo; which of the
two portrait turns is left to the reading) in a top-down *mosaic* at the town view's scale, where the
territory reader reads its four territories like a town's cells. The 18 known cards are then given to the
cards found as an assignment problem (each card once, in the turn it fits better;
:func:`vision.deck.assign_cards`): a card that fits none, a card twice or missing, or one the cards cannot
settle refuses the photo, naming the cards. :func:`wagons_share` says how many of the cards found the
Circle the Wagons cards explain at all (what tells a wagons deck photo from a Sprawlopolis one).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, partial

import cv2
import numpy as np

from scoring.wagons.cards import card_grid
from vision.deck import (
    DISTANCES,
    FITS,
    CardSeen,
    DeckError,
    DeckMosaic,
    Teaching,
    assign_cards,
    centre_windows,
    completed,
    find_cards,
    places_of,
    portrait,
    whole_decks,
)
from vision.lattice import PX_PER_MM, Lattice, warp
from vision.photo import WORK_LONG_SIDE, decode_image
from vision.towns.arbitrate import Reader
from vision.towns.deck.look import territory_looks
from vision.towns.deck.structure import (
    NoStructure,
    PrintLook,
    learn_look,
    look_readings,
    structure_share,
    with_aliases,
)
from vision.towns.deck.taught import (
    CARDS,
    MAX_LLR,
    TownDeck,
    prototype_labels,
    similarities_of,
    territory_patches,
)
from vision.towns.geometry import CELL_MM

__all__ = ["DeckCards", "read_deck_photo", "teach_town_deck", "wagons_share"]

# A territory's log-probability is floored here (one bad territory must not dominate).
FLOOR = math.log(1e-4)
# By the look learned from the deck, one territory unlike its card's costs no more than this: three of four
# territories and the other cards still name a card surely (the print-and-play sheets show card 15's
# bottom-right territory as snow where the rules' table has mountains).
LOOK_FLOOR = math.log(1e-3)
# The shipped reader knows the print when every card found fits its best card at least this well (mean
# log-probability a territory: 0.5).
KNOWN_PRINT = math.log(0.5)
# The share of chance similarities (territories of other labels) below the calibration's zero point.
IMPOSTOR_SHARE = 0.99
CELL_PX = (CELL_MM[0] * PX_PER_MM, CELL_MM[1] * PX_PER_MM)
MARGIN_PX = 24
PER_ROW = 6


@dataclass(frozen=True)
class DeckCards:
    """The cards found in one deck photo: their places (card row, column), portrait outlines in the
    working copy (N, 4, 2: TL, TR, BR, BL), the fit and turn matrices of the shipped reader's readings
    against the 18 cards, the four territories' patches (4 N) and the reader's tokens, the working copy
    itself, and the territories' look measured without the reader: fill colours (4 N, 3) and icon masks
    (4 N, S, S) (:mod:`vision.towns.deck.look`)."""

    places: list[tuple[int, int]]
    corners: np.ndarray
    fit: np.ndarray
    turn: np.ndarray
    patches: np.ndarray
    read: list[str]
    rgb: np.ndarray
    fills: np.ndarray
    icons: np.ndarray


def _mosaic(rgb: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, Lattice]:
    """The cards warped top-down, portrait, :data:`PER_ROW` a row with a margin of table each, and the
    lattice of their territories (card ``i``'s at rows 2 (i // 6) …, columns 2 (i % 6) …)."""
    w, h = 2 * CELL_PX[0], 2 * CELL_PX[1]
    tile_w, tile_h = int(np.ceil(w)) + 2 * MARGIN_PX, int(np.ceil(h)) + 2 * MARGIN_PX
    n_rows = -(-len(corners) // PER_ROW)
    image = np.zeros((n_rows * tile_h, PER_ROW * tile_w, 3), np.uint8)
    target = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32) + MARGIN_PX
    for i, quad in enumerate(corners):
        r, c = divmod(i, PER_ROW)
        to_tile = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        image[r * tile_h : (r + 1) * tile_h, c * tile_w : (c + 1) * tile_w] = warp(
            rgb, to_tile, (tile_w, tile_h)
        )
    rows, cols = 2 * n_rows, 2 * PER_ROW
    lattice = Lattice((0.0, 0.0), CELL_PX[0], CELL_PX[1], rows, cols)
    want = np.empty((rows, cols, 2))
    for r in range(rows):
        for c in range(cols):
            want[r, c] = ((c // 2) * tile_w + MARGIN_PX + (c % 2 + 0.5) * CELL_PX[0],
                          (r // 2) * tile_h + MARGIN_PX + (r % 2 + 0.5) * CELL_PX[1])  # fmt: skip
    return image, replace(lattice, offsets=want - lattice.centres())


def _fit(readings: list[dict[str, float]], floor: float = FLOOR) -> tuple[np.ndarray, np.ndarray]:
    """For each card (its 4 readings TL, TR, BL, BR) and each of the 18: the better sum of log-probabilities
    floored at ``floor`` over the two turns, and whether that was the turned one."""
    n = len(readings) // 4
    fit, turn = np.empty((n, len(CARDS))), np.zeros((n, len(CARDS)), bool)
    for i in range(n):
        cells = readings[4 * i : 4 * i + 4]
        for j, card in enumerate(CARDS):
            ways = []
            for rotated in (False, True):
                (tl, tr), (bl, br) = card_grid(card, rotated)
                tokens = [t.token() for t in (tl, tr, bl, br)]
                ways.append(
                    sum(
                        max(floor, math.log(max(d.get(t, 0.0), 1e-12)))
                        for d, t in zip(cells, tokens, strict=True)
                    )
                )
            fit[i, j], turn[i, j] = max(ways), ways[1] > ways[0]
    return fit, turn


def read_deck_photo(photo: bytes, name: str, reader: Reader) -> DeckCards:
    """The cards found in one deck photo and their territories as ``reader`` reads them; raises
    :class:`~vision.deck.DeckError` when no card is found (and the decoder's errors for a bad file)."""
    rgb = decode_image(photo, long_side=WORK_LONG_SIDE).rgb
    found, whole = find_cards(rgb), cache(partial(_whole_cards, rgb))  # sought again at most once
    if found is not None and len(found.places) > len(CARDS):
        found = whole() or found
    if found is None:
        raise DeckError(f"{name}: no cards found (lay the cards face up in a grid, with small gaps)")
    corners, places = _portrait_completed(found)
    if len(places) < len(CARDS) and (again := whole()) is not None:  # more missed than the grid places
        corners, places = _portrait_completed(again)
    view, lattice = _mosaic(rgb, corners)
    grid = reader(view, lattice)
    readings, centres = [], []
    lattice_centres = lattice.centres()
    for i in range(len(corners)):
        r0, c0 = 2 * (i // PER_ROW), 2 * (i % PER_ROW)
        for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
            readings.append(grid[r0 + dr][c0 + dc])
            centres.append(lattice_centres[r0 + dr, c0 + dc])
    fit, turn = _fit(readings)
    pitch = (lattice.pitch_x, lattice.pitch_y)
    patches = territory_patches(view, np.array(centres), pitch)
    read = [max(d, key=d.__getitem__) for d in readings]
    fills, icons = territory_looks(view, np.array(centres), pitch)
    return DeckCards(places, corners, fit, turn, patches, read, rgb, fills, icons)


def _portrait_completed(found: DeckMosaic) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The cards ``found`` stood portrait, in reading order of their places in the deck's grid, with the
    places the grid shows empty filled (:func:`vision.deck.grid.completed`)."""
    corners = np.array([portrait(q) for q in found.corners])
    places = places_of(corners)
    order = sorted(range(len(places)), key=lambda i: places[i])
    return completed(corners[order], [places[i] for i in order], want=len(CARDS))


def _whole_cards(rgb: np.ndarray) -> DeckMosaic | None:
    """The 18 cards of a photo in which more cards were found than a deck holds, or fewer than its grid can
    place: the regions were pieces of cards (a print whose lines round its territories lie near the
    table's colour, or whose dark fills do, parts every card into its territories; random edition 7072's
    cards of dark blue and grey on a dark blue cloth were 11 regions, the grid placing 15 cards), so the
    cards are sought again as a Sprawlopolis print's
    are (:mod:`vision.deck.teach_structure`): with those lines bridged more and more and, failing every
    bridge, with a pixel taken for card nearer the table's colours. The first distance at which some
    bridge finds exactly 18 cards gives them (the one leaving fewest regions in doubt); None when none
    does."""
    for distance in DISTANCES:
        whole = whole_decks(rgb, distance)
        if whole:
            return whole[0]
    return None


def wagons_share(cards: DeckCards) -> float:
    """The share of the cards found that one of the 18 Circle the Wagons cards fits, by the shipped
    reader or by the deck's structure, whichever fits more (a wagons deck photo of any print about 1, a
    Sprawlopolis one about 0)."""
    if not len(cards.fit):
        return 0.0
    shipped = float((cards.fit.max(axis=1) >= 4 * FITS).mean())
    return max(shipped, structure_share(cards.fills))


def _calibration(patches: np.ndarray, prototypes: np.ndarray, tokens: list[str]) -> tuple[float, float]:
    """The deck's territories against the prototypes of other labels give the offset (what different
    drawings reach by chance); the slope makes a perfect match worth :data:`MAX_LLR` nats."""
    labels = prototype_labels()
    sims = similarities_of(patches, prototypes)
    chance = np.array([s for i, row in enumerate(sims) for k, s in enumerate(row) if labels[k] != tokens[i]])
    offset = float(np.quantile(chance, IMPOSTOR_SHARE))
    return (MAX_LLR / max(1.0 - offset, 0.1), offset)


def build_town_deck(
    seen: Sequence[CardSeen], patches: np.ndarray, source: dict, look: PrintLook | None = None
) -> TownDeck:
    """The deck from each card's four territory patches (``patches[4 i : 4 i + 4]``, as ``seen[i]`` lay);
    a place the player said is not a card (``card`` None) teaches nothing, but its patches are kept."""
    windows = centre_windows(patches)
    prototypes = np.zeros((4 * len(CARDS), *windows.shape[1:]), np.float32)
    tokens = []
    cards = [i for i, c in enumerate(seen) if c.card is not None]
    for i in cards:
        card = seen[i]
        quads = windows[4 * i : 4 * i + 4]
        if card.rotated:  # turned: its TL territory is the photo's BR one, upside down
            quads = quads[::-1, :, ::-1, ::-1]
        k = CARDS.index(card.card)  # type: ignore[arg-type]
        prototypes[4 * k : 4 * k + 4] = quads
        (tl, tr), (bl, br) = card_grid(card.card, card.rotated)  # type: ignore[arg-type]
        tokens += [t.token() for t in (tl, tr, bl, br)]
    own = patches[[4 * i + q for i in cards for q in range(4)]]
    calibration = _calibration(own, prototypes, tokens)
    meta = tuple(c.to_meta() for c in seen)
    return TownDeck(prototypes, calibration, source, meta, patches.astype(np.float32), look)


def teach_town_deck(
    photos: bytes | Sequence[bytes], *, names: Sequence[str] | None = None, reader: Reader
) -> Teaching:
    """Learn the territories' look from photos of the 18 Circle the Wagons cards face up (any order,
    either turn; one photo, or more for a big table). ``reader`` reads territories (the shipped one:
    :func:`vision.towns.scan.shipped_reader`). Raises :class:`~vision.deck.DeckError` naming the cards
    missing, doubled or unreadable."""
    start = time.perf_counter()
    photos = [photos] if isinstance(photos, bytes) else list(photos)
    if not photos:
        raise DeckError("no deck photo given")
    names = list(names) if names is not None else ["deck photo"] * len(photos)
    found = [read_deck_photo(p, n, reader) for p, n in zip(photos, names, strict=True)]
    return teaching_of(found, names, start)


def teaching_of(found: Sequence[DeckCards], names: Sequence[str], start: float) -> Teaching:
    """The teaching from the cards found in each photo (see :func:`teach_town_deck`): the cards are named
    by the shipped reader when it knows the print (every card fits a known one surely), else by the deck's
    structure (:mod:`vision.towns.deck.structure`), whose look the deck then keeps to read towns by."""
    many = len(found) > 1
    places = [(k if many else None, r, c) for k, f in enumerate(found) for r, c in f.places]
    label = ", ".join(dict.fromkeys(names))
    look, given = _named_cards(found, places, label)
    reads = [tuple(f.read[4 * i : 4 * i + 4]) for f in found for i in range(len(f.places))]
    outlines = []
    for f in found:
        size = np.array(f.rgb.shape[1::-1], float)
        outlines += [tuple((round(x, 4), round(y, 4)) for x, y in (q / size).tolist()) for q in f.corners]
    seen = [
        replace(card, photo=places[i][0] or 0, read=reads[i], outline=outlines[i])
        for i, card in enumerate(given)
    ]
    source = {"cards": len(seen), "photos": len(found), "game": "wagons",
              "named_by": "shipped" if look is None else "structure"}  # fmt: skip
    deck = build_town_deck(seen, np.concatenate([f.patches for f in found]), source, look)
    return Teaching(deck, seen, time.perf_counter() - start, [f.rgb for f in found])


def _named_cards(
    found: Sequence[DeckCards], places: list[tuple[int | None, int, int]], label: str
) -> tuple[PrintLook | None, list[CardSeen]]:
    """The cards found named: by the shipped reader when it knows the print (no look needed), else by
    the print's look learned from the deck's structure (returned with the cards). Raises
    :class:`~vision.deck.DeckError` naming the cards when neither names them all."""
    fit = np.concatenate([f.fit for f in found])
    turn = np.concatenate([f.turn for f in found])
    if bool((fit.max(axis=1) >= 4 * KNOWN_PRINT).all()):
        try:
            return None, assign_cards(places, fit, turn, label, cards=CARDS)
        except DeckError:
            pass
    fills = np.concatenate([f.fills for f in found])
    icons = np.concatenate([f.icons for f in found])
    try:
        look = learn_look(fills, icons)
    except NoStructure as exc:
        raise DeckError(f"{label}: {exc} (each of the 18 cards must lie face up once)") from None
    fit, turn = _fit(look_readings(look, fills, icons), floor=LOOK_FLOOR)
    seen = assign_cards(places, fit, turn, label, cards=CARDS)
    tokens = []
    for card in seen:
        (tl, tr), (bl, br) = card_grid(card.card, card.rotated)  # type: ignore[arg-type]
        tokens += [t.token() for t in (tl, tr, bl, br)]
    return with_aliases(look, fills, tokens), seen
