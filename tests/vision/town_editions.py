"""A town photo of one of the renderer's random Circle the Wagons editions (models.synth.wagons.edition),
for the tests of a taught print's towns: rendered once per seed."""

from __future__ import annotations

from functools import cache

import numpy as np

from models.synth.wagons.edition import random_edition
from models.synth.wagons.photo import render_town_photo
from scoring.wagons import Town, parse_town
from vision.photo.decode import WORK_LONG_SIDE, decode_image


@cache
def edition_town(seed: int) -> tuple[np.ndarray, Town]:
    """The working copy (RGB) of edition ``seed``'s town photo (photo seed ``10 * seed``) and its truth."""
    edition = random_edition(np.random.default_rng(seed))
    photo = render_town_photo(10 * seed, look=seed, edition=edition)
    return decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb, parse_town(photo.truth.city)
