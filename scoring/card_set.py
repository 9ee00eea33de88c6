"""How many scoring cards one Sprawlopolis game has, and the one check that every input path shares.

A game is scored with exactly three base scoring cards (``shared/rules/sprawlopolis.md``), except a
competitive Interstate game: its players share two base scoring cards and an interstate scoring card (named
as an option, not a number). The city file's ``cards:`` header, ``--cards`` on the command line and the web
service's ``cards`` all go through :func:`check_game_cards`; the engine itself scores any set it is given
(:func:`scoring.engine.score_city` is a library call, used for partial sets in tests and tools).

>>> check_game_cards([8, 7, 17]), check_game_cards([5, 9], partial=True)
((8, 7, 17), (5, 9))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.cards import CARD_NAMES, UnknownCardError, check_card
from scoring.city import City

CARDS_PER_GAME = 3
CARDS_PER_COMPETITIVE_INTERSTATE = 2


class CardCountError(UnknownCardError):
    """A set of scoring cards that is not one game's: too many or too few. ``index`` is the first number
    that does not fit (``len(numbers)`` when numbers are missing), so a file error can point at it."""

    code = "wrong_card_count"

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def cards_expected(
    expansions: Sequence[str] | None, options: Mapping[str, str] | None = None, city: City | None = None
) -> int:
    """How many base scoring cards the game holds: 2 in a competitive Interstate game, else 3.

    ``options`` and ``city`` (its header lines) say the Interstate mode as the engine reads them; a mode
    that cannot be read raises the engine's :class:`~scoring.expansions.errors.InterstateError`.

    >>> cards_expected(["wrecktar"]), cards_expected(["interstate:central-highway"])
    (3, 2)
    """
    from scoring.expansions.interstate import game_mode

    mode = game_mode(expansions or (), options, city)
    return CARDS_PER_COMPETITIVE_INTERSTATE if mode == "competitive" else CARDS_PER_GAME


def check_game_cards(
    numbers: Sequence[object], expected: int | None = CARDS_PER_GAME, *, partial: bool = False
) -> tuple[int, ...]:
    """``numbers`` as one game's scoring cards: each a card 1–18, none twice, exactly ``expected`` of them
    (none at all means "not given"; ``None``: any count, as the engine scores). ``partial`` allows fewer (a
    set still being picked on the page), never more.
    Raises :class:`~scoring.cards.UnknownCardError` or :class:`CardCountError`.
    """
    checked: list[int] = []
    for index, number in enumerate(numbers):
        value = check_card(number)
        if value in checked:
            error = CardCountError(f"scoring card {value} ({CARD_NAMES[value]}) is given twice", index)
            error.code = UnknownCardError.code
            raise error
        checked.append(value)
    count = len(checked)
    if expected is None:
        return tuple(checked)
    if count > expected or (count and count < expected and not partial):
        competitive = expected == CARDS_PER_COMPETITIVE_INTERSTATE
        game = "a competitive Interstate game" if competitive else "a Sprawlopolis game"
        listed = " ".join(map(str, checked))
        raise CardCountError(
            f"{game} has exactly {expected} scoring cards; {count} given ({listed})",
            min(count, expected),
        )
    return tuple(checked)
