"""Which cells of a scanned town a person should look at, with what else each could be and the total the
town would score then."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.city import cell_name
from scoring.errors import InputError
from scoring.wagons import Territory, Town, score_town
from vision.towns.decode import TownCell, TownDecoding
from vision.towns.text import decoded_town

__all__ = [
    "READ_AS_LAND",
    "CellDoubt",
    "cards_beyond",
    "land_beyond",
    "read_land_doubt",
    "region_table_doubt",
    "town_doubt",
]

# A cell of the card region the decoding leaves as table while the reader gives a territory at least this
# probability is in doubt (a card the decoding could not place: the random editions' taught towns left 7
# such territories silent, read at 0.40-0.99; the print-and-play devset's own cells read right reach it
# nowhere).
READ_AS_LAND = 0.3


@dataclass(frozen=True)
class CellDoubt:
    """A town cell (``cell``, ``A1`` the town's top-left) whose reading could reasonably be otherwise:
    what it reads (``reading``, a token), the other readings with the total the town would score with
    each (``alternatives``: (token, total), total ``None`` when that town cannot be scored) and ``why``;
    ``row`` and ``col`` place the cell in the town (0-based from its top-left)."""

    cell: str
    reading: str
    alternatives: tuple[tuple[str, int | None], ...]
    why: str
    margin: float
    row: int
    col: int

    def to_json(self) -> dict[str, object]:
        return {
            "cell": self.cell,
            "reading": self.reading,
            "alternatives": [{"label": label, "total": total} for label, total in self.alternatives],
            "why": self.why,
        }


def _others(cell: TownCell) -> list[str]:
    """The cell's other readings: the decoding's alternative, then what the reader read most."""
    read = "." if cell.read is None else cell.read.token()
    return [t for t in dict.fromkeys((cell.alternative, read)) if t is not None and t != cell.token]


def _why(cell: TownCell) -> str:
    read = "." if cell.read is None else cell.read.token()
    if cell.source == "unexplained":
        return f"no card of the 18 shows {read} here beside its neighbours: kept as read"
    if math.isinf(cell.margin):
        return "read otherwise by the territory reader"
    return f"the cards explain {cell.alternative} here almost as well ({cell.margin:.1f} nats less likely)"


def _total(town: Town, row: int, col: int, token: str, goals: Sequence[str]) -> int | None:
    grid = [list(line) for line in town.grid]
    grid[row][col] = None if token == "." else Territory(token[0], token[2])
    try:
        return score_town(Town(tuple(tuple(line) for line in grid)), goals=list(goals)).total
    except InputError:
        return None


def _beyond(r: int, c: int, rows: int, cols: int) -> str:
    """Where a lattice cell outside the town (town coordinates) lies, named by the nearest town cell."""
    near = cell_name(min(max(r, 0), rows - 1), min(max(c, 0), cols - 1))
    side = "above" if r < 0 else "below" if r >= rows else "left of" if c < 0 else "right of"
    return f"{side} {near}"


def town_doubt(
    decoding: TownDecoding, origin: tuple[int, int], goals: Sequence[str] = ()
) -> tuple[tuple[CellDoubt, ...], tuple[str, ...]]:
    """The cells of the decoded town in doubt (margin under :data:`~vision.towns.DOUBT_MARGIN`, or
    explained by no card), in reading order, and warnings for doubtful cells beyond the town's edge
    (read as table; a territory may lie there). ``origin`` is the lattice cell of the town's A1."""
    suspects = (
        (r, c, cell.token, _others(cell), _why(cell), cell.margin)
        for r, line in enumerate(decoding.cells)
        for c, cell in enumerate(line)
        if cell.doubtful or cell.source == "unexplained"
    )
    return _named(decoding, origin, goals, suspects)


def read_land_doubt(
    decoding: TownDecoding,
    readings: Sequence[Sequence[dict[str, float]]],
    occupied: object,
    origin: tuple[int, int],
    goals: Sequence[str] = (),
) -> tuple[tuple[CellDoubt, ...], tuple[str, ...]]:
    """The cells of the card region (``occupied``, a bool array over the lattice) that the decoding
    leaves as table though the reader gives a territory at least :data:`READ_AS_LAND`: in the town, each
    a doubt with the reader's territory as its alternative; beyond the town's edge, a warning."""

    def suspects() -> Iterator[Suspect]:
        for r, line in enumerate(decoding.cells):
            for c, cell in enumerate(line):
                territories = {t: p for t, p in readings[r][c].items() if t != "."}
                land = sum(territories.values())
                if cell.territory is not None or not occupied[r, c] or land < READ_AS_LAND:  # type: ignore[index]
                    continue
                best = max(territories, key=territories.__getitem__)
                why = f"read as {best} ({land:.0%} a territory), but no card placed here shows it"
                yield r, c, ".", [best], why, 0.0

    return _named(decoding, origin, goals, suspects())


def region_table_doubt(
    decoding: TownDecoding, unseen: np.ndarray, origin: tuple[int, int], goals: Sequence[str] = ()
) -> tuple[CellDoubt, ...]:
    """The cells inside the town that show a card by their own pixels but that no decoded card shows
    (``unseen``, a bool array over the lattice: :func:`vision.towns.region.unseen_cards`): a card lies
    there that the reader read as the table (a dark territory whose icon it missed, on a wooden table),
    so the town's total lacks a territory there."""

    def suspects() -> Iterator[Suspect]:
        why = "a card lies here, but it was read as the table"
        for r, line in enumerate(decoding.cells):
            for c, cell in enumerate(line):
                if cell.territory is None and unseen[r, c]:
                    yield r, c, ".", [], why, 0.0

    doubts, _ = _named(decoding, origin, goals, suspects())
    return doubts


def cards_beyond(decoding: TownDecoding, unseen: np.ndarray, origin: tuple[int, int]) -> tuple[str, ...]:
    """Where cells beyond the town's edge show a card by their own pixels though no decoded card shows
    them (``unseen``, as for :func:`region_table_doubt`), each named by the nearest town cell (``right of
    F1``): no doubt can name a territory outside the town, so the town read without it is no reading to
    score."""
    town, _ = decoded_town(decoding)
    rows, cols = town.n_rows, town.n_cols
    out = []
    for r, c in zip(*np.nonzero(unseen), strict=True):
        tr, tc = int(r) - origin[0], int(c) - origin[1]
        if not (0 <= tr < rows and 0 <= tc < cols):
            out.append(_beyond(tr, tc, rows, cols))
    return tuple(dict.fromkeys(out))


# A cell beside the town's edge (sharing a side with one of its territories) that the reader reads as a
# territory at least this surely, though no decoded card shows it, means the town may go on there: rendered
# random edition 7075 (taught) read its two grey territories as the table, the decoding kept the 2 × 2
# block on one side of them and scored it, its six other territories silent, one of them read 0.99 beside it.
SURE_BESIDE = 0.9


def land_beyond(
    decoding: TownDecoding, readings: Sequence[Sequence[dict[str, float]]], origin: tuple[int, int]
) -> tuple[str, ...]:
    """Where cells beside the town's edge read surely as a territory (:data:`SURE_BESIDE`) though the
    decoding leaves them out, each named by the town cell beside it (``below B2``): as for
    :func:`cards_beyond`, the town read without them is no reading to score."""
    town, _ = decoded_town(decoding)
    rows, cols = town.n_rows, town.n_cols
    out = []
    for r, line in enumerate(readings):
        for c, dist in enumerate(line):
            tr, tc = r - origin[0], c - origin[1]
            if 0 <= tr < rows and 0 <= tc < cols or 1.0 - dist.get(".", 0.0) < SURE_BESIDE:
                continue
            nr, nc = min(max(tr, 0), rows - 1), min(max(tc, 0), cols - 1)
            if abs(tr - nr) + abs(tc - nc) == 1 and town.grid[nr][nc] is not None:
                out.append(_beyond(tr, tc, rows, cols))
    return tuple(dict.fromkeys(out))


# A cell in doubt: its lattice row and column, its reading, what else it could be, why, and the margin.
Suspect = tuple[int, int, str, list[str], str, float]


def _named(
    decoding: TownDecoding, origin: tuple[int, int], goals: Sequence[str], suspects: Iterable[Suspect]
) -> tuple[tuple[CellDoubt, ...], tuple[str, ...]]:
    """The ``suspects`` in the town as doubts (each alternative with the town's total then), and those
    beyond its edge as warnings that a territory may lie there."""
    town, _ = decoded_town(decoding)
    r0, c0 = origin
    doubts: list[CellDoubt] = []
    warnings: list[str] = []
    for r, c, reading, others, why, margin in suspects:
        tr, tc = r - r0, c - c0
        if not (0 <= tr < town.n_rows and 0 <= tc < town.n_cols):
            if others:
                where = _beyond(tr, tc, town.n_rows, town.n_cols)
                warnings.append(f"a territory ({others[0]}) may lie {where}, read as table")
            continue
        alternatives = tuple((t, _total(town, tr, tc, t, goals)) for t in others)
        doubts.append(CellDoubt(cell_name(tr, tc), reading, alternatives, why, margin, tr, tc))
    return tuple(doubts), tuple(warnings)
