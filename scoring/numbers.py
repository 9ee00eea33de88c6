"""The one reader for every number a user types, and JSON that cannot blow up.

:func:`whole_number` accepts ASCII digits only (``str.isdigit`` also accepts ``²`` and other digits that
``int`` refuses), an optional sign where negatives make sense, at most :data:`MAX_DIGITS` digits, and a
named range. :func:`load_json` parses JSON with a nesting limit and finite numbers only (Python's own
parser accepts ``NaN``, turns ``1e999`` into infinity, overflows the stack on deep nesting and refuses
integers over 4 300 digits with a bare ``ValueError``). Both raise :class:`NumberError` /
:class:`JSONError` (``ValueError`` subclasses, not yet an :class:`~scoring.errors.InputError`): the caller
names the field and the place.

>>> whole_number("17", lo=1, hi=18), whole_number("−3", lo=-99, hi=99)
(17, -3)
>>> whole_number("²", lo=1, hi=18)
Traceback (most recent call last):
...
scoring.numbers.NumberError: expected a whole number from 1 to 18, got '²'
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

MAX_DIGITS = 9  # a billion is far beyond any count or score in either game
MAX_JSON_DEPTH = 32
# Minus signs a keyboard or a word processor may give: ASCII hyphen, U+2212 minus, en dash.
_MINUS = "-−–"
_NUMBER = re.compile(rf"[+{re.escape(_MINUS)}]?[0-9]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class NumberError(ValueError):
    """A typed number that is not a whole number in the allowed range."""


class JSONError(ValueError):
    """JSON that is nested too deep or holds a number that is not finite or too long; ``token`` is the
    offending text when there is one (so a caller can find its line and column)."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


def whole_number(text: str, *, lo: int = 0, hi: int = 10**MAX_DIGITS - 1) -> int:
    """``text`` (surrounding spaces allowed) as an ``int`` in ``lo..hi``; raise :class:`NumberError`.

    A sign is accepted only when ``lo`` is negative (``+`` always); ``−`` and ``–`` count as minus.

    Examples
    --------
    >>> whole_number(" 7 "), whole_number("−2", lo=-9, hi=9)
    (7, -2)
    """
    stripped = text.strip()
    if (
        not _NUMBER.fullmatch(stripped)
        or len(stripped.lstrip("+" + _MINUS)) > MAX_DIGITS
        or (stripped[0] in _MINUS and lo >= 0)
    ):
        raise NumberError(f"expected a whole number from {lo} to {hi}, got {_show(text)}")
    value = int(stripped.translate({ord(m): "-" for m in _MINUS}))
    if not lo <= value <= hi:
        raise NumberError(f"expected a whole number from {lo} to {hi}, got {value}")
    return value


def _show(text: str) -> str:
    return repr(text) if len(text) <= 24 else repr(text[:20] + "…")


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (brackets inside strings do not count).

    Examples
    --------
    >>> json_depth('{"a": [1, "]]"]}')
    2
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if ch in "[{" else -1 for ch in brackets), default=0)


def _constant(name: str) -> Any:
    raise JSONError(f"numbers must be finite, got {name}", name)


def _float(text: str) -> float:
    if len(text) > 64:
        raise JSONError(f"the number {_show(text)} is too long", text)
    value = float(text)
    if not math.isfinite(value):
        raise JSONError(f"numbers must be finite, got {text}", text)
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise JSONError(f"the number {_show(text)} has more than 18 digits", text)
    return int(text)


def load_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON, refusing nesting deeper than ``max_depth``, ``NaN``/``Infinity``, overflowing floats and
    over-long numbers with :class:`JSONError`; syntax errors raise :class:`json.JSONDecodeError` as usual.

    Examples
    --------
    >>> load_json('{"parks": 7}')
    {'parks': 7}
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    depth = json_depth(text)
    if depth > max_depth:
        raise JSONError(f"the JSON is nested {depth} levels deep; at most {max_depth} are allowed")
    return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
