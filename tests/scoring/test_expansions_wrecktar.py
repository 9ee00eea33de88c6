"""Wrecktar: −2 per commercial block in its two rows and two columns (own cells excluded); +3 for none."""

from __future__ import annotations

import pytest

from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.expansions import ExpansionOptionError
from scoring.expansions.wrecktar import wrecktar_item


def test_commercial_blocks_in_its_rows_and_columns() -> None:
    # Wrecktar covers B2:C3. Commercial in column C (C1), row 2 (D2) and column B (B4) count; A1 and
    # A4 lie in neither its rows nor its columns.
    city = parse_city("C  .  C  R\nI  W  W  C\nP  W  W  .\nC  C  R  P\n")
    [item], notes = wrecktar_item(city)
    assert item.key == "wrecktar"
    assert item.points == -6
    assert item.cells == ("C1", "D2", "B4")
    assert "row 2, row 3, column B and column C" in item.detail
    assert notes == []


def test_plus_three_when_no_commercial_block_is_in_line() -> None:
    city = parse_city("R  .  .  R\nI  W  W  P\nP  W  W  .\nC  R  R  P\n")
    [item], _ = wrecktar_item(city)
    assert item.points == 3


def test_diagonal_commercial_block_does_not_count() -> None:
    city = parse_city("C  .  .\n.  W  W\n.  W  W\n")
    [item], _ = wrecktar_item(city)
    assert item.points == 3


def test_wrecktar_must_cover_one_whole_card() -> None:
    with pytest.raises(ExpansionOptionError, match="2×2"):
        wrecktar_item(parse_city("W  W  W\nR  W  .\n"))


def test_no_wrecktar_cells_scores_zero_with_a_note() -> None:
    [item], notes = wrecktar_item(parse_city("C  R\n"))
    assert item.points == 0 and notes


def test_engine_total_includes_wrecktar() -> None:
    city = parse_city("expansions: wrecktar\nC  W  W\nP  W  W\n")
    scored = score_city(city)
    assert scored.item("wrecktar") is not None
    assert scored.total == score_city(city, expansions=[]).total - 2  # one commercial block, A1
