"""The colour cast between a city photo and its deck photo, found by the zones (vision.deck.cast)."""

from __future__ import annotations

import numpy as np

from vision.deck.cast import apply_cast, zone_cast
from vision.deck.look import CityLook, to_lab

# Four flat grounds of a print with no white: cream, lilac, a mid green, a brick red.
GROUNDS = np.array([[(236, 214, 160), (150, 120, 170), (80, 150, 90), (180, 70, 60)]], np.uint8)
LOOK = CityLook(to_lab(GROUNDS)[0], np.full(4, 8.0, np.float32), 5.0)


def _city(cast: tuple[float, float, float], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Cell grounds (Lab) of a city of 10 blocks a zone and 20 table cells in ``cast``, and each cell's
    zone (-1 for the table)."""
    rng = np.random.default_rng(seed)
    zones = np.repeat(np.arange(4), 10)
    blocks = GROUNDS[0][zones].astype(np.float32) + rng.normal(0, 3, (40, 3))
    table = np.array([(120, 100, 80)], np.float32) + rng.normal(0, 6, (20, 3))
    rgb = np.clip(np.concatenate([blocks, table]) * np.array(cast), 0, 255).astype(np.uint8)
    return to_lab(rgb[None])[0], np.concatenate([zones, np.full(20, -1)])


def _nearest(grounds: np.ndarray) -> np.ndarray:
    return LOOK.zone_logp(grounds)[0].argmax(axis=1)


def test_a_city_in_a_blue_cast_reads_its_zones_after_the_cast_is_taken_out() -> None:
    grounds, zones = _city((0.8, 0.95, 1.3))
    blocks = zones >= 0
    assert (_nearest(grounds)[blocks] != zones[blocks]).sum() >= 5  # the cast alone misnames blocks
    moved = apply_cast(grounds, zone_cast(LOOK, grounds))
    assert (_nearest(moved)[blocks] == zones[blocks]).all()


def test_a_city_in_the_deck_photos_light_keeps_its_colours() -> None:
    grounds, _ = _city((1.0, 1.0, 1.0), seed=1)
    gains = zone_cast(LOOK, grounds)
    assert gains.tolist() == [1.0, 1.0, 1.0]
    assert apply_cast(grounds, gains) is grounds


def test_a_few_cells_carry_no_cast() -> None:
    grounds, _ = _city((0.7, 1.0, 1.3))
    assert zone_cast(LOOK, grounds[:8]).tolist() == [1.0, 1.0, 1.0]
