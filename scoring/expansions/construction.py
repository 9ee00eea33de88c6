"""Construction Zones: every unfinished construction-zone block (``!`` mark) costs the chosen card's penalty.

The task details and penalties printed on the four cards are not in the project's sources, so the penalty
per unfinished zone is an input (``construction-penalty``); without it the line shows the count, scores 0
and says which option to pass. Nothing is invented.
"""

from __future__ import annotations

from scoring.breakdown import LineItem
from scoring.city import City, cell_name, cell_names
from scoring.expansions.errors import ExpansionOptionError
from scoring.expansions.options import Options, int_option, norm_name, option

KEY = "construction"
LABEL = "Construction Zones"
CARDS = {
    "sudden-demolition": "Sudden Demolition",
    "noisy-neighbours": "Noisy Neighbours",
    "noisy-neighbors": "Noisy Neighbours",
    "bulldozed": "Bulldozed",
    "business-is-closed": "Business is Closed",
}
PENALTY_OPTION = "construction-penalty"
CARD_OPTION = "construction-card"


def card_name(value: str) -> str:
    """The printed name of a Construction Zones card from any spelling; raise on an unknown card."""
    name = CARDS.get(norm_name(value))
    if name is None:
        known = ", ".join(sorted(set(CARDS.values())))
        raise ExpansionOptionError(f"option {CARD_OPTION}: unknown card {value!r} (known: {known})")
    return name


def construction_item(city: City, options: Options) -> tuple[list[LineItem], list[str]]:
    """The ``construction`` line and notes.

    Reads ``construction-card`` (optional, named in the text) and ``construction-penalty`` (points lost per
    unfinished zone; ``2`` and ``-2`` both mean −2 each).
    """
    raw_card = option(city, options, CARD_OPTION)
    card = card_name(raw_card) if raw_card else None
    on = f" on {card}" if card else " on the chosen Construction Zones card"
    penalty = int_option(city, options, PENALTY_OPTION)
    zones = [(r, c) for r, c, cell in city.blocks() if cell.construction]
    cells = tuple(cell_name(r, c) for r, c in zones)
    if not zones:
        return [LineItem(KEY, LABEL, 0, "no unfinished construction zone ('!') is visible; no penalty.")], []
    count = (
        f"{len(zones)} unfinished construction zone{'s' if len(zones) != 1 else ''} at {cell_names(zones)}"
    )
    if penalty is None:
        detail = (
            f"{count}; the penalty printed{on} was not given, so this line scores 0 "
            f"(set option {PENALTY_OPTION}=N, or a '{PENALTY_OPTION}: N' header, N being the points "
            "lost per zone)."
        )
        note = (
            f"Construction Zones: {count}, but no penalty was given; the total leaves it out. "
            f"Set option {PENALTY_OPTION}=N with the penalty printed{on}."
        )
        return [LineItem(KEY, LABEL, 0, detail, cells)], [note]
    per = abs(penalty)
    detail = f"{count}; −{per} each, the penalty{on} as given."
    return [LineItem(KEY, LABEL, -per * len(zones), detail, cells)], []
