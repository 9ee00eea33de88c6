"""A taught deck: what one photo of the player's own 18 cards showed of each block's real appearance.

Every copy of a card carries the same art, so a block of card 7 in a later photo looks like the block of
card 7 in the player's deck photo, whatever the look-alike art the classifier learned from. A
:class:`TaughtDeck` keeps, for each of the 72 blocks (18 cards × 4 quadrants, the card unturned), a small
*prototype*: the block's central part in CIE Lab, each channel made zero-mean and unit-norm (so a later
photo's brighter light or other cast does not matter), at :data:`PROTO_SIZE` px. :func:`block_features`
cuts the same patch from any rectified view, a little larger so that the comparison can slide over the
hand-placement error (:data:`SLIDE` px each way).

The deck also keeps what a correction needs without the photo (:mod:`vision.deck.corrections`): each card
found in the photo (``seen``: its place, the number and turn it was given or the expansion it was named,
the classifier's four labels and its outline) with its four blocks' patches as they lay; and the
prototypes of the expansion cards the player named (``extras``, with the labels they teach).

File format (``.deck``): a NumPy ``.npz`` archive (no pickles) with ``meta`` (a JSON string: ``format``
``"sprawlscan-deck"``, ``version`` 2, ``cards``, ``shape``, ``calibration``, ``source``, ``seen``),
``prototypes`` (float16, (72, 3, h, w)) and ``patches`` (float16, (4 N, 3, PATCH_SIZE), N cards found).
About 0.4 MB; files over :data:`MAX_FILE_BYTES` are refused before they are read. Version-1 files (no
``seen``, no ``patches``) are still read and used; they cannot be corrected (teach the deck again).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from scoring.errors import InputError
from scoring.layouts import LAYOUTS
from vision.deck.archive import (
    DECK_FORMAT,
    DECK_GAME,
    EXTRA_ARRAYS,
    MAX_FILE_BYTES,
    DeckFileError,
    deck_game,
    read_archive,
    write_archive,
)
from vision.deck.features import (
    PATCH_SIZE,
    PROTO_SIZE,
    ExtraLabel,
    block_features,
    centre_windows,
    extras_of,
    normalise,
    sliding_windows,
)
from vision.deck.look import CityLook

__all__ = [
    "DECK_FORMAT",
    "EXTRA_ARRAYS",
    "MAX_FILE_BYTES",
    "DECK_GAME",
    "DECK_VERSION",
    "DeckError",
    "DeckFileError",
    "DeckFixError",
    "EXTRA_KINDS",
    "ExtraLabel",
    "TaughtDeck",
    "block_features",
    "deck_game",
    "extras_of",
    "is_place_index",
    "load_deck",
    "read_archive",
    "write_archive",
    "normalise",
    "sliding_windows",
    "centre_windows",
]

DECK_VERSION = 2
READS_VERSIONS = (1, 2)
# At most this many cards found in the deck photos are kept: the 18 and up to 6 expansion cards named.
MAX_SEEN = 24
# Photos, card rows and card columns are counted below this (far more than any table holds).
MAX_PLACE = 100
CARDS = tuple(sorted(LAYOUTS))
EXTRA_KINDS = ("wrecktar", "poi", "construction")
# A block's label as the classifier writes it (the city format's token): kept for each card found.
_TOKEN = re.compile(r"^(?:\.|W|[RCIP](?::[NESW]{2})?\*?!?)$")


class DeckError(InputError):
    """A deck photo that cannot be taught: cards missing, doubled or unreadable (named in the message)."""

    code = "bad_deck_photo"


class DeckFixError(DeckError):
    """A correction of a taught deck that cannot be made: a place with no card, a card left doubled or
    missing, or a deck file too old to be corrected (named in the message)."""

    code = "bad_deck_fix"


@dataclass(frozen=True)
class TaughtDeck:
    """Prototypes of the 72 blocks: ``prototypes[4 * i + q]`` is quadrant ``q`` (TL, TR, BL, BR) of card
    ``CARDS[i]`` as the card lies unturned. ``source`` says how it was taught (for the player).

    ``extras`` are the prototypes of the blocks of the expansion cards the player named, as they lay in
    the photo, ``extra_labels`` what each teaches; ``seen`` (JSON-ready dicts, see
    :class:`vision.deck.corrections.CardSeen`) and ``patches`` (float32 (4 N, 3, PATCH_SIZE), card by card as
    they lay) are what a correction rebuilds the deck from; both empty for a deck of a version-1 file.
    ``look``: the print's look, when named by structure (:mod:`vision.deck.by_structure`), read by."""

    prototypes: np.ndarray  # float32 (72, 3, h, w), each channel zero-mean, unit-norm
    # (slope, offset): a similarity s is worth slope * (s - offset) nats that the cell is that block.
    calibration: tuple[float, float] = (10.0, 0.5)
    source: dict = field(default_factory=dict, compare=False)
    extras: np.ndarray = field(
        default_factory=lambda: np.zeros((0, 3, *PROTO_SIZE), np.float32), compare=False
    )
    extra_labels: tuple[ExtraLabel, ...] = ()
    seen: tuple[dict, ...] = field(default=(), compare=False)
    patches: np.ndarray | None = field(default=None, compare=False)
    look: CityLook | None = field(default=None, compare=False)

    @property
    def game(self) -> str:
        """The game whose cards the deck holds (a Circle the Wagons deck is :mod:`vision.towns.deck`'s)."""
        return DECK_GAME

    def to_bytes(self) -> bytes:
        """The deck in the ``.deck`` file format (the extras are rebuilt from ``seen`` when read)."""
        patches = self.patches if self.patches is not None else np.zeros((0, 3, *PATCH_SIZE), np.float32)
        meta = {"game": DECK_GAME, "version": DECK_VERSION, "cards": list(CARDS)}
        extra = self.look.to_arrays() if self.look is not None else None
        return write_archive(meta, self.prototypes, self.calibration, self.source, self.seen, patches, extra)


def load_deck(data: bytes, name: str = "deck file") -> TaughtDeck:
    """Read a Sprawlopolis ``.deck`` file; raises :class:`DeckFileError` saying what is wrong with it (a
    Circle the Wagons deck is read by :func:`vision.towns.deck.load_town_deck`)."""
    meta, arrays = read_archive(data, name)
    if meta["game"] != DECK_GAME:
        raise DeckFileError(f"{name}: a taught deck of another game ({meta['game']}), not a Sprawlopolis one")
    prototypes = arrays["prototypes"]
    patches = arrays.get("patches")
    if meta.get("version") not in READS_VERSIONS:
        raise DeckFileError(
            f"{name}: taught deck version {meta.get('version')!r}; this scanner reads versions"
            f" {', '.join(map(str, READS_VERSIONS))} (teach the deck again)"
        )
    want = (4 * len(CARDS), 3, *PROTO_SIZE)
    if meta.get("cards") != list(CARDS) or prototypes.shape != want or prototypes.dtype != np.float16:
        raise DeckFileError(f"{name}: damaged taught deck (prototypes {prototypes.shape}, expected {want})")
    values = prototypes.astype(np.float32)
    if not np.isfinite(values).all():
        raise DeckFileError(f"{name}: damaged taught deck (prototypes not finite)")
    calibration = meta.get("calibration")
    if (
        not isinstance(calibration, list)
        or len(calibration) != 2
        or not all(isinstance(v, int | float) and math.isfinite(v) for v in calibration)
        or not 0 < calibration[0] <= 100
    ):
        raise DeckFileError(f"{name}: damaged taught deck (calibration {calibration!r})")
    source = meta.get("source") if isinstance(meta.get("source"), dict) else {}
    try:
        look = CityLook.from_arrays(arrays)
    except ValueError as exc:
        raise DeckFileError(f"{name}: damaged taught deck ({exc})") from None
    deck = TaughtDeck(values, (float(calibration[0]), float(calibration[1])), source, look=look)
    if meta["version"] == 1:
        return deck
    return _with_seen(deck, meta.get("seen"), patches, name)


def _is_token(t: object) -> bool:
    return isinstance(t, str) and bool(_TOKEN.match(t))


def is_place_index(v: object) -> bool:
    """Whether ``v`` can be a photo, row or column of a card found (a whole number, 0 to 99)."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_PLACE


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _check_meta(m: object) -> str | None:
    """What is wrong with one kept card (None when it is well-formed)."""
    if not isinstance(m, dict):
        return "not an object"
    for key in ("photo", "row", "col"):
        if not is_place_index(m.get(key)):
            return f"{key} {m.get(key)!r}"
    card, extra = m.get("card"), m.get("extra")
    if (
        (card is None) == (extra is None)
        or (card is not None and card not in CARDS)
        or (extra is not None and extra not in EXTRA_KINDS)
    ):
        return f"card {card!r} / extra {extra!r}"
    if not isinstance(m.get("rotated"), bool):
        return "rotated"
    fit = m.get("fit")
    if fit is not None and not _is_number(fit):
        return "fit"
    read = m.get("read")
    if not isinstance(read, list) or len(read) != 4 or not all(_is_token(t) for t in read):
        return f"labels {read!r}"
    outline = m.get("outline")
    if outline is not None and not (
        isinstance(outline, list)
        and len(outline) == 4
        and all(isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p) for p in outline)
    ):
        return "outline"
    return None


def _with_seen(deck: TaughtDeck, seen: object, patches: np.ndarray | None, name: str) -> TaughtDeck:
    """A version-2 file's deck with the cards it kept (checked) and the expansion cards' prototypes."""
    if not isinstance(seen, list) or len(seen) > MAX_SEEN or patches is None:
        raise DeckFileError(f"{name}: damaged taught deck (the cards found are not kept)")
    want = (4 * len(seen), 3, *PATCH_SIZE)
    if patches.shape != want or patches.dtype != np.float16:
        raise DeckFileError(f"{name}: damaged taught deck (patches {patches.shape}, expected {want})")
    for i, m in enumerate(seen):
        wrong = _check_meta(m)
        if wrong is not None:
            raise DeckFileError(f"{name}: damaged taught deck (card {i + 1} found: {wrong})")
    values = patches.astype(np.float32)
    if not np.isfinite(values).all():
        raise DeckFileError(f"{name}: damaged taught deck (patches not finite)")
    extras, labels = extras_of(centre_windows(values), seen) if seen else (deck.extras, ())
    return replace(deck, extras=extras, extra_labels=labels, seen=tuple(seen), patches=values)
