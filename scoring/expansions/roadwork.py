"""Roadwork: each Roadwork card that could not be played costs 1 point.

Only the scoring face of one Roadwork card is known. The unplayed cards lie beside the scoring cards, not in
the city, so their number is an input: ``roadwork-unplayed``.
"""

from __future__ import annotations

from scoring.breakdown import LineItem
from scoring.city import City
from scoring.expansions.options import Options, int_option

KEY = "roadwork"
LABEL = "Roadwork"
OPTION = "roadwork-unplayed"


def roadwork_item(city: City, options: Options) -> tuple[list[LineItem], list[str]]:
    """The ``roadwork`` line (−1 per unplayed Roadwork card) and notes."""
    unplayed = int_option(city, options, OPTION, minimum=0)
    if unplayed is None:
        detail = (
            "the number of Roadwork cards that could not be played was not given, so this line scores 0 "
            f"(set option {OPTION}=N)."
        )
        return [LineItem(KEY, LABEL, 0, detail)], [
            f"Roadwork: set option {OPTION}=N with the number of Roadwork cards that could not be played "
            "(−1 each); the total leaves them out."
        ]
    if unplayed == 0:
        return [LineItem(KEY, LABEL, 0, "every Roadwork card was played; no penalty.")], []
    s = "s" if unplayed != 1 else ""
    detail = (
        f"−1 for each of {unplayed} Roadwork card{s} that could not be played (set beside the scoring cards)."
    )
    return [LineItem(KEY, LABEL, -unplayed, detail)], []
