"""Expansions named in the sources whose rules were never transcribed, so they cannot be scored."""

from __future__ import annotations

from scoring.expansions.errors import UnsupportedExpansionError


def unsupported_error(title: str) -> UnsupportedExpansionError:
    """The error for asking to score ``title`` (``"Stew: Fungus Among Us"`` …), saying why it is refused.

    Examples
    --------
    >>> unsupported_error("Stew: Fungus Among Us").code
    'unsupported_expansion'
    """
    return UnsupportedExpansionError(
        f"{title} is not supported: its rules were not available to this project (the source rule book "
        "marks them as missing), so it cannot be scored without guessing"
    )
