"""What the service repeats of a client's input: a bounded excerpt, never the whole of it.

Errors name what was wrong by quoting it (``cannot read cell 'XXXX'``), and the quote comes from the client:
a 900 kB cell token would come back as a 900 kB answer and a 900 kB log line. Every error answer and every
client-fault log line passes :func:`bounded`, so each long run of text is cut to an excerpt with an
ellipsis (its start and its end, which is what a person needs to find it) and the message as a whole to a
few lines' worth.

>>> bounded("cannot read cell '" + "X" * 1000 + "'")
"cannot read cell 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX…XXXXXXXXXXXXXXXXXX'"
"""

from __future__ import annotations

import re

__all__ = ["MAX_MESSAGE_CHARS", "MAX_RUN_CHARS", "bounded", "excerpt"]

MAX_RUN_CHARS = 80  # one token, path or quote: longer than any card, cell or field name
MAX_MESSAGE_CHARS = 1000  # the whole message: a few lines of text
_HEAD = 60
_RUN = re.compile(rf"\S{{{MAX_RUN_CHARS + 1},}}")


def excerpt(text: str, limit: int = MAX_RUN_CHARS) -> str:
    """``text`` itself when it is at most ``limit`` characters, else its start and end around ``…``
    (``limit`` characters in all).

    >>> excerpt("abc"), len(excerpt("x" * 500))
    ('abc', 80)
    """
    if len(text) <= limit:
        return text
    head = min(_HEAD, limit - 1)
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def bounded(message: str) -> str:
    """``message`` with each run of more than :data:`MAX_RUN_CHARS` non-space characters cut to an
    :func:`excerpt`, and the whole cut at :data:`MAX_MESSAGE_CHARS`."""
    short = _RUN.sub(lambda m: excerpt(m.group()), message)
    return short if len(short) <= MAX_MESSAGE_CHARS else short[: MAX_MESSAGE_CHARS - 1] + "…"
