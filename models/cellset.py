"""Labelled cell crops for training and held-out measurement, cut from rendered top-down cities.

For every play seed: simulate a game (:func:`scoring.placement.simulate_play`), then ``variants`` times
render the city top-down with fresh look-alike art (:func:`models.synth.art.render_city_topdown`), replace the
table by one of our own surfaces half of the time (so the classifier sees more tables than the renderer
draws), disturb the whole image like a phone photo (:func:`models.augment.photo_effects`), and cut a
jittered crop (:func:`models.augment.random_jitter`) of every cell of the grid plus about half of the ring
of cells just outside it (table with the city's edge in the context — the border cells a lattice fit
produces).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from models.augment import photo_effects, random_jitter, table_texture
from scoring.city import Cell
from scoring.placement import simulate_play
from vision.cells import CONTEXT, CROP_H, CROP_W, MARKS, balance_whites, extract_crops, lattice_box
from vision.cells import ROADS_WITH_NONE as ROADS
from vision.cells import ZONES_WITH_EMPTY as ZONES
from vision.lattice import PX_PER_MM

if TYPE_CHECKING:
    from models.synth.art import TopDown

# Bump when the way crops are made changes, so stale caches are not reused.
DATA_VERSION = 5
KINDS = ("block", "hole", "ring")


@dataclass
class CellSet:
    """Crops uint8 (N, H, W, 3) with zone, road and mark class indices (``vision.cells.classify`` class lists)
    and the kind of cell each came from (:data:`KINDS`: a block or Wrecktar, an empty cell inside the grid,
    the outer ring)."""

    crops: np.ndarray
    zone: np.ndarray
    road: np.ndarray
    mark: np.ndarray
    kind: np.ndarray

    def __len__(self) -> int:
        return len(self.crops)


def _replace_table(rng: np.random.Generator, image: np.ndarray, corners: Sequence[np.ndarray]) -> np.ndarray:
    """Paint one of our table textures everywhere outside the laid cards (their corner quadrilaterals)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for quad in corners:
        cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    # A soft edge and a faint contact shadow around the cards, as on a real table.
    alpha = mask.astype(np.float32)[..., None] / 255.0
    shadow = (
        cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(0.8, 3.0))).astype(np.float32)[..., None] / 255.0
    )
    table = table_texture(rng, h, w).astype(np.float32) * (1 - float(rng.uniform(0.1, 0.4)) * shadow)
    out = image.astype(np.float32) * alpha + table * (1 - alpha)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _scoring_cards(rng: np.random.Generator, td: TopDown) -> list[np.ndarray]:
    """Lay three scoring-card backs in a row beside the city, closer than players usually do (3–45 mm), so
    that ring cells learn that graph paper, the number circle and the back's road band are not blocks.
    Draws into ``td.image`` in place and returns the cards' pixel corners."""
    from models.synth.art import CARD_H, CARD_W, CardPose, paste, render_scoring_back

    ppm = td.px_per_mm
    corners = np.vstack(td.card_corners) / ppm  # table mm, with the image origin at (0, 0)
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    side = int(rng.integers(4))
    gap = float(rng.uniform(3, 45))
    spacing = float(rng.uniform(4, 20))
    out = []
    for k, number in enumerate(rng.choice(np.arange(1, 19), 3, replace=False)):
        if side < 2:
            x = (x0 + x1) / 2 + (k - 1) * (CARD_W + spacing) - CARD_W / 2 + rng.normal(0, 3)
            y = y1 + gap if side == 0 else y0 - gap - CARD_H
        else:
            x = x1 + gap if side == 2 else x0 - gap - CARD_W
            y = (y0 + y1) / 2 + (k - 1) * (CARD_H + spacing) - CARD_H / 2 + rng.normal(0, 3)
        pose = CardPose(float(x), float(y), float(rng.normal(0, 2.5)))
        h = np.diag([ppm, ppm, 1.0]) @ pose.matrix() @ np.diag([1 / ppm, 1 / ppm, 1.0])
        paste(td.image, render_scoring_back(int(number), rng, ppm), h, 0.3, ppm)
        quad = np.array([[0, 0, 1], [CARD_W, 0, 1], [CARD_W, CARD_H, 1], [0, CARD_H, 1]]) @ pose.matrix().T
        out.append(quad[:, :2] * ppm)
    return out


def cell_labels(cell: Cell) -> tuple[int, int, int]:
    """The (zone, road, mark) class indices of ``cell``: Wrecktar is zone W, anything not a block is empty."""
    if cell.kind == "wrecktar":
        return ZONES.index("W"), 0, 0
    if not cell.is_block:
        return 0, 0, 0
    mark = MARKS.index("poi") if cell.poi else MARKS.index("construction") if cell.construction else 0
    return ZONES.index(cell.zone), ROADS.index(cell.road or "none"), mark


def render_cells(seed: int, variants: int, strength: float = 1.0) -> CellSet:
    """All crops of one play seed (see the module docstring); deterministic in ``seed``."""
    prng = random.Random(seed)
    rng = np.random.default_rng(seed)
    n_cards = 15 if prng.random() < 0.7 else prng.randint(3, 14)
    play = simulate_play(
        prng,
        n_cards,
        overlap=prng.uniform(0.3, 0.8),
        compact=prng.uniform(0.5, 1.5),
        wrecktar=prng.random() < 0.25,
        poi=prng.random() < 0.2,
        construction=prng.choice([0, 0, 1, 2, 3]),
    )
    from models.synth.art import render_city_topdown  # the renderer is only needed to build data

    # Rendering the art is the slow part, so one render serves several photo-like looks.
    td = render_city_topdown(play, rng, PX_PER_MM, margin_mm=55.0)
    card_corners = list(td.card_corners)
    if rng.random() < 0.6:
        card_corners += _scoring_cards(rng, td)
    lat = td.lattice
    centers, zones, roads, marks, kinds = [], [], [], [], []
    for t in td.cells:
        cell = t.cell
        if cell.kind == "beach":  # not a class of this model
            continue
        centers.append((t.x, t.y))
        zone, road, mark = cell_labels(cell)
        zones.append(zone)
        roads.append(road)
        marks.append(mark)
        kinds.append(1 if cell.kind == "empty" else 0)
    ring = [
        (lat.origin[0] + (col + 0.5) * lat.pitch_x, lat.origin[1] + (row + 0.5) * lat.pitch_y)
        for row in range(-1, lat.rows + 1)
        for col in range(-1, lat.cols + 1)
        if not (0 <= row < lat.rows and 0 <= col < lat.cols)
    ]
    crops, z, r, m, k = [], [], [], [], []
    for _ in range(variants):
        image = td.image
        if rng.random() < 0.5:
            image = _replace_table(rng, image, card_corners)
        # The cast is taken out as at run time (vision.cells.classify), from the city and its outer ring.
        image = balance_whites(photo_effects(rng, image, strength), lattice_box(lat.padded(1, 1, 1, 1)))
        # A third of the ring each time keeps empty cells at about a quarter of the set.
        chosen = [p for p in ring if rng.random() < 0.3]
        pts = centers + chosen
        jitters = [random_jitter(rng, strength) for _ in pts]
        crops.append(extract_crops(image, pts, lat.pitch_x, lat.pitch_y, jitters=jitters))
        z += zones + [0] * len(chosen)
        r += roads + [0] * len(chosen)
        m += marks + [0] * len(chosen)
        k += kinds + [2] * len(chosen)
    return CellSet(np.concatenate(crops), *(np.array(v, np.uint8) for v in (z, r, m, k)))


def build(seeds: Sequence[int], variants: int, strength: float = 1.0, log: bool = True) -> CellSet:
    """Crops of every seed in ``seeds``, concatenated in order."""
    parts = []
    t0 = time.time()
    for i, seed in enumerate(seeds):
        parts.append(render_cells(seed, variants, strength))
        if log and (i + 1) % 50 == 0:
            print(f"  rendered {i + 1}/{len(seeds)} cities ({time.time() - t0:.0f} s)", flush=True)
    return concat(parts)


def concat(parts: Sequence[CellSet]) -> CellSet:
    """The crop sets ``parts`` one after another (at least one)."""
    return CellSet(
        np.concatenate([p.crops for p in parts]),
        np.concatenate([p.zone for p in parts]),
        np.concatenate([p.road for p in parts]),
        np.concatenate([p.mark for p in parts]),
        np.concatenate([p.kind for p in parts]),
    )


def cache_path(data_dir: Path, name: str, seeds: range, variants: int, strength: float) -> Path:
    key = f"{DATA_VERSION}:{seeds.start}:{seeds.stop}:{variants}:{strength}:{CROP_H}x{CROP_W}:{CONTEXT}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    return data_dir / f"cells_{name}_{digest}.npz"


def load_or_build(data_dir: Path, name: str, seeds: range, variants: int, strength: float = 1.0) -> CellSet:
    """The crop set for these settings, from the ``data_dir`` cache when present, else built and cached."""
    path = cache_path(data_dir, name, seeds, variants, strength)
    return cached(
        path,
        lambda: build(seeds, variants, strength),
        f"building {name} crops from {len(seeds)} cities × {variants} renders → {path}",
    )


def cached(path: Path, make: Callable[[], CellSet], announce: str) -> CellSet:
    """The crop set stored at ``path``, or ``make()`` (after printing ``announce``) stored there."""
    if path.is_file():
        with np.load(path) as f:
            return CellSet(f["crops"], f["zone"], f["road"], f["mark"], f["kind"])
    print(announce, flush=True)
    data = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, crops=data.crops, zone=data.zone, road=data.road, mark=data.mark, kind=data.kind)
    tmp.replace(path)
    return data
