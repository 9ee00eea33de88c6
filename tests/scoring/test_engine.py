"""score_city: base items, variants, cards, target, notes and how expansions are plugged in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from scoring import engine
from scoring.base import base_items
from scoring.breakdown import Breakdown, LineItem
from scoring.cards import RULING_EDGE, RULING_TIES, UnknownCardError
from scoring.city import City
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.errors import InputError
from tests.conftest import city, points_by_key

# The example city of shared/rules/city-format.md, worked by hand:
#   residential A1, C1, F2 are single blocks → 1; commercial B2+B3 → 2; industrial all single → 1;
#   parks D2, E2, C3, D3, E3 → 5; roads A1–F1, F2–F3, C2–B2–B3 → −3. Base 6.
#   8 The 'Burbs: three tied single residential blocks score −1 (A1: park A2, industrial B1), −4 (C1),
#     −1 (F2) → −1.  7 Central Perks: D2, E2 interior (+2), A2, C3, D3, E3 on the edge (−8) → −6.
#   17 Tourist Traps: D1 edge (+1), F1 corner (+2), B3 corner (+2), B2 interior → +5.
EXAMPLE = """\
cards: 8 7 17
R:EW  I:EW  R:EW  C:EW  I:EW  C:EW
P     C:SE  I:SW  P     P     R:SE
.     C:NS  P     P     P     I:NS
"""


def test_example_city_breakdown() -> None:
    bd = score_city(parse_city(EXAMPLE))
    assert points_by_key(bd) == {
        "largest:R": 1,
        "largest:C": 2,
        "largest:I": 1,
        "largest:P": 5,
        "roads": -3,
        "card:8": -1,
        "card:7": -6,
        "card:17": 5,
    }
    assert [i.key for i in bd.items][:5] == ["largest:R", "largest:C", "largest:I", "largest:P", "roads"]
    assert bd.total == 4 and bd.target == 32 and bd.won is False
    assert bd.cards == (8, 7, 17) and bd.game == "sprawlopolis"
    assert parse_city(bd.city) == parse_city(EXAMPLE)
    assert RULING_TIES in bd.notes  # the 'Burbs had to choose between tied groups


def test_item_labels_and_details_name_cells() -> None:
    bd = score_city(parse_city(EXAMPLE))
    park = bd.item("largest:P")
    assert park is not None and park.label == "Largest park group"
    assert park.detail == "5 blocks at D2, E2, C3, D3, E3."
    assert park.cells == ("D2", "E2", "C3", "D3", "E3")
    roads = bd.item("roads")
    assert roads is not None and "A1–B1–C1–D1–E1–F1" in roads.detail and "C2–B2–B3" in roads.detail
    residential = bd.item("largest:R")
    assert residential is not None and "3 groups tie" in residential.detail
    assert bd.item("card:8") is not None and bd.item("card:8").label == "The 'Burbs"  # type: ignore[union-attr]


def test_json_total_is_the_sum_of_items() -> None:
    data = score_city(parse_city(EXAMPLE)).to_json()
    assert data["total"] == sum(i["points"] for i in data["items"]) == 4
    assert data["target"] == 32 and data["won"] is False and data["cards"] == [8, 7, 17]


def test_cards_argument_overrides_header_and_may_be_partial() -> None:
    example = parse_city(EXAMPLE)
    bd = score_city(example, [17])
    assert [i.key for i in bd.items][-1] == "card:17" and bd.target == 17 and bd.total == 6 + 5
    none = score_city(example, [])
    assert none.target is None and none.won is None and none.total == 6


def test_more_than_three_cards_are_scored() -> None:
    bd = score_city(parse_city(EXAMPLE), range(1, 19))  # type: ignore[arg-type]
    assert bd.target == sum(range(1, 19)) and sum(1 for i in bd.items if i.key.startswith("card:")) == 18


@pytest.mark.parametrize(("cards", "message"), [([8, 19], "19"), ([0], "0"), ([8, 8], "given twice")])
def test_bad_cards_are_rejected(cards: list[int], message: str) -> None:
    with pytest.raises(UnknownCardError, match=message) as err:
        score_city(parse_city(EXAMPLE), cards)
    assert err.value.code == "unknown_card" and isinstance(err.value, InputError)


def test_unknown_variant_is_rejected() -> None:
    with pytest.raises(InputError, match="unknown variant 'nightmare'"):
        score_city(parse_city(EXAMPLE), variant="nightmare")
    with pytest.raises(InputError, match="unknown variant"):
        score_city(parse_city("variant: tough\n" + EXAMPLE))


def test_easier_variant_drops_the_road_penalty() -> None:
    bd = score_city(parse_city(EXAMPLE), variant="easier")
    roads = bd.item("roads")
    assert roads is not None and roads.points == 0 and "3 roads" in roads.detail
    assert bd.total == 4 + 3 and any("Easier" in n for n in bd.notes)


def test_harder_variant_counts_only_the_best_zone() -> None:
    bd = score_city(parse_city(EXAMPLE), variant="harder")
    assert points_by_key(bd)["largest:P"] == 5
    assert all(points_by_key(bd)[f"largest:{z}"] == 0 for z in "RCI")
    commercial = bd.item("largest:C")
    assert commercial is not None and "harder variant" in commercial.detail and "B2, B3" in commercial.detail
    assert bd.total == 4 - 1 - 2 - 1


def test_variant_from_header() -> None:
    text = EXAMPLE.replace("cards: 8 7 17", "cards: 8 7 17\nvariant: Easier")
    assert score_city(parse_city(text)).item("roads").points == 0  # type: ignore[union-attr]
    assert score_city(parse_city(text), variant="standard").item("roads").points == -3  # type: ignore[union-attr]


def test_edge_ruling_appears_in_notes_only_when_it_decides_a_line() -> None:
    gap = city(
        """\
        R  R  R  R
        R  P  .  R
        R  R  R  R
        """
    )
    assert RULING_EDGE in score_city(gap, [7]).notes
    assert RULING_EDGE not in score_city(parse_city(EXAMPLE)).notes


def test_city_without_blocks_scores_zero() -> None:
    bd = score_city(parse_city(".  .\n.  .\n"), list(range(1, 19)))
    assert bd.total == -8  # only Block Party's "no square" penalty applies
    assert bd.item("largest:R").detail == "no residential block in the city."  # type: ignore[union-attr]


def test_base_items_helper() -> None:
    items = base_items(parse_city(EXAMPLE), "standard")
    assert [i.points for i in items] == [1, 2, 1, 5, -3]
    with pytest.raises(InputError):
        base_items(parse_city(EXAMPLE), "odd")


# --- expansions are delegated to scoring.expansions --------------------------------------------------------


def test_expansion_items_are_appended_after_base_and_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def expansion_items(
        c: City, names: Sequence[str], options: Mapping[str, str], base: list[LineItem]
    ) -> tuple[list[LineItem], list[str]]:
        seen.update(names=tuple(names), options=dict(options), base=[i.key for i in base])
        return [LineItem("wrecktar", "Wrecktar", 3, "no commercial block in its rows and columns")], ["fake"]

    monkeypatch.setattr(engine, "expansion_items", expansion_items)
    text = "expansions: Wrecktar\nconstruction-penalty: 2\n" + EXAMPLE
    bd = score_city(parse_city(text), options={"roadwork-unplayed": "1"})
    assert seen["names"] == ("wrecktar",)
    assert seen["options"] == {"construction-penalty": "2", "roadwork-unplayed": "1"}
    assert seen["base"] == [*(f"largest:{z}" for z in "RCIP"), "roads", "card:8", "card:7", "card:17"]
    assert bd.items[-1].key == "wrecktar" and bd.total == 4 + 3 and "fake" in bd.notes


def test_interstate_is_scored_by_its_own_module(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    expected = Breakdown("sprawlopolis", "", (8,), ())

    def score_interstate(*args: object) -> Breakdown:
        calls.append(args)
        return expected

    monkeypatch.setattr(engine, "score_interstate", score_interstate)
    example = parse_city(EXAMPLE)
    assert score_city(example, [8], ["Interstate"], variant="harder") is expected
    assert calls == [(example, (8,), ("interstate",), "harder", {})]


def test_tied_largest_groups_are_noted_in_the_line() -> None:
    bd = score_city(city("R  R  C  R  R\nP  I  P  I  P\n"), [])
    residential = bd.item("largest:R")
    assert residential is not None and residential.points == 2
    assert residential.detail == (
        "2 blocks at A1, B1; 2 groups tie at this size (also D1, E1), any one of them scores the same."
    )
    assert RULING_TIES not in bd.notes  # a tie of equal groups decides nothing in the base score


def test_harder_variant_with_equal_zones_keeps_one() -> None:
    bd = score_city(city("R  C  I  P\n"), [], variant="harder")
    assert [i.points for i in bd.items] == [1, 0, 0, 0, 0]


def test_expansions_given_as_one_string_are_split(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    monkeypatch.setattr(
        engine, "expansion_items", lambda c, names, options, base: (seen.append(names), ([], []))[1]
    )
    score_city(parse_city(EXAMPLE), expansions="Wrecktar, poi")  # type: ignore[arg-type]
    score_city(parse_city(EXAMPLE), expansions=["", " "])
    assert seen == [("wrecktar", "poi")]
