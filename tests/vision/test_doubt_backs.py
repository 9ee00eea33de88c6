"""Doubt from the scoring cards' backs: a block that three backs read surely settled into another reading
than the city's own stays in doubt, the city's own reading offered first."""

from __future__ import annotations

from tests.vision.test_doubt_order import CORNER, CORNER_CARDS, _as_cards
from vision.city.assemble import assemble_city
from vision.city.doubt import find_doubts


def test_a_block_the_backs_settled_is_doubted_with_the_citys_own_reading_first() -> None:
    as_cards = _as_cards(CORNER, CORNER_CARDS)
    assembled = assemble_city(as_cards.readings)
    (doubt,) = find_doubts(assembled, as_cards, settled={(1, 1): ("I", "SW")})
    assert (doubt.name, doubt.reading, doubt.sources) == ("B2", "I:NS", ("backs",))
    assert doubt.alternatives[0] == "I:SW"
    assert "I:SW" in doubt.why and "backs" in doubt.why


def test_a_city_the_backs_settled_nothing_in_raises_no_doubt_from_them() -> None:
    as_cards = _as_cards(CORNER, CORNER_CARDS)
    assert find_doubts(assemble_city(as_cards.readings), as_cards, settled={}) == ()
