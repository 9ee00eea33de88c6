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
so the same checker serves Sprawlopolis and Circle the Wagons breakdowns.
"""

from __future__ import annotations

import difflib
import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.breakdown import Breakdown, LineItem
from scoring.errors import TextFormatError
from scoring.numbers import JSONError, NumberError, load_json, whole_number

MAX_POINTS = 9999  # far above any line of either game; bigger numbers are typing mistakes
#: The longest tally read, text or JSON (the web service's limit on a city's text too); a hand tally is a
#: few lines, and the command line refuses a longer file the same way (exit 2, one line).
MAX_TALLY_CHARS = 20_000


class TallyFormatError(TextFormatError):
    """A tally that cannot be read; the message names the line and column of the first problem."""

    code = "malformed_tally"
    where = "tally line"


@dataclass(frozen=True)
class TallyLine:
    """One line of a hand tally: what the player wrote, the points, and where (1-based line and column)."""

    label: str
    points: int
    line: int
    column: int = 1

    @property
    def is_total(self) -> bool:
        return _norm(self.label) in ("total", "sum", "score", "final score", "total score", "grand total")


# --- parsing ---------------------------------------------------------------------------------------------

_LINE = re.compile(
    r"^(?P<label>.*?\S)(?:\s*[:=]\s*|\s+)(?P<points>[+\-−–]?\s*[0-9]+)\s*(?:pts?|points?|vp)?\.?\s*$",
    re.IGNORECASE,
)


def parse_tally(text: str | bytes) -> list[TallyLine]:
    """Read a tally in the text or JSON form; raise :class:`TallyFormatError` naming line and column.

    JSON is recognised by a leading ``{`` or ``[``. An empty tally (nothing but comments) is an error.

    Examples
    --------
    >>> [(line.label, line.points) for line in parse_tally("parks 7\\nroads -2\\n")]
    [('parks', 7), ('roads', -2)]
    """
    text = TallyFormatError.decode(text)
    if len(text) > MAX_TALLY_CHARS:
        raise TallyFormatError(
            f"the tally is longer than {MAX_TALLY_CHARS:,} characters (a hand tally is a few lines)",
            *_Positions(text).at(MAX_TALLY_CHARS),
        )
    lines = _parse_json(text) if text.lstrip()[:1] in ("{", "[") else _parse_text(text)
    if not lines:
        raise TallyFormatError("the tally is empty (expected lines such as 'parks 7')", 1, 1)
    return lines


def _parse_text(text: str) -> list[TallyLine]:
    out: list[TallyLine] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        bad = next((i for i, ch in enumerate(raw) if not ch.isprintable() and ch != "\t"), None)
        if bad is not None:
            raise TallyFormatError(f"unexpected control character {raw[bad]!r}", lineno, bad + 1)
        content = raw.split("#", 1)[0].rstrip()
        if not content.strip():
            continue
        indent = len(content) - len(content.lstrip())
        m = _LINE.match(content.strip())
        if m is None or not re.search(r"[^\W\d_]|\d", m["label"].strip(" :=")):
            last = content.split()[-1]
            column = content.rfind(last) + 1
            if m is None and re.fullmatch(r"[+\-−–]?\d+", content.strip()):
                raise TallyFormatError("points without an item (expected e.g. 'parks 7')", lineno, indent + 1)
            raise TallyFormatError(
                f"expected an item and its points, as in 'parks 7' or 'card 8: 4'; cannot read {last!r} "
                "as a whole number",
                lineno,
                column,
            )
        label = m["label"].strip().rstrip(":=").strip()
        try:
            points = whole_number(re.sub(r"\s", "", m["points"]), lo=-MAX_POINTS, hi=MAX_POINTS)
        except NumberError as exc:
            column = indent + m.start("points") + 1
            raise TallyFormatError(f"points: {exc}", lineno, column) from None
        out.append(TallyLine(label, points, lineno, indent + 1))
    return out


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class _Positions:
    """Line and column of offsets in ``text`` and of the first place each JSON string is written, all
    found in one pass (searching the whole text once per key, as before, was quadratic in the keys)."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]
        self.text = text
        self.first: dict[str, int] | None = None

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def key(self, key: str) -> tuple[int, int]:
        """Where ``key`` is first written as a JSON string (as ``json.dumps`` writes it), else (1, 1)."""
        if self.first is None:
            self.first = {}
            for m in _JSON_STRING.finditer(self.text):
                self.first.setdefault(m.group(), m.start())
        offset = self.first.get(json.dumps(key))
        return (1, 1) if offset is None else self.at(offset)


def _parse_json(text: str) -> list[TallyLine]:
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise TallyFormatError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except JSONError as exc:
        offset = text.find(exc.token) if exc.token else -1
        raise TallyFormatError(f"invalid JSON: {exc}", *_Positions(text).at(max(offset, 0))) from None
    where = _Positions(text).key

    def points(value: Any, label: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            raise TallyFormatError(f"{label!r}: points must be a whole number, got {value!r}", *where(label))
        if abs(value) > MAX_POINTS:
            message = f"{label!r}: points must lie between {-MAX_POINTS} and {MAX_POINTS}, got {value!r}"
            raise TallyFormatError(message, *where(label))
        return int(value)

    entries: list[tuple[str, Any]] = []
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        rows, total = data["items"], data.get("total")
    elif isinstance(data, list):
        rows, total = data, None
    elif isinstance(data, dict):
        rows, total = None, None
        entries = [(str(k), v) for k, v in data.items()]
    else:
        raise TallyFormatError("expected a JSON object or list of items", 1, 1)
    if rows is not None:
        for i, row in enumerate(rows, start=1):
            if not isinstance(row, dict):
                raise TallyFormatError(
                    f"item {i}: expected an object like {{'item': 'parks', 'points': 7}}", 1, 1
                )
            label = row.get("item", row.get("key", row.get("label")))
            if not isinstance(label, str) or not label.strip() or "points" not in row:
                raise TallyFormatError(f"item {i}: needs an 'item' name and 'points'", 1, 1)
            entries.append((label, row["points"]))
        if total is not None:
            entries.append(("total", total))
    out = []
    for label, value in entries:
        line, column = where(label)
        out.append(TallyLine(label.strip(), points(value, label), line, column))
    return out


# --- matching --------------------------------------------------------------------------------------------

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


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower().replace("'", "").replace("’", "")).split())


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
    words = _norm(text.replace(":", " ")).split()
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
        self.names = [(_norm(i.key), _norm(i.label), i.key.lower()) for i in self.items]
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
    text = _norm(label)
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
