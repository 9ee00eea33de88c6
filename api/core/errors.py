"""The base of the service's own bad-input errors, which carry their HTTP status (the engine's do not)."""

from __future__ import annotations

from scoring.errors import InputError


class ServiceError(InputError):
    """Bad input that only the web service can meet (an upload, a game store, a request body)."""

    status = 400
