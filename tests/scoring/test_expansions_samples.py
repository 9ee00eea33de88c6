"""The bundled sample cities: each is a legal play of real card layouts, and scores as its expected file says.

Every ``samples/*.city`` carries its play as ``# play:`` comment lines (one line per player's group of cards,
``# play+`` continuing a line): card number, ``r`` when turned 180°, then the lattice row,col of its
top-left block; ``poi@r,c`` and ``wrecktar@r,c`` for the Points of Interest card and Wrecktar. The grid must
be exactly what that play leaves visible (beach cells only where no card lies).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.city import EMPTY, Cell, cell_name
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.placement import Placement, placement_problems, visible_city
from scoring.report import render_text

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CITIES = sorted(SAMPLES.glob("*.city"))
_CARD = re.compile(r"^(?:(?P<number>\d+)(?P<rot>r?)|(?P<kind>poi|wrecktar))@(?P<row>\d+),(?P<col>\d+)$")

# Expansion lines worked out by hand from each grid (see the comment beside each).
HAND_CHECKED = {
    # '*' at C3 (park): C2, B3 and C4 are parks, D3 is commercial.
    "poi": {"poi": 3},
    # Two '!' zones (C5, G5) at the header's penalty of 2.
    "construction": {"construction": -4},
    # Wrecktar on D1:E2; commercial B1 and F1 (rows 1-2), D3 and D6 (column D); none in column E.
    "wrecktar": {"wrecktar": -8},
    # Beaches on rows 1 and 8; blocks in the six rows between: 10 − 6.
    "beaches": {"beach:peninsula": 4},
    "roadwork": {"roadwork": -1},
}


def _play_groups(text: str) -> list[list[Placement]]:
    groups: list[list[Placement]] = []
    for line in text.splitlines():
        if line.startswith("# play:"):
            groups.append([])
        elif not line.startswith("# play+"):
            continue
        for token in line[7:].split():
            m = _CARD.match(token)
            assert m, f"cannot read play token {token!r}"
            kind = m["kind"] or "city"
            number = int(m["number"]) if m["number"] else 0
            groups[-1].append(Placement(number, m["rot"] == "r", int(m["row"]), int(m["col"]), kind))  # type: ignore[arg-type]
    return groups


def _plain(cell: Cell) -> Cell:
    return replace(cell, poi=False, construction=False)


@pytest.mark.parametrize("path", CITIES, ids=lambda p: p.stem)
def test_sample_is_a_legal_play_of_real_cards(path: Path) -> None:
    text = path.read_text()
    city = parse_city(text)
    groups = _play_groups(text)
    assert groups, "the sample has no '# play:' line"
    for group in groups:
        assert placement_problems(group) == []
    numbers = [p.number for g in groups for p in g if p.kind == "city"]
    assert len(numbers) == len(set(numbers)), "a card is played twice"
    assert not set(numbers) & set(city.cards), "a scoring card cannot also lie in the city"
    visible: dict[tuple[int, int], Cell] = {}
    poi_cells: set[tuple[int, int]] = set()
    for group in groups:
        shown = visible_city(group)
        for r, c, cell in shown.cells():
            if cell.kind != "empty":
                assert (r, c) not in visible, f"the players' cards overlap at {cell_name(r, c)}"
                visible[(r, c)] = cell
        poi_cells |= {cell for p in group if p.kind == "poi" for cell in p.cells()}
        if city.interstate is not None:
            for p in group:
                sides = {r < city.interstate for r, _ in p.cells()}
                assert len(sides) == 1, f"card {p.number} lies across the interstate"
    for r, c, cell in city.cells():
        expected = visible.get((r, c), EMPTY)
        if cell.kind == "beach":
            assert expected == EMPTY, f"beach cell {cell_name(r, c)} lies on a card"
        else:
            assert _plain(cell) == expected, f"{path.name} {cell_name(r, c)}"
        if cell.poi:
            assert (r, c) in poi_cells, "the Point of Interest must be a block of the Points of Interest card"
    assert all(0 <= r < city.n_rows and 0 <= c < city.n_cols for r, c in visible), (
        "the play spills off the grid"
    )


@pytest.mark.parametrize("path", CITIES, ids=lambda p: p.stem)
def test_sample_breakdown_matches_its_expected_file(path: Path) -> None:
    expected = path.with_suffix(".expected.txt")
    breakdown = score_city(parse_city(path.read_text()))
    assert render_text(breakdown) == expected.read_text(), (
        f"{path.name} now scores differently; check the difference by hand, then rewrite the expected file "
        f"with: .venv/bin/sprawlscan score samples/{path.name} > samples/{expected.name}"
    )


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_sample_expansion_lines_match_the_hand_count(name: str) -> None:
    breakdown = score_city(parse_city((SAMPLES / f"{name}.city").read_text()))
    assert {k: breakdown.item(k).points for k in HAND_CHECKED[name]} == HAND_CHECKED[name]  # type: ignore[union-attr]


def test_every_expansion_has_a_sample() -> None:
    used = {e for path in CITIES for e in parse_city(path.read_text()).expansions}
    assert used >= {"poi", "construction", "wrecktar", "beaches", "interstate", "roadwork"}
    assert (SAMPLES / "example.city").exists()  # used by `make demo`


def test_interstate_sample_is_a_competitive_game_with_a_tiebreak() -> None:
    breakdown = score_city(parse_city((SAMPLES / "interstate.city").read_text()))
    info = dict(breakdown.extra)["interstate"]
    assert [p["total"] for p in info["players"]] == [1, 1]
    assert (info["winner"], info["decided_by"]) == ("south", "tiebreaker")
