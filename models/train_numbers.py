"""Train the scoring-card number classifier from scratch and export it: ``python -m models.train_numbers``.

1. Render training and held-out patches with :mod:`models.numberset` (every installed bold sans face and
   the Hershey stroke fonts, heavy photo augmentation; different seeds for the two sets).
2. Train :class:`NumberNet` (a ~90k-parameter CNN on 32×32 grey patches, 19 classes: "no upright number"
   and 1–18) with AdamW and a cosine schedule.
3. Export ``models/numbers.onnx`` (checked against PyTorch through onnxruntime) and ``models/numbers.json``,
   and print held-out accuracy overall and per font.

``--hold-out-font NAME`` leaves one font out of training and reports accuracy on it alone: how well the
model reads a typeface it has never seen, which is the situation on real cards. Its model is written
only with an explicit ``--out`` folder (never over the shipped one).
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
from models.numberset import UNSEEN_FONT, font_names, make_set
from vision.backs import N_CLASSES, NUMBERS, PATCH, REACH, normalise

HERE = Path(__file__).resolve().parent


class NumberNet(nn.Module):
    """Input float32 (N, 1, 32, 32) normalised patches; output logits (N, 19)."""

    def __init__(self, widths: tuple[int, int, int] = (16, 32, 64)):
        super().__init__()
        layers: list[nn.Module] = []
        c_in = 1
        for c_out in widths:
            layers += [
                nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
                nn.BatchNorm2d(c_out),
                nn.ReLU(inplace=True),
                nn.MaxPool2d(2),
            ]
            c_in = c_out
        self.features = nn.Sequential(*layers)
        # 4×4 map kept whole: where the strokes are (left digit, right digit) matters.
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.25),
            nn.Linear(c_in * 16, 64),
            nn.ReLU(inplace=True),
            nn.Linear(64, N_CLASSES),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def _augment(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Cheap per-batch jitter on top of the rendered variety: a pixel of shift and contrast/offset noise."""
    dx, dy = (int(v) for v in torch.randint(-1, 2, (2,), generator=gen))
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    gain = 1 + 0.15 * torch.randn(x.shape[0], 1, 1, 1, generator=gen)
    return x * gain + 0.1 * torch.randn(x.shape[0], 1, 1, 1, generator=gen)


def train(
    patches: np.ndarray,
    labels: np.ndarray,
    epochs: int,
    batch: int,
    seed: int,
    widths: tuple[int, int, int] = (16, 32, 64),
    log: bool = True,
) -> NumberNet:
    """Train a fresh :class:`NumberNet` on uint8 patches (N, 32, 32) and labels (N,) in 0..18."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    x_all = torch.from_numpy(normalise(patches))
    y_all = torch.from_numpy(labels)
    model = NumberNet(widths)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * ((len(x_all) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x_all), generator=gen)
        total, t0 = 0.0, time.perf_counter()
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            loss = loss_fn(model(_augment(x_all[idx], gen)), y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        if log:
            took = time.perf_counter() - t0
            print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x_all):.4f} ({took:.0f} s)", flush=True)
    model.eval()
    return model


def predict(model: NumberNet, patches: np.ndarray) -> np.ndarray:
    """Predicted classes (N,) for uint8 patches."""
    with torch.no_grad():
        return model(torch.from_numpy(normalise(patches))).argmax(dim=1).numpy()


def report(
    model: NumberNet, patches: np.ndarray, labels: np.ndarray, fonts: np.ndarray, names: list[str]
) -> dict:
    """Held-out figures: accuracy overall, on number patches only, on class-0 patches, and per font."""
    pred = predict(model, patches)
    right = pred == labels
    numbers = labels > 0
    out = {
        "samples": int(len(labels)),
        "accuracy": float(right.mean()),
        "number_accuracy": float(right[numbers].mean()),
        "none_accuracy": float(right[~numbers].mean()),
        "per_font": {names[k]: float(right[fonts == k].mean()) for k in np.unique(fonts)},
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train_numbers", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="master seed (data, init, order)")
    ap.add_argument("--samples", type=int, default=48000, help="training patches rendered")
    ap.add_argument("--valid", type=int, default=4500, help="held-out patches rendered")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--widths", type=int, nargs=3, default=[16, 32, 64], help="channels of the conv stages")
    ap.add_argument("--hold-out-font", default=None, help="train without this font and test on it alone")
    ap.add_argument("--out", type=Path, default=HERE, help="folder for numbers.onnx and numbers.json")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # on a shared 2-core machine one thread is several times faster

    names = font_names()
    if args.hold_out_font is not None and args.hold_out_font not in names:
        ap.error(f"--hold-out-font must be one of {', '.join(names)}, got {args.hold_out_font!r}")
    train_fonts = [f for f in names if f != args.hold_out_font]
    valid_fonts = [args.hold_out_font] if args.hold_out_font else names
    t0 = time.perf_counter()
    x, y, _ = make_set(args.seed * 2 + 1, args.samples, train_fonts)
    vx, vy, vf = make_set(args.seed * 2 + 2, args.valid, valid_fonts)
    print(
        f"rendered {len(x)} training and {len(vx)} held-out patches in {time.perf_counter() - t0:.0f} s",
        flush=True,
    )

    model = train(x, y, args.epochs, args.batch, args.seed, tuple(args.widths))
    figures = report(model, vx, vy, vf, valid_fonts)
    # A face outside the training list altogether: how well a new typeface (the real cards') is read.
    ux, uy, uf = make_set(args.seed * 2 + 3, args.valid // 4, [UNSEEN_FONT])
    figures["unseen_font"] = report(model, ux, uy, uf, [UNSEEN_FONT])
    print(json.dumps(figures, indent=1))
    if args.hold_out_font and args.out == HERE:
        return 0  # an experiment never replaces the shipped model; give --out to keep its model

    args.out.mkdir(parents=True, exist_ok=True)
    export_onnx(model, args.out / "numbers.onnx", (1, PATCH, PATCH), "patches", ("logits",))
    meta = {
        "patch": PATCH,
        "reach": REACH,
        "classes": [0, *NUMBERS],
        "fonts": names,
        "training": {k: getattr(args, k) for k in ("seed", "samples", "epochs", "batch", "widths")},
        "held_out": figures,
    }
    (args.out / "numbers.json").write_text(json.dumps(meta, indent=1) + "\n")
    size = (args.out / "numbers.onnx").stat().st_size
    print(f"wrote {args.out / 'numbers.onnx'} ({size / 1024:.0f} KiB) and numbers.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
