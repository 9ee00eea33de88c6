"""What each of the 18 Sprawlopolis scoring cards counts, in this project's own words.

These are short summaries of the rules the engine implements (``scoring/cards.py``), written for a player
who has not got the card at hand; they are not the printed card text. The rulings they rely on (what "the
edge" is, how ties are broken) are described in ``docs/rulings.md``.

>>> CARD_RULES[3]
'+1 for each park block, −3 for each industrial block.'
"""

from __future__ import annotations

from scoring.cards import CARD_NAMES

CARD_RULES: dict[int, str] = {
    1: "+1 for each road that never reaches the edge of the city, −1 for each road with an end at the edge "
    "(a closed loop has no end and scores +1).",
    2: "+1 for each row and each column holding exactly 3 park blocks, −1 for each holding none.",
    3: "+1 for each park block, −3 for each industrial block.",
    4: "Count the 2 × 2 squares whose four blocks share one zone (squares may overlap): 0 scores −8, 1 −5, "
    "2 −2, 3 +1, 4 +4, 5 or more +7.",
    5: "+2 for each industrial block whose neighbours across its sides are all commercial or industrial "
    "(a side with no block beyond it does not count against it).",
    6: "The size of the largest residential group minus the size of the largest industrial group "
    "(can be negative).",
    7: "+1 for each park block in the interior of the city, −2 for each park block on its edge.",
    8: "Around the largest residential group: +1 for each park block and −2 for each industrial block "
    "touching it side by side (each block counted once).",
    9: "+1 for each industrial block touching another industrial block corner to corner; side by side alone "
    "does not score.",
    10: "+1 for each commercial block in the one row or column that holds the most of them.",
    11: "+2 for each commercial block whose road runs on at both ends straight into residential blocks whose "
    "roads carry it on (in line or round a corner).",
    12: "+1 for every 2 sections of the longest road (rounded down).",
    13: "+3 for each road whose two ends stop against two different park blocks.",
    14: "+1 for each section of every road that closes into a loop.",
    15: "+2 for each residential block touching 2 or more industrial blocks side by side.",
    16: "+2 for each road that passes through at least one residential and at least one commercial block.",
    17: "+1 for each commercial block on the edge of the city, +1 more when it sits on a corner of the edge.",
    18: "The number of blocks in the fullest row plus the number in the fullest column (gaps are skipped).",
}


def card_list() -> list[dict[str, object]]:
    """The 18 cards as ``{"number", "name", "counts"}`` dictionaries, by number (for the page and the CLI).

    Examples
    --------
    >>> len(card_list()), card_list()[7]["number"]
    (18, 8)
    """
    return [{"number": n, "name": CARD_NAMES[n], "counts": CARD_RULES[n]} for n in sorted(CARD_NAMES)]


__all__ = ["CARD_RULES", "card_list"]
