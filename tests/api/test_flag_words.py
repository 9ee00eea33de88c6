"""The engine names options and values, never a command-line flag; the command line and the service put
its advice in flag words at their edge (games/flags.py), the same words as before the split."""

from __future__ import annotations

import pytest

from games.flags import breakdown_in_flag_words, flag_words
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.errors import InputError
from scoring.tally import parse_tally
from scoring.wagons import parse_town, score_town
from scoring.wagons.check import check_town_tally

TOWN = "P/c  P/b  D/w\nS/m  M/g  W/f\n"


def _sprawlopolis_advice() -> list[str]:
    out = []
    for city, expansions in (
        ("R:EW!  C:EW  P\nP I C\n", ["construction"]),
        ("R:EW C P\nP I C\n", ["beaches"]),
        ("R:EW C P\n=====\nP I C\n", ["interstate"]),
        ("R:EW C P\nP I C\n", ["roadwork"]),
        ("R:EW* C P\nP I C\n", []),
    ):
        bd = score_city(parse_city(city), [], expansions)
        out += [i.detail for i in bd.items] + list(bd.notes)
    return out


def _errors() -> list[str]:
    out = []
    attempts = [
        lambda: score_city(parse_city("R:EW C P\n=====\nP I C\n"), [], ["interstate:competitive"]),
        lambda: score_town(parse_town(TOWN), scenario="boomtown"),
        lambda: score_town(parse_town(TOWN), goals=["one-too-many"]),
        lambda: check_town_tally(score_town(parse_town(TOWN)), parse_tally("opponent 3\n")),
    ]
    for attempt in attempts:
        with pytest.raises(InputError) as err:
            attempt()
        out.append(str(err.value))
    return out


def test_the_engine_names_no_flag() -> None:
    missing = score_town(parse_town(TOWN), opponent_pile=[1, 2, 3], scenario="defensible-position")
    texts = [*_sprawlopolis_advice(), *_errors(), *dict(missing.extra)["opponent"]["missing"]]
    assert not [t for t in texts if "--" in t]
    assert sum("option " in t for t in texts) >= 8


@pytest.mark.parametrize(
    ("engine", "flags"),
    [
        (
            "(set option construction-penalty=N, or a 'construction-penalty: N' header, N being",
            "(pass --option construction-penalty=N, or a 'construction-penalty: N' header, N being",
        ),
        (
            "Set option construction-penalty=N with the penalty",
            "Pass --option construction-penalty=N with the penalty",
        ),
        (
            "(set option beach-cards=peninsula, or choose expansion beach:waterfront, …).",
            "(pass --option beach-cards=peninsula, or --expansion beach:waterfront, …).",
        ),
        ("in play with option beach-cards=CARD (one of", "in play with --option beach-cards=CARD (one of"),
        (
            "(set option interstate-mode=competitive and option interstate-card=CARD for",
            "(pass --option interstate-mode=competitive and --option interstate-card=CARD for",
        ),
        (
            "(add expansion poi, or an 'expansions: poi' header).",
            "(add it with --expansion poi or an 'expansions: poi' header).",
        ),
        (
            "card numbers (opponent-pile 1 4 7) or counts (opponent-pile prairie=5 wagon=3)",
            "card numbers (--opponent-pile 1 4 7) or counts (--opponent-pile prairie=5 wagon=3)",
        ),
        (
            "the opponent's town (opponent-town) or pile (opponent-pile N …)",
            "the opponent's town (--opponent-town FILE) or pile (--opponent-pile N …)",
        ),
        (
            "no opponent was given (opponent-pile or opponent-town)",
            "no opponent was given (--opponent-pile or --opponent-town)",
        ),
        # Not advice: left as it is.
        (
            "unknown option 'opponent-pile' for Sprawlopolis; expected one of: beach-cards",
            "unknown option 'opponent-pile' for Sprawlopolis; expected one of: beach-cards",
        ),
        (
            "the poi expansion is not selected, so they score nothing",
            "the poi expansion is not selected, so they score nothing",
        ),
    ],
)
def test_flag_words(engine: str, flags: str) -> None:
    assert flag_words(engine) == flags


def test_every_piece_of_engine_advice_gets_a_flag() -> None:
    advice = [t for t in _sprawlopolis_advice() + _errors() if "option " in t or "(opponent-" in t]
    assert advice and all("--" in flag_words(t) for t in advice)


def test_a_breakdown_in_flag_words_keeps_the_city_and_rewords_the_opponent() -> None:
    town = parse_town(TOWN)
    bd = score_town(town, opponent_pile=[1, 2, 3], scenario="defensible-position")
    worded = breakdown_in_flag_words(bd)
    assert worded.city == bd.city and worded.total == bd.total
    assert "--option opponent-undiscovered=N" in dict(worded.extra)["opponent"]["missing"][0]
