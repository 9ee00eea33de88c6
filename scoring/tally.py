"""Hand tallies: read a player's own score sheet and compare it, line by line, with a computed breakdown.

A tally is a small text file, one item per line with its points last::

    # our game on Sunday
    parks 7
    residential 6
    roads -5
    card 8: 4
    The 'Burbs 4
    wrecktar +3
    total 35

or JSON: ``{"parks": 7, "card:8": 4, "total": 35}`` or ``[{"item": "parks", "points": 7}, …]`` (also
``{"items": [...], "total": 35}``). Items are matched to breakdown lines generically — by key, by the words
of the label, by card number or name, with synonyms for zones and territories (``park``/``green``/``P``) —
so the same checker serves Sprawlopolis and Circle the Wagons breakdowns. Reading the tally is
:mod:`scoring.tally_text`'s (its names are here too); matching and judging its lines is this module's.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.breakdown import Breakdown, LineItem
from scoring.tally_text import (
    MAX_POINTS,
    MAX_TALLY_CHARS,
    TallyFormatError,
    TallyLine,
    parse_tally,
    plain_words,
)

__all__ = [
    "MAX_POINTS",
    "MAX_TALLY_CHARS",
    "LineCheck",
    "TallyFormatError",
    "TallyLine",
    "TallyReport",
    "check_tally",
    "parse_tally",
    "tokens",
]

# Words a player may use for a zone (Sprawlopolis) or a territory (Circle the Wagons), by stemmed form.
_SYNONYMS: dict[str, str] = {}
for _canonical, _words in {
    "park": "park parks green greens parkland",
    "residential": "residential res resi house houses home homes housing orange",
    "commercial": "commercial comm com shop shops store stores retail blue",
    "industrial": "industrial ind indus industry factory factories grey gray",
    "road": "road roads tax roadtax street streets",
    "desert": "desert deserts",
    "forest": "forest forests wood woods",
    "mountain": "mountain mountains mtn mtns",
    "plain": "plain plains prairie prairies prarie",
    "snow": "snow snowy",
    "water": "water waters lake lakes river",
    "wrecktar": "wrecktar monster",
    "poi": "poi",
}.items():
    for _word in _words.split():
        _SYNONYMS[_word] = _canonical
# Words that say nothing about which line is meant.
_STOP_WORDS = (
    "the a an of my our your largest biggest big group groups block blocks zone zones territory territories "
    "pt pts point points vp score scores card cards goal goals for and with"
)
_STOP = frozenset(_STOP_WORDS.split())


def _stem(word: str) -> str:
    if word in _SYNONYMS:
        return _SYNONYMS[word]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return _SYNONYMS.get(word, word)


def tokens(text: str) -> frozenset[str]:
    """The content words of ``text``: lower case, plurals and synonyms folded, filler words dropped.

    >>> sorted(tokens("Largest park group")), sorted(tokens("card 8: The 'Burbs"))
    (['park'], ['8', 'burb'])
    """
    words = plain_words(text.replace(":", " ")).split()
    return frozenset(_stem(w) for w in words if w not in _STOP)


def _item_tokens(item: LineItem) -> frozenset[str]:
    return tokens(item.key) | tokens(item.label)


@dataclass(frozen=True)
class LineCheck:
    """The verdict on one tally line: the breakdown item it matched (if any) and whether the points agree."""

    tally: TallyLine
    item: LineItem | None
    why: str

    @property
    def computed(self) -> int | None:
        return None if self.item is None else self.item.points

    @property
    def agree(self) -> bool | None:
        return None if self.item is None else self.item.points == self.tally.points

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.tally.line,
            "item": self.tally.label,
            "points": self.tally.points,
            "key": None if self.item is None else self.item.key,
            "label": None if self.item is None else self.item.label,
            "computed": self.computed,
            "agree": self.agree,
            "why": self.why,
        }


@dataclass(frozen=True)
class TallyReport:
    """A tally compared with a breakdown.

    ``checks`` follow the tally's lines (total lines excluded); ``missed`` are breakdown items no tally line
    matched; ``stated_total`` is the tally's own total line, if any. ``difference`` is the tally's total
    (stated, else the sum of its lines) minus the computed total.
    """

    breakdown: Breakdown
    checks: tuple[LineCheck, ...]
    missed: tuple[LineItem, ...]
    stated_total: TallyLine | None

    @property
    def tally_sum(self) -> int:
        return sum(c.tally.points for c in self.checks)

    @property
    def tally_total(self) -> int:
        return self.stated_total.points if self.stated_total is not None else self.tally_sum

    @property
    def computed_total(self) -> int:
        return self.breakdown.total

    @property
    def difference(self) -> int:
        return self.tally_total - self.computed_total

    @property
    def unmatched(self) -> tuple[LineCheck, ...]:
        return tuple(c for c in self.checks if c.item is None)

    @property
    def disagreeing(self) -> tuple[LineCheck, ...]:
        return tuple(c for c in self.checks if c.agree is False)

    @property
    def agrees(self) -> bool:
        """Every line matched and agrees, nothing that scores was left out, and the totals are equal."""
        return (
            not self.unmatched
            and not self.disagreeing
            and not any(i.points for i in self.missed)
            and self.difference == 0
            and (self.stated_total is None or self.stated_total.points == self.tally_sum)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "agree": self.agrees,
            "lines": [c.to_json() for c in self.checks],
            "missed": [i.to_json() for i in self.missed],
            "unmatched": [c.tally.line for c in self.unmatched],
            "total": {
                "tally": self.tally_total,
                "stated": None if self.stated_total is None else self.stated_total.points,
                "sum_of_lines": self.tally_sum,
                "computed": self.computed_total,
                "difference": self.difference,
            },
        }


class _Index:
    """What matching needs of a breakdown's items, worked out once per check rather than once per tally line
    (the per-line work made a long tally slow), and the typo corrections found so far."""

    def __init__(self, items: Sequence[LineItem]) -> None:
        self.items = list(items)
        self.names = [(plain_words(i.key), plain_words(i.label), i.key.lower()) for i in self.items]
        self.tokens = [_item_tokens(i) for i in self.items]
        self.vocabulary_set = {t for have in self.tokens for t in have}
        self.vocabulary = sorted(self.vocabulary_set)
        self.known = ", ".join(dict.fromkeys(item.label for item in self.items))
        self._close: dict[str, str] = {}

    def correct(self, word: str) -> str:
        """The vocabulary word closest to ``word`` (itself when none is close)."""
        if word not in self._close:
            close = difflib.get_close_matches(word, self.vocabulary, n=1, cutoff=0.8)
            self._close[word] = close[0] if close else word
        return self._close[word]


def _candidates(label: str, index: _Index) -> list[tuple[float, int]]:
    """(how well, index) for every item the tally label can mean, best first."""
    text = plain_words(label)
    lowered = label.strip().lower()
    exact = [i for i, (key, name, raw) in enumerate(index.names) if text in (key, name) or lowered == raw]
    if exact:
        return [(2.0, i) for i in exact]
    wanted = tokens(label)
    if not wanted:
        return []
    if not wanted <= index.vocabulary_set:  # forgive typos: map unknown words to close ones
        wanted = frozenset(index.correct(word) for word in wanted)
    found = [(len(wanted) / len(have), i) for i, have in enumerate(index.tokens) if wanted <= have]
    return sorted(found, key=lambda f: (-f[0], f[1]))


def check_tally(breakdown: Breakdown, lines: Sequence[TallyLine]) -> TallyReport:
    """Compare tally ``lines`` with ``breakdown``: each line is matched to at most one item and vice versa.

    A line whose best items are all taken by earlier lines is reported as matching nothing, naming the line
    that took them. Total lines (``total 35``) are compared with the computed total instead.
    """
    lookup = _Index(breakdown.items)
    items = lookup.items
    taken: dict[int, int] = {}  # item index -> tally line number
    checks: list[LineCheck] = []
    stated: TallyLine | None = None
    for line in lines:
        if line.is_total:
            stated = line
            continue
        found = _candidates(line.label, lookup)
        free = [i for _, i in found if i not in taken]
        best_score = max((s for s, i in found if i not in taken), default=None)
        if free and best_score is not None:
            index = next(i for s, i in found if i not in taken and s == best_score)
            taken[index] = line.line
            item = items[index]
            if item.points == line.points:
                why = item.detail
            else:
                why = f"computed {item.points}, tally says {line.points}: {item.detail}"
            checks.append(LineCheck(line, item, why))
        elif found:
            first = items[found[0][1]]
            why = f"{first.label} is already matched by tally line {taken[found[0][1]]}"
            checks.append(LineCheck(line, None, why))
        else:
            why = f"no line of the breakdown is called {line.label!r} (lines: {lookup.known})"
            checks.append(LineCheck(line, None, why))
    missed = tuple(item for i, item in enumerate(items) if i not in taken)
    return TallyReport(breakdown, tuple(checks), missed, stated)
