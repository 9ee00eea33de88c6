"""A taught deck's cards as found, their corrections and the expansion cards named, without the photo.

Teaching keeps, for every card found in the deck photos, where it lay (photo, card row, card column),
what it was taken for (one of the 18, with its turn, or an expansion card the player named), the
classifier's four labels for it and its four blocks' patches as they lay (:class:`CardSeen` and
``TaughtDeck.patches``). From these :func:`build_deck` makes the prototypes and the calibration, so a
correction ("the card at row 2, card 3 is card 9, turned") only changes what one card is taken for and
rebuilds the deck: the patches of a card said to lie turned are turned back (the prototypes are the cards
unturned). A correction that leaves one of the 18 doubled or missing is refused naming the cards.

An expansion card (Wrecktar, the Point of Interest card, a Construction Zone card) named by the player is
kept out of the 18; its blocks' patches as they lay, with the labels they teach (Wrecktar: ``W``; the
others: what the classifier read for each block, with its mark), become the deck's ``extras``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from scoring.layouts import card_blocks
from vision.deck.by_structure import settle_cycle
from vision.deck.seen import CardSeen, card_from_meta, describe, name_of, place_name
from vision.deck.taught import (
    CARDS,
    EXTRA_KINDS,
    DeckFixError,
    TaughtDeck,
    centre_windows,
    extras_of,
    is_place_index,
    sliding_windows,
)
from vision.deck.use import MAX_LLR, channel_trust, similarities_of, template_labels

__all__ = [
    "EXTRA_KINDS",
    "CardSeen",
    "Correction",
    "build_deck",
    "card_from_meta",
    "card_labels",
    "correction_from_json",
    "describe",
    "json_place",
    "parse_correction",
    "place_name",
    "relabel",
    "text_place",
]

# The share of chance similarities (blocks of different labels) below the calibration's zero point.
IMPOSTOR_SHARE = 0.99


@dataclass(frozen=True)
class Correction:
    """The player's word on one card: at (photo, row, col), 0-based, lies ``card`` (turned or not), or
    the expansion card ``extra``."""

    photo: int
    row: int
    col: int
    card: int | None = None
    rotated: bool = False
    extra: str | None = None


def _value(text: str, where: str) -> tuple[int | None, bool, str | None]:
    if text.lower() in EXTRA_KINDS:
        return None, False, text.lower()
    m = re.fullmatch(r"(\d{1,2})(r?)", text)
    if not m or int(m[1]) not in CARDS:
        raise DeckFixError(
            f"{where}: {text!r} is not a card (1 to 18, 'r' after it when turned, e.g. 9r) nor an"
            f" expansion card ({', '.join(EXTRA_KINDS)})"
        )
    return int(m[1]), bool(m[2]), None


def parse_correction(text: str) -> Correction:
    """``[PHOTO,]ROW,COL=VALUE`` as the player counts (from 1; ``COL`` the card in the row); VALUE a card
    (``9``, ``9r`` turned) or an expansion card (``wrecktar``, ``poi``, ``construction``).

    >>> parse_correction("2,3=9r")
    Correction(photo=0, row=1, col=2, card=9, rotated=True, extra=None)
    """
    photo, row, col, value = text_place(text)
    card, rotated, extra = _value(value.strip(), repr(text))
    return Correction(photo, row, col, card, rotated, extra)


def text_place(text: str) -> tuple[int, int, int, str]:
    """The place (photo, row, col; 0-based) and the value of a correction ``[PHOTO,]ROW,COL=VALUE`` written
    as the player counts (from 1), for a deck of either game.

    >>> text_place("2,3=9r")
    (0, 1, 2, '9r')
    """
    place, eq, value = text.partition("=")
    numbers = place.split(",")
    if not eq or len(numbers) not in (2, 3) or not all(n.strip().isdigit() for n in numbers):
        raise DeckFixError(
            f"{text!r}: write a correction as ROW,COL=CARD (e.g. 2,3=9r) or PHOTO,ROW,COL=CARD"
        )
    index = [int(n) - 1 for n in numbers]
    if min(index) < 0:
        raise DeckFixError(f"{text!r}: photos, rows and cards count from 1")
    photo, row, col = index if len(index) == 3 else [0, *index]
    return photo, row, col, value


def correction_from_json(obj: object, where: str) -> Correction:
    """A correction as the service takes it: ``{"photo", "row", "col", "card", "rotated"}`` or
    ``{"photo", "row", "col", "extra"}`` (0-based places, as the cards are listed; ``photo`` may be left
    out for 0)."""
    if not isinstance(obj, dict):
        raise DeckFixError(f"{where}: a correction is an object with row, col and card or extra")
    unknown = set(obj) - {"photo", "row", "col", "card", "rotated", "extra"}
    if unknown:
        raise DeckFixError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    photo, row, col = json_place(obj, where)
    card, rotated, extra = obj.get("card"), obj.get("rotated", False), obj.get("extra")
    if (card is None) == (extra is None):
        raise DeckFixError(f"{where}: give either card (1 to 18) or extra ({', '.join(EXTRA_KINDS)})")
    if extra is not None and extra not in EXTRA_KINDS:
        raise DeckFixError(f"{where}: extra {extra!r} is not one of {', '.join(EXTRA_KINDS)}")
    if card is not None and (not isinstance(card, int) or isinstance(card, bool) or card not in CARDS):
        raise DeckFixError(f"{where}: card {card!r} is not one of the cards 1 to 18")
    if not isinstance(rotated, bool):
        raise DeckFixError(f"{where}: rotated must be true or false (got {rotated!r})")
    return Correction(photo, row, col, card, rotated, extra)


def json_place(obj: dict, where: str) -> tuple[int, int, int]:
    """The place (photo, row, col; 0-based, ``photo`` 0 when left out) of a correction as the service takes
    it, for a deck of either game."""
    place = []
    for key in ("photo", "row", "col"):
        v = obj.get(key, 0 if key == "photo" else None)
        if not is_place_index(v):
            raise DeckFixError(f"{where}: {key} must be a whole number from 0 (got {v!r})")
        place.append(v)
    return place[0], place[1], place[2]


def card_labels(card: int, rotated: bool) -> list[tuple[str | None, str | None]]:
    """The (zone, road) of card ``card``'s four blocks as it lies (turned by 180° or not): TL, TR, BL, BR.

    >>> card_labels(1, False)
    [('C', 'NS'), ('P', None), ('I', 'NE'), ('R', 'EW')]
    >>> card_labels(1, True)[0]  # turned, its BR block lies top left, its road turned with it
    ('R', 'EW')
    """
    (tl, tr), (bl, br) = card_blocks(card, rotated)
    return [(b.zone, b.road) for b in (tl, tr, bl, br)]


def _calibration(
    patches: np.ndarray, prototypes: np.ndarray, cards: Sequence[CardSeen]
) -> tuple[float, float]:
    """How much a similarity is worth: the deck's blocks compared with the prototypes of the blocks with
    another label give the offset (the :data:`IMPOSTOR_SHARE` quantile: what two different drawings reach by
    chance), and the slope makes a perfect match worth :data:`vision.deck.use.MAX_LLR` nats."""
    labels = template_labels()
    sims = similarities_of(sliding_windows(patches), TaughtDeck(prototypes), channel_trust(patches))
    seen = [label for card in cards for label in card_labels(card.card, card.rotated)]  # type: ignore[arg-type]
    chance = np.array([s for i, row in enumerate(sims) for k, s in enumerate(row) if labels[k] != seen[i]])
    offset = float(np.quantile(chance, IMPOSTOR_SHARE))
    return (MAX_LLR / max(1.0 - offset, 0.1), offset)


def build_deck(patches: np.ndarray, seen: Sequence[CardSeen], source: dict) -> TaughtDeck:
    """The taught deck from every card's four block patches (``patches[4 i : 4 i + 4]`` those of
    ``seen[i]``, TL, TR, BL, BR as it lay) and what each card is: the 18 cards' prototypes (unturned),
    the calibration measured on them, and the expansion cards' prototypes."""
    windows = centre_windows(patches)
    prototypes = np.zeros((4 * len(CARDS), *windows.shape[1:]), np.float32)
    cards = [i for i, c in enumerate(seen) if c.card is not None]
    for i in cards:
        quads = windows[4 * i : 4 * i + 4]
        if seen[i].rotated:  # the card lies turned: its TL quadrant is the photo's BR block, upside down
            quads = quads[::-1, :, ::-1, ::-1]
        k = CARDS.index(seen[i].card)  # type: ignore[arg-type]
        prototypes[4 * k : 4 * k + 4] = quads
    own = np.concatenate([patches[4 * i : 4 * i + 4] for i in cards])
    calibration = _calibration(own, prototypes, [seen[i] for i in cards])
    meta = tuple(c.to_meta() for c in seen)
    extras, labels = extras_of(windows, meta)
    return TaughtDeck(prototypes, calibration, source, extras, labels, meta, patches.astype(np.float32))


def problems_of(seen: Sequence[CardSeen]) -> list[str]:
    """What keeps ``seen`` from being a deck: one of the 18 twice (its places named) or missing."""
    problems = []
    for n in CARDS:
        holders = [c for c in seen if c.card == n]
        if len(holders) > 1:
            where = ", ".join(name_of(seen, c) for c in holders)
            problems.append(f"card {n} would lie twice ({where})")
    missing = [n for n in CARDS if not any(c.card == n for c in seen)]
    if missing:
        problems.append(f"missing: card{'s' * (len(missing) > 1)} {', '.join(map(str, missing))}")
    return problems


def relabel(deck: TaughtDeck, corrections: Iterable[Correction], name: str = "taught deck") -> TaughtDeck:
    """``deck`` with the cards at the corrections' places taken for what the player said, rebuilt.

    Raises :class:`~vision.deck.taught.DeckFixError` for a deck that kept no cards (a version-1 file), a place
    with no card, and a result with one of the 18 doubled or missing (naming them)."""
    if not deck.seen or deck.patches is None:
        raise DeckFixError(
            f"{name}: taught before corrections were kept (teach the deck again to correct it)"
        )
    seen = [card_from_meta(m) for m in deck.seen]
    by_place = {c.place: i for i, c in enumerate(seen)}
    many = len({c.photo for c in seen}) > 1
    for fix in corrections:
        where = place_name((fix.photo if many else None, fix.row, fix.col))
        i = by_place.get((fix.photo, fix.row, fix.col))
        if i is None:
            raise DeckFixError(f"{name}: no card at {where}")
        settled = None if fix.card is None else settle_cycle(deck, seen, seen[i].place, fix.card, fix.rotated)
        if settled is not None:  # the player named the zones' cycle: every card follows
            seen, deck = settled
        seen[i] = replace(
            seen[i], card=fix.card, rotated=fix.rotated and fix.card is not None, extra=fix.extra, fit=None
        )
    problems = problems_of(seen)
    if problems:
        raise DeckFixError(f"{name}: not corrected: " + "; ".join(problems) + " (each of the 18 cards once)")
    return replace(build_deck(deck.patches, seen, deck.source), look=deck.look)
