"""The engine's run time at the size limits (issue 27): every town, city and tally that the service or the
command line accepts is answered in polynomial time, so within a bound per request.

The limits: a grid is at most ``MAX_SIDE`` (64) cells each way on both interfaces, a request's city text at
most ``MAX_CITY_CHARS`` characters, and a tally (text or JSON) at most ``MAX_TALLY_CHARS`` characters.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.core.schemas import MAX_CITY_CHARS
from scoring.city import MAX_SIDE
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.tally import MAX_TALLY_CHARS
from scoring.wagons.goals import GOALS
from scoring.wagons.score import score_town
from scoring.wagons.town import TERRAINS
from scoring.wagons.town_text import parse_town
from tests.conftest import CITY, Cli, assert_error

ROOT = Path(__file__).resolve().parents[2]
ANSWER_S = 5.0  # issue 27's bound for one request through the service
PER_EXAMPLE_S = 3.0  # one scoring at the size limit; generous, as this machine's cores are shared
TIMED = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checkerboard_town(n: int) -> str:
    """Issue 27's town: W/c and D/g alternating, so every Water group, Desert group and herd ties."""
    rows = (" ".join("W/c" if (r + c) % 2 == 0 else "D/g" for c in range(n)) for r in range(n))
    return "goals: cool-water the-herd\n" + "\n".join(rows) + "\n"


def tally_within_limit() -> dict[str, int]:
    """A JSON tally (``parks0``, ``parks1``, …) as long as the limit allows, less a few characters."""
    tally: dict[str, int] = {}
    while len(json.dumps(tally)) < MAX_TALLY_CHARS - 30:
        tally[f"parks{len(tally)}"] = 1
    return tally


def timed_post(client: TestClient, path: str, body: dict) -> tuple[object, float]:
    start = time.perf_counter()
    resp = client.post(path, json=body)
    return resp, time.perf_counter() - start


def test_checkerboard_towns_of_28_and_64_cells_a_side_are_scored_within_5_s(client: TestClient) -> None:
    for n in (28, 64):
        text = checkerboard_town(n)
        assert len(text) <= MAX_CITY_CHARS  # the service accepts it
        resp, took = timed_post(client, "/api/v1/score", {"game": "wagons", "city": text})
        assert resp.status_code == 200, resp.text
        # Each largest group is one cell (Water 1, Desert 1), no Wagon, and a herd of one Cow (× 2).
        assert resp.json()["total"] == 4
        assert took < ANSWER_S, f"{n} × {n}: {took:.1f} s"


def comb_town(n: int) -> str:
    """Two Desert combs whose teeth hold hundreds of lone Cows and Wagons, each Wagon beside one of hundreds
    of tied one-cell Water groups: every herd shares a tied group with every Water group of its comb."""
    rows = []
    for r in range(n):
        cells = []
        for c in range(n):
            if c in (n // 2 - 1, n // 2):
                cells.append("F/b")
            elif c in (0, n - 1):
                cells.append("D/b")
            elif r % 2 == 0:
                cells.append("D/w" if c % 2 else "D/c")
            else:
                cells.append("W/b" if c % 2 else "F/b")
        rows.append(" ".join(cells))
    return "goals: the-herd cool-water wildest-west\n" + "\n".join(rows) + "\n"


def test_a_64_cell_comb_town_full_of_shared_groups_is_scored_within_5_s(client: TestClient) -> None:
    resp, took = timed_post(client, "/api/v1/score", {"game": "wagons", "city": comb_town(MAX_SIDE)})
    assert resp.status_code == 200, resp.text
    assert took < ANSWER_S


def test_a_json_tally_of_50000_keys_is_refused_within_5_s_naming_the_limit(client: TestClient) -> None:
    tally = {f"parks{i}": 1 for i in range(50_000)}
    resp, took = timed_post(client, "/api/v1/check", {"city": CITY, "tally": tally})
    assert_error(resp, 422, "invalid_request", f"longer than {MAX_TALLY_CHARS} characters", "as JSON")
    assert took < ANSWER_S


def test_a_json_tally_just_within_the_limit_is_checked_line_by_line_within_5_s(client: TestClient) -> None:
    tally = tally_within_limit()
    resp, took = timed_post(client, "/api/v1/check", {"city": CITY, "tally": tally})
    assert resp.status_code == 200, resp.text
    assert len(resp.json()["lines"]) == len(tally)
    assert took < ANSWER_S


def test_the_command_line_refuses_an_800_kb_tally_with_one_line(cli: Cli, tmp_path: Path) -> None:
    for name, text in (
        ("big.tally", "".join(f"parks{i} 1\n" for i in range(70_000))),
        ("big.json", json.dumps({f"parks{i}": 1 for i in range(50_000)})),
    ):
        path = tmp_path / name
        path.write_text(text)
        start = time.perf_counter()
        code, out, err = cli("check", str(ROOT / "samples/example.city"), "--tally", str(path))
        assert time.perf_counter() - start < ANSWER_S
        assert code == 2 and not out
        assert len(err.strip().splitlines()) == 1
        assert f"longer than {MAX_TALLY_CHARS:,} characters" in err and "line 1" in err


# ---- Hypothesis: towns and cities up to the limits, each scored within a bound ---------------------------


@st.composite
def big_towns(draw: st.DrawFn) -> str:
    """A town of up to 64 × 64 territories drawn from a few types and icons (so that groups tie), some
    cells empty; checkerboards of two tokens among them."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = draw(st.integers(40, MAX_SIDE)), draw(st.integers(40, MAX_SIDE))
    terrains = draw(st.lists(st.sampled_from(TERRAINS), min_size=1, max_size=3, unique=True))
    icons = draw(st.sampled_from(["wc", "wcg", "bg", "bcfgmw", "c", "w"]))
    empty = draw(st.sampled_from([0.0, 0.1, 0.4]))
    checker = draw(st.booleans())
    tokens = [f"{t}/{i}" for t in terrains for i in icons]
    pair = (rng.choice(tokens), rng.choice(tokens))

    def cell(r: int, c: int) -> str:
        if rng.random() < empty:
            return "."
        return pair[(r + c) % 2] if checker else rng.choice(tokens)

    return "\n".join(" ".join(cell(r, c) for c in range(cols)) for r in range(rows)) + "\n"


@TIMED
@given(big_towns(), st.lists(st.sampled_from(sorted(GOALS)), max_size=4, unique=True), st.booleans())
def test_any_town_up_to_64_a_side_is_scored_within_the_bound(text: str, goals: list[str], herd: bool) -> None:
    if herd:  # the two cards with tied readings, both in play
        goals = [g for g in goals if g not in ("cool-water", "the-herd")] + ["the-herd", "cool-water"]
    town = parse_town(text)
    start = time.perf_counter()
    bd = score_town(town, goals=goals, opponent_town=town)  # both sides of a two-player game
    took = time.perf_counter() - start
    assert bd.total == sum(i.points for i in bd.items)
    assert took < PER_EXAMPLE_S, f"{took:.2f} s for {town.n_rows} × {town.n_cols}, goals {goals}"


ROADS = ("", ":EW", ":NS", ":NE", ":ES", ":SW", ":NW")
EXPANSIONS: list[tuple[tuple[str, ...], dict[str, str]]] = [
    ((), {}),
    (
        ("construction", "beaches", "poi"),
        {"construction-penalty": "2", "beach-cards": "peninsula waterfront"},
    ),
    (("beaches",), {"beach-cards": "lookout-point scenic-route"}),
    (("interstate",), {"interstate-mode": "cooperative"}),
    (("interstate",), {"interstate-card": "main-boulevard"}),
    (("interstate",), {"interstate-card": "central-highway"}),
]


@st.composite
def big_cities(draw: st.DrawFn) -> tuple[str, tuple[str, ...], dict[str, str]]:
    """A city of up to 64 × 64 blocks with roads, unfinished zones, one Point of Interest, beach rows and an
    interstate line, and the expansions that read them."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = draw(st.integers(40, MAX_SIDE - 2)), draw(st.integers(40, MAX_SIDE))
    zones = draw(st.sampled_from(["RCIP", "RP", "R", "CI"]))
    expansions, options = draw(st.sampled_from(EXPANSIONS))

    def block() -> str:
        zone = rng.choice(zones)
        road = "" if zone == "P" else rng.choice(ROADS)
        return zone + road + ("!" if rng.random() < 0.1 else "")

    grid = [[block() for _ in range(cols)] for _ in range(rows)]
    grid[0][0] = grid[0][0].rstrip("!") + "*"
    lines = [" ".join(row) for row in grid]
    lines.insert(rows // 2, "=" * cols)
    beach = " ".join("~" for _ in range(cols))
    return "\n".join([beach, *lines, beach]) + "\n", expansions, options


@TIMED
@given(big_cities(), st.sampled_from(["standard", "harder"]))
def test_any_city_up_to_64_a_side_is_scored_within_the_bound(
    drawn: tuple[str, tuple[str, ...], dict[str, str]], variant: str
) -> None:
    text, expansions, options = drawn
    city = parse_city(text)
    start = time.perf_counter()
    bd = score_city(city, list(range(1, 19)), expansions, variant=variant, options=options)
    took = time.perf_counter() - start
    assert bd.total == sum(i.points for i in bd.items)
    assert took < PER_EXAMPLE_S, f"{took:.2f} s for {city.n_rows} × {city.n_cols}, {expansions}"
