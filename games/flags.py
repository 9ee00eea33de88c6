"""The engine's advice in the command line's words: where a message names an option or an expansion
("set option construction-penalty=N", "add expansion poi"), the command line (and, for now, the page,
whose wording rules read the flags) gets the flag that sets it ("pass --option construction-penalty=N",
"add it with --expansion poi").

The engine (``scoring/``) names options and values only; this module is the one place that knows the
flags. It rewrites only the engine's own phrases in the messages of a breakdown (line details, notes, an
opponent's missing inputs) and of an error, never a city, a name or anything else the user sent.

>>> flag_words("the penalty was not given (set option construction-penalty=N).")
'the penalty was not given (pass --option construction-penalty=N).'
>>> flag_words("give it as card numbers (opponent-pile 1 4 7)")
'give it as card numbers (--opponent-pile 1 4 7)'
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from scoring.breakdown import Breakdown

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bSet option (?=[a-z-]+=)"), "Pass --option "),
    (re.compile(r"\bset option (?=[a-z-]+=)"), "pass --option "),
    (re.compile(r"(?<![-\w])option (?=[a-z-]+=)"), "--option "),
    (re.compile(r"\badd expansion ([a-z]+), or an\b"), r"add it with --expansion \1 or an"),
    (re.compile(r"\b(?:choose )?expansion (?=[a-z]+:[a-z-]+)"), "--expansion "),
    (re.compile(r"\(opponent-town\)"), "(--opponent-town FILE)"),
    (re.compile(r"(?<=[( ])(opponent-(?:pile|town))(?=[ )])"), r"--\1"),
)
_MESSAGE_KEYS = ("detail", "missing", "notes")


def flag_words(message: str) -> str:
    """``message`` with each option or expansion it names as the command-line flag that sets it."""
    for pattern, replacement in _RULES:
        message = pattern.sub(replacement, message)
    return message


def _in_json(value: Any) -> Any:
    """The messages inside an extra JSON field (an opponent's lines and missing inputs) in flag words."""
    if isinstance(value, dict):
        return {k: _messages(v) if k in _MESSAGE_KEYS else _in_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_json(v) for v in value]
    return value


def _messages(value: Any) -> Any:
    if isinstance(value, str):
        return flag_words(value)
    if isinstance(value, list):
        return [_messages(v) for v in value]
    return value


def breakdown_in_flag_words(breakdown: Breakdown) -> Breakdown:
    """``breakdown`` with the messages of its lines, notes and extra fields in flag words."""
    items = tuple(replace(i, detail=flag_words(i.detail)) for i in breakdown.items)
    return replace(
        breakdown,
        items=items,
        notes=tuple(flag_words(n) for n in breakdown.notes),
        extra=tuple((k, _in_json(v)) for k, v in breakdown.extra),
    )
