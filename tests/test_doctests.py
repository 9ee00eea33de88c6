"""The examples in the docstrings of the scan's newer modules run, and say what the code does."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "vision.card_decoding",
        "vision.card_program",
        "vision.evaluate",
        "vision.zone_colour",
        "vision.colour",
        "vision.city_as_cards",
    ],
)
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "vision.card_program":
        assert result.attempted > 0
