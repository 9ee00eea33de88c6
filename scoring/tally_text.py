r"""Reading a hand tally: a player's own score sheet, as text or JSON (``docs/tally-format.md``), into
:class:`TallyLine` items, each with where it was written, so that every error names its line and column.
Checking the items against a computed breakdown is :mod:`scoring.tally`'s.

>>> [(t.label, t.points, t.line) for t in parse_tally("parks 7\nroads: -5\n")]
[('parks', 7, 1), ('roads', -5, 2)]
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from scoring.errors import TextFormatError
from scoring.numbers import JSONError, NumberError, load_json, whole_number

MAX_POINTS = 9999  # far above any line of either game; bigger numbers are typing mistakes
#: The longest tally read, text or JSON (the web service's limit on a city's text too); a hand tally is a
#: few lines, and the command line refuses a longer file the same way (exit 2, one line).
MAX_TALLY_CHARS = 20_000


# What a player writes on the line of the whole score.
TOTAL_WORDS = ("total", "sum", "score", "final score", "total score", "grand total")


def plain_words(text: str) -> str:
    """``text`` lower-cased, apostrophes dropped, every run of other signs one space."""
    return " ".join(re.sub(r"[^\w]+", " ", text.lower().replace("'", "").replace("’", "")).split())


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
        return plain_words(self.label) in TOTAL_WORDS


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
