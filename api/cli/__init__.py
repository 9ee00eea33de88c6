"""The ``sprawlscan`` command line: :func:`main` (the ``sprawlscan`` script, ``python -m api.cli``) hands each
subcommand to its own module here."""

from __future__ import annotations

from api.cli.dispatch import build_parser, main

__all__ = ["build_parser", "main"]
