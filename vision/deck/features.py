"""The patches a taught deck compares: each block cut from a white-balanced top-down view in CIE Lab
(:func:`block_features`), its central window normalised as a prototype (:func:`centre_windows`), or every
window slid a few pixels over the hand-placement error (:func:`sliding_windows`); and what an expansion
card's blocks teach (:func:`extras_of`)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.cells import extract_crops

__all__ = [
    "PATCH_SIZE",
    "PROTO_SIZE",
    "SLIDE",
    "ExtraLabel",
    "block_features",
    "centre_windows",
    "extras_of",
    "normalise",
    "sliding_windows",
]


# A block is cut at PATCH_SIZE px (rows, columns: about 1.5 mm a pixel at the scanner's 2 px/mm view), and
# its prototype is the central PROTO_SIZE of it; a later cell slides SLIDE px each way (about ±3 mm).
SLIDE = 2
PATCH_SIZE = (21, 30)
PROTO_SIZE = (PATCH_SIZE[0] - 2 * SLIDE, PATCH_SIZE[1] - 2 * SLIDE)


# An expansion block's label: (zone, road, mark), mark "" (none), "poi" or "construction"; Wrecktar is
# ("W", None, "").
ExtraLabel = tuple[str | None, str | None, str]


def normalise(x: np.ndarray) -> np.ndarray:
    """Each channel of each patch (..., 3, h, w) zero-mean and unit-norm (flat channels stay zero)."""
    x = x - x.mean(axis=(-2, -1), keepdims=True)
    norm = np.sqrt((x * x).sum(axis=(-2, -1), keepdims=True))
    return (x / np.maximum(norm, 1e-6)).astype(np.float32)


def block_features(
    balanced: np.ndarray,
    centres: Sequence[tuple[float, float]] | np.ndarray,
    pitch_x: float,
    pitch_y: float,
    size: tuple[int, int] = PATCH_SIZE,
) -> np.ndarray:
    """The patches (N, 3, ``size``) of the blocks centred at ``centres`` in a white-balanced rectified
    view, in CIE Lab (float32, L 0–100); not yet normalised (see :func:`sliding_windows`). ``size``
    (rows, columns) is a landscape Sprawlopolis block's by default (a portrait territory's is turned)."""
    if len(centres) == 0:
        return np.zeros((0, 3, *size), np.float32)
    crops = extract_crops(balanced, centres, pitch_x, pitch_y, size=size, context=1.0)
    lab = cv2.cvtColor(crops.reshape(-1, size[1], 3).astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)
    return lab.reshape(len(crops), *size, 3).transpose(0, 3, 1, 2)


def centre_windows(patches: np.ndarray) -> np.ndarray:
    """The central window of each patch (PROTO_SIZE for a PATCH_SIZE patch: :data:`SLIDE` px in from each
    side), normalised: the prototypes a deck photo teaches."""
    return normalise(patches[:, :, SLIDE:-SLIDE, SLIDE:-SLIDE])


def sliding_windows(patches: np.ndarray) -> np.ndarray:
    """Every window of each patch the size of its central one (:func:`centre_windows`), normalised:
    (N, S, 3, h, w) with S = (2 SLIDE + 1)²."""
    window = (patches.shape[2] - 2 * SLIDE, patches.shape[3] - 2 * SLIDE)
    views = np.lib.stride_tricks.sliding_window_view(patches, window, axis=(2, 3))
    n, ch, sy, sx, h, w = views.shape
    return normalise(views.transpose(0, 2, 3, 1, 4, 5).reshape(n, sy * sx, ch, h, w))


def _extra_label(kind: str, token: str) -> ExtraLabel | None:
    """What an expansion card's block teaches: Wrecktar's cells W; another card's blocks what the classifier
    read (with its mark), nothing for a block it read as no card or Wrecktar."""
    if kind == "wrecktar":
        return ("W", None, "")
    if token in (".", "W"):
        return None
    zone, _, rest = token.partition(":")
    mark = "poi" if "*" in token else "construction" if "!" in token else ""
    road = rest.rstrip("*!") or None
    return (zone.rstrip("*!"), road, mark)


def extras_of(windows: np.ndarray, seen: Sequence[dict]) -> tuple[np.ndarray, tuple[ExtraLabel, ...]]:
    """The prototypes (of the cards' centre ``windows``, 4 a card) and labels the expansion cards among
    the cards ``seen`` (their kept JSON) teach."""
    keep, labels = [], []
    for i, card in enumerate(seen):
        if card.get("extra") is None:
            continue
        for q, token in enumerate(card.get("read") or ("",) * 4):
            label = _extra_label(card["extra"], token)
            if label is not None:
                keep.append(4 * i + q)
                labels.append(label)
    return windows[keep].reshape(len(keep), *windows.shape[1:]), tuple(labels)
