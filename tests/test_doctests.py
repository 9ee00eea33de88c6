"""The examples in the docstrings of every module (scoring/, vision/, api/, models/) run, and say what the
code does."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "games", "api", "models")
# Modules that cannot be imported by the test run, and why; each must hold no example (checked below).
NOT_IMPORTABLE = {
    "api.cli.__main__": "runs the command line on import (python -m api.cli)",
    "api.storage.migrations.env": "an Alembic script, run by Alembic with its context set up",
    "models.export": "needs torch (the train extra)",
    "models.net": "needs torch (the train extra)",
    "models.train": "needs torch (the train extra)",
    "models.train_numbers": "needs torch (the train extra)",
    "models.train_territories": "needs torch (the train extra)",
}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


@pytest.mark.parametrize("name", sorted(set(MODULES) - set(NOT_IMPORTABLE)))
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    # Examples written where doctest does not look (in a comment, a nested function) would never run.
    assert result.attempted > 0 or ">>>" not in MODULES[name].read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(NOT_IMPORTABLE))
def test_modules_not_imported_here_have_no_examples(name: str) -> None:
    assert ">>>" not in MODULES[name].read_text(encoding="utf-8"), NOT_IMPORTABLE[name]


def test_every_module_is_collected() -> None:
    modules = {
        "scoring.engine",
        "vision.cells.white_balance",
        "games.flags",
        "games.registry",
        "games.telling",
        "models.cellset",
    }
    assert modules <= set(MODULES)
    assert set(NOT_IMPORTABLE) <= set(MODULES)
