"""How much of a photo's card region the Sprawlopolis cards explain: the measure by which a photo is told
to be a city (:mod:`games.telling`)."""

from __future__ import annotations

from vision.cards import CardStacking
from vision.city import Geometry

__all__ = ["cards_evidence"]


def cards_evidence(geometry: Geometry, decoding: CardStacking) -> tuple[float, int]:
    """The share of the card region of ``geometry`` that the card ``decoding`` shows a card in, and the
    region's cell count. The city's own blocks explained are not the measure: a scan may have found a
    small city in a corner of another game's card region."""
    region = geometry.occupied & geometry.visible
    shown = sum(cell.source == "card" and bool(region[rc]) for rc, cell in decoding.cells.items())
    cells = int(region.sum())
    return shown / max(1, cells), cells
