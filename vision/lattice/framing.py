"""What a person should know about how a photo frames its grid of cards: the grid cut by the photo's edge
(cells beyond it are missing), or a photo taken at a steep angle (the cells measured far from the cards'
own 1.4 : 1).

>>> framing_warnings(("left",), 1.4, GridWords("city", "blocks"))
('the city runs off the left edge of the photo: blocks beyond it are missing',)
>>> framing_warnings((), 1.9, GridWords("town", "territories", upright=True))[0][:44]
'the territories measure 1 : 1.90 instead of '
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["STEEP_ASPECT", "GridWords", "framing_warnings"]

# The cells' measured aspect (long side over short) outside this range: the photo is taken too steeply for
# the cells to be read surely (a 1.4 : 1 cell measures 1.2-1.65 : 1 up to about 30° of tilt either way).
STEEP_ASPECT = (1.2, 1.65)


@dataclass(frozen=True)
class GridWords:
    """How a game's grid is named to the player: ``grid`` (a city), ``cells`` (its blocks), and whether a
    cell stands upright, so that its aspect is said as ``1 : 1.4`` (a town's territories), not ``1.4 : 1``."""

    grid: str
    cells: str
    upright: bool = False


def framing_warnings(sides: Sequence[str], aspect: float, words: GridWords) -> tuple[str, ...]:
    """The warnings for a grid that touches the photo's ``sides`` and whose cells measure ``aspect``."""
    warnings = [
        f"the {words.grid} runs off the {side} edge of the photo: {words.cells} beyond it are missing"
        for side in sides
    ]
    if not STEEP_ASPECT[0] <= aspect <= STEEP_ASPECT[1]:
        measured, own = (
            (f"1 : {aspect:.2f}", "1 : 1.4") if words.upright else (f"{aspect:.2f} : 1", "1.4 : 1")
        )
        warnings.append(
            f"the {words.cells} measure {measured} instead of {own}; the photo may be taken at too steep an "
            f"angle (hold the phone flatter above the {words.grid})"
        )
    return tuple(warnings)
