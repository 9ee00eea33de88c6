"""Where the cards of a town lie on the table: snapped to the territory lattice by hand.

The lattice cell (r, c) nominally spans ``[c * px, (c + 1) * px] × [r * py, (r + 1) * py]`` table mm, the
pitch (px, py) being a territory plus half the gap hands leave between cards. Each card is shifted by a few
mm and turned by a degree or two about its centre, and turned by 180° more when it lies turned (its icons
upside down).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.synth.art import CardPose
from models.synth.wagons.card import CARD_H, CARD_W, TERR_H, TERR_W
from models.synth.wagons.town import TownPlay


def _turn(angle: float) -> np.ndarray:
    t = np.deg2rad(angle)
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


@dataclass(frozen=True)
class TownLayout:
    """Per card (play order) its centre in table mm and its hand turn in degrees (not counting the 180° of
    a turned card); the lattice ``pitch`` in mm; ``rotated`` per card."""

    centres: tuple[tuple[float, float], ...]
    turns: tuple[float, ...]
    rotated: tuple[bool, ...]
    pitch: tuple[float, float]

    def pose(self, i: int) -> CardPose:
        """The pose of card ``i``'s unturned art (card-local mm → table mm)."""
        angle = self.turns[i] + (180.0 if self.rotated[i] else 0.0)
        x, y = np.asarray(self.centres[i]) - _turn(angle) @ np.array([CARD_W / 2, CARD_H / 2])
        return CardPose(float(x), float(y), angle)

    def corners_mm(self, i: int) -> np.ndarray:
        """4×2 table mm of card ``i``'s corners as it lies in the lattice: TL, TR, BR, BL."""
        half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [CARD_W / 2, CARD_H / 2]
        return np.asarray(self.centres[i]) + half @ _turn(self.turns[i]).T

    def territory_mm(self, i: int, dr: int, dc: int) -> tuple[float, float]:
        """Table mm of the centre of the territory card ``i`` shows at lattice offset (dr, dc)."""
        off = _turn(self.turns[i]) @ np.array([(dc - 0.5) * TERR_W, (dr - 0.5) * TERR_H])
        return float(self.centres[i][0] + off[0]), float(self.centres[i][1] + off[1])


def lay_out_town(
    play: TownPlay,
    rng: np.random.Generator,
    *,
    max_shift: float = 3.0,
    max_turn: float = 2.0,
    gap: tuple[float, float] = (0.2, 1.6),
) -> TownLayout:
    """Hand-placement jitter as for a city (``models.synth.art.lay_out``): shifts up to ``max_shift`` mm,
    turns up to ``max_turn`` degrees, a lattice leaving a gap of ``gap`` mm between cards."""
    g = float(rng.uniform(*gap))
    pitch = (TERR_W + g / 2, TERR_H + g / 2 * float(rng.uniform(0.6, 1.4)))
    centres, turns = [], []
    for p in play.placements:
        dx, dy = np.clip(rng.normal(0, max_shift / 2.5, 2), -max_shift, max_shift)
        turns.append(float(np.clip(rng.normal(0, max_turn / 2.5), -max_turn, max_turn)))
        centres.append((float((p.col + 1) * pitch[0] + dx), float((p.row + 1) * pitch[1] + dy)))
    return TownLayout(tuple(centres), tuple(turns), tuple(p.rotated for p in play.placements), pitch)


def cell_points(play: TownPlay, layout: TownLayout) -> list[tuple[int, int, float, float, str]]:
    """Every grid cell in reading order: (row, col, x mm, y mm, token), the centre of the visible territory
    (or of the lattice cell, ``"."``, when none lies there)."""
    out = []
    for r in range(play.town.n_rows):
        for c in range(play.town.n_cols):
            i = play.top_index_at(r, c)
            if i is None:
                x, y = (c + 0.5) * layout.pitch[0], (r + 0.5) * layout.pitch[1]
                token = "."
            else:
                p = play.placements[i]
                x, y = layout.territory_mm(i, r - p.row, c - p.col)
                cell = play.town.cell(r, c)
                token = cell.token() if cell is not None else "."
            out.append((r, c, x, y, token))
    return out
