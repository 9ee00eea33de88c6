"""The cell classifier network (PyTorch; training only — the runtime uses the exported ONNX graph).

A small plain CNN: four 3×3 conv stages (BatchNorm, ReLU, 2×2 max-pool after the first three) on a
normalised 40×56 RGB crop, then a fully connected layer over the 5×7 feature map — not a global average,
because *where* the asphalt leaves the block (which sides) is exactly what the road head must tell — and two
heads: zone (empty, R, C, I, P) and road (none, NS, NE, NW, SE, SW, EW).
"""

from __future__ import annotations

import torch
from torch import nn

from vision.cells import MARKS
from vision.cells import ROADS_WITH_NONE as ROADS
from vision.cells import ZONES_WITH_EMPTY as ZONES

__all__ = ["MARKS", "ROADS", "ZONES", "CellNet", "trunk"]


def _stage(c_in: int, c_out: int, pool: bool) -> list[nn.Module]:
    layers: list[nn.Module] = [
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    ]
    if pool:
        layers.append(nn.MaxPool2d(2))
    return layers


def trunk(
    input_size: tuple[int, int], widths: tuple[int, ...], hidden: int = 96
) -> tuple[nn.Sequential, nn.Sequential]:
    """The conv stages (each halving the map but the last) and the fully connected layer over their map
    that every classifier here puts its heads on: ``(features, hidden)``."""
    layers: list[nn.Module] = []
    c_in = 3
    for i, c_out in enumerate(widths):
        layers += _stage(c_in, c_out, pool=i < len(widths) - 1)
        c_in = c_out
    fh, fw = input_size[0] >> (len(widths) - 1), input_size[1] >> (len(widths) - 1)
    flat = nn.Sequential(
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(c_in * fh * fw, hidden), nn.ReLU(inplace=True)
    )
    return nn.Sequential(*layers), flat


class CellNet(nn.Module):
    """Input float32 (N, 3, H, W) normalised crops; output logits: zone (N, 6), road (N, 7), mark (N, 3)."""

    def __init__(self, input_size: tuple[int, int] = (40, 56), widths: tuple[int, ...] = (16, 32, 48, 64)):
        super().__init__()
        self.features, self.hidden = trunk(input_size, widths)
        self.zone = nn.Linear(96, len(ZONES))
        self.road = nn.Linear(96, len(ROADS))
        self.mark = nn.Linear(96, len(MARKS))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.hidden(self.features(x))
        return self.zone(h), self.road(h), self.mark(h)
