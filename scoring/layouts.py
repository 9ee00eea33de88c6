"""The 18 Sprawlopolis city cards, block by block (``shared/rules/sprawlopolis.md``).

Each layout is ``(TL, TR, BL, BR)`` as the card lies unrotated; a block is ``(zone, road or None)``.
"""

from __future__ import annotations

from scoring.city import Cell, block

_TABLE = """
1  C:NS P    I:NE R:EW
2  I:NW P    R:EW C:EW
3  C:NW P    I:EW R:EW
4  P    C:NS R:EW I:NW
5  R:NS P    C:NE I:EW
6  I:NW C:NS P    R:NS
7  P    R:NE I:EW C:EW
8  P    I:NS C:SW R:NS
9  P    R:NS I:EW C:NW
10 P    I:NE C:EW R:EW
11 P    C:NE R:EW I:EW
12 P    R:NS I:SW C:NS
13 C:NW R:NS P    I:NS
14 P    I:NS C:EW R:NW
15 R:NW I:NS P    C:NS
16 R:NW P    C:EW I:EW
17 P    C:NS R:SW I:NS
18 I:NS P    R:NE C:EW
"""


def _cell(token: str) -> Cell:
    zone, _, road = token.partition(":")
    return block(zone, road or None)


LAYOUTS: dict[int, tuple[Cell, Cell, Cell, Cell]] = {
    int(num): (_cell(tl), _cell(tr), _cell(bl), _cell(br))
    for num, tl, tr, bl, br in (line.split() for line in _TABLE.strip().splitlines())
}


def card_blocks(number: int, rotated: bool = False) -> tuple[tuple[Cell, Cell], tuple[Cell, Cell]]:
    """The card's 2×2 blocks as ``((TL, TR), (BL, BR))``, turned by 180° when ``rotated``."""
    tl, tr, bl, br = LAYOUTS[number]
    if rotated:
        tl, tr, bl, br = br.rotated(), bl.rotated(), tr.rotated(), tl.rotated()
    return ((tl, tr), (bl, br))
