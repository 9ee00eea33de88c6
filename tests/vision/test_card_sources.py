"""Choosing the scoring cards from the backs read, the city's three missing cards and the player's word."""

from __future__ import annotations

from vision.backs.choose import BackNumber, choose_scoring_cards


def backs(*numbers: int | None, confidence: float = 0.93) -> list[BackNumber]:
    return [BackNumber(n, confidence, ((n, confidence),) if n else ()) for n in numbers]


def test_backs_and_city_agreeing_say_both() -> None:
    chosen = choose_scoring_cards(backs(3, 9, 14), from_city=(14, 3, 9), city_certainty=0.95)
    assert chosen.cards == (3, 9, 14) and chosen.source == "both"
    assert chosen.warnings == () and chosen.in_doubt == ()
    out = chosen.to_json()
    assert out["source"] == "both" and [b["number"] for b in out["backs"]] == [3, 9, 14]


def test_only_the_backs() -> None:
    chosen = choose_scoring_cards(backs(3, 9, 14), from_city=None)
    assert chosen.cards == (3, 9, 14) and chosen.source == "backs" and chosen.warnings == ()


def test_only_a_sure_city() -> None:
    chosen = choose_scoring_cards([], from_city=(1, 2, 3), city_certainty=0.9)
    assert chosen.cards == (1, 2, 3) and chosen.source == "city"
    assert "missing from the city: 1, 2, 3" in chosen.warnings[0]


def test_an_unsure_city_alone_chooses_nothing_and_suggests_no_cards() -> None:
    chosen = choose_scoring_cards([], from_city=(1, 2, 3), city_certainty=0.6)
    assert chosen.cards is None and chosen.source is None
    assert "does not tell surely" in chosen.warnings[0] and "1, 2, 3" not in chosen.warnings[0]


def test_an_unsure_city_names_the_cards_it_cannot_tell_apart() -> None:
    chosen = choose_scoring_cards([], from_city=(2, 12, 15), city_certainty=0.5, alike=[(2, 14)])
    assert chosen.cards is None and chosen.in_doubt == (2, 14)
    assert "it lacks: 12, 15 and one of cards 2, 14" in chosen.warnings[0]


def test_two_backs_do_not_take_a_third_card_the_city_cannot_tell_apart() -> None:
    chosen = choose_scoring_cards(backs(12, 15), from_city=(2, 12, 15), city_certainty=0.5, alike=[(2, 14)])
    assert chosen.cards is None and chosen.in_doubt == (2, 14)
    assert chosen.warnings[0].startswith("scoring cards: read 12, 15 on their backs")
    sure = choose_scoring_cards(backs(12, 15), from_city=(2, 12, 15), city_certainty=0.5)
    assert sure.cards == (2, 12, 15) and sure.source == "both" and sure.warnings == ()


def test_backs_the_city_holds_are_chosen_as_ever_and_left_to_the_caller_to_name() -> None:
    chosen = choose_scoring_cards(
        backs(3, 9, 14, confidence=0.97), from_city=(3, 9, 15), city_certainty=0.85, against=[14]
    )
    assert chosen.cards == (3, 9, 14) and chosen.source == "backs"
    assert chosen.in_doubt == (14, 15) and chosen.warnings == ()


def test_an_unread_back_agreeing_with_the_city_counts() -> None:
    unsure = BackNumber(None, 0.55, ((16, 0.55), (18, 0.3)))
    chosen = choose_scoring_cards([*backs(13, 18), unsure], from_city=(13, 16, 18), city_certainty=0.7)
    assert chosen.cards == (13, 16, 18) and chosen.source == "both"


def test_disagreement_uses_the_surer_reading_and_names_the_cards_in_doubt() -> None:
    # Three sure backs against a city that is less sure.
    chosen = choose_scoring_cards(backs(3, 9, 14, confidence=0.97), from_city=(3, 9, 15), city_certainty=0.85)
    assert chosen.cards == (3, 9, 14) and chosen.source == "backs"
    assert chosen.in_doubt == (14, 15) and "please check cards 14, 15" in chosen.warnings[0]
    # Two backs, one of them against a sure city: the city's three stand, the doubt is named.
    chosen = choose_scoring_cards(backs(3, 8), from_city=(3, 9, 15), city_certainty=0.95)
    assert chosen.cards == (3, 9, 15) and chosen.source == "city"
    assert set(chosen.in_doubt) == {8, 9, 15} and "8" in chosen.warnings[0]


def test_few_backs_and_no_city_ask_only_for_the_rest() -> None:
    chosen = choose_scoring_cards(backs(12, 14), from_city=None)
    assert chosen.cards is None
    assert chosen.warnings == (
        "scoring cards: read 2 of 3 from their backs (12, 14); give the third to score them",
    )
    assert [b.number for b in chosen.backs] == [12, 14]
    nothing = choose_scoring_cards([], from_city=None)
    assert nothing.cards is None and "none seen in the photo" in nothing.warnings[0]


def test_more_than_three_backs_use_the_surest() -> None:
    chosen = choose_scoring_cards(
        [BackNumber(1, 0.99), BackNumber(2, 0.98), BackNumber(3, 0.97), BackNumber(4, 0.7)], from_city=None
    )
    assert chosen.cards == (1, 2, 3) and "ignored 4" in chosen.warnings[0]


def test_the_players_cards_win_with_a_warning_when_the_city_disagrees() -> None:
    chosen = choose_scoring_cards(backs(1, 2, 3), from_city=(1, 2, 4), given=[3, 2, 1])
    assert chosen.cards == (1, 2, 3) and chosen.source == "given"
    assert chosen.in_doubt == (3, 4) and "are not the three cards missing from the city" in chosen.warnings[0]
    assert choose_scoring_cards([], from_city=(1, 2, 3), given=[1, 2, 3]).warnings == ()
