"""The two-town goal cards (One Too Many, Claim Jumpers, Smalltown Charm) against a town or a pile."""

from __future__ import annotations

import pytest

from scoring.wagons import MissingInputError, Pile, parse_town, pile_from_counts, score_town
from scoring.wagons.duels import claim_jumpers, one_too_many, smalltown_charm


def icons(**counts: int) -> Pile:
    """A pile of 4 cards of which only these icons were counted."""
    return pile_from_counts({**counts, "cards": 4})


def test_one_too_many_the_side_with_more_beers_pays() -> None:
    four_beers = parse_town("P/b  P/b  P/b  P/b\n")
    r = one_too_many(four_beers, icons(beer=1))
    assert (r.player, r.opponent) == (-1, 0)
    assert r.detail == "Beers: you 4, opponent 1; you have more, −1 per opponent Beer"
    r = one_too_many(parse_town("P/b  P/c\n"), icons(beer=3))
    assert (r.player, r.opponent) == (0, -1)
    r = one_too_many(parse_town("P/b  P/b\n"), icons(beer=2))
    assert (r.player, r.opponent) == (0, 0)
    assert "equal" in r.detail


def test_one_too_many_opponent_that_cannot_lose() -> None:
    r = one_too_many(parse_town("P/b  P/c\n"), icons(beer=3), opponent_can_lose=False)
    assert (r.player, r.opponent) == (0, 0)
    assert "cannot lose" in r.detail


def test_claim_jumpers_more_mines_win_nine_unless_outgunned() -> None:
    town = parse_town("M/m  M/m  M/m  D/g  D/g\n")  # 3 Mines, 2 Guns
    r = claim_jumpers(town, icons(mine=1, gun=2))
    assert (r.player, r.opponent) == (9, 0)
    r = claim_jumpers(town, icons(mine=1, gun=3))
    assert (r.player, r.opponent) == (4, 5)
    r = claim_jumpers(town, icons(mine=3, gun=0))
    assert (r.player, r.opponent) == (0, 0)
    r = claim_jumpers(town, icons(mine=4, gun=1))  # the opponent has more Mines, you more Guns
    assert (r.player, r.opponent) == (5, 4)
    r = claim_jumpers(town, icons(mine=4, gun=2))
    assert (r.player, r.opponent) == (0, 9)


def test_claim_jumpers_starting_guns_count_for_the_opponent() -> None:
    town = parse_town("M/m  M/m  M/m  D/g  D/g\n")
    r = claim_jumpers(town, icons(mine=1, gun=1), opponent_extra_guns=2)
    assert (r.player, r.opponent) == (4, 5)
    assert "incl. 2 to start" in r.detail


def test_smalltown_charm_the_smaller_town_gains_the_difference() -> None:
    five = parse_town("P/b  P/b  P/b  P/b  P/c\n")
    r = smalltown_charm(five, pile_from_counts({"cards": 2}))  # 8 territories
    assert (r.player, r.opponent) == (3, 0)
    r = smalltown_charm(five, parse_town("P/b  P/b\n"))
    assert (r.player, r.opponent) == (0, 3)
    r = smalltown_charm(five, pile_from_counts({"snow": 5}))  # no card count: the territories counted
    assert (r.player, r.opponent) == (0, 0)


def test_two_town_cards_against_an_opponent_town_score_both_players() -> None:
    # You: 4 Beers, 9 territories. Opponent: 1 Beer, 4 territories.
    you = parse_town("P/b  P/b  P/b  P/b  P/c\nP/c  P/c  P/c  P/c  .\n")
    them = parse_town("D/b  D/w\nD/w  D/w\n")
    b = score_town(you, goals=["one-too-many", "smalltown-charm"], opponent_town=them)
    assert b.item("goal:one-too-many").points == -1
    assert b.item("goal:smalltown-charm").points == 0
    opponent = dict(b.extra)["opponent"]
    lines = {i["key"]: i["points"] for i in opponent["items"]}
    assert lines["goal:one-too-many"] == 0 and lines["goal:smalltown-charm"] == 5
    assert lines["largest:D"] == 4
    assert opponent["total"] == 4 + 5
    assert b.total == 9 - 1  # Plains 9, One Too Many −1
    assert dict(b.extra)["beat_opponent"] is False
    assert dict(b.extra)["result"] == "loss"


def test_two_town_cards_against_a_pile_without_scenario() -> None:
    you = parse_town("P/b  P/b  P/m\n")
    b = score_town(you, goals=["claim-jumpers", "one-too-many"], opponent_pile=[2])  # card 2: W/m W/b S/w W/g
    assert b.item("goal:claim-jumpers").points == 0  # 1 Mine each
    assert b.item("goal:one-too-many").points == -1  # 2 Beers against 1
    opponent = dict(b.extra)["opponent"]
    assert opponent["total"] is None and dict(b.extra)["beat_opponent"] is None
    assert any("only answers the two-town cards" in n for n in b.notes)


@pytest.mark.parametrize("card", ["one-too-many", "Claim Jumpers", "smalltown charm"])
def test_two_town_card_without_an_opponent_is_refused(card: str) -> None:
    with pytest.raises(MissingInputError, match="compares two towns: give the opponent's town"):
        score_town(parse_town("P/b\n"), goals=[card])
