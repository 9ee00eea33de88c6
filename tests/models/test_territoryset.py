"""The territory training crops (models.territoryset) carry the rendered town's labels."""

from __future__ import annotations

from collections import Counter

import numpy as np

from models.territoryset import KINDS, NO_ICON, TABLE, render_territories, render_view
from vision.towns.territories import CROP_H, CROP_W, ICON_CLASSES, TERRAIN_CLASSES

SEED = 12_345  # far from the training and held-out seed ranges


def test_every_territory_of_the_town_is_labelled_once_per_look() -> None:
    _, cells, _ = render_view(SEED, (1.0, 1.0))
    data = render_territories(SEED, variants=2)
    assert data.crops.shape[1:] == (CROP_H, CROP_W, 3) and data.crops.dtype == np.uint8
    got = Counter(
        f"{TERRAIN_CLASSES[t]}/{ICON_CLASSES[i]}"
        for t, i, k in zip(data.terrain, data.icon, data.kind, strict=True)
        if k == KINDS.index("territory")
    )
    expected = Counter(token for *_, token in cells if token != ".")
    assert got == Counter({token: 2 * n for token, n in expected.items()})


def test_table_crops_have_no_icon_and_the_ring_is_table() -> None:
    data = render_territories(SEED, variants=1)
    table = data.terrain == TABLE
    assert (data.icon[table] == NO_ICON).all() and (data.icon[~table] >= 0).all()
    ring = data.kind == KINDS.index("ring")
    assert ring.any() and (data.terrain[ring] == TABLE).all()


def test_the_same_seed_gives_the_same_crops() -> None:
    a, b = render_territories(SEED, 1), render_territories(SEED, 1)
    assert np.array_equal(a.crops, b.crops) and np.array_equal(a.terrain, b.terrain)
    assert not np.array_equal(a.crops[:4], render_territories(SEED + 1, 1).crops[:4])
