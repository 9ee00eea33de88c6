"""The installed package's version, which the command line and the service both report."""

from __future__ import annotations

import importlib.metadata

__all__ = ["version"]


def version() -> str:
    """The installed package's version (``0+unknown`` when run from a tree that is not installed)."""
    try:
        return importlib.metadata.version("sprawlscan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"
