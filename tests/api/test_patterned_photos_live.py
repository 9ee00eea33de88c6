"""Issue 39, on a real server: a mosaic of card-like tiles is answered 422 ``too_many_cards`` (naming the
bound) before the scan's costly stages, and so is a panel of coloured tiles with the table around it
(fewer cells than the count bounds refuse, which game detection used to search for a town in for seconds),
naming its colours; the server goes on scanning an honest city and an honest town afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from models.synth.scene import render_photo
from models.synth.wagons.photo import render_town_photo
from tests.conftest import assert_error
from tests.live_server import serving
from tests.pathological import PHOTOS, jpeg, mosaic, two_mosaics


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("patterned")
    env = {"SPRAWLSCAN_DATABASE_PATH": str(folder / "p.db")}
    with serving(folder / "server.log", env=env) as (url, _):
        yield url


def _scan(url: str, photo: bytes, **form: str) -> httpx.Response:
    files = {"image": ("photo.jpg", photo, "image/jpeg")}
    return httpx.post(f"{url}/api/v1/scans", files=files, data=form, timeout=120)


def test_a_mosaic_photo_is_refused_as_too_many_cards_naming_a_games_eighteen_cards(server: str) -> None:
    resp = _scan(server, jpeg(mosaic()))
    assert_error(resp, 422, "too_many_cards", "card-sized cells", "at most 18 cards")


def test_a_photo_of_two_mosaics_named_a_town_is_refused_the_same_way(server: str) -> None:
    resp = _scan(server, jpeg(two_mosaics()), game="wagons")
    assert_error(resp, 422, "too_many_cards", "at most 18 cards")


def test_an_honest_city_is_scanned_after_the_mosaics(server: str) -> None:
    resp = _scan(server, render_photo(3).jpeg)
    assert resp.status_code == 200, resp.text
    assert resp.json()["game"] == "sprawlopolis" and resp.json()["city"]


@pytest.mark.parametrize("name", ["framed tiles", "small panel"])
def test_a_panel_of_coloured_tiles_on_a_table_is_refused_naming_its_colours(server: str, name: str) -> None:
    resp = _scan(server, jpeg(PHOTOS[name]()))
    assert_error(resp, 422, "too_many_cards", "card-sized cells", "different colours", "at most 18 cards")


def test_the_panel_named_a_town_is_refused_the_same_way(server: str) -> None:
    resp = _scan(server, jpeg(PHOTOS["framed tiles"]()), game="wagons")
    assert_error(resp, 422, "too_many_cards", "different colours")


def test_an_honest_town_is_read_as_a_town_after_the_panels(server: str) -> None:
    resp = _scan(server, render_town_photo(7).jpeg)
    assert resp.status_code == 200, resp.text
    assert resp.json()["game"] == "wagons"
