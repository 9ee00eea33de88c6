"""The Sprawlopolis expansions: which ones a game uses, their options, and their breakdown lines.

:func:`expansion_items` is the engine's single entry point for every expansion except Interstate, which
changes how the whole city is scored and so has its own entry point,
:func:`scoring.expansions.interstate.score_interstate`. The options each expansion reads are documented in
``scoring/expansions/README.md``; an option comes from the ``options`` mapping or, failing that, from a
``key: value`` header line of the city file.

The submodules import one another, never this package: it only gathers their public names.
"""

from scoring.expansions.errors import (
    ExpansionOptionError,
    InterstateError,
    UnknownExpansionError,
    UnsupportedExpansionError,
)
from scoring.expansions.lines import expansion_items
from scoring.expansions.options import Options, int_option, norm_name, option
from scoring.expansions.selection import EXPANSION_ALIASES, KNOWN_NAMES, UNSUPPORTED, Selection, select

__all__ = [
    "EXPANSION_ALIASES",
    "KNOWN_NAMES",
    "UNSUPPORTED",
    "ExpansionOptionError",
    "InterstateError",
    "Options",
    "Selection",
    "UnknownExpansionError",
    "UnsupportedExpansionError",
    "expansion_items",
    "int_option",
    "norm_name",
    "option",
    "select",
]
