"""argparse types for the numbers typed on the command line, read by :func:`scoring.numbers.whole_number`
(ASCII digits only, at most nine, in a named range) like every other number a user types."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from scoring.numbers import NumberError, whole_number


def whole(what: str, lo: int = 0, hi: int = 999_999_999) -> Callable[[str], int]:
    """An argparse ``type`` reading ``what`` as a whole number in ``lo..hi`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        try:
            return whole_number(text, lo=lo, hi=hi)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(f"{what}: {exc}") from None

    parse.__name__ = what  # argparse names the type in its messages
    return parse
