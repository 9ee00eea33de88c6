"""How well a city was read: the read city against the true one, at their best alignment.

A scan knows nothing of the grid coordinates the truth was written in, and it may read a city turned by
180° (the photo taken from the other side of the table), so the two are compared at the best of both turns
and every shift. Blocks are 1.4 : 1, so a quarter turn is never a reading of the same city and is not tried.
A cell is right when what it holds (empty, a block's zone and road, Wrecktar) is the same; expansion marks
are left to the scoring comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.city import City

__all__ = ["CityScore", "compare_cities"]

Key = tuple[str, str | None, str | None]
_EMPTY: Key = ("empty", None, None)


@dataclass(frozen=True)
class CityScore:
    """``right`` of ``cells`` cells agree (``cells`` counts the cells that hold a card in either city)."""

    right: int
    cells: int
    turned: bool  # the read city matched best turned by 180°
    # (cell in the truth's grid, true token, read token) for every cell that differs
    wrong: tuple[tuple[tuple[int, int], str, str], ...] = ()
    # Added to a cell of the read city (after the turn) it gives the truth's cell.
    shift: tuple[int, int] = (0, 0)

    def to_truth(self, read: City, row: int, col: int) -> tuple[int, int]:
        """Where cell (row, col) of the read city lies in the truth's grid at this alignment."""
        if self.turned:
            row, col = read.n_rows - 1 - row, read.n_cols - 1 - col
        return row + self.shift[0], col + self.shift[1]

    @property
    def exact(self) -> bool:
        return self.right == self.cells


def _cells(city: City, turned: bool) -> dict[tuple[int, int], Key]:
    city = city.rotated() if turned else city
    return {(r, c): (cell.kind, cell.zone, cell.road) for r, c, cell in city.cells() if cell.kind != "empty"}


def compare_cities(truth: City, read: City | None) -> CityScore:
    """Score ``read`` against ``truth`` at the best alignment (see the module's docstring).

    Parameters
    ----------
    truth, read : City
        The true city and the one read; ``read`` may be ``None`` (nothing was read).

    Returns
    -------
    CityScore

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> truth = parse_city("R:EW C:EW\\nP    I:NS\\n")
    >>> compare_cities(truth, parse_city(". .\\nR:EW C:EW\\nP I:NS\\n")).exact
    True
    >>> compare_cities(truth, truth.rotated()).turned
    True
    >>> s = compare_cities(truth, parse_city("R:EW I:EW\\nP    I:NS\\n"))
    >>> (s.right, s.cells, s.exact, s.wrong)
    (3, 4, False, (((0, 1), 'C:EW', 'I:EW'),))
    """
    want = _cells(truth, False)
    if read is None:
        return CityScore(0, len(want), False)
    best = CityScore(-1, 0, False)
    for turned in (False, True):
        got = _cells(read, turned)
        if not got:
            return CityScore(0, len(want), False)
        for dr in range(-read.n_rows, truth.n_rows + 1):
            for dc in range(-read.n_cols, truth.n_cols + 1):
                shifted = {(r + dr, c + dc): v for (r, c), v in got.items()}
                keys = want.keys() | shifted.keys()
                right = sum(1 for k in keys if want.get(k) == shifted.get(k))
                if right > best.right:
                    wrong = tuple(
                        (k, _token(want.get(k, _EMPTY)), _token(shifted.get(k, _EMPTY)))
                        for k in sorted(keys)
                        if want.get(k) != shifted.get(k)
                    )
                    best = CityScore(right, len(keys), turned, wrong, (dr, dc))
    return best


def _token(key: Key) -> str:
    kind, zone, road = key
    if kind != "block":
        return {"empty": ".", "wrecktar": "W", "beach": "~"}[kind]
    return f"{zone}:{road}" if road else str(zone)
