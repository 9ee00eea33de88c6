"""The one error type for anything a user sent that cannot be used.

Every stage raises a subclass of :class:`InputError` for bad input; the command line turns it into a
one-line message and exit status 2, the web service into a 4xx JSON error with ``code``.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from the user: a malformed city, an unreadable photo, an unknown card number…"""

    code = "bad_input"
    status = 400
