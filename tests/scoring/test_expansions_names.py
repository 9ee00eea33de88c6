"""Expansion names: aliases, unknown names and the two unsupported expansions."""

from __future__ import annotations

import pytest

from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.errors import InputError
from scoring.expansions import (
    ExpansionOptionError,
    UnknownExpansionError,
    UnsupportedExpansionError,
    expansion_items,
    select,
)

CITY = parse_city("R:EW  C:EW\n")


def test_aliases_map_to_canonical_names() -> None:
    chosen = select(
        ["Points of Interest", "construction_zones", "WRECKTAR", "beach:Lookout Point", "roadwork"]
    )
    assert chosen.names == {"poi", "construction", "wrecktar", "beaches", "roadwork"}
    assert chosen.beach_cards == ("lookout-point",)


def test_unknown_expansion_names_the_known_ones() -> None:
    with pytest.raises(UnknownExpansionError) as err:
        select(["volcano"])
    assert "volcano" in str(err.value)
    for name in ("poi", "construction", "wrecktar", "beaches", "interstate", "roadwork"):
        assert name in str(err.value)
    assert isinstance(err.value, InputError)


@pytest.mark.parametrize("name", ["stew", "Fungus Among Us", "tussie-mussie", "Flower Shoppe"])
def test_unsupported_expansions_say_why(name: str) -> None:
    with pytest.raises(UnsupportedExpansionError, match="not supported: its rules were not available"):
        expansion_items(CITY, [name], {}, [])


def test_engine_passes_unknown_names_on_as_input_errors() -> None:
    with pytest.raises(InputError, match="unknown expansion"):
        score_city(CITY, expansions=["volcano"])


def test_only_beaches_and_interstate_take_an_argument() -> None:
    with pytest.raises(UnknownExpansionError):
        select(["wrecktar:big"])


def test_interstate_is_never_scored_as_extra_lines() -> None:
    with pytest.raises(ExpansionOptionError, match="interstate-mode"):
        expansion_items(CITY, ["interstate:competitive"], {}, [])
