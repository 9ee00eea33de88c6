"""Cards the reader read as the table beyond the edge of the town decoded: cells of the card region whose
own pixels are card, not table, but that lie outside the town read, where no doubt can name them.
Rendered random edition 7058 (taught; its photo's bottom rows darker), once the cells the photo's edge
cuts no longer counted in its card region, read a town two columns short and was scored with nine
territories silent. Such a town is not scored: untaught, the reader does not know these cards
(``needs_deck``); taught, the photo is to be taken again.

The rulebook town rendered in quiet light, read by the stand-in that knows the rendered truth, with the
card at its top right (its last column's only two territories) read as the table.
"""

from __future__ import annotations

from functools import cache

import pytest

import vision.towns.scan as scan_module
from tests.vision.town_standins import TruthReader, distribution
from vision.towns.arbitrate import Reading, best_lattice
from vision.towns.decode import decode_town
from vision.towns.doubt import land_beyond
from vision.towns.geometry import locate_town
from vision.towns.scan import CARDS_BEYOND, TownScan, scan_town
from vision.towns.text import decoded_town

from .test_town_scan import rulebook, rulebook_photo

pytestmark = pytest.mark.slow


# The rulebook town's top right card: rows 0-1, its last two columns (its last column holds no more).
TOP_RIGHT = ((0, 4), (0, 5), (1, 4), (1, 5))


@cache
def _reading(missed: tuple[tuple[int, int], ...]) -> tuple[Reading, TruthReader]:
    """The rulebook photo's reading on the lattice the truth's stand-in reads, its town cells ``missed``
    read as the table (the lattice is found with the right readings: the stand-in cannot read the views
    of the other period hypotheses that a poorer reading tries), and the stand-in."""
    image, truth = rulebook_photo(0.0)
    reader = TruthReader(image, truth)
    whole = scan_town(image, reader=reader)
    found = best_lattice(image, locate_town(image), reader, margins=False)
    readings = [[dict(cell) for cell in row] for row in found.readings]
    for r, c in missed:
        readings[whole.origin[0] + r][whole.origin[1] + c] = distribution(".")
    return Reading(found.geometry, readings, decode_town(readings, margins=False)), reader


@cache
def _scan(taught: bool, missed: tuple[tuple[int, int], ...]) -> TownScan:
    reading, reader = _reading(missed)
    return scan_town(rulebook_photo(0.0)[0], reader=reader, taught=taught, reading=reading)


def test_the_whole_town_read_is_scored_with_no_retake() -> None:
    scan = _scan(True, ())
    assert scan.retake is None and scan.town.grid == rulebook().grid


def test_a_taught_town_with_a_card_read_as_table_beyond_its_edge_is_retaken_not_scored() -> None:
    scan = _scan(True, TOP_RIGHT)
    assert scan.town.n_cols < rulebook().n_cols  # the card read as the table lies beyond the town
    assert scan.retake is not None and scan.retake.startswith(CARDS_BEYOND.split("{")[0])
    assert not scan.needs_deck and scan.to_json()["total"] is None


def test_a_town_already_retaken_is_not_looked_at_again_for_a_cut_by_the_photo_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def cut_by_frame(*_: object) -> tuple[str, ...]:
        raise AssertionError("the photo's edge looked at for a town already retaken")

    reading, reader = _reading(TOP_RIGHT)
    monkeypatch.setattr(scan_module, "cut_by_frame", cut_by_frame)
    # Untaught, a card read as the table: needs_deck.
    scan = scan_town(rulebook_photo(0.0)[0], reader=reader, reading=reading)
    assert scan.needs_deck and scan.retake is not None


def _beside(sure: float) -> tuple[str, ...]:
    """The cells beside the town read surely as land, when the town's top-right card is read as the table
    but for its cell (1, 5), read as a territory ``sure``: the decoding is the reading's own (that cell
    left as table, the town one column short)."""
    reading, _ = _reading(TOP_RIGHT)
    _, origin = decoded_town(reading.decoding)
    readings = [[dict(cell) for cell in row] for row in reading.readings]
    readings[origin[0] + 1][origin[1] + 5] = distribution("D/w", sure, ".")
    return land_beyond(reading.decoding, readings, origin)


def test_a_territory_read_surely_beside_the_town_that_no_card_placed_names_where_the_town_goes_on() -> None:
    assert _beside(0.99) == ("right of E2",)


def test_a_territory_read_unsurely_beside_the_town_is_not_named_beyond_it() -> None:
    assert _beside(0.6) == ()
