"""Contact sheet of simulated photos beside their truth, for people to look at.

``python -m models.synth.sheet --out out/synth-sheet.png [--count 8] [--seed 0] [--long-side 1600]``
renders ``count`` photos and writes one PNG: each photo (with the truth's card outlines in red, scoring
cards in green and cell centres as dots) beside the truth city drawn as a grid of zone-coloured cells
with their roads, and a caption of the conditions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from models.synth import palette as pal
from models.synth.blocks import BLOCK_H, BLOCK_W, road_path
from models.synth.draw import Pen
from models.synth.scene import SynthPhoto, render_photo
from scoring.city import City
from scoring.city_text import parse_city

_THUMB = 520  # thumbnail height in px
_DOT = {"R": (230, 120, 40), "C": (40, 110, 230), "I": (120, 120, 120), "P": (40, 190, 60)}


def draw_city(city: City, cell_px: float = 26.0) -> np.ndarray:
    """The truth grid as an RGB image: a cell per lattice cell (blocks 1.4 : 1), zone ground colours, road
    segments, ``W`` Wrecktar cells, yellow frame for the POI block, an orange corner for construction."""
    s = cell_px / BLOCK_H  # px per mm
    w, h = int(city.n_cols * BLOCK_W * s) + 2, int(city.n_rows * BLOCK_H * s) + 2
    img = np.full((h, w, 3), 255, np.uint8)
    for r, c, cell in city.cells():
        pen = Pen(img, s, (c * BLOCK_W, r * BLOCK_H))
        if cell.kind == "wrecktar":
            pen.rect(0, 0, BLOCK_W, BLOCK_H, (92, 46, 70), pal.OUTLINE, 1.0)
            continue
        if not cell.is_block:
            pen.rect(0, 0, BLOCK_W, BLOCK_H, None, (220, 220, 220), 0.6)
            continue
        pen.rect(0, 0, BLOCK_W, BLOCK_H, pal.GROUND[cell.zone or "R"], pal.OUTLINE, 0.8)
        if cell.road:
            pen.path(road_path(cell.road, 1.0), pal.ASPHALT, 6.0)
            pen.path(road_path(cell.road, 1.0), pal.DASH, 0.8)
        if cell.poi:
            pen.rect(2, 2, BLOCK_W - 4, BLOCK_H - 4, None, pal.POI_FRAME, 3.0)
        if cell.construction:
            pen.poly([(0, 0), (12, 0), (0, 12)], pal.HAZARD)
    return img


def _overlay(photo: SynthPhoto) -> np.ndarray:
    img = photo.image
    scale = _THUMB / img.shape[0]
    thumb = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    for card in photo.truth.cards:
        cv2.polylines(
            thumb, [np.int32(np.float64(card.corners) * scale)], True, (230, 30, 30), 1, cv2.LINE_AA
        )
    for sc in photo.truth.scoring_cards:
        if sc.in_photo:
            cv2.polylines(
                thumb, [np.int32(np.float64(sc.corners) * scale)], True, (30, 200, 30), 2, cv2.LINE_AA
            )
    for _row, _col, x, y, token in photo.truth.cells:
        color = _DOT.get(token[0], (255, 255, 255)) if token != "." else (255, 255, 255)
        cv2.circle(thumb, (int(x * scale), int(y * scale)), 3, color, -1, cv2.LINE_AA)
        cv2.circle(thumb, (int(x * scale), int(y * scale)), 3, (0, 0, 0), 1, cv2.LINE_AA)
    return thumb


def _panel(photo: SynthPhoto) -> np.ndarray:
    """Photo thumbnail | truth grid, over a caption, on white."""
    thumb = _overlay(photo)
    city = parse_city(photo.truth.city)
    grid = draw_city(city)
    gscale = min(1.0, (_THUMB - 60) / grid.shape[0], 460 / grid.shape[1])
    grid = cv2.resize(grid, None, fx=gscale, fy=gscale, interpolation=cv2.INTER_AREA)
    width = thumb.shape[1] + 20 + max(grid.shape[1], 300)
    panel = np.full((_THUMB + 64, width, 3), 255, np.uint8)
    panel[: thumb.shape[0], : thumb.shape[1]] = thumb
    x0 = thumb.shape[1] + 20
    panel[30 : 30 + grid.shape[0], x0 : x0 + grid.shape[1]] = grid
    c = photo.conditions
    cards = " ".join(map(str, city.cards))
    lines = [
        f"seed {photo.truth.seed}: cards {cards}; {c.table} table, tilt {c.tilt:.0f}, roll {c.roll:.0f}",
        f"blur {c.blur:.1f}, glare {c.glare:.1f}, noise {c.noise:.1f}, light {c.light:.2f}, "
        f"EXIF {c.exif_orientation}{', partial' if c.partial else ''}",
    ]
    cv2.putText(
        panel,
        f"truth: {city.n_rows} x {city.n_cols}, {sum(1 for _ in city.blocks())} blocks",
        (x0, 20),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.5,
        (0, 0, 0),
        1,
        cv2.LINE_AA,
    )
    for k, text in enumerate(lines):
        cv2.putText(
            panel, text, (4, _THUMB + 24 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA
        )
    return panel


def contact_sheet(count: int, seed: int, long_side: int = 1600, per_row: int = 2) -> np.ndarray:
    """An RGB contact sheet of photos ``seed .. seed+count-1`` (rendered at ``long_side`` px)."""
    panels = [_panel(render_photo(seed + k, long_side=long_side)) for k in range(count)]
    width = max(p.shape[1] for p in panels)
    rows = []
    for k in range(0, len(panels), per_row):
        group = [
            np.pad(p, ((0, 0), (0, width - p.shape[1]), (0, 0)), constant_values=255)
            for p in panels[k : k + per_row]
        ]
        group += [np.full_like(group[0], 255)] * (per_row - len(group))
        rows.append(np.hstack([np.pad(g, ((10, 10), (10, 10), (0, 0)), constant_values=255) for g in group]))
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.synth.sheet", description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--count", type=int, default=8, help="number of photos (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first photo (default 0)")
    parser.add_argument(
        "--long-side", type=int, default=1600, help="render size of each photo (default 1600)"
    )
    args = parser.parse_args(argv)
    if args.count < 1 or args.seed < 0 or args.long_side < 64:
        parser.error("--count must be ≥ 1, --seed ≥ 0 and --long-side ≥ 64")
    sheet = contact_sheet(args.count, args.seed, args.long_side)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR)):
        print(f"could not write {out} (is it a .png path?)", file=sys.stderr)
        return 2
    print(f"wrote {out} ({args.count} photos, {sheet.shape[1]}x{sheet.shape[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
