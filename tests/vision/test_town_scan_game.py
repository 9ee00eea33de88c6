"""Telling a Sprawlopolis city from a Circle the Wagons town (vision.towns.detect): on hand-made evidence,
and on rendered photos read by the shipped Sprawlopolis classifier and the town stand-ins."""

from __future__ import annotations

from functools import cache

import pytest

from models.synth.scene import render_photo
from models.synth.wagons.photo import render_town_photo
from tests.vision.test_town_scan_standin import ColourGuessReader, TruthReader
from vision.towns.detect import CLEAR_BY, MIN_EXPLAINED, GameEvidence, decide, which_game
from vision.towns.scan_support import Reader


def evidence(city: float, town: float) -> tuple[GameEvidence, ...]:
    return GameEvidence("sprawlopolis", city, 40), GameEvidence("wagons", town, 30)


def test_the_game_whose_cards_explain_the_photo_clearly_better_is_named() -> None:
    assert decide(evidence(0.97, 0.1)).game == "sprawlopolis"
    assert decide(evidence(0.0, 0.92)).game == "wagons"


def test_a_photo_neither_games_cards_explain_is_no_game() -> None:
    verdict = decide(evidence(MIN_EXPLAINED - 0.05, 0.2))
    assert verdict.game is None and verdict.why.startswith("neither")


def test_a_photo_both_games_cards_explain_alike_is_no_game() -> None:
    verdict = decide(evidence(0.9, 0.9 - CLEAR_BY / 2))
    assert verdict.game is None and "both" in verdict.why


@cache
def city_photo(seed: int):  # noqa: ANN201
    return render_photo(seed)


@cache
def town_photo(seed: int):  # noqa: ANN201
    return render_town_photo(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3])
def test_a_rendered_city_is_a_city_even_to_a_confident_territory_reader(seed: int) -> None:
    photo = city_photo(seed)
    verdict = which_game(photo.image, reader=ColourGuessReader())
    assert verdict.game == "sprawlopolis", verdict.why
    city, town = verdict.evidence
    assert city.explained >= MIN_EXPLAINED and town.explained < MIN_EXPLAINED


@pytest.mark.slow
@pytest.mark.parametrize("seed", [202, 203])
def test_a_rendered_town_is_a_town_and_the_city_classifier_explains_none_of_it(seed: int) -> None:
    photo = town_photo(seed)
    verdict = which_game(photo.image, reader=TruthReader(photo.image, photo.truth.to_json()))
    assert verdict.game == "wagons", verdict.why
    assert verdict.evidence[0].explained < 0.2


@pytest.mark.slow
def test_without_a_territory_reader_a_town_is_no_game_never_a_city() -> None:
    def missing() -> Reader:
        raise RuntimeError("the territory classifier is not installed (vision.towns.territories is missing)")

    verdict = which_game(town_photo(202).image, town_reader=missing)
    assert verdict.game is None
    assert "not installed" in verdict.evidence[1].why
