"""A decoded town (:class:`~vision.towns.decode.TownDecoding`) as a :class:`~scoring.wagons.town.Town`
and in the town text format, so the scorer (``scoring.wagons``) can score it."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.wagons.town import Town, format_town
from scoring.wagons.town_text import parse_town
from vision.towns.decode import TownDecoding

__all__ = ["NoTerritory", "decoded_town", "town_text"]


class NoTerritory(ValueError):
    """The decoded grid holds no territory: there is no town to write."""


def decoded_town(decoding: TownDecoding) -> tuple[Town, tuple[int, int]]:
    """The decoded cells trimmed to the town's extent (rows and columns holding a territory; cells no
    card explains keep their reading), and the lattice cell (row, col) of the town's top-left cell: a
    lattice cell (r, c) is the town's (r - row, c - col). Raises :class:`NoTerritory` when no cell holds a
    territory."""
    occupied = [
        (r, c) for r, row in enumerate(decoding.cells) for c, cell in enumerate(row) if cell.territory
    ]
    if not occupied:
        raise NoTerritory("the decoded grid holds no territory: there is no town to write")
    r0, r1 = min(r for r, _ in occupied), max(r for r, _ in occupied)
    c0, c1 = min(c for _, c in occupied), max(c for _, c in occupied)
    grid = tuple(tuple(cell.territory for cell in row[c0 : c1 + 1]) for row in decoding.cells[r0 : r1 + 1])
    return Town(grid), (r0, c0)


def town_text(decoding: TownDecoding, goals: Sequence[str] = ()) -> str:
    """The decoded town in the town text format: a ``game: wagons`` header, the cards it is built from
    (``cards:``, the numbers of ``scoring.wagons.cards``) and the ``goals:`` given (goal-card names, as
    ``sprawlscan score`` takes them), then the grid. The text is read back before it is returned, so an
    unknown goal name raises :class:`~scoring.wagons.town.TownFormatError` naming it.
    """
    town, _ = decoded_town(decoding)
    headers = [("game", "wagons")]
    if decoding.placements:
        headers.append(("cards", " ".join(str(n) for n in decoding.cards)))
    if goals:
        headers.append(("goals", ", ".join(goals)))  # names may hold spaces
    text = format_town(Town(town.grid, tuple(headers)))
    parse_town(text)
    return text
