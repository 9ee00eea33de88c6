"""Labelled cell crops cut from rendered photos exactly as the scanner cuts them (extra training data).

The top-down crops of :mod:`models.cellset` imitate a photo; these are the real thing for our renderer:
a whole 12 MP photo (:func:`models.synth.scene.render_photo`), decoded, located, rectified and fitted by
the pipeline itself (:func:`vision.city.arbitrate.read_geometry`), white-balanced and cut by the run-time
code, so they carry every artefact of the pipeline (resampling, JPEG, a lattice a few mm off). Each lattice
cell takes the label of the true cell whose centre lies within a third of a block of its own; a cell farther
than that from every true cell is table ("empty"); one in between is left out, as no label would be honest
for a crop of two half blocks. The pipeline judges doubtful lattices with the shipped cell model when
there is one, so these crops are cut with it; without one, from the first lattice hypothesis.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from models.cellset import CellSet, cache_path, cached, cell_labels, concat
from scoring.city_text import parse_city
from vision.cells import CONTEXT, CROP_H, CROP_W, balance_whites, lattice_box, lattice_crops

if TYPE_CHECKING:
    from models.synth.scene import SynthPhoto

NEAR = 1 / 3  # of a block's height: a lattice cell this close to a true cell's centre shows that cell
FAR = 2 / 3  # of a block's height: farther than this from every true cell, the cell shows table


def _labels(token: str, turned: bool) -> tuple[int, int, int]:
    cell = parse_city(token + "\n").grid[0][0]
    return cell_labels(cell.rotated() if turned else cell)


def training_photo(seed: int) -> SynthPhoto:
    """Rendered photo ``seed`` whose city holds expansion marks more often than a photo's own conditions
    would (a Point of Interest in 40 % of them, construction zones in 80 %): they are rare and small, and
    the model needs many to learn them."""
    from models.synth.scene import render_photo

    marks = random.Random(seed)
    return render_photo(seed, poi=marks.random() < 0.4, construction=marks.choice([0, 1, 2, 3, 3]))


def photo_cells(seed: int) -> CellSet:
    """The labelled crops of :func:`training_photo` ``seed`` (empty when the pipeline finds no city)."""
    from vision.city import read_geometry
    from vision.lattice import NoCityFound, project_points
    from vision.photo import decode_image
    from vision.pipeline import WORK_LONG_SIDE, shipped_classifier

    photo = training_photo(seed)
    truth = photo.truth
    rgb = decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb
    none = np.zeros(0, np.uint8)
    empty = CellSet(np.zeros((0, CROP_H, CROP_W, 3), np.uint8), none, none, none, none)
    try:
        geometry = read_geometry(rgb, shipped_classifier()).geometry
    except NoCityFound:
        return empty
    lattice = geometry.lattice
    points = np.array([(x, y) for _, _, x, y, _ in truth.cells]) * (rgb.shape[1] / truth.width)
    keys = [(r, c) for r, c, *_ in truth.cells]
    tokens = [tok for *_, tok in truth.cells]
    to_photo = np.linalg.inv(geometry.to_rectified)
    grid = np.array([[lattice.center(r, c) for c in range(lattice.cols)] for r in range(lattice.rows)])
    mapped = project_points(to_photo, grid.reshape(-1, 2))
    # A block's height in photo pixels, from neighbouring true cells along a row (width / 1.4).
    index = {k: i for i, k in enumerate(keys)}
    steps = [
        np.hypot(*(points[i] - points[index[r, c + 1]])) for (r, c), i in index.items() if (r, c + 1) in index
    ]
    height = float(np.median(steps)) / 1.4 if steps else 0.0
    if height <= 0:
        return empty
    nearest, distance = [], []
    for xy in mapped:
        d = np.hypot(*(points - xy).T)
        nearest.append(int(np.argmin(d)))
        distance.append(float(d.min()) / height)
    # The lattice may run the other way round from the truth's grid (a city turned by 180°).
    col_steps = [
        keys[nearest[i + 1]][1] - keys[nearest[i]][1]
        for i in range(len(nearest) - 1)
        if (i + 1) % lattice.cols and distance[i] < NEAR and distance[i + 1] < NEAR
    ]
    turned = sum(col_steps) < 0
    crops = lattice_crops(
        balance_whites(geometry.rectified, lattice_box(lattice)),
        lattice,
        size=(CROP_H, CROP_W),
        context=CONTEXT,
    )
    visible = geometry.visible.ravel()
    keep, labels = [], []
    for i, (k, d) in enumerate(zip(nearest, distance, strict=True)):
        if not visible[i] or NEAR <= d < FAR:
            continue
        keep.append(i)
        labels.append(_labels(tokens[k], turned) if d < NEAR else (0, 0, 0))
    if not keep:
        return empty
    z, r, m = (np.array(v, np.uint8) for v in zip(*labels, strict=True))
    on_grid = np.array([distance[i] < NEAR and tokens[nearest[i]] == "." for i in keep])
    kind = np.where(z == 0, np.where(on_grid, 1, 2), 0).astype(np.uint8)  # block, hole or ring
    return CellSet(crops[keep], z, r, m, kind)


def _single_thread() -> None:
    os.environ["SPRAWLSCAN_THREADS"] = "1"  # one process per core: onnxruntime threads would contend


def build(seeds: Sequence[int], workers: int = 2, log: bool = True) -> CellSet:
    """The crops of every photo in ``seeds``, concatenated in seed order (``workers`` processes)."""
    parts, t0 = [], time.time()
    with ProcessPoolExecutor(max_workers=workers, initializer=_single_thread) as pool:
        for n, part in enumerate(pool.map(photo_cells, seeds, chunksize=4), 1):
            parts.append(part)
            if log and (n % 50 == 0 or n == len(seeds)):
                print(f"  read {n}/{len(seeds)} photos ({time.time() - t0:.0f} s)", flush=True)
    return concat(parts)


def load_or_build(data_dir: Path, seeds: range) -> CellSet:
    """:func:`build` for ``seeds``, cached as an .npz under ``data_dir``. The cache key is the crop
    format's (:func:`models.cellset.cache_path`); delete the file after changing the pipeline."""
    path = cache_path(data_dir, "photos", seeds, 1, 1.0)
    return cached(path, lambda: build(seeds), f"building crops from {len(seeds)} rendered photos → {path}")
