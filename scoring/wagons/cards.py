"""The 18 Circle the Wagons cards' territories, as read in ``shared/rules/circle-the-wagons.md``.

The numbering (0–17) is this project's own, not the printed one; the table is a reading that has not all
been checked against the printed cards. Each card is ``(TL, TR, BL, BR)`` as it lies unrotated.
"""

from __future__ import annotations

from scoring.wagons.town import Territory

_TABLE = """
0  P/c P/f P/m F/b
1  M/f M/m D/b M/w
2  W/m W/b S/w W/g
3  S/g S/c S/f W/m
4  D/w D/g D/c M/f
5  F/b F/w P/g F/c
6  W/g S/m F/m W/f
7  F/c P/b D/b F/m
8  D/f M/w S/w D/b
9  M/f P/f S/f D/w
10 P/c S/c D/b F/c
11 S/g D/m F/g W/g
12 S/m W/g P/g S/w
13 M/w D/f W/f M/c
14 P/b F/c M/c P/g
15 W/m M/g P/m M/m
16 D/w F/w W/f M/w
17 F/c W/b M/b P/b
"""


def _territory(token: str) -> Territory:
    terrain, icon = token.split("/")
    return Territory(terrain, icon)


CARDS: dict[int, tuple[Territory, Territory, Territory, Territory]] = {
    int(num): (_territory(tl), _territory(tr), _territory(bl), _territory(br))
    for num, tl, tr, bl, br in (line.split() for line in _TABLE.strip().splitlines())
}


CardGrid = tuple[tuple[Territory, Territory], tuple[Territory, Territory]]


def card_grid(number: int, rotated: bool = False) -> CardGrid:
    """The card's 2×2 territories as ``((TL, TR), (BL, BR))``, turned by 180° when ``rotated``."""
    tl, tr, bl, br = CARDS[number]
    if rotated:
        tl, tr, bl, br = br, bl, tr, tl
    return ((tl, tr), (bl, br))
