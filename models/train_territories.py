"""Train the Circle the Wagons territory classifier and export it: ``python -m models.train_territories``.

1. Build the crop sets (:mod:`models.territoryset`): random towns in look-alike art drawn ``art_spread``
   1–1.5 wide, seen top-down like a phone photo, jittered crops of every cell and of the ring around the
   town; the held-out set from other seeds with the art drawn wider (spread 2). Cached under ``data/``.
2. Train a small CNN (the cell classifier's stages, :func:`models.net.trunk`) with two heads, territory
   type (or table) and icon, with 180° turns, mirrors and per-crop colour jitter on top.
3. Export ``models/territories.onnx``, check onnxruntime against PyTorch, measure the held-out set through
   the runtime reader itself (:class:`vision.towns.territories.TerritoryClassifier`) and write
   ``models/territories.json`` (classes, input size, context, normalisation, seeds, held-out figures).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.export import export_onnx
from models.net import trunk
from models.territoryset import KINDS, NO_ICON, TABLE, TerritorySet, load_or_build
from models.train import seed_everything
from vision.towns import CONTEXT, CROP_H, CROP_W, ICON_CLASSES, TERRAIN_CLASSES

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE.parent / "data"
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
TRAIN_SEED_BASE = 3_000_000
VALID_SEED_BASE = 8_000_000
TRAIN_SPREAD = (1.0, 1.5)
VALID_SPREAD = (2.0, 2.0)


class TerritoryNet(nn.Module):
    """Input float32 (N, 3, 64, 48) normalised crops; output logits: type (N, 7: D F M P S W, table) and
    icon (N, 6). The cell classifier's plan: four conv stages, a fully connected layer over the 8 × 6 map
    (where the icon sits against the rim matters), two heads."""

    def __init__(
        self, input_size: tuple[int, int] = (CROP_H, CROP_W), widths: tuple[int, ...] = (12, 24, 40, 64)
    ):
        super().__init__()
        self.features, self.hidden = trunk(input_size, widths)
        self.terrain = nn.Linear(96, len(TERRAIN_CLASSES))
        self.icon = nn.Linear(96, len(ICON_CLASSES))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.hidden(self.features(x))
        return self.terrain(h), self.icon(h)


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    """uint8 (N, H, W, 3) → normalised float32 (N, 3, H, W)."""
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).float().div_(255.0)
    return (x - torch.tensor(MEAN).view(1, 3, 1, 1)) / torch.tensor(STD).view(1, 3, 1, 1)


_TO_YIQ = torch.tensor([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]])
_FROM_YIQ = torch.linalg.inv(_TO_YIQ)


def augment_batch(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Turns by 180° (a card lying turned), left-right mirrors (the icons are drawn either way), per-crop
    hue turn, chroma, gain and offset, and noise; no label changes."""
    n = x.shape[0]
    turn = (torch.rand(n, generator=gen) < 0.5).view(n, 1, 1, 1)
    x = torch.where(turn, x.flip(2, 3), x)
    mirror = (torch.rand(n, generator=gen) < 0.5).view(n, 1, 1, 1)
    x = torch.where(mirror, x.flip(3), x)
    # A hue turn and chroma gain per crop (about the grey axis, in YIQ): prints differ in hue by type more
    # than the renders drawn for training (the held-out art is drawn wider), so colour alone must not decide.
    theta = torch.deg2rad(10.0 * torch.randn(n, generator=gen))
    chroma = torch.exp(0.15 * torch.randn(n, generator=gen))
    cos, sin = torch.cos(theta) * chroma, torch.sin(theta) * chroma
    hue = torch.zeros(n, 3, 3)
    hue[:, 0, 0] = 1
    hue[:, 1, 1], hue[:, 1, 2], hue[:, 2, 1], hue[:, 2, 2] = cos, -sin, sin, cos
    x = torch.einsum("nij,njhw->nihw", _FROM_YIQ @ hue @ _TO_YIQ, x)
    gain = 1 + 0.08 * torch.randn(n, 3, 1, 1, generator=gen)
    offset = 0.15 * torch.randn(n, 1, 1, 1, generator=gen)
    x = x * gain + offset
    return x + 0.05 * torch.rand(n, 1, 1, 1, generator=gen) * torch.randn(x.shape, generator=gen)


def figures(probs: np.ndarray, data: TerritorySet) -> dict[str, float]:
    """Held-out figures from (N, 37) distributions over ``vision.towns.LABELS``: on territories the type,
    the icon and both right (the most probable label); table vs territory on every crop; per true type."""
    best = probs.argmax(1)
    n_icons = len(ICON_CLASSES)
    is_table = data.terrain == TABLE
    said_table = best == probs.shape[1] - 1
    terr = ~is_table
    type_ok = (best // n_icons == data.terrain) & ~said_table
    icon_ok = (best % n_icons == data.icon) & ~said_table
    out = {
        "crops": int(len(best)),
        "territories": int(terr.sum()),
        "territory": float((type_ok & icon_ok)[terr].mean()),
        "type": float(type_ok[terr].mean()),
        "icon": float(icon_ok[terr].mean()),
        "table_vs_territory": float((said_table == is_table).mean()),
        "table_read_table": float(said_table[is_table].mean()) if is_table.any() else 1.0,
    }
    for ti, name in enumerate(TERRAIN_CLASSES[:-1]):
        mask = data.terrain == ti
        if mask.any():
            out[f"territory_{name}"] = float((type_ok & icon_ok)[mask].mean())
    for ki, kind in enumerate(KINDS):
        mask = data.kind == ki
        if mask.any():
            out[f"right_{kind}"] = float(np.where(is_table, said_table, type_ok & icon_ok)[mask].mean())
    return out


def torch_probabilities(model: nn.Module, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    """(N, 37) as the runtime combines the heads, without its 180° average (quick per-epoch figures)."""
    model.eval()
    parts = []
    with torch.no_grad():
        for s in range(0, len(crops), batch):
            t, i = model(to_tensor(crops[s : s + batch]))
            pt, pi = t.softmax(1), i.softmax(1)
            terr = (pt[:, :-1, None] * pi[:, None, :]).flatten(1)
            parts.append(torch.cat([terr, pt[:, -1:]], 1).numpy())
    return np.concatenate(parts)


def _epoch_order(data: TerritorySet, gen: torch.Generator, table_share: float = 0.35) -> torch.Tensor:
    """A shuffled epoch of every territory crop and a random third of the table crops: the table is easy
    (held-out 100 % after one epoch) and is two fifths of the set, so the time goes to the territories."""
    table = torch.from_numpy(data.terrain == TABLE)
    keep = ~table | (torch.rand(len(table), generator=gen) < table_share)
    idx = torch.nonzero(keep).flatten()
    return idx[torch.randperm(len(idx), generator=gen)]


def train(
    model: TerritoryNet,
    data: TerritorySet,
    valid: TerritorySet,
    epochs: int,
    batch: int,
    lr: float,
    seed: int,
) -> list[dict[str, float]]:
    """Train in place with AdamW and a one-cycle schedule; returns per-epoch held-out figures."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    # An epoch's length varies a little with the table crops drawn: room for two batches more each.
    steps = epochs * (len(_epoch_order(data, torch.Generator().manual_seed(seed))) // batch + 2)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps), pct_start=0.15)
    type_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    icon_loss = nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=NO_ICON)
    terrains = torch.from_numpy(data.terrain.astype(np.int64))
    icons = torch.from_numpy(data.icon.astype(np.int64))
    history = []
    for epoch in range(epochs):
        model.train()
        t0 = time.time()
        order = _epoch_order(data, gen)
        total = 0.0
        for s in range(0, len(order) - batch + 1, batch):
            idx = order[s : s + batch]
            x = augment_batch(to_tensor(data.crops[idx.numpy()]), gen)
            t, i = model(x)
            loss = type_loss(t, terrains[idx]) + icon_loss(i, icons[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        fig = figures(torch_probabilities(model, valid.crops), valid)
        fig.update(epoch=epoch + 1, loss=total / len(order), seconds=time.time() - t0)
        history.append(fig)
        print(
            f"epoch {epoch + 1}/{epochs}: loss {fig['loss']:.4f}  held-out territory {fig['territory']:.4%}"
            f" (type {fig['type']:.4%}, icon {fig['icon']:.4%}, table {fig['table_vs_territory']:.4%})"
            f"  {fig['seconds']:.0f} s",
            flush=True,
        )
    return history


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m models.train_territories", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--seed", type=int, default=0, help="master seed (init, order)")
    ap.add_argument("--towns", type=int, default=400, help="rendered towns for training")
    ap.add_argument("--variants", type=int, default=3, help="photo-like looks of each town")
    ap.add_argument("--valid-towns", type=int, default=60)
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=HERE, help="folder for territories.onnx and .json")
    ap.add_argument("--data-dir", type=Path, default=DATA_DIR)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    t_start = time.time()
    train_seeds = range(TRAIN_SEED_BASE, TRAIN_SEED_BASE + args.towns)
    valid_seeds = range(VALID_SEED_BASE, VALID_SEED_BASE + args.valid_towns)
    valid = load_or_build(args.data_dir, "valid", valid_seeds, 1, VALID_SPREAD)
    data = load_or_build(args.data_dir, "train", train_seeds, args.variants, TRAIN_SPREAD)
    t_data = time.time() - t_start
    print(f"crops: {len(data)} train, {len(valid)} held-out ({t_data:.0f} s)", flush=True)
    model = TerritoryNet()
    t0 = time.time()
    history = train(model, data, valid, args.epochs, args.batch, args.lr, args.seed)
    t_train = time.time() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    onnx_path, meta_path = args.out / "territories.onnx", args.out / "territories.json"
    export_onnx(model, onnx_path, (3, CROP_H, CROP_W), "crops", ("terrain", "icon"))
    meta = {
        "terrains": list(TERRAIN_CLASSES),
        "icons": list(ICON_CLASSES),
        "input_size": [CROP_H, CROP_W],
        "input_layout": "NCHW float32, RGB, (x / 255 - mean) / std",
        "context": CONTEXT,
        "white_balance": "none",
        "normalisation": {"mean": list(MEAN), "std": list(STD)},
        "training": {
            "seed": args.seed,
            "train_town_seeds": [train_seeds.start, train_seeds.stop],
            "train_art_spread": list(TRAIN_SPREAD),
            "variants_per_town": args.variants,
            "train_crops": int(len(data)),
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "threads": args.threads,
            "data_seconds": round(t_data, 1),
            "train_seconds": round(t_train, 1),
            "torch": torch.__version__,
        },
        "last_epoch": history[-1],
        "parameters": sum(p.numel() for p in model.parameters()),
    }
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    # The held-out figures through the runtime reader itself (onnxruntime, both ways round).
    from vision.towns import TerritoryClassifier

    clf = TerritoryClassifier(onnx_path, meta_path, threads=args.threads)
    meta["held_out"] = {
        "town_seeds": [valid_seeds.start, valid_seeds.stop],
        "art_spread": list(VALID_SPREAD),
        **figures(clf.probabilities(valid.crops), valid),
    }
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"held-out (runtime): {json.dumps(meta['held_out'])}")
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KiB) in {time.time() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
