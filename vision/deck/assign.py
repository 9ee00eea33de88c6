"""Which of the 18 cards each card found in the deck photos is: one layout each, each layout once (the
assignment of :func:`scipy.optimize.linear_sum_assignment`), refused, naming the cards, unless every card is
settled: a card that fits no layout, two cards showing one layout, cards missing or too many, and a card
that could as well be another are each said."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.deck.seen import CardSeen, place_name
from vision.deck.taught import CARDS, DeckError

__all__ = ["FITS", "SETTLED", "assign_cards", "best_assignment"]

# A card fits its layout when its four blocks average at least this log-probability (0.1 a block)...
FITS = math.log(0.1)
# ...and the assignment is settled when giving any card another layout costs at least this many nats.
SETTLED = 2.0


def best_assignment(fit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of the one-to-one assignment of greatest total ``fit`` (SciPy's
    :func:`~scipy.optimize.linear_sum_assignment`)."""
    # SciPy's optimize takes 0.3 s to import: it loads when a deck is taught or named by its structure,
    # not at the start of every command and every service process.
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(-fit)
    return rows, cols


def assign_cards(
    places: list[tuple[int | None, int, int]],
    fit: np.ndarray,
    turn: np.ndarray,
    name: str,
    cards: Sequence[int] = CARDS,
) -> list[CardSeen]:
    """Each card found (photo, row, column) one layout, each layout once; refused (named) unless every
    card is settled. ``fit[i, j]``: how well card ``i`` fits layout ``cards[j]`` (turned: ``turn[i, j]``);
    ``cards`` are the deck's card numbers (Sprawlopolis's by default, Circle the Wagons' for a town deck)."""
    rows, cols = best_assignment(fit)
    given = dict(zip(rows.tolist(), cols.tolist(), strict=True))
    problems = _count_problems(places, fit, given, cards)
    if not problems:
        problems = _unsettled(places, fit, given, float(fit[rows, cols].sum()), cards)
    if problems:
        raise DeckError(f"{name}: " + "; ".join(problems) + " (each of the 18 cards must lie face up once)")
    return [
        CardSeen(
            places[i][1], places[i][2], cards[j], bool(turn[i, j]), float(fit[i, j]) / 4, places[i][0] or 0
        )
        for i, j in sorted(given.items())
    ]


def _count_problems(
    places: list[tuple[int | None, int, int]], fit: np.ndarray, given: dict[int, int], cards: Sequence[int]
) -> list[str]:
    """Cards doubled, unreadable, missing or too many."""
    problems = []
    # A card whose own best layout is far better than the one it was given shows a layout twice.
    doubled: dict[int, list[int]] = {}
    for i in range(len(places)):
        own = int(fit[i].argmax())
        if i not in given or fit[i, own] - fit[i, given[i]] > SETTLED:
            doubled.setdefault(cards[own], []).append(i)
    for n, where in sorted(doubled.items()):
        holders = sorted({*where, *[i for i, j in given.items() if cards[j] == n]})
        if len(holders) > 1:
            problems.append(f"card {n} appears twice ({', '.join(place_name(places[i]) for i in holders)})")
    for i in [i for i in range(len(places)) if fit[i].max() < 4 * FITS]:
        problems.append(f"the card at {place_name(places[i])} matches no known card")
    used = {cards[j] for j in given.values()}
    if len(places) < len(cards):
        missing = [n for n in cards if n not in used]
        problems.append(
            f"only {len(places)} of the {len(cards)} cards found; missing: card{'s' * (len(missing) > 1)} "
            + ", ".join(map(str, missing))
        )
    elif len(places) > len(cards):
        extra = [i for i in range(len(places)) if i not in given]
        problems.append(
            f"{len(places)} cards found, more than the {len(cards)} of a deck (extra at "
            + ", ".join(place_name(places[i]) for i in extra)
            + ")"
        )
    elif doubled:
        missing = [cards[given[i]] for ws in doubled.values() for i in ws if i in given]
        if missing:
            problems.append(
                "missing: card" + "s" * (len(missing) > 1) + " " + ", ".join(map(str, sorted(missing)))
            )
    return problems


def _unsettled(
    places: list[tuple[int | None, int, int]],
    fit: np.ndarray,
    given: dict[int, int],
    total: float,
    cards: Sequence[int],
) -> list[str]:
    """The cards that another layout would fit almost as well (the assignment's ``total`` drops by less
    than :data:`SETTLED` when the card is forbidden its own)."""
    problems = []
    for i, j in given.items():
        forbidden = fit.copy()
        forbidden[i, j] = -1e9
        r2, c2 = best_assignment(forbidden)
        if total - forbidden[r2, c2].sum() < SETTLED:
            other = cards[int(c2[list(r2).index(i)])]
            problems.append(f"the card at {place_name(places[i])} could be card {cards[j]} or card {other}")
    return problems
