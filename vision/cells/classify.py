"""The per-cell classifier at run time: crops of a rectified city in, zone and road per lattice cell out.

The network (trained by ``models/train.py``) has three heads: zone (empty, R, C, I, P, or W for a cell
covered by Wrecktar), road (none, NS, NE, NW, SE, SW, EW) and expansion mark (none, Point of Interest,
construction zone). Zone and road are combined over the *legal* pairs only (a park, an empty cell or
Wrecktar has no road), so the answer is always a well-formed cell. It runs with onnxruntime: one
:class:`onnxruntime.InferenceSession` per process, created on first use and cached, with the thread count
set explicitly from ``SPRAWLSCAN_THREADS`` (default: 2, or fewer on a smaller machine).
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import cv2
import numpy as np

from scoring.city import block, rotate_road
from vision.cells.crops import SHRINK_BELOW, extract_crops
from vision.cells.reading import CellReading, Grid, read_lattice
from vision.cells.topdown import TopDown
from vision.cells.white_balance import lattice_box
from vision.lattice import Lattice
from vision.runtime import MODEL_DIR, ProcessWide, load_model, softmax

MODEL_PATH = MODEL_DIR / "cells.onnx"
META_PATH = MODEL_DIR / "cells.json"
ROADS_WITH_NONE = ("none", "NS", "NE", "NW", "SE", "SW", "EW")
ZONES_WITH_EMPTY = ("empty", "R", "C", "I", "P", "W")
MARKS = ("none", "poi", "construction")
_NO_ROAD = ("empty", "P", "W")
# Inference in chunks keeps memory flat for very large lattices.
_BATCH = 256
_ALTERNATIVES = 3

# An expansion mark changes the score (a construction penalty, a Point of Interest bonus), so a block carries
# one only when the mark head is at least this sure: on photos of real cards, which carry no marks, 14 of
# 8 580 crops read a mark at 0.5–0.8 and put 6 false marks into 24 cities; the marks of rendered
# calibration photos read 0.83–0.99 (a crop and its turn averaged can lose a little of that).
MARK_CONFIDENCE = 0.7
# Read every crop also turned by 180° and average (test-time augmentation). On the real-art development set
# the same photo turned round read 1131 of 1143 blocks against 1140 upright with a single reading.
TURNS = True


class ModelError(RuntimeError):
    """The shipped model is missing or does not match what this code expects (a build problem)."""


def _check_meta(meta: dict) -> None:
    zones, roads, marks = tuple(meta["zones"]), tuple(meta["roads"]), tuple(meta.get("marks", ()))
    # Models from before the Wrecktar class and the mark head (5 zones, no marks) still load.
    known = {(ZONES_WITH_EMPTY, MARKS), (ZONES_WITH_EMPTY[:5], ())}
    if roads != ROADS_WITH_NONE or (zones, marks) not in known:
        raise ModelError(
            f"{META_PATH.name} lists classes {zones} / {roads} / {marks}, not the expected"
            f" {ZONES_WITH_EMPTY} / {ROADS_WITH_NONE} / {MARKS}; run `make model`"
        )


class CellClassifier:
    """A loaded cell model: its metadata (``cells.json``) and an onnxruntime session."""

    def __init__(
        self, model_path: Path = MODEL_PATH, meta_path: Path = META_PATH, threads: int | None = None
    ):
        loaded = load_model(
            model_path, meta_path, "cell classifier", ModelError, "make model", threads, check=_check_meta
        )
        self.meta: dict = loaded.meta
        self.zones: tuple[str, ...] = tuple(self.meta["zones"])
        self.roads: tuple[str, ...] = tuple(self.meta["roads"])
        self.marks: tuple[str, ...] = tuple(self.meta.get("marks", ()))
        self.input_h, self.input_w = (int(v) for v in self.meta["input_size"])
        self.context = float(self.meta["context"])
        # Models trained on crops of white-balanced cities (vision.cells.white_balance) want the same at run
        # time.
        self.balanced = self.meta.get("white_balance") == "city whites"
        self.mean = np.asarray(self.meta["normalisation"]["mean"], np.float32).reshape(1, 3, 1, 1)
        self.std = np.asarray(self.meta["normalisation"]["std"], np.float32).reshape(1, 3, 1, 1)
        self._scale, self._shift = 1.0 / (255.0 * self.std), -self.mean / self.std
        # (x / 255 - mean) / std for every uint8 value of every channel, computed as two float32 passes
        # would: a look-up makes the network's input in one pass, to the bit the same.
        self._lut = np.ascontiguousarray(
            (np.arange(256, dtype=np.float32) * self._scale.reshape(3, 1) + self._shift.reshape(3, 1)).T
        ).reshape(1, 256, 3)
        self.session, self.input_name = loaded.session, loaded.input_name
        self.threads: int = loaded.session.get_session_options().intra_op_num_threads
        self._legal = _legal_pairs(self.zones, self.roads)
        self._wrecktar = self.zones.index("W") if "W" in self.zones else -1
        self._empty = self._legal.index((self.zones.index("empty"), 0))
        # Per legal pair: (zone name, road), the reading's zone (None for empty), the distribution's key, and
        # whether it is a reading at all (Wrecktar is a kind, not an alternative).
        self._pairs = [self._pair(k) for k in range(len(self._legal))]
        self._zones = [self._zone(k) for k in range(len(self._legal))]
        self._keys = [
            ("W" if zi == self._wrecktar else self._zones[k], self._pairs[k][1])
            for k, (zi, _) in enumerate(self._legal)
        ]
        self._reading_order = [zi != self._wrecktar for zi, _ in self._legal]
        # Road class of a crop turned by 180°, for each road class of the crop as it is.
        self._turned_roads = np.array(
            [0 if rd == "none" else self.roads.index(rotate_road(rd)) for rd in self.roads]
        )

    def __call__(self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]) -> list[CellReading]:
        """Read the cells centred at ``centres`` (N × 2, view pixels) of a view whose blocks measure
        ``pitch`` px (the :class:`~vision.cells.reading.Classifier` interface).

        The crops are cut from the view shrunk once to about the crops' resolution (the same area
        averaging :func:`vision.cells.crops.extract_crops` applies) and colour-corrected as the model learned:
        white-balanced on the city's own whites, when the model was trained so."""
        centres = np.asarray(centres, np.float64).reshape(-1, 2)
        if len(centres) == 0:
            return []
        # Shrunk as vision.cells.crops.extract_crops would for every read, but once per view.
        factor = min(1.0, self.input_h / (self.context * pitch[1]))
        source = view.colours(factor if factor < SHRINK_BELOW else 1.0, corrected=self.balanced)
        fx = source.shape[1] / view.image.shape[1]
        fy = source.shape[0] / view.image.shape[0]
        crops = extract_crops(
            source,
            centres * (fx, fy),
            pitch[0] * fx,
            pitch[1] * fy,
            size=(self.input_h, self.input_w),
            context=self.context,
        )
        return self.predict(crops)

    def probabilities(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Zone, road and mark probabilities for uint8 crops (N, H, W, 3): float32 (N, 6), (N, 7), (N, 3).

        Each crop is read as it is and turned by 180° (its road relabelled), and the two readings are
        averaged: the answer is then the same whichever way round the photo was taken, and steadier on art
        unlike the renders (see :data:`TURNS`)."""
        x = self._normalised(crops, turned=TURNS)
        z, r, m = self._run(x)
        if not TURNS:
            return z, r, m
        n = len(crops)
        return (z[:n] + z[n:]) / 2, (r[:n] + r[n:][:, self._turned_roads]) / 2, (m[:n] + m[n:]) / 2

    def _normalised(self, crops: np.ndarray, *, turned: bool) -> np.ndarray:
        """The network's input for ``crops``: float32 (N, 3, H, W), C-contiguous; with ``turned`` followed
        by the same crops turned by 180° (2N in all: both ways round in one batch)."""
        if not isinstance(crops, np.ndarray) or crops.dtype != np.uint8:
            raise ValueError(f"crops must be a uint8 numpy array, got {getattr(crops, 'dtype', type(crops))}")
        if crops.ndim != 4 or crops.shape[1:] != (self.input_h, self.input_w, 3):
            raise ValueError(
                f"crops must have shape (N, {self.input_h}, {self.input_w}, 3), got {crops.shape}"
            )
        n, h, w = crops.shape[:3]
        x = np.empty((2 * n if turned else n, 3, h, w), np.float32)
        if n:
            flat = np.ascontiguousarray(crops).reshape(n * h, w, 3)
            x[:n] = cv2.LUT(flat, self._lut).reshape(n, h, w, 3).transpose(0, 3, 1, 2)
            if turned:  # the turn of a normalised crop is the normalised turned crop
                x[n:] = x[:n, :, ::-1, ::-1]
        return x

    def _run(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The three heads' probabilities for a normalised batch, run in chunks of :data:`_BATCH`."""
        heads: list[list[np.ndarray]] = [[], [], []]
        for start in range(0, len(x), _BATCH):
            for k, logits in enumerate(self.session.run(None, {self.input_name: x[start : start + _BATCH]})):
                heads[k].append(softmax(logits))
        if not self.marks:
            heads[2] = [np.zeros((len(h), 1), np.float32) + 1 for h in heads[0]]
        sizes = (len(self.zones), len(self.roads), max(1, len(self.marks)))
        z, r, m = (
            np.concatenate(h) if h else np.zeros((0, n), np.float32)
            for h, n in zip(heads, sizes, strict=True)
        )
        return z, r, m

    def predict(self, crops: np.ndarray) -> list[CellReading]:
        """One :class:`~vision.cells.reading.CellReading` per crop: the most probable legal (zone, road) pair,
        and for a block its most probable mark."""
        pz, pr, pm = self.probabilities(crops)
        # Joint probability of every legal pair, assuming the heads are independent given the crop.
        joint = np.stack([pz[:, zi] * pr[:, ri] for zi, ri in self._legal], axis=1)
        joint /= joint.sum(axis=1, keepdims=True) + 1e-12
        ranked = np.argsort(-joint, axis=1)
        # A block's mark: the most probable, unless it is not sure enough (then none).
        mark = pm.argmax(axis=1)
        if self.marks:
            unsure = pm[np.arange(len(pm)), mark] < MARK_CONFIDENCE
            mark[unsure] = self.marks.index("none")
        p_mark = pm[np.arange(len(pm)), mark].tolist()
        # Python floats and lists once for the whole batch, not per cell.
        rows, orders, marks = joint.tolist(), ranked.tolist(), mark.tolist()
        labels: dict[tuple[int, int], str] = {}
        return [
            self._reading(row, order, mk, pk, labels)
            for row, order, mk, pk in zip(rows, orders, marks, p_mark, strict=True)
        ]

    def _reading(
        self, row: list[float], order: list[int], mk: int, pk: float, labels: dict[tuple[int, int], str]
    ) -> CellReading:
        """The reading of one cell: ``row`` the joint probability of each legal pair, ``order`` the pairs
        from the likeliest, ``mk`` the mark read (``pk`` its probability); ``labels`` caches block tokens."""
        pairs, empty = self._pairs, self._empty
        best = order[0]
        zone_name, road = pairs[best]
        p = row[best]
        dist = dict(zip(self._keys, row, strict=True))
        readable = ((self._zones[k], pairs[k][1], row[k]) for k in order if self._reading_order[k])
        alternatives = tuple(islice(readable, _ALTERNATIVES))
        if zone_name == "W":
            return CellReading(None, None, p, "W", alternatives, "wrecktar", False, False, row[empty], dist)
        if zone_name == "empty":
            return CellReading(
                None, None, p, ".", alternatives, kind="empty", empty_probability=p, distribution=dist
            )
        name = self.marks[mk] if self.marks else "none"
        poi, construction = name == "poi", name == "construction"
        label = labels.get((best, mk))
        if label is None:
            label = labels[best, mk] = block(zone_name, road, poi=poi, construction=construction).token()
        return CellReading(
            zone_name, road, p * pk, label, alternatives, "block", poi, construction, row[empty], dist
        )

    def _pair(self, k: int) -> tuple[str, str | None]:
        zi, ri = self._legal[k]
        return self.zones[zi], (None if ri == 0 else self.roads[ri])

    def _zone(self, k: int) -> str | None:
        zone = self.zones[self._legal[k][0]]
        return None if zone == "empty" else zone


def _legal_pairs(zones: tuple[str, ...], roads: tuple[str, ...]) -> list[tuple[int, int]]:
    """(zone index, road index) pairs a real cell can have: empty, P and W only with no road."""
    pairs = []
    for zi, zone in enumerate(zones):
        for ri in range(len(roads)):
            if zone in _NO_ROAD and ri != 0:
                continue
            pairs.append((zi, ri))
    return pairs


_shipped: ProcessWide[CellClassifier] = ProcessWide(CellClassifier)


def get_classifier() -> CellClassifier:
    """The process-wide classifier, loaded on first call and reused afterwards (thread-safe)."""
    return _shipped.get()


def classify_cells(image: np.ndarray, lattice: Lattice, *, balance: bool = True) -> Grid:
    """Classify every cell of ``lattice`` in a top-down RGB uint8 view with the shipped model.

    ``image`` is at ``vision.lattice.fit.PX_PER_MM`` with blocks wider than tall; its colour cast is measured
    on the whites inside the lattice's box, unless ``balance=False`` says the colours are corrected already.
    Returns ``lattice.rows`` lists of ``lattice.cols`` readings. Raises ``ValueError`` naming the problem for
    a malformed image or lattice.
    """
    if not isinstance(lattice, Lattice):
        raise TypeError(f"expected a vision.lattice.fit.Lattice, got {type(lattice).__name__}")
    clf = get_classifier()
    view = TopDown(image, np.eye(3), lattice_box(lattice), ready=not balance)
    return read_lattice(clf, view, lattice)
