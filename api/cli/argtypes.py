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


EXPANSION_NAMES = "poi, construction, wrecktar, beaches, beach:peninsula, interstate, roadwork"


def add_game_choices(parser: argparse.ArgumentParser, cards_help: str, expansion_help: str) -> None:
    """``--cards N…`` and ``--expansion NAME…``, as ``scan``, ``score`` and ``check`` take them;
    ``expansion_help`` is followed by the expansion names."""
    parser.add_argument("--cards", nargs="+", type=whole("card number"), metavar="N", help=cards_help)
    parser.add_argument(
        "--expansion",
        action="extend",
        nargs="+",
        metavar="NAME",
        help=f"{expansion_help} ({EXPANSION_NAMES})",
    )
