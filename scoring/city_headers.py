"""The ``key: value`` header lines of a city file, checked where they are written.

Every key is one the scorer reads (``cards``, ``expansions``, ``variant``, ``game`` or an expansion option);
a misspelt key, expansion or variant is an error naming its line and column and the nearest valid word, and
the ``cards:`` header must name one game's scoring cards (:func:`scoring.card_set.check_game_cards`).
Nothing is guessed: ``card: 5 9 11`` is refused, not read as no cards.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.base import VARIANTS
from scoring.card_set import CardCountError, cards_expected, check_game_cards
from scoring.city import MAX_CARD, CardNumberError, City, CityFormatError
from scoring.engine import OPTIONS
from scoring.errors import InputError
from scoring.expansions.beaches import CARDS as BEACH_CARDS
from scoring.expansions.interstate import CARDS as INTERSTATE_CARDS
from scoring.expansions.interstate import MODES
from scoring.expansions.selection import EXPANSION_ALIASES, select
from scoring.numbers import NumberError, whole_number

GAME_KEYS = ("cards", "expansions", "variant", "game")
#: Every header key a city file may hold, in the order the format documents them.
CITY_KEYS = (*GAME_KEYS, *OPTIONS)
GAMES = ("sprawlopolis", "wagons", "circle-the-wagons")
#: Expansion names offered as corrections (every name :func:`scoring.expansions.select` accepts).
EXPANSION_WORDS = (
    *EXPANSION_ALIASES,
    *(f"beach:{card}" for card in BEACH_CARDS),
    *(f"interstate:{word}" for word in (*MODES, *INTERSTATE_CARDS)),
)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices`` to ``word``, or ``""`` when none is close.

    >>> did_you_mean("card", ["cards", "expansions"]), did_you_mean("zzz", ["cards"])
    (" (did you mean 'cards'?)", '')
    """
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _words(value: str, vcol: int) -> list[tuple[str, int]]:
    """The comma- or space-separated words of a header value, each with its 1-based column."""
    return [(m.group(), vcol + m.start()) for m in re.finditer(r"[^\s,]+", value)]


@dataclass
class CityHeaders:
    """The header lines read so far; :meth:`add` checks one line, :meth:`check_cards` the finished city."""

    cards: tuple[int, ...] = ()
    expansions: tuple[str, ...] = ()
    others: list[tuple[str, str]] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    card_columns: list[int] = field(default_factory=list)
    cards_at: tuple[int, int] = (0, 0)  # line and column just past the last card number

    def add(self, key: str, value: str, line: int, kcol: int, vcol: int) -> None:
        """Read header ``key: value`` on ``line`` (key at column ``kcol``, value at ``vcol``)."""
        if key not in CITY_KEYS:
            hint = did_you_mean(key, CITY_KEYS) or f" (known: {', '.join(CITY_KEYS)})"
            raise CityFormatError(f"unknown header {key!r}{hint}", line, kcol)
        if key in self.seen:
            raise CityFormatError(f"header {key!r} given twice (first on line {self.seen[key]})", line, kcol)
        self.seen[key] = line
        if key == "cards":
            self._cards(value, line, vcol)
        elif key == "expansions":
            self.expansions = tuple(self._expansion(w, line, c) for w, c in _words(value, vcol))
        else:
            if key == "variant" and value.lower() not in VARIANTS:
                hint = did_you_mean(value, VARIANTS) or f" (expected one of: {', '.join(VARIANTS)})"
                raise CityFormatError(f"unknown variant {value!r}{hint}", line, vcol)
            if key == "game" and "-".join(value.lower().split()) not in GAMES:
                hint = did_you_mean(value, GAMES) or " (sprawlopolis or wagons)"
                raise CityFormatError(f"unknown game {value!r}{hint}", line, vcol)
            self.others.append((key, value))

    def _cards(self, value: str, line: int, vcol: int) -> None:
        nums = []
        for word, col in _words(value, vcol):
            try:
                nums.append(whole_number(word, lo=1, hi=MAX_CARD))
            except NumberError as exc:
                error = CardNumberError if word.isascii() and word.isdigit() else CityFormatError
                raise error(f"cards: scoring card numbers, {exc}", line, col) from None
            self.card_columns.append(col)
        self.cards = tuple(nums)
        self.cards_at = (line, vcol + len(value))

    @staticmethod
    def _expansion(word: str, line: int, col: int) -> str:
        try:
            select([word])
        except InputError as exc:
            hint = did_you_mean(word, EXPANSION_WORDS)
            message = f"unknown expansion {word!r}{hint}" if hint else str(exc)
            raise CityFormatError(message, line, col) from None
        return word.lower()

    def check_cards(self, city: City) -> None:
        """Refuse a ``cards:`` header that is not one game's set (too many, too few, a card twice)."""
        if not self.cards:
            return
        try:
            expected: int | None = cards_expected(city.expansions, None, city)
        except InputError:  # an Interstate mode that cannot be read: the scorer says why when scoring
            expected = None
        try:
            check_game_cards(self.cards, expected)
        except CardCountError as exc:
            line, end = self.cards_at
            column = self.card_columns[exc.index] if exc.index < len(self.card_columns) else end
            error = CardNumberError(f"cards: {exc}", line, column)
            error.code = exc.code
            raise error from None
