"""Random legal Circle the Wagons towns, and the stack of cards that builds a given town.

A town is played like a Sprawlopolis city (``scoring.placement``): cards lie on the territory lattice
(portrait, 0° or 180°), each covering 2 × 2 cells, each new card on top, overlapping the town or sharing a
side with it. Here the cards are distinct cards of the 18 (``scoring.wagons.cards``), any number of them.
A :class:`TownPlay` keeps the play order (bottom first) and the visible town, the truth of a photo.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.placement import Placement, touches
from scoring.wagons.cards import CARDS, card_grid
from scoring.wagons.town import Territory, Town

Pos = tuple[int, int]


@dataclass(frozen=True)
class TownPlay:
    """Cards in play order (``Placement``: card number, turned, lattice row and column of its top-left
    territory), normalised so that the town's top-left cell is (0, 0), and the visible ``town``."""

    placements: tuple[Placement, ...]
    town: Town

    def top_index_at(self, row: int, col: int) -> int | None:
        """Index of the top-most card covering (row, col), or ``None``."""
        for i in range(len(self.placements) - 1, -1, -1):
            if (row, col) in self.placements[i].cells():
                return i
        return None


def town_problems(placements: Sequence[Placement]) -> list[str]:
    """Every rule the placements (play order) break: unknown or repeated cards, a card that neither
    overlaps the town nor shares a side with it. Empty when the play is legal."""
    problems: list[str] = []
    seen: set[int] = set()
    occupied: set[Pos] = set()
    for i, p in enumerate(placements):
        where = f"card {i + 1} (number {p.number} at row {p.row}, col {p.col})"
        if p.number not in CARDS:
            problems.append(f"{where}: no Circle the Wagons card {p.number}")
        elif p.number in seen:
            problems.append(f"{where}: card {p.number} is played twice")
        seen.add(p.number)
        if i > 0 and not touches(p, occupied):
            problems.append(f"{where}: neither overlaps nor shares a side with the town")
        occupied.update(p.cells())
    return problems


def visible_town(placements: Sequence[Placement], game_header: bool = True) -> Town:
    """The town of top-most territories (lattice coordinates ≥ 0), with ``game: wagons`` and the cards
    (play order) in its header."""
    cells = [c for p in placements for c in p.cells()]
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    grid: list[list[Territory | None]] = [[None] * cols for _ in range(rows)]
    for p in placements:
        shown = card_grid(p.number, p.rotated)
        for dr in (0, 1):
            for dc in (0, 1):
                grid[p.row + dr][p.col + dc] = shown[dr][dc]
    headers = (("game", "wagons"),) if game_header else ()
    headers += (("cards", " ".join(str(p.number) for p in placements)),)
    return Town(tuple(tuple(row) for row in grid), headers)


def _normalised(placements: Sequence[Placement]) -> tuple[Placement, ...]:
    r0 = min(p.row for p in placements)
    c0 = min(p.col for p in placements)
    return tuple(p.shifted(-r0, -c0) for p in placements)


def _weight(cells: set[Pos], occupied: set[Pos], overlap: float) -> float:
    """How likely a player is to choose this spot: fewer covered territories, more shared sides, a compact
    town whose cells (taller than wide) make it about as wide as tall on the table."""
    covered = len(cells & occupied)
    contact = sum(
        1
        for r, c in cells - occupied
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if n in occupied
    )
    both = occupied | cells
    h = max(r for r, _ in both) - min(r for r, _ in both) + 1
    w = max(c for _, c in both) - min(c for _, c in both) + 1
    squareness = abs(math.log((h * 44.45) / (w * 31.75)))
    return (overlap**covered) * (1.0 + contact) ** 1.5 * math.exp(-(h * w / 4 + squareness))


def simulate_town(rng: random.Random, n_cards: int, overlap: float = 0.5) -> TownPlay:
    """A random legal town of ``n_cards`` (1–18) distinct cards, each turned by 180° half the time. No card
    is ever covered entirely (each still shows a territory), so the visible town names every card in it."""
    if not 1 <= n_cards <= len(CARDS):
        raise ValueError(f"a town has 1 to {len(CARDS)} cards, got {n_cards}")
    deck = sorted(CARDS)
    rng.shuffle(deck)
    placed = [Placement(deck[0], rng.random() < 0.5, 0, 0)]
    occupied = set(placed[0].cells())
    for number in deck[1:n_cards]:
        spots, weights = [], []
        rows, cols = [r for r, _ in occupied], [c for _, c in occupied]
        for r in range(min(rows) - 2, max(rows) + 2):
            for c in range(min(cols) - 2, max(cols) + 2):
                p = Placement(number, False, r, c)
                if touches(p, occupied) and not _hides_a_card(placed, set(p.cells())):
                    spots.append((r, c))
                    weights.append(_weight(set(p.cells()), occupied, overlap))
        r, c = rng.choices(spots, weights)[0]
        placed.append(Placement(number, rng.random() < 0.5, r, c))
        occupied.update(placed[-1].cells())
    placements = _normalised(placed)
    return TownPlay(placements, visible_town(placements))


def _hides_a_card(placed: Sequence[Placement], cells: set[Pos]) -> bool:
    """True when covering ``cells`` would leave some card of ``placed`` with no territory showing."""
    for i, p in enumerate(placed):
        above = set().union(*(set(q.cells()) for q in placed[i + 1 :]), cells)
        if set(p.cells()) <= above:
            return True
    return False


def stack_for_town(town: Town, cards: Sequence[int]) -> TownPlay:
    """A legal play of exactly ``cards`` (distinct numbers) whose visible town is ``town``'s grid, the
    town kept as given (its header too); raises ``ValueError`` when there is none. Found by peeling: the
    top card shows all four of its territories, the next one all those the cards above leave, and so on
    down; a card is never hidden entirely."""
    unknown = [n for n in cards if n not in CARDS]
    if unknown or len(set(cards)) != len(cards):
        raise ValueError(f"cards must be distinct numbers 0 to {max(CARDS)}, got {list(cards)}")
    shown = dict(town.territories())
    found = _peel(shown, set(), list(cards), [])
    if found is None:
        raise ValueError(f"no stack of cards {' '.join(map(str, cards))} shows this town")
    return TownPlay(tuple(reversed(found)), town)


def _peel(
    shown: dict[Pos, Territory], claimed: set[Pos], left: list[int], top: list[Placement]
) -> list[Placement] | None:
    if not left:
        legal = claimed == set(shown) and not town_problems(list(reversed(top)))
        return top if legal else None
    rows = [r for r, _ in shown]
    cols = [c for _, c in shown]
    for number in left:
        for rotated in (False, True):
            grid = card_grid(number, rotated)
            for r in range(min(rows), max(rows)):
                for c in range(min(cols), max(cols)):
                    p = Placement(number, rotated, r, c)
                    cells = p.cells()
                    if not all(pos in shown for pos in cells) or set(cells) <= claimed:
                        continue
                    if any(
                        pos not in claimed and shown[pos] != grid[pos[0] - r][pos[1] - c] for pos in cells
                    ):
                        continue
                    rest = [n for n in left if n != number]
                    found = _peel(shown, claimed | set(cells), rest, [*top, p])
                    if found is not None:
                        return found
    return None
