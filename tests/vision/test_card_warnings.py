"""The scoring cards choose which cards show the city's blocks and never change one; a card warning only
where the city is sure of it (issue 38, items 1 and 3)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from scoring.city import City
from scoring.city_text import parse_city
from scoring.layouts import LAYOUTS
from scoring.placement import simulate_play
from vision.cards.alike import cards_alike, same_blocks
from vision.cards.program import UNEXPLAINED_COST, CardProgram
from vision.cards.stacking import EMPTY_LABEL, CardStacking, CellEvidence, stack_program
from vision.pipeline import scan_image
from vision.read_cards import CITY_AGAINST_CARDS, SURE_MARGIN

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _certain_grid(city: City) -> list[list[CellEvidence]]:
    """The city as evidence read without a doubt, with a ring of table around it."""
    grid = [[CellEvidence({EMPTY_LABEL: 0.0})] * (city.n_cols + 2) for _ in range(city.n_rows + 2)]
    for r, c, cell in city.cells():
        label = (cell.zone, cell.road) if cell.is_block else EMPTY_LABEL
        grid[r + 1][c + 1] = CellEvidence({label: 0.0, **({EMPTY_LABEL: -12.0} if cell.is_block else {})})
    return grid


def _decoded(city: City) -> tuple[CardProgram, CardStacking]:
    program = CardProgram(_certain_grid(city), list(LAYOUTS), UNEXPLAINED_COST)
    return program, stack_program(program)


def _labels(decoding: CardStacking) -> dict[tuple[int, int], Any]:
    return {rc: d.label for rc, d in decoding.cells.items()}


def test_the_true_scoring_cards_leave_the_same_blocks_explained_as_well() -> None:
    truth = parse_city((SAMPLES / "demo.city").read_text())
    program, own = _decoded(truth)
    told = same_blocks(program, own, truth.cards)
    assert told is not None
    assert told.objective == own.objective or math.isclose(told.objective, own.objective, abs_tol=1e-6)
    assert _labels(told) == _labels(own)
    assert not {p.card for p in told.placements} & set(truth.cards)


def test_a_card_left_out_never_changes_a_block_and_one_the_blocks_need_costs_a_cell() -> None:
    truth = parse_city((SAMPLES / "demo.city").read_text())
    program, own = _decoded(truth)
    needed = 0
    for card in sorted({p.card for p in own.placements}):
        told = same_blocks(program, own, [card])
        if told is None or own.objective - told.objective >= CITY_AGAINST_CARDS:
            needed += 1
            continue
        assert _labels(told) == _labels(own) and card not in {p.card for p in told.placements}
    assert needed > 0  # fifteen cards whose blocks another card could all show would be no city


def _whole_cities() -> list[tuple[str, City]]:
    """The bundled samples and simulated games (their cities carry their scoring cards)."""
    out = [(p.stem, parse_city(p.read_text())) for p in sorted(SAMPLES.glob("*.city"))]
    for seed in range(100, 130):
        play = simulate_play(random.Random(seed), 15)
        out.append((f"game {seed}", replace(play.city, cards=tuple(play.scoring_cards))))
    return out


def test_the_cards_a_city_cannot_tell_apart_hold_its_true_scoring_cards() -> None:
    told, untold = 0, 0
    for name, truth in _whole_cities():
        program, own = _decoded(truth)
        if len(own.placements) != 15 or len(truth.cards) != 3:
            continue  # a card hidden, or an expansion's: the city names no three missing cards
        groups = cards_alike(program, own, (), SURE_MARGIN)
        could_lack = set(own.missing_cards()) | {card for g in groups for card in g}
        assert set(truth.cards) <= could_lack, name
        if groups:
            untold += 1
        else:  # a city that can tell names exactly its scoring cards
            told += 1
            assert set(own.missing_cards()) == set(truth.cards), name
    assert told >= 1 and untold >= 1


@cache
def _demo(*cards: int) -> dict[str, Any]:
    result = scan_image((SAMPLES / "demo.jpg").read_bytes(), cards=list(cards) or None)
    return {**result.to_json(), "city_read": result.city, "warnings": list(result.warnings)}


def _lacks(out: dict[str, Any]) -> list[int]:
    return sorted(set(LAYOUTS) - {p["card"] for p in out["placements"]})


def _blocks(city: City) -> list[tuple[int, int, str]]:
    return [(r, c, str(cell)) for r, c, cell in city.cells()]


def test_the_right_cards_given_bring_no_card_warning_and_the_placements_leave_them_out() -> None:
    truth = parse_city((SAMPLES / "demo.city").read_text())
    out = _demo(*truth.cards)
    assert out["warnings"] == []
    assert _lacks(out) == sorted(truth.cards) == out["scoring_cards"]["from_city"]
    assert out["scoring_cards_from_city"] == sorted(truth.cards)


def test_the_backs_read_right_agree_with_the_placements_and_from_city() -> None:
    out = _demo()
    assert out["warnings"] == [] and out["cards_source"] == "both"
    assert _lacks(out) == out["scoring_cards"]["from_city"] == out["scoring_cards"]["cards"]


def test_cards_the_city_holds_are_named_with_their_cells_and_no_block_moves() -> None:
    truth = parse_city((SAMPLES / "demo.city").read_text())
    right, wrong = _demo(*truth.cards), _demo(8, 7, 17)
    assert _blocks(wrong["city_read"]) == _blocks(right["city_read"])
    held = [p["card"] for p in wrong["placements"] if p["card"] in (8, 7, 17)]
    assert held, "the demo city holds some of 8, 7, 17"
    assert wrong["scoring_cards"]["in_doubt"] == sorted(held)
    for card in held:
        cells = [c["name"] for c in wrong["cells"] if c["card"] == card and c["label"] != "."]
        said = [w for w in wrong["warnings"] if f"scoring card {card} " in w]
        assert len(said) == 1 and all(name in said[0] for name in cells), (card, cells, said)
    for card in {8, 7, 17} - set(held):
        assert not any(f"scoring card {card} " in w for w in wrong["warnings"])
    assert wrong["scoring_cards"]["from_city"] == _lacks(wrong)
