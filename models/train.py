"""Train the cell classifier from scratch and export it: ``python -m models.train`` (``make model``).

Steps, all driven by one seed so a run is reproducible:

1. Build the crop set (:mod:`models.cellset`): simulate many games, render each city top-down with the
   look-alike art, disturb it like a phone photo, and cut jittered crops of every block, every empty cell
   inside the city and the ring of cells around it. Cached as a uint8 ``.npz`` under ``data/``. With
   ``--photos N``, crops of N whole rendered photos read by the pipeline itself are added
   (:mod:`models.photoset`).
2. Train :class:`models.net.CellNet` with flips (road labels remapped) and per-crop colour jitter on top.
3. Measure it on held-out crops rendered from seeds disjoint from training.
4. Export ``models/cells.onnx``, check onnxruntime gives the same outputs as PyTorch, and write
   ``models/cells.json`` (classes, input size, crop context, normalisation, seeds, held-out accuracy).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.cellset import KINDS, CellSet, concat, load_or_build
from models.export import export_onnx
from models.net import MARKS, ROADS, ZONES, CellNet
from vision.cells import CONTEXT, CROP_H, CROP_W

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE.parent / "data"
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
TRAIN_SEED_BASE = 1_000_000
VALID_SEED_BASE = 9_000_000
PHOTO_SEED_BASE = 70_000_000  # rendered photos read by the pipeline (models.photoset)
EVAL_SEED_BASE = 50_000_000  # the photo benchmark's seeds; never used here


def _canon(road: str) -> str:
    for r in ROADS:
        if set(r) == set(road):
            return r
    raise ValueError(road)


# Road label permutations under a left-right mirror (E<->W) and a top-bottom mirror (N<->S).
HFLIP_ROAD = torch.tensor(
    [0] + [ROADS.index(_canon(r.translate(str.maketrans("EW", "WE")))) for r in ROADS[1:]]
)
VFLIP_ROAD = torch.tensor(
    [0] + [ROADS.index(_canon(r.translate(str.maketrans("NS", "SN")))) for r in ROADS[1:]]
)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    """uint8 (N, H, W, 3) → normalised float32 (N, 3, H, W)."""
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).float().div_(255.0)
    mean = torch.tensor(MEAN).view(1, 3, 1, 1)
    std = torch.tensor(STD).view(1, 3, 1, 1)
    return (x - mean) / std


def augment_batch(
    x: torch.Tensor, zone: torch.Tensor, road: torch.Tensor, gen: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Online augmentation of a normalised batch: mirrors (with road labels remapped), per-crop colour
    gain and offset, and noise. Returns the new batch and road labels (zones do not change)."""
    n = x.shape[0]
    h = torch.rand(n, generator=gen) < 0.5
    v = torch.rand(n, generator=gen) < 0.5
    x = torch.where(h.view(n, 1, 1, 1), x.flip(3), x)
    x = torch.where(v.view(n, 1, 1, 1), x.flip(2), x)
    road = torch.where(h, HFLIP_ROAD[road], road)
    road = torch.where(v, VFLIP_ROAD[road], road)
    # A little extra local colour variation (the image-level cast was applied when the crops were cut).
    gain = 1 + 0.06 * torch.randn(n, 3, 1, 1, generator=gen)
    offset = 0.15 * torch.randn(n, 1, 1, 1, generator=gen)
    x = x * gain + offset
    x = x + 0.05 * torch.rand(n, 1, 1, 1, generator=gen) * torch.randn(x.shape, generator=gen)
    return x, road


def evaluate(model: nn.Module, data: CellSet, batch: int = 512) -> dict[str, float]:
    """Held-out accuracy: zone, road, both, marks (on blocks), per true zone and per cell kind, using the
    runtime's legal-pair decoding."""
    model.eval()
    zp, rp, mp = [], [], []
    with torch.no_grad():
        for s in range(0, len(data.crops), batch):
            z, r, m = model(to_tensor(data.crops[s : s + batch]))
            zp.append(z.softmax(1))
            rp.append(r.softmax(1))
            mp.append(m.argmax(1))
    pz, pr = torch.cat(zp).numpy(), torch.cat(rp).numpy()
    zone_pred, road_pred = decode_legal(pz, pr)
    ok_zone = zone_pred == data.zone
    ok_road = road_pred == data.road
    both = ok_zone & ok_road
    blocks = np.isin(data.zone, [ZONES.index(z) for z in "RCIP"])
    ok_mark = torch.cat(mp).numpy()[blocks] == data.mark[blocks]
    out = {
        "cells": int(len(both)),
        "zone": float(ok_zone.mean()),
        "road": float(ok_road.mean()),
        "both": float(both.mean()),
        "mark_on_blocks": float(ok_mark.mean()) if ok_mark.size else 1.0,
    }
    for zi, name in enumerate(ZONES):
        mask = data.zone == zi
        if mask.any():
            out[f"both_{name}"] = float(both[mask].mean())
    for ki, kind in enumerate(KINDS):
        mask = data.kind == ki
        if mask.any():
            out[f"both_{kind}"] = float(both[mask].mean())
    return out


def decode_legal(pz: np.ndarray, pr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Most probable legal (zone, road) per row: empty, P and W never carry a road (as at run time)."""
    joint = pz[:, :, None] * pr[:, None, :]
    for zi, name in enumerate(ZONES):
        if name in ("empty", "P", "W"):
            joint[:, zi, 1:] = 0
    flat = joint.reshape(len(pz), -1).argmax(1)
    return flat // len(ROADS), flat % len(ROADS)


def train(
    model: CellNet,
    data: CellSet,
    valid: CellSet,
    epochs: int,
    batch: int,
    lr: float,
    seed: int,
    log: bool = True,
) -> list[dict[str, float]]:
    """Train in place with AdamW and a one-cycle schedule; returns per-epoch held-out figures."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (len(data.crops) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps), pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    zones = torch.from_numpy(data.zone.astype(np.int64))
    roads = torch.from_numpy(data.road.astype(np.int64))
    marks = torch.from_numpy(data.mark.astype(np.int64))
    history = []
    for epoch in range(epochs):
        model.train()
        t0 = time.time()
        order = torch.randperm(len(data.crops), generator=gen)
        total = 0.0
        for s in range(0, len(order) - batch + 1, batch):
            idx = order[s : s + batch]
            x = to_tensor(data.crops[idx.numpy()])
            x, road = augment_batch(x, zones[idx], roads[idx], gen)
            z, r, m = model(x)
            loss = loss_fn(z, zones[idx]) + loss_fn(r, road) + loss_fn(m, marks[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        figures = evaluate(model, valid)
        figures.update(epoch=epoch + 1, loss=total / len(order), seconds=time.time() - t0)
        history.append(figures)
        if log:
            print(
                f"epoch {epoch + 1}/{epochs}: loss {figures['loss']:.4f}  held-out both {figures['both']:.4%}"
                f" (zone {figures['zone']:.4%}, road {figures['road']:.4%})  {figures['seconds']:.0f} s",
                flush=True,
            )
    return history


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="master seed (data, init, order)")
    ap.add_argument("--cities", type=int, default=360, help="simulated games rendered for training")
    ap.add_argument("--variants", type=int, default=3, help="photo-like looks of each rendered city")
    ap.add_argument("--valid-cities", type=int, default=40, help="held-out games for the held-out figures")
    ap.add_argument(
        "--photos", type=int, default=400, help="rendered photos read by the pipeline, added to training"
    )
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--threads", type=int, default=int(os.environ.get("SPRAWLSCAN_THREADS", "2")))
    ap.add_argument("--out", type=Path, default=HERE, help="folder for cells.onnx and cells.json")
    ap.add_argument("--data-dir", type=Path, default=DATA_DIR, help="cache folder for the crop sets")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    t_start = time.time()
    train_seeds = range(
        TRAIN_SEED_BASE + args.seed * 10_000, TRAIN_SEED_BASE + args.seed * 10_000 + args.cities
    )
    valid_seeds = range(VALID_SEED_BASE, VALID_SEED_BASE + args.valid_cities)
    data = load_or_build(args.data_dir, "train", train_seeds, args.variants, strength=1.0)
    photo_seeds = range(PHOTO_SEED_BASE, PHOTO_SEED_BASE + args.photos)
    if args.photos:
        from models import photoset

        data = concat([data, photoset.load_or_build(args.data_dir, photo_seeds)])
    valid = load_or_build(args.data_dir, "valid", valid_seeds, 2, strength=1.0)
    t_data = time.time() - t_start
    print(f"crops: {len(data.crops)} train, {len(valid.crops)} held-out ({t_data:.0f} s)", flush=True)
    model = CellNet((CROP_H, CROP_W))
    t0 = time.time()
    history = train(model, data, valid, args.epochs, args.batch, args.lr, args.seed)
    t_train = time.time() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    export_onnx(model, args.out / "cells.onnx", (3, CROP_H, CROP_W), "crops", ("zone", "road", "mark"))
    meta = {
        "zones": list(ZONES),
        "roads": list(ROADS),
        "marks": list(MARKS),
        "input_size": [CROP_H, CROP_W],
        "input_layout": "NCHW float32, RGB, (x / 255 - mean) / std",
        "context": CONTEXT,
        "white_balance": "city whites",
        "normalisation": {"mean": list(MEAN), "std": list(STD)},
        "training": {
            "seed": args.seed,
            "train_play_seeds": [train_seeds.start, train_seeds.stop],
            "valid_play_seeds": [valid_seeds.start, valid_seeds.stop],
            "variants_per_city": args.variants,
            "train_photo_seeds": [photo_seeds.start, photo_seeds.stop],
            "train_crops": int(len(data.crops)),
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "threads": args.threads,
            "data_seconds": round(t_data, 1),
            "train_seconds": round(t_train, 1),
            "torch": torch.__version__,
        },
        "held_out": history[-1],
        "parameters": sum(p.numel() for p in model.parameters()),
    }
    (args.out / "cells.json").write_text(json.dumps(meta, indent=2) + "\n")
    size = (args.out / "cells.onnx").stat().st_size
    print(
        f"wrote {args.out / 'cells.onnx'} ({size / 1024:.0f} KiB) and cells.json"
        f" in {time.time() - t_start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
