"""Teach the scanner a deck: one photo of the player's 18 cards face up in a grid → a :class:`TaughtDeck`.

Each card is found on its own by its outline against the table (:mod:`vision.deck.outlines`), so wide or
uneven gaps and cards a little askew do not matter; when the outlines do not give a whole deck (cards
touching, or art in the table's colours at a card's edge), the grid is also fitted as one block lattice
(:func:`vision.city.geometry.geometry_on`, the gaps absorbed by its per-cell offsets) and its 2 × 2 groups
are the cards, and whichever the known layouts explain better is taken. The 18 known layouts are then given to
the cards as an assignment problem (each layout once, in the turn it fits better;
:func:`scipy.optimize.linear_sum_assignment`). A card that fits no layout it could be given, two cards showing
the same layout, a card missing, or a layout the cards cannot settle between two places: the photo is refused
with the cards named, never guessed.

The classifier names the cards of the print it knows. Where it does not know the print (a card fits its
layout unsurely, or none), the deck's structure names them (:mod:`vision.deck.by_structure`, the cards
found anew by :mod:`vision.deck.teach_structure` when the outlines did not find them all), and the deck
keeps the print's look to read cities by (:mod:`vision.deck.look_reader`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.cells import Classifier, get_classifier
from vision.deck.assign import FITS, assign_cards
from vision.deck.by_structure import (
    Question,
    StructureCards,
    question,
    shipped_colours,
    structure_cards,
    with_look,
)
from vision.deck.corrections import CardSeen, Correction, build_deck, describe, place_name
from vision.deck.draw import draw_deck_overlay
from vision.deck.lattice_cards import PhotoCards, fit_matrix, lattice_cards, score_of
from vision.deck.outlines import CARD_PX, find_cards
from vision.deck.taught import CARDS, MAX_SEEN, DeckError, block_features
from vision.deck.teach_structure import cards_by_structure
from vision.photo import WORK_LONG_SIDE, decode_image

__all__ = ["CardSeen", "Teaching", "teach_deck"]

# The shipped classifier knows the print when every card fits its layout at least this well (a block 0.5).
KNOWN_PRINT = math.log(0.5)


@dataclass(frozen=True)
class Teaching:
    """What teaching found: the deck (a :class:`TaughtDeck`, or a Circle the Wagons deck of
    :mod:`vision.towns.deck`), its cards (the 18 and the expansion cards named, in the order of the deck's
    patches) and the working copy of each photo (for the overlay)."""

    deck: Any
    cards: list[CardSeen]
    seconds: float
    photos: list[np.ndarray] = field(default_factory=list, repr=False)
    #: Set when the cards' look names the zones only up to one cycle: the one card to ask the player about.
    ask: Question | None = None

    def describe(self) -> str:
        """The assignment as a grid of card numbers per photo (``7r``: card 7 turned by 180°)."""
        return describe(self.cards)

    def overlay(self, photo: int = 0, long_side: int = 1400) -> np.ndarray:
        """Photo ``photo`` (0-based) with each card found outlined and labelled (RGB, long side at most
        ``long_side``): :func:`vision.deck.draw.draw_deck_overlay`."""

        cards = [c for c in self.cards if c.photo == photo]
        return draw_deck_overlay(self.photos[photo], cards, long_side=long_side)


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
        except DeckError as unknown:
            # Both ways failed: what the shipped print's cards lacked, then what a print the scanner has
            # not seen needs (a table unlike the cards: a navy print on a navy cloth falls apart).
            why = str(unknown).removeprefix(f"{label}: ")
            raise DeckError(f"{refusal}; as a print the scanner has not seen: {why}") from None
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
    """The cards named: by the deck's structure (:mod:`vision.deck.by_structure`) when it names them all
    and the print is coloured otherwise than the shipped one; by the shipped classifier when it knows the
    print (every card fits its layout surely); else by the structure when that names them all, else by
    the shipped classifier when it names them at all (refused naming the cards otherwise)."""
    try:
        given, refusal = assign_cards(places, fit, turn, label), None
    except DeckError as exc:
        given, refusal = None, exc
    structured = None if named else structure_cards(rgbs, places, label, get_classifier())
    # A print of other colours is named by its structure and read by its own look, however surely the
    # shipped classifier fits it: zones it reads one turn of the cycle round (R as C, C as I, I as R) fit
    # 18 other cards as surely as the true ones.
    if structured is not None and not shipped_colours(structured.look):
        return structured.cards, structured
    if given is not None and bool((fit.max(axis=1) >= 4 * KNOWN_PRINT).all()):
        return given, None
    # The structure's naming wins where the shipped one failed or disagrees.
    if structured is not None and (given is None or _differ(given, structured.cards)):
        return structured.cards, structured
    if given is None:
        raise refusal  # type: ignore[misc]
    return given, None


def _differ(a: list[CardSeen], b: list[CardSeen]) -> bool:
    return [(c.place, c.card, c.rotated) for c in a] != [(c.place, c.card, c.rotated) for c in b]


def _outline_cards(rgb: np.ndarray, classify: Classifier) -> PhotoCards | None:
    """The cards found one by one by their outlines (:mod:`vision.deck.outlines`), or None when none is
    found."""
    mosaic = find_cards(rgb)
    if mosaic is None:
        return None
    points = mosaic.block_centres()
    pitch = (CARD_PX[0] / 2, CARD_PX[1] / 2)
    read = list(classify(mosaic.view, points, pitch))
    fit, turn = fit_matrix([read[4 * i : 4 * i + 4] for i in range(len(mosaic.places))])
    patches = block_features(mosaic.view.balanced, points, *pitch)
    labels = [p.label for p in read]
    return PhotoCards(
        score_of(fit), list(mosaic.places), fit, turn, patches, labels, mosaic.corners, mosaic.doubtful
    )


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
        lattice = lattice_cards(rgb, classify)
        if lattice is not None and (best is None or lattice.score > best.score):
            best = lattice
    if best is None:
        raise DeckError(f"{name}: no cards found (lay the cards face up in a grid, with small gaps)")
    return rgb, best
