"""The territory classifier at run time: crops of a top-down town view in, one distribution over
:data:`~vision.towns.evidence.LABELS` per lattice cell out (what :func:`~vision.towns.town_evidence` takes).

The network (trained by ``models/train_territories.py`` on look-alike renders only) has two heads: the
territory type (``D F M P S W``, or ``.`` for the table) and the icon (``b c f g m w``). A territory's
probability is type × icon (the icon head is read as independent given the crop, so a pair that no card
of the training towns showed still gets its share); the table's is the type head's table class. Every crop
is read as it is and turned by 180° and the two readings are averaged: a card lying turned shows its icons
upside down and carries the same label.

Crops are cut like the Sprawlopolis cells' (:func:`vision.cells.extract_crops`): a window of
:data:`CONTEXT` times the lattice pitch about the cell's centre, so a little of every neighbour shows,
resampled to :data:`CROP_H` × :data:`CROP_W` (portrait: the cells are taller than wide).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scoring.wagons.town import ICONS, TERRAINS
from vision.cells import check_rgb_image, extract_crops
from vision.lattice import Lattice
from vision.runtime import MODEL_DIR, ProcessWide, load_model, softmax
from vision.towns.evidence import TOKENS

__all__ = [
    "CONTEXT",
    "CROP_H",
    "CROP_W",
    "ICON_CLASSES",
    "META_PATH",
    "MODEL_PATH",
    "ModelError",
    "TERRAIN_CLASSES",
    "TerritoryClassifier",
    "get_territory_classifier",
    "read_territories",
]

MODEL_PATH = MODEL_DIR / "territories.onnx"
META_PATH = MODEL_DIR / "territories.json"
REBUILD = "python -m models.train_territories"
#: Crop size (rows, columns): portrait like the cells; a window of 1.25 × a 64 × 89 px cell shrinks ×0.58.
CROP_H = 64
CROP_W = 48
CONTEXT = 1.25
TERRAIN_CLASSES: tuple[str, ...] = (*TERRAINS, ".")
ICON_CLASSES: tuple[str, ...] = tuple(ICONS)
_BATCH = 256


class ModelError(RuntimeError):
    """The shipped territory model is missing or does not match what this code expects."""


def _check_meta(meta: dict) -> None:
    terrains, icons = tuple(meta.get("terrains", ())), tuple(meta.get("icons", ()))
    if terrains != TERRAIN_CLASSES or icons != ICON_CLASSES:
        raise ModelError(
            f"{META_PATH.name} lists classes {terrains} / {icons}, not the expected {TERRAIN_CLASSES} /"
            f" {ICON_CLASSES}; run `{REBUILD}`"
        )


class TerritoryClassifier:
    """A loaded territory model: its metadata (``territories.json``) and an onnxruntime session."""

    def __init__(
        self, model_path: Path = MODEL_PATH, meta_path: Path = META_PATH, threads: int | None = None
    ) -> None:
        loaded = load_model(
            model_path, meta_path, "territory classifier", ModelError, REBUILD, threads, check=_check_meta
        )
        self.meta: dict = loaded.meta
        self.session, self.input_name = loaded.session, loaded.input_name
        self.input_h, self.input_w = (int(v) for v in self.meta["input_size"])
        self.context = float(self.meta["context"])
        self.mean = np.asarray(self.meta["normalisation"]["mean"], np.float32).reshape(1, 3, 1, 1)
        self.std = np.asarray(self.meta["normalisation"]["std"], np.float32).reshape(1, 3, 1, 1)

    def crops(self, view: np.ndarray, lattice: Lattice) -> np.ndarray:
        """Every cell's crop in reading order: uint8 (rows * cols, H, W, 3)."""
        centres = lattice.centres().reshape(-1, 2)
        return extract_crops(
            view,
            centres,
            lattice.pitch_x,
            lattice.pitch_y,
            size=(self.input_h, self.input_w),
            context=self.context,
        )

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """float32 (N, 37): each crop's distribution over ``LABELS`` (type-major territories, then the
        table), averaged over the crop as it is and turned by 180°."""
        if not isinstance(crops, np.ndarray) or crops.dtype != np.uint8:
            raise ValueError(f"crops must be a uint8 numpy array, got {getattr(crops, 'dtype', type(crops))}")
        if crops.ndim != 4 or crops.shape[1:] != (self.input_h, self.input_w, 3):
            raise ValueError(
                f"crops must have shape (N, {self.input_h}, {self.input_w}, 3), got {crops.shape}"
            )
        n = len(crops)
        if n == 0:
            return np.zeros((0, len(TOKENS)), np.float32)
        x = crops.astype(np.float32).transpose(0, 3, 1, 2) / np.float32(255.0)
        x = (x - self.mean) / self.std
        x = np.concatenate([x, x[:, :, ::-1, ::-1]])
        terrain, icon = [], []
        for start in range(0, len(x), _BATCH):
            t, i = self.session.run(None, {self.input_name: np.ascontiguousarray(x[start : start + _BATCH])})
            terrain.append(softmax(t))
            icon.append(softmax(i))
        pt, pi = np.concatenate(terrain), np.concatenate(icon)
        pt, pi = (pt[:n] + pt[n:]) / 2, (pi[:n] + pi[n:]) / 2
        out = np.empty((n, len(TOKENS)), np.float32)
        out[:, :-1] = (pt[:, :-1, None] * pi[:, None, :]).reshape(n, -1)
        out[:, -1] = pt[:, -1]
        return out


_shipped: ProcessWide[TerritoryClassifier] = ProcessWide(TerritoryClassifier)


def get_territory_classifier() -> TerritoryClassifier:
    """The process-wide territory classifier, loaded on first call (``ModelError`` when it is missing)."""
    return _shipped.get()


def read_territories(view: np.ndarray, lattice: Lattice) -> list[list[dict[str, float]]]:
    """Read every cell of ``lattice`` in the top-down RGB uint8 ``view`` (cells portrait, at about
    ``vision.lattice.PX_PER_MM``): ``lattice.rows`` lists of ``lattice.cols`` distributions, each a mapping
    from every token of ``vision.towns.TOKENS`` (``"D/w"`` … ``"."``) to its probability.

    Raises ``TypeError``/``ValueError`` naming a malformed view or lattice and :class:`ModelError` when the
    shipped model is missing."""
    check_rgb_image(view, 2, "to read territories from")
    if not isinstance(lattice, Lattice):
        raise TypeError(f"expected a vision.lattice.Lattice, got {type(lattice).__name__}")
    if lattice.rows < 1 or lattice.cols < 1:
        raise ValueError(f"lattice has no cells ({lattice.rows} rows × {lattice.cols} columns)")
    clf = get_territory_classifier()
    probs = clf.probabilities(clf.crops(view, lattice)).tolist()
    cells = [dict(zip(TOKENS, row, strict=True)) for row in probs]
    return [cells[r * lattice.cols : (r + 1) * lattice.cols] for r in range(lattice.rows)]
