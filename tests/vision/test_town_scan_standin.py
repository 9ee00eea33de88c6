"""The town-scan tests' stand-in readers (tests/vision/town_standins.py) read what they claim."""

from __future__ import annotations

import pytest

from tests.vision.town_standins import distribution
from vision.towns import LABELS, TOKENS


def test_a_stand_in_distribution_is_one_the_decoding_takes() -> None:
    assert set(TOKENS) == {"." if t is None else t.token() for t in LABELS}
    dist = distribution("D/w", 0.9, "P/m")
    assert dist == pytest.approx({"D/w": 0.9, "P/m": 0.08})
