"""A taught deck's comparison trusts each colour channel by how plainly it shows a drawing: a channel
compared normalised would otherwise make a faint pattern count as much as a drawn one, and a lamp's colour
cast turns a faint pattern over."""

from __future__ import annotations

import numpy as np

from vision.deck import TaughtDeck
from vision.deck.features import PATCH_SIZE, PROTO_SIZE, centre_windows, sliding_windows
from vision.deck.use import channel_trust, similarities_of


def _patch(road_l: float, road_a: float, road_b: float) -> np.ndarray:
    """A block's Lab patch (3, PATCH_SIZE): ground L 40, a* 15, b* 20, with a road of the given colour
    down its middle."""
    patch = np.empty((3, *PATCH_SIZE), np.float32)
    patch[:] = np.array([40.0, 15.0, 20.0], np.float32)[:, None, None]
    middle = slice(PATCH_SIZE[1] // 2 - 3, PATCH_SIZE[1] // 2 + 3)
    patch[:, :, middle] = np.array([road_l, road_a, road_b], np.float32)[:, None, None]
    return patch


def _deck(*patches: np.ndarray) -> TaughtDeck:
    prototypes = np.zeros((72, 3, *PROTO_SIZE), np.float32)
    prototypes[: len(patches)] = centre_windows(np.stack(patches))
    return TaughtDeck(prototypes)


def test_a_faint_channel_turned_over_by_a_colour_cast_does_not_outvote_the_drawn_ones() -> None:
    # Two prototypes alike in lightness and a*, their roads 2 b* units above and below the ground.
    deck = _deck(_patch(60.0, 0.0, 22.0), _patch(60.0, 0.0, 18.0))
    # The first block under a bluish lamp: its road's faint b* now lies below the ground.
    cell = _patch(58.0, 2.0, 17.5)[None]
    plain = similarities_of(sliding_windows(cell), deck)[0]
    trusted = similarities_of(sliding_windows(cell), deck, channel_trust(cell))[0]
    assert plain[1] - plain[0] > 0.4  # the faint channel alone decides, the wrong way
    assert abs(trusted[1] - trusted[0]) < 0.1


def test_a_cell_plain_in_every_channel_compares_as_without_trust() -> None:
    deck = _deck(_patch(70.0, 0.0, 40.0), _patch(10.0, 40.0, 0.0))
    cell = _patch(65.0, -5.0, 45.0)[None]
    plain = similarities_of(sliding_windows(cell), deck)[0]
    trusted = similarities_of(sliding_windows(cell), deck, channel_trust(cell))[0]
    assert np.allclose(plain[:2], trusted[:2], atol=0.01)
