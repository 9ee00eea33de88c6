"""Property tests for the expansions over random legal cities from simulated play.

Every expansion rule is symmetric under turning the whole city by 180°, so each expansion line must keep
its points; with an interstate the two sides swap, so competitive players swap their scores and results.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.breakdown import Breakdown
from scoring.city import Cell, City
from scoring.engine import score_city
from scoring.expansions.interstate import CARDS as INTERSTATE_CARDS
from scoring.placement import simulate_play
from scoring.tally import check_tally, parse_tally
from tests.conftest import points_by_key

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = {
    "construction-penalty": "2",
    "roadwork-unplayed": "1",
    "beach-cards": "peninsula lookout scenic waterfront",
}
EXPANSIONS = ["poi", "construction", "wrecktar", "beaches", "roadwork"]


@st.composite
def cities(draw: st.DrawFn) -> City:
    """A random legal city with Wrecktar, Points of Interest and construction marks, ringed by beaches."""
    play = simulate_play(
        random.Random(draw(st.integers(0, 2**32 - 1))),
        draw(st.integers(2, 15)),
        wrecktar=draw(st.booleans()),
        poi=draw(st.booleans()),
        construction=draw(st.integers(0, 3)),
    )
    city = play.city
    if draw(st.booleans()):  # beaches along the north and south borders
        beach = tuple(Cell("beach") for _ in range(city.n_cols))
        city = replace(city, grid=(beach, *city.grid, beach))
    return replace(city, cards=(draw(st.sampled_from([(1, 12, 14), (2, 7, 17), (4, 8, 18), (5, 9, 11)]))))


@SETTINGS
@given(cities())
def test_expansion_lines_survive_turning_the_city(city: City) -> None:
    before = score_city(city, expansions=EXPANSIONS, options=OPTIONS)
    after = score_city(city.rotated(), expansions=EXPANSIONS, options=OPTIONS)
    assert points_by_key(after) == points_by_key(before)
    assert before.total == sum(i.points for i in before.items)


@SETTINGS
@given(cities())
def test_a_tally_copied_from_the_breakdown_always_agrees(city: City) -> None:
    bd = score_city(city, expansions=EXPANSIONS, options=OPTIONS)
    text = "\n".join(f"{i.label} {i.points}" for i in bd.items) + f"\ntotal {bd.total}\n"
    report = check_tally(bd, parse_tally(text))
    assert report.agrees, [c.why for c in report.checks if not c.agree]


@st.composite
def interstate_cities(draw: st.DrawFn) -> City:
    play = simulate_play(random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.integers(4, 15)))
    city = play.city
    line = draw(st.integers(1, city.n_rows - 1))
    return replace(city, interstate=line, cards=play.scoring_cards[:2])


def _players(bd: Breakdown) -> dict[str, Any]:
    info = dict(bd.extra)["interstate"]
    return {p["side"]: (p["total"], p["tiebreaker"]) for p in info["players"]} | {"winner": info["winner"]}


@SETTINGS
@given(interstate_cities(), st.sampled_from(sorted(INTERSTATE_CARDS)))
def test_turning_an_interstate_city_swaps_the_players(city: City, card: str) -> None:
    options = {"interstate-card": card}
    before = _players(score_city(city, expansions=["interstate"], options=options))
    after = _players(score_city(city.rotated(), expansions=["interstate"], options=options))
    assert after["north"] == before["south"] and after["south"] == before["north"]
    swap = {"north": "south", "south": "north", None: None}
    assert after["winner"] == swap[before["winner"]]


@SETTINGS
@given(interstate_cities(), st.sampled_from(["cooperative", "solo"]))
def test_cooperative_interstate_is_unchanged_by_turning(city: City, mode: str) -> None:
    options = {"interstate-mode": mode}
    before = score_city(city, expansions=["interstate"], options=options)
    after = score_city(city.rotated(), expansions=["interstate"], options=options)
    assert points_by_key(after) == points_by_key(before)
    # Each side's interstate part is a road, so there are always at least two.
    assert before.item("roads") is not None and before.item("roads").points <= -2  # type: ignore[union-attr]
