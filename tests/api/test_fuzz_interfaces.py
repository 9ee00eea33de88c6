"""Hypothesis against every endpoint and the command line: arbitrary text, bytes and JSON give a result or
the project's own 4xx error (the JSON shape, a documented code) on the service, and a result or exit 2
with one line on standard error from the CLI — never a 500, a traceback or a hang. Then the CLI's defects
of issue 14 one by one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.cli import main
from api.web import Settings, create_app

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
DOCS = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text()
DOCUMENTED_CODES = set(re.findall(r"`([a-z_]+)`", DOCS))

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=16,
)
FIELDS = ("game", "city", "rows", "cards", "expansions", "variant", "options", "tally", "scan_id")
BODIES = st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5) | JSON
TOKENS = st.sampled_from(["R:EW", "C:NS", "I", "P", ".", "W", "~", "R*", "C!", "D/w", "P/c", "x", "", "²"])
GRIDS = st.lists(st.lists(TOKENS, max_size=5), max_size=5)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(max_upload_bytes=200_000)), raise_server_exceptions=False) as c:
        yield c


def assert_result_or_own_error(resp: object) -> None:
    status = resp.status_code  # type: ignore[attr-defined]
    assert status < 500, resp.text  # type: ignore[attr-defined]
    if status >= 400:
        error = resp.json()["error"]  # type: ignore[attr-defined]
        assert set(error) == {"code", "message"} and error["message"]
        assert error["code"] in DOCUMENTED_CODES, error


@FUZZ
@given(BODIES)
def test_score_and_check_take_any_json(client: TestClient, body: object) -> None:
    for path in ("/api/v1/score", "/api/v1/check"):
        assert_result_or_own_error(client.post(path, json=body))


@FUZZ
@given(st.sampled_from(["sprawlopolis", "wagons"]), GRIDS, st.text(max_size=60), JSON)
def test_score_and_check_take_any_grid_and_tally(
    client: TestClient, game: str, rows: list[list[str]], tally: str, options: object
) -> None:
    city = "\n".join("  ".join(t or "." for t in row) for row in rows)
    for body in ({"game": game, "rows": rows}, {"game": game, "city": city, "options": options}):
        assert_result_or_own_error(client.post("/api/v1/score", json=body))
        assert_result_or_own_error(client.post("/api/v1/check", json={**body, "tally": tally}))


@FUZZ
@given(
    st.binary(max_size=300), st.sampled_from(["application/json", "text/plain", "", "multipart/form-data"])
)
def test_every_post_takes_any_bytes(client: TestClient, body: bytes, content_type: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    for path in ("/api/v1/score", "/api/v1/check", "/api/v1/scans"):
        assert_result_or_own_error(client.post(path, content=body, headers=headers))


@FUZZ
@given(
    st.binary(max_size=200),
    st.dictionaries(
        st.sampled_from(["cards", "expansions", "variant", "options", "x"]), st.text(max_size=40)
    ),
    st.text(max_size=20),
)
def test_scans_take_any_file_and_fields(client: TestClient, data: bytes, fields: dict, name: str) -> None:
    resp = client.post("/api/v1/scans", files={"image": (name or "f", data, "image/jpeg")}, data=fields)
    assert_result_or_own_error(resp)


@FUZZ
@given(st.text(max_size=30))
def test_get_endpoints_take_any_id(client: TestClient, scan_id: str) -> None:
    scan_id = quote(scan_id, safe="")  # what a client puts in a URL
    for path in (f"/api/v1/scans/{scan_id}", f"/api/v1/scans/{scan_id}/overlay"):
        assert_result_or_own_error(client.get(path))


def test_every_error_code_of_the_code_is_documented() -> None:
    import importlib
    import pkgutil

    import api
    import scoring
    from scoring.errors import InputError

    for package in (scoring, api):  # every module the service can reach, whatever ran before
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.startswith("api.cli"):
                importlib.import_module(info.name)
    importlib.import_module("vision.pipeline")

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    served = [
        c for c in subclasses(InputError) if not c.__module__.startswith(("api.cli", "models.synth", "tests"))
    ]
    codes = {c.code for c in served} | {"bad_request", "internal_error", "busy", "cross_site_request"}
    assert codes - DOCUMENTED_CODES == set()


# ---- the command line ------------------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    _, err = capsys.readouterr()
    return code, err


@FUZZ
@given(st.binary(max_size=300), st.binary(max_size=200), st.sampled_from(["sprawlopolis", "wagons"]))
def test_cli_score_and_check_take_any_files(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    city: bytes,
    tally: bytes,
    game: str,
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "city").write_bytes(city)
    (folder / "tally").write_bytes(tally)
    for argv in (
        ["score", str(folder / "city"), "--game", game],
        ["check", str(folder / "city"), "--tally", str(folder / "tally"), "--game", game],
    ):
        code, err = run_cli(capsys, *argv)
        assert code in (0, 1, 2), (argv, code)  # check exits 1 when the tally disagrees
        if code == 2:
            assert len(err.strip().splitlines()) == 1 and err.startswith("sprawlscan: error:"), err


@pytest.mark.parametrize(
    ("city", "tally", "words"),
    [
        ("cards: ²\nR C\n", None, "line 1, column 8"),
        (f"cards: {'9' * 5000}\nR C\n", None, "line 1, column 8"),
        ("R C\n", '{"parks": 1e999}', "finite"),
        ("R C\n", '{"parks": NaN}', "finite"),
        ("R C\n", "[" * 2000 + "]" * 2000, "nested 2000"),
        ("R C\n", f"parks {'9' * 5000}", "tally line 1, column 7"),
        ("cards: 99\nR C\n", None, "line 1, column 8"),
        ("P  " * 2000 + "\n", None, "at most 64 cells wide"),
        ("P\n" * 2000, None, "more than 64 rows"),
    ],
)
def test_cli_defects_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], city: str, tally: str | None, words: str
) -> None:
    (tmp_path / "city.txt").write_text(city)
    argv = ["score", str(tmp_path / "city.txt")]
    if tally is not None:
        (tmp_path / "tally").write_text(tally)
        argv = ["check", str(tmp_path / "city.txt"), "--tally", str(tmp_path / "tally")]
    code, err = run_cli(capsys, *argv)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_cli_reads_a_bounded_amount(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"P " * 600_000)
    code, err = run_cli(capsys, "score", str(big))
    assert code == 2 and "larger than 1,000,000 bytes" in err
    code, err = run_cli(capsys, "score", "/dev/zero")  # never ends without the bound
    assert code == 2 and "larger than" in err


def test_cli_wagons_options_refuse_bad_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "town.txt").write_text("D/w  P/c\n")
    for value in ("²", "9" * 5000):
        code, err = run_cli(
            capsys,
            "score",
            str(tmp_path / "town.txt"),
            "--game",
            "wagons",
            "--option",
            f"opponent-undiscovered={value}",
        )
        assert code == 2 and "whole number" in err, err
    assert json.loads("[]") == []


def test_cli_card_numbers_use_the_strict_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "city.txt").write_text("R  C\n")
    for bad in ("²", "٣", "9" * 5000):
        with pytest.raises(SystemExit) as exit_:
            main(["score", str(tmp_path / "city.txt"), "--cards", "8", bad])
        assert exit_.value.code == 2 and "card number: expected a whole number" in capsys.readouterr().err
