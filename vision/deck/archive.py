"""The ``.deck`` file of either game: a NumPy ``.npz`` archive (no pickles) with ``meta`` (a JSON string:
the format, the game, its version and cards, the prototypes' shape, calibration, source and the cards
seen), the prototypes and patches, and the arrays a game's print look adds (:data:`EXTRA_ARRAYS`).
:func:`write_archive` writes one, :func:`read_archive` reads one back, refusing anything else with a
:class:`DeckFileError`; :mod:`vision.deck.taught` and :mod:`vision.towns.deck` read their decks from it.
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np

from scoring.errors import InputError

__all__ = [
    "BASE_ARRAYS",
    "DECK_FORMAT",
    "DECK_GAME",
    "EXTRA_ARRAYS",
    "MAX_FILE_BYTES",
    "DeckFileError",
    "deck_game",
    "read_archive",
    "write_archive",
]

DECK_FORMAT = "sprawlscan-deck"
# The arrays of every deck file, and those a game may add (a Circle the Wagons deck's print look,
# :mod:`vision.towns.deck.structure`; a Sprawlopolis deck's, :class:`vision.deck.look.CityLook`).
BASE_ARRAYS = ("meta", "prototypes", "patches")
CITY_ARRAYS = ("city_grounds", "city_spread", "city_road")
WAGONS_ARRAYS = ("look_fills", "look_spread", "look_icons", "look_icon_of", "look_icon_mass", "look_aliases")
EXTRA_ARRAYS = CITY_ARRAYS + WAGONS_ARRAYS
#: The game a deck file is of when its ``meta`` names none (files taught before Circle the Wagons decks).
DECK_GAME = "sprawlopolis"
MAX_FILE_BYTES = 1_000_000


class DeckFileError(InputError):
    """A taught-deck file that is not one, or is damaged, or of a version this scanner does not read."""

    code = "bad_deck_file"


def write_archive(
    meta: dict,
    prototypes: np.ndarray,
    calibration: tuple[float, float],
    source: dict,
    seen: tuple[dict, ...],
    patches: np.ndarray,
    extra: dict[str, np.ndarray] | None = None,
) -> bytes:
    """A ``.deck`` file of any game (what :func:`read_archive` reads): ``meta`` (the game, its version
    and cards) completed with the format, the prototypes' shape, ``calibration``, ``source`` and
    ``seen``; the arrays kept as float16, with the game's ``extra`` arrays (named in
    :data:`EXTRA_ARRAYS`) beside them."""
    meta = {
        "format": DECK_FORMAT,
        **meta,
        "shape": list(prototypes.shape),
        "calibration": [float(v) for v in calibration],
        "source": source,
        "seen": list(seen),
    }
    out = io.BytesIO()
    np.savez_compressed(
        out,
        meta=np.array(json.dumps(meta)),
        prototypes=prototypes.astype(np.float16),
        patches=patches.astype(np.float16),
        **{k: v.astype(np.float16) for k, v in (extra or {}).items()},
    )
    return out.getvalue()


def read_archive(data: bytes, name: str) -> tuple[dict, dict[str, np.ndarray]]:
    """A ``.deck`` file's ``meta`` and arrays (of any game: ``meta["game"]`` says which, absent for
    Sprawlopolis); raises :class:`DeckFileError` for a file that is not one."""
    if len(data) > MAX_FILE_BYTES:
        raise DeckFileError(f"{name}: {len(data)} bytes, more than a taught deck ({MAX_FILE_BYTES} at most)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            if not {"meta", "prototypes"} <= set(archive.files) <= {*BASE_ARRAYS, *EXTRA_ARRAYS}:
                raise DeckFileError(f"{name}: not a taught deck (holds {sorted(archive.files)})")
            meta = json.loads(str(archive["meta"]))
            arrays = {k: archive[k] for k in archive.files if k != "meta"}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        if isinstance(exc, DeckFileError):
            raise
        raise DeckFileError(f"{name}: not a taught deck file (made by `sprawlscan teach`)") from None
    if not isinstance(meta, dict) or meta.get("format") != DECK_FORMAT:
        raise DeckFileError(f"{name}: not a taught deck file (made by `sprawlscan teach`)")
    if not isinstance(meta.setdefault("game", DECK_GAME), str):  # a file of before the game was recorded
        raise DeckFileError(f"{name}: not a taught deck file (made by `sprawlscan teach`)")
    return meta, arrays


def deck_game(data: bytes, name: str = "deck file") -> str:
    """The name of the game whose cards the ``.deck`` file holds (as the game that taught it wrote it: the
    registry knows which games there are); raises :class:`DeckFileError` for a file that is not a taught
    deck."""
    return str(read_archive(data, name)[0]["game"])
