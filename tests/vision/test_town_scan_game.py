"""Telling a Sprawlopolis city from a Circle the Wagons town (games.telling, with each game's evidence): on
hand-made evidence,
on rendered photos read by the shipped Sprawlopolis classifier and the town stand-ins, and with both shipped
classifiers; the rulebook's example town read by the shipped territory classifier (the benchmark,
tests/bench/bench_wagons.py, measures many more photos)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from games import Evidence, Photo, Sprawlopolis, Wagons
from games.telling import CLEAR_BY, MIN_EXPLAINED, Verdict, decide
from models.synth.scene import render_photo
from models.synth.wagons.photo import render_given_town, render_town_photo
from scoring.wagons import parse_town
from tests.vision.town_standins import ColourGuessReader, TruthReader
from vision.photo.decode import WORK_LONG_SIDE, decode_image
from vision.runtime.stages import Stages, StageTimer, Stop
from vision.towns import scan_town, shipped_reader
from vision.towns.arbitrate import Reader


def evidence(city: float, town: float) -> tuple[Evidence, ...]:
    return Evidence("sprawlopolis", city, 40), Evidence("wagons", town, 30)


def which_game(rgb: np.ndarray, town_reader: Callable[[], Reader] = shipped_reader) -> Verdict:
    """Both games' evidence of ``rgb`` (the town read by the reader ``town_reader`` gives) and the verdict
    on it, as game telling decides."""
    photo = Photo(rgb, Stages(StageTimer(), Stop()))
    games = (Sprawlopolis(), Wagons(town_reader))
    return decide([g.evidence(photo, g.choices({}), None) for g in games])


def test_the_game_whose_cards_explain_the_photo_clearly_better_is_named() -> None:
    assert decide(evidence(0.97, 0.1)).game == "sprawlopolis"
    assert decide(evidence(0.0, 0.92)).game == "wagons"


def test_a_photo_neither_games_cards_explain_is_no_game() -> None:
    verdict = decide(evidence(MIN_EXPLAINED - 0.05, 0.2))
    assert verdict.game is None and verdict.why.startswith("no game")


def test_a_photo_both_games_cards_explain_alike_is_no_game() -> None:
    verdict = decide(evidence(0.9, 0.9 - CLEAR_BY / 2))
    assert verdict.game is None and "more than one game" in verdict.why


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
    verdict = which_game(photo.image, town_reader=ColourGuessReader)
    assert verdict.game == "sprawlopolis", verdict.why
    city, town = verdict.evidence
    assert city.explained >= MIN_EXPLAINED and town.explained < MIN_EXPLAINED


@pytest.mark.slow
@pytest.mark.parametrize("seed", [202, 203])
def test_a_rendered_town_is_a_town_and_the_city_classifier_explains_none_of_it(seed: int) -> None:
    photo = town_photo(seed)
    verdict = which_game(photo.image, town_reader=lambda: TruthReader(photo.image, photo.truth.to_json()))
    assert verdict.game == "wagons", verdict.why
    assert verdict.evidence[0].explained < 0.2


@pytest.mark.slow
def test_without_a_territory_reader_a_town_is_no_game_never_a_city() -> None:
    def missing() -> Reader:
        raise RuntimeError("the territory classifier is not installed (vision.towns.territories is missing)")

    verdict = which_game(town_photo(202).image, town_reader=missing)
    assert verdict.game is None
    assert "not installed" in verdict.evidence[1].why


# --- the shipped classifiers (the territory classifier and the Sprawlopolis cell classifier) -------------

RULEBOOK = Path(__file__).resolve().parents[2] / "samples" / "wagons-rulebook.town"


@cache
def rulebook_photo():  # noqa: ANN201
    town = parse_town(RULEBOOK.read_text(encoding="utf-8"))
    return town, render_given_town(town, seed=8, roll=90.0, tilt=6.0, clutter=0, glare=0.0, partial=False)


@pytest.mark.slow
def test_the_rulebook_town_photographed_scans_by_the_shipped_classifier_to_itself_scoring_20() -> None:
    town, photo = rulebook_photo()
    scan = scan_town(decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb)
    turned = tuple(tuple(reversed(row)) for row in reversed(town.grid))
    assert scan.town.grid in (town.grid, turned), scan.text
    assert scan.breakdown().total == 20


@pytest.mark.slow
def test_the_shipped_classifiers_name_the_rulebook_town_a_town_and_a_rendered_city_a_city() -> None:
    _, photo = rulebook_photo()
    town = which_game(decode_image(photo.jpeg, long_side=WORK_LONG_SIDE).rgb)
    assert town.game == "wagons", town.why
    city = which_game(decode_image(city_photo(1).jpeg, long_side=WORK_LONG_SIDE).rgb)
    assert city.game == "sprawlopolis", city.why


def test_a_photo_in_which_no_game_finds_its_cards_is_refused_in_every_games_words() -> None:
    from games import GameRequest, scan_photo
    from scoring.errors import InputError

    ok, blank = cv2.imencode(".jpg", np.full((900, 1200, 3), 240, np.uint8))
    assert ok
    with pytest.raises(InputError) as refused:
        scan_photo(blank.tobytes(), GameRequest())
    said = str(refused.value)
    assert refused.value.code == "no_city_found"
    assert said.startswith("no city found: ") and "; no town found: " in said
