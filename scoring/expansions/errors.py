"""The errors of the expansions: a name, an option or a mark that cannot be scored as given."""

from __future__ import annotations

from scoring.errors import InputError


class UnknownExpansionError(InputError):
    """An expansion name this scorer does not know."""

    code = "unknown_expansion"


class UnsupportedExpansionError(InputError):
    """A known expansion whose rules are not available, so it cannot be scored."""

    code = "unsupported_expansion"


class ExpansionOptionError(InputError):
    """An expansion option (or an expansion mark in the city) that cannot be used as given."""

    code = "bad_expansion_option"


class InterstateError(InputError):
    """An Interstate game that cannot be scored as described (no interstate line, unknown mode or card)."""

    code = "bad_interstate"
