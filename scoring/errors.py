"""The one error type for anything a user sent that cannot be used.

Every stage raises a subclass of :class:`InputError` for bad input; the command line turns it into a
one-line message and exit status 2, the web service into a 4xx JSON error with ``code``.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from the user: a malformed city, an unreadable photo, an unknown card number…"""

    code = "bad_input"


class TextFormatError(InputError):
    """Bad input in a text the user wrote; carries the 1-based ``line`` and ``column`` of the problem."""

    where = "line"  # how the message names the place, e.g. "tally line"

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{self.where} {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column

    @classmethod
    def decode(cls, text: str | bytes) -> str:
        """``text`` as a string without a byte-order mark; invalid UTF-8 raises this error at its place."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                line = text[: exc.start].count(b"\n") + 1
                column = exc.start - (text.rfind(b"\n", 0, exc.start) + 1) + 1
                raise cls("not a text file (invalid UTF-8)", line, column) from None
        return text.removeprefix("\ufeff")
