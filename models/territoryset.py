"""Labelled territory crops for training and held-out measurement, cut from rendered top-down towns.

For every seed: simulate a legal town (:func:`models.synth.wagons.town.simulate_town`), draw one print of
the look-alike art around the rulebook's facts (``art_spread`` wide), lay the cards by hand on the lattice
(:func:`models.synth.wagons.layout.lay_out_town`) over a table (the renderer's or one of
:mod:`models.augment`'s) and paste them seen from straight above at a random drawing resolution shrunk to
the scanner's :data:`~vision.lattice.PX_PER_MM` (a photo's softness). Then ``variants`` times: disturb the
whole view like a phone photo (:func:`models.augment.photo_effects`: light, white balance, blur, noise,
JPEG, glare) and cut a jittered crop (:func:`models.augment.random_jitter`) of every cell of the town plus
part of the ring of cells just outside it (table with the town's edge in the context), as
:mod:`models.cellset` does for Sprawlopolis. No full photo and rectification per sample: the jitter stands
in for the lattice fit's errors.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.augment import photo_effects, random_jitter, table_texture
from models.synth.art import paste
from models.synth.tables import TABLE_KINDS, render_table
from models.synth.wagons.card import render_wagons_card
from models.synth.wagons.layout import cell_points, lay_out_town
from models.synth.wagons.look import sample_look
from models.synth.wagons.town import simulate_town
from vision.cells import extract_crops
from vision.lattice import PX_PER_MM
from vision.towns import CONTEXT, CROP_H, CROP_W, ICON_CLASSES, TERRAIN_CLASSES

# Bump when the way crops are made changes, so stale caches are not reused.
DATA_VERSION = 1
KINDS = ("territory", "hole", "ring")
TABLE = TERRAIN_CLASSES.index(".")
NO_ICON = -100  # the icon of a table crop: ignored by the loss
MARGIN_MM = 40.0


@dataclass
class TerritorySet:
    """Crops uint8 (N, H, W, 3), type index (:data:`TERRAIN_CLASSES`, the table last), icon index
    (:data:`ICON_CLASSES`, :data:`NO_ICON` on the table) and the kind of cell (:data:`KINDS`)."""

    crops: np.ndarray
    terrain: np.ndarray
    icon: np.ndarray
    kind: np.ndarray

    def __len__(self) -> int:
        return len(self.crops)


def _labels(token: str) -> tuple[int, int]:
    if token == ".":
        return TABLE, NO_ICON
    terrain, icon = token.split("/")
    return TERRAIN_CLASSES.index(terrain), ICON_CLASSES.index(icon)


def _table(rng: np.random.Generator, w_mm: float, h_mm: float, ppm: float) -> np.ndarray:
    """A table under the town: the photo renderer's kinds or the cell set's wider ones, half each."""
    if rng.random() < 0.5:
        kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
        return render_table(kind, rng, w_mm, h_mm, ppm)
    return table_texture(rng, int(round(h_mm * ppm)), int(round(w_mm * ppm)))


def render_view(seed: int, art_spread: tuple[float, float]) -> tuple[np.ndarray, list, tuple[float, float]]:
    """The clean top-down view of seed's town at :data:`PX_PER_MM` (RGB), its cells (row, col, x px,
    y px, token) in reading order, and the lattice pitch in px."""
    rng = np.random.default_rng([seed, 2929])
    prng = random.Random(seed)
    n_cards = prng.randint(1, 18) if prng.random() < 0.1 else int(np.clip(round(prng.gauss(7, 2.5)), 2, 14))
    play = simulate_town(prng, n_cards, overlap=prng.uniform(0.3, 0.8))
    look = sample_look(seed, float(rng.uniform(*art_spread)))
    layout = lay_out_town(play, rng)
    ppm = PX_PER_MM * float(rng.uniform(1.0, 2.5))  # drawn finer, then shrunk like a photo's pixels
    w_mm = (play.town.n_cols + 1) * layout.pitch[0] + 2 * MARGIN_MM
    h_mm = (play.town.n_rows + 1) * layout.pitch[1] + 2 * MARGIN_MM
    image = _table(rng, w_mm, h_mm, ppm)
    to_px = np.array([[ppm, 0, MARGIN_MM * ppm], [0, ppm, MARGIN_MM * ppm], [0, 0, 1]])
    light = rng.normal(0, 1, 2)
    light = tuple(light / max(float(np.hypot(*light)), 1e-6))
    for i, p in enumerate(play.placements):
        art = render_wagons_card(p.number, look, ppm)
        h = to_px @ layout.pose(i).matrix() @ np.diag([1 / ppm, 1 / ppm, 1.0])
        paste(image, art, h, float(rng.uniform(0.2, 0.5)), float(rng.uniform(0.5, 1.2)) * ppm, light)
    size = (int(round(w_mm * PX_PER_MM)), int(round(h_mm * PX_PER_MM)))
    image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    cells = [
        (r, c, (x + MARGIN_MM) * PX_PER_MM, (y + MARGIN_MM) * PX_PER_MM, token)
        for r, c, x, y, token in cell_points(play, layout)
    ]
    return image, cells, (layout.pitch[0] * PX_PER_MM, layout.pitch[1] * PX_PER_MM)


def render_territories(
    seed: int, variants: int, strength: float = 1.0, art_spread: tuple[float, float] = (1.0, 1.5)
) -> TerritorySet:
    """All crops of one town seed (see the module docstring); deterministic in ``seed``."""
    view, cells, (px, py) = render_view(seed, art_spread)
    rng = np.random.default_rng([seed, 7])
    rows, cols = max(r for r, *_ in cells) + 1, max(c for _, c, *_ in cells) + 1
    ox, oy = MARGIN_MM * PX_PER_MM, MARGIN_MM * PX_PER_MM
    ring = [
        (ox + (c + 0.5) * px, oy + (r + 0.5) * py)
        for r in range(-2, rows + 2)
        for c in range(-2, cols + 2)
        if not (0 <= r < rows and 0 <= c < cols)
    ]
    centres = [(x, y) for _, _, x, y, _ in cells]
    labels = [_labels(token) for *_, token in cells]
    kinds = [1 if token == "." else 0 for *_, token in cells]
    crops, terrain, icon, kind = [], [], [], []
    for _ in range(variants):
        image = photo_effects(rng, view, strength)
        chosen = [p for p in ring if rng.random() < 0.15]  # table stays about a fifth of the set
        pts = centres + chosen
        jitters = [random_jitter(rng, strength) for _ in pts]
        crops.append(
            extract_crops(image, pts, px, py, jitters=jitters, size=(CROP_H, CROP_W), context=CONTEXT)
        )
        terrain += [t for t, _ in labels] + [TABLE] * len(chosen)
        icon += [i for _, i in labels] + [NO_ICON] * len(chosen)
        kind += kinds + [2] * len(chosen)
    return TerritorySet(
        np.concatenate(crops), np.array(terrain, np.int8), np.array(icon, np.int16), np.array(kind, np.int8)
    )


def build(
    seeds: Sequence[int], variants: int, art_spread: tuple[float, float] = (1.0, 1.5), log: bool = True
) -> TerritorySet:
    """Crops of every seed in ``seeds``, concatenated in order."""
    parts = []
    t0 = time.time()
    for k, seed in enumerate(seeds):
        parts.append(render_territories(seed, variants, art_spread=art_spread))
        if log and (k + 1) % 50 == 0:
            print(f"  rendered {k + 1}/{len(seeds)} towns ({time.time() - t0:.0f} s)", flush=True)
    return TerritorySet(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in ("crops", "terrain", "icon", "kind"))
    )


def load_or_build(
    data_dir: Path, name: str, seeds: range, variants: int, art_spread: tuple[float, float] = (1.0, 1.5)
) -> TerritorySet:
    """The crop set for these settings, from the ``data_dir`` cache when present, else built and cached."""
    key = f"{DATA_VERSION}:{seeds.start}:{seeds.stop}:{variants}:{art_spread}:{CROP_H}x{CROP_W}:{CONTEXT}"
    path = data_dir / f"territories_{name}_{hashlib.sha1(key.encode()).hexdigest()[:10]}.npz"
    if path.is_file():
        with np.load(path) as f:
            return TerritorySet(f["crops"], f["terrain"], f["icon"], f["kind"])
    print(f"building {name} crops from {len(seeds)} towns × {variants} looks → {path}", flush=True)
    data = build(seeds, variants, art_spread)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, crops=data.crops, terrain=data.terrain, icon=data.icon, kind=data.kind)
    tmp.replace(path)
    return data
