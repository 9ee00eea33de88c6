"""A taught Circle the Wagons deck: what one photo of the player's own 18 cards showed of each territory,
and its use in a town scan (:func:`taught_reader`).

The look-alike art the territory classifier learned from is drawn from the rulebook's key only, so the
player's print can differ from it widely (hue, texture, icon style). Every copy of a card carries the same
art, though: territory TL of card 7 in a town photo looks like territory TL of card 7 in the player's deck
photo. A :class:`TownDeck` keeps, for each of the 72 territories (18 cards × 4, the card unturned), a small
*prototype*: the territory in CIE Lab, cut from the portrait top-down view at :data:`PATCH_SIZE` px (about
1.5 mm a pixel) and its central window (:data:`~vision.deck.SLIDE` px in from each side) made zero-mean
and unit-norm per channel, so a later photo's brighter light or other cast does not matter.

In a scan each cell that may hold a card is compared with the 144 prototypes (each territory either way
round: a card may lie turned) by normalised correlation, slid a few pixels over the hand-placement error, as
a Sprawlopolis taught deck's blocks are (:mod:`vision.deck.use`). Each territory label (``"D/w"``) gets
the evidence of its best-fitting prototype, a log-likelihood ratio by the deck's own calibration (how its
territories compare with the prototypes of other labels), bounded to −2…6 nats: a town photo, smaller and
softer than the deck photo, matches even its own territories less closely, and the order of weak matches
is mostly chance (bounded at −6 they turned a right M/w into S/w on a re-encoded photo). The reader's
territory probabilities are reweighted by it within their share, and the table's share drops only as far
as a clear match says a card is there. A deck of another print matches nothing clearly and changes little.

File format (``.deck``, the Sprawlopolis deck's container, :func:`vision.deck.read_archive`): ``meta`` with
``"game": "wagons"``, ``version`` 3, ``cards`` (0–17), ``shape``, ``calibration``, ``source`` and ``seen``
(each card found: place, number (null: not a card), turn, the classifier's four tokens, outline),
``prototypes`` (float16, (72, 3, h, w)) and ``patches`` (float16, (4 N, 3, PATCH_SIZE): each card's four
territories as they lay, what a correction rebuilds the deck from, :mod:`vision.towns.deck.fix`); a deck of a
print the shipped reader does not know adds its look (``look_fills``, ``look_spread``, ``look_icons``,
``look_icon_of``, ``look_icon_mass``: :class:`~vision.towns.deck.structure.PrintLook`). Version-1 files (no
``patches``) are read and used as before but cannot be corrected; version-2 files are version 3 without a
look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.wagons.cards import CARDS as CARD_TERRITORIES
from vision.deck import (
    SLIDE,
    DeckFileError,
    block_features,
    read_archive,
    sliding_windows,
    write_archive,
)
from vision.lattice import Lattice
from vision.towns.arbitrate import Reader
from vision.towns.deck.look_reader import read_by_look
from vision.towns.deck.seen import seen_problem
from vision.towns.deck.structure import PrintLook

__all__ = [
    "CARDS",
    "PATCH_SIZE",
    "TownDeck",
    "apply_town_deck",
    "load_town_deck",
    "prototype_labels",
    "reweighted",
    "similarities",
    "taught_reader",
]

GAME = "wagons"
VERSION = 3
READS_VERSIONS = (1, 2, 3)
CARDS: tuple[int, ...] = tuple(sorted(CARD_TERRITORIES))
#: A territory's patch (rows, columns): portrait, 31.75 × 44.45 mm at about 1.5 mm a pixel.
PATCH_SIZE = (30, 21)
PROTO_SIZE = (PATCH_SIZE[0] - 2 * SLIDE, PATCH_SIZE[1] - 2 * SLIDE)
# Lab channels' weights in the similarity: the lightness carries the drawing, a* b* the print's colours.
CHANNEL_WEIGHTS = np.array([0.4, 0.3, 0.3], np.float32)
# Cells the reader thinks surely table are not compared.
COMPARE_BELOW_TABLE = 0.95
# One photo's evidence must not overrule all else.
MAX_LLR = 6.0
# ... and a weak match no less than this: differences between weak matches of a softer town photo are
# mostly chance, and must not outweigh the reader (they turned a right M/w into S/w on a page photo).
MIN_LLR = -2.0
TABLE = "."


@dataclass(frozen=True)
class TownDeck:
    """Prototypes of the 72 territories: ``prototypes[4 * i + q]`` is territory ``q`` (TL, TR, BL, BR) of
    card ``CARDS[i]`` as it lies unturned; ``calibration`` (slope, offset): a similarity ``s`` is worth
    ``slope * (s - offset)`` nats that the cell shows that territory. ``seen`` are the cards found
    (JSON-ready, :meth:`vision.deck.CardSeen.to_meta`), ``source`` how it was taught, ``patches`` (float32
    (4 N, 3, PATCH_SIZE), card by card of ``seen`` as they lay) what a correction rebuilds it from (None
    for a version-1 file); ``look`` the print's look learned from the deck's structure when the shipped
    reader did not know the print (:mod:`vision.towns.deck.structure`): towns are then read by it."""

    prototypes: np.ndarray
    calibration: tuple[float, float] = (10.0, 0.5)
    source: dict = field(default_factory=dict, compare=False)
    seen: tuple[dict, ...] = field(default=(), compare=False)
    patches: np.ndarray | None = field(default=None, compare=False)
    look: PrintLook | None = field(default=None, compare=False)

    @property
    def game(self) -> str:
        return GAME

    def to_bytes(self) -> bytes:
        """The deck in the ``.deck`` file format (see the module note)."""
        patches = self.patches if self.patches is not None else np.zeros((0, 3, *PATCH_SIZE), np.float32)
        meta = {"game": GAME, "version": VERSION, "cards": list(CARDS)}
        extra = self.look.to_arrays() if self.look is not None else None
        return write_archive(meta, self.prototypes, self.calibration, self.source, self.seen, patches, extra)


def load_town_deck(data: bytes, name: str = "deck file") -> TownDeck:
    """Read a Circle the Wagons ``.deck`` file; :class:`~vision.deck.DeckFileError` says what is wrong."""
    meta, arrays = read_archive(data, name)
    if meta["game"] != GAME:
        raise DeckFileError(
            f"{name}: a taught deck of another game ({meta['game']}), not a Circle the Wagons one"
        )
    if meta.get("version") not in READS_VERSIONS:
        raise DeckFileError(f"{name}: Circle the Wagons deck version {meta.get('version')!r}; this scanner "
                            "reads versions 1 to 3 (teach the deck again)")  # fmt: skip
    prototypes = arrays["prototypes"]
    want = (4 * len(CARDS), 3, *PROTO_SIZE)
    if meta.get("cards") != list(CARDS) or prototypes.shape != want or prototypes.dtype != np.float16:
        raise DeckFileError(f"{name}: damaged taught deck (prototypes {prototypes.shape}, expected {want})")
    values = prototypes.astype(np.float32)
    calibration = meta.get("calibration")
    if (
        not np.isfinite(values).all()
        or not isinstance(calibration, list)
        or len(calibration) != 2
        or not all(isinstance(v, int | float) and math.isfinite(v) for v in calibration)
        or not 0 < calibration[0] <= 100
    ):
        raise DeckFileError(f"{name}: damaged taught deck (prototypes or calibration not finite)")
    seen = meta.get("seen")
    if not isinstance(seen, list) or not all(isinstance(m, dict) for m in seen):
        raise DeckFileError(f"{name}: damaged taught deck (the cards found are not kept)")
    source = meta.get("source") if isinstance(meta.get("source"), dict) else {}
    patches = _patches(meta, arrays.get("patches"), seen, name)
    try:
        look = PrintLook.from_arrays(arrays)
    except (ValueError, KeyError) as exc:
        raise DeckFileError(f"{name}: damaged taught deck (its print look: {exc})") from None
    calibrated = (float(calibration[0]), float(calibration[1]))
    return TownDeck(values, calibrated, source, tuple(seen), patches, look)


def _patches(meta: dict, patches: np.ndarray | None, seen: list[dict], name: str) -> np.ndarray | None:
    """A version-2 or -3 file's territory patches, checked against its cards (a version-1 file has none)."""
    if meta["version"] == 1:
        return None
    want = (4 * len(seen), 3, *PATCH_SIZE)
    if patches is None or patches.shape != want or patches.dtype != np.float16:
        got = None if patches is None else patches.shape
        raise DeckFileError(f"{name}: damaged taught deck (patches {got}, expected {want})")
    for i, m in enumerate(seen):
        wrong = seen_problem(m)
        if wrong is not None:
            raise DeckFileError(f"{name}: damaged taught deck (card {i + 1} found: {wrong})")
    values = patches.astype(np.float32)
    if not np.isfinite(values).all():
        raise DeckFileError(f"{name}: damaged taught deck (patches not finite)")
    return values


def prototype_labels() -> list[str]:
    """The token each prototype shows: the 72 unturned, then the same 72 turned (a territory's label does
    not change with the card's turn)."""
    once = [t.token() for n in CARDS for t in CARD_TERRITORIES[n]]
    return once + once


def _templates(prototypes: np.ndarray) -> np.ndarray:
    every = np.concatenate([prototypes, prototypes[:, :, ::-1, ::-1]])
    return (every * CHANNEL_WEIGHTS[None, :, None, None]).reshape(len(every), -1)


def territory_patches(view: np.ndarray, centres: np.ndarray, pitch: tuple[float, float]) -> np.ndarray:
    """The Lab patches (N, 3, PATCH_SIZE) of the territories centred at ``centres`` in ``view``."""
    return block_features(view, np.asarray(centres, float).reshape(-1, 2), *pitch, size=PATCH_SIZE)


def similarities_of(patches: np.ndarray, prototypes: np.ndarray) -> np.ndarray:
    """Best similarity (−1…1) of each patch, slid over the placement error, with each of the 144
    templates of :func:`prototype_labels`: (N, 144)."""
    windows = sliding_windows(patches)
    n, s = windows.shape[:2]
    t = _templates(prototypes)
    return (windows.reshape(n * s, -1) @ t.T).reshape(n, s, len(t)).max(axis=1)


def similarities(
    view: np.ndarray, centres: np.ndarray, pitch: tuple[float, float], deck: TownDeck
) -> np.ndarray:
    """:func:`similarities_of` the cells at ``centres`` of ``view`` with ``deck``'s prototypes."""
    if not len(centres):
        return np.zeros((0, 2 * len(deck.prototypes)), np.float32)
    return similarities_of(territory_patches(view, centres, pitch), deck.prototypes)


def evidence(sims: np.ndarray, calibration: tuple[float, float]) -> list[dict[str, float]]:
    """Each cell's evidence per territory token: the best log-likelihood ratio of the templates showing it,
    none below :data:`MIN_LLR` (see the module note)."""
    a, b = calibration
    llr = np.clip(a * (sims - b), MIN_LLR, MAX_LLR)
    labels = prototype_labels()
    out = []
    for row in llr.tolist():
        per: dict[str, float] = {}
        for token, e in zip(labels, row, strict=True):
            per[token] = max(per.get(token, -MAX_LLR), e)
        out.append(per)
    return out


def reweighted(dist: dict[str, float], per_token: dict[str, float]) -> dict[str, float]:
    """``dist`` with its territory probabilities times exp(evidence) within their share (tokens no card
    shows get the weakest evidence), and the table's share lowered by a clear match only."""
    total = sum(dist.values())
    land = {k: v for k, v in dist.items() if k != TABLE}
    mass = sum(land.values())
    if mass <= 0 or not per_token:
        return dict(dist)
    floor = min(per_token.values())
    weighted = {k: v * math.exp(per_token.get(k, floor)) for k, v in land.items()}
    norm = sum(weighted.values())
    out = {k: mass * v / norm for k, v in weighted.items()}
    if TABLE in dist:
        out[TABLE] = dist[TABLE] * math.exp(-max(0.0, max(per_token.values())))
    scale = total / sum(out.values())
    return {k: out[k] * scale for k in dist}


def apply_town_deck(
    view: np.ndarray, lattice: Lattice, readings: Sequence[Sequence[dict[str, float]]], deck: TownDeck
) -> list[list[dict[str, float]]]:
    """The reader's ``readings`` of ``lattice`` in ``view`` reweighted by ``deck`` (see the module note)."""
    out = [[dict(d) for d in row] for row in readings]
    cells = [
        (r, c)
        for r, row in enumerate(out)
        for c, d in enumerate(row)
        if d.get(TABLE, 0.0) < COMPARE_BELOW_TABLE
    ]
    if not cells:
        return out
    centres = lattice.centres()
    sims = similarities(
        view, np.array([centres[r, c] for r, c in cells]), (lattice.pitch_x, lattice.pitch_y), deck
    )
    for (r, c), per in zip(cells, evidence(sims, deck.calibration), strict=True):
        out[r][c] = reweighted(out[r][c], per)
    return out


def taught_reader(deck: TownDeck, reader: Reader) -> Reader:
    """A territory reader that reads with ``reader`` (or, for a print it does not know, by the print's look
    the deck learned: :func:`~vision.towns.deck.look_reader.read_by_look`) and reweights with the taught
    ``deck``."""

    def read(view: np.ndarray, lattice: Lattice) -> list[list[dict[str, float]]]:
        if deck.look is not None:
            return apply_town_deck(view, lattice, read_by_look(deck.look, view, lattice), deck)
        return apply_town_deck(view, lattice, reader(view, lattice), deck)

    return read
