"""Issue 39's small holes, each probed against the real thing: a ``sprawlscan serve`` process for the
service, ``python -m api.cli`` in a subprocess for the command line.

Every hole is answered as bad input is everywhere else: a 4xx JSON error from the service, exit status 2
and one line from the command line, never a traceback, a 500, or the client's input echoed whole.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from api.web.allocator import ARENA_MAX
from tests.conftest import CITY, assert_error
from tests.live_server import free_port, serving

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "api.cli"]
TOKEN = "b" * 32
JPEG_HEAD = b"\xff\xd8\xff\xe0" + b"\x00" * 64  # sniffed as a JPEG; the form is refused before decoding


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A real server at info level (its client-fault lines in its log); yields its URL and its log."""
    folder = tmp_path_factory.mktemp("round3")
    log = folder / "server.log"
    env = {"SPRAWLSCAN_DATABASE_PATH": str(folder / "r3.db")}
    with serving(log, "--log-level", "info", env=env) as (url, _):
        yield url, log


def _run(*argv: str, env: dict[str, str] | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *argv], cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True, timeout=timeout
    )


def _one_line(done: subprocess.CompletedProcess, *words: str) -> str:
    """The command's only line on standard error, checked for exit 2, no traceback and ``words``."""
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2, (done.returncode, lines[-5:])
    assert len(lines) == 1, lines[:5]
    assert lines[0].startswith("sprawlscan: error: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ---- the service -----------------------------------------------------------------------------------------


def test_a_deck_form_whose_extras_nest_1500_deep_is_refused_with_422(live: tuple[str, Path]) -> None:
    url, _ = live
    token = httpx.post(f"{url}/api/v1/devices").json()["device_token"]  # issued: only such a token is heard
    resp = httpx.post(
        f"{url}/api/v1/deck",
        headers={"Authorization": f"Bearer {token}"},
        files={"image": ("deck.jpg", JPEG_HEAD, "image/jpeg")},
        data={"extras": "[" * 1500 + "]" * 1500},
        timeout=30,
    )
    assert_error(resp, 422, "invalid_request", "extras", "1500 levels deep")


@pytest.mark.parametrize("bad", [True, "8", 8.0], ids=["boolean", "string", "float"])
def test_a_card_number_that_is_not_a_json_integer_is_refused_naming_the_field(
    live: tuple[str, Path], bad: object
) -> None:
    url, _ = live
    body = {"city": CITY, "cards": [bad, 7, 17]}
    assert_error(httpx.post(f"{url}/api/v1/score", json=body), 422, "invalid_request", "cards.0")
    check = {**body, "tally": "total 1"}
    assert_error(httpx.post(f"{url}/api/v1/check", json=check), 422, "invalid_request", "cards.0")
    assert httpx.post(f"{url}/api/v1/score", json={"city": CITY, "cards": [8, 7, 17]}).status_code == 200


def test_a_900_kB_cell_token_comes_back_and_is_logged_only_as_a_short_excerpt(live: tuple[str, Path]) -> None:
    url, log = live
    token = "Q" * 450_000 + "Z" * 450_000
    resp = httpx.post(f"{url}/api/v1/score", json={"rows": [[token]]}, timeout=60)
    message = assert_error(resp, 400, "malformed_city", "cannot read cell")
    assert len(resp.content) < 1000
    quoted = next(word for word in message.split() if "Q" in word)
    assert "…" in quoted and quoted.rstrip("',").endswith("Z") and len(quoted) <= 82
    lines = [line for line in log.read_text().splitlines() if "malformed_city" in line]
    assert lines and all(len(line) < 1000 for line in lines), [len(line) for line in lines]


# ---- the command line ------------------------------------------------------------------------------------


def test_importing_a_100000_deep_json_is_one_line_and_exit_2(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = _run("games", "--database", str(tmp_path / "g.db"), "--import", str(deep), "--device", TOKEN)
    _one_line(done, "deep.json", "nested 100000 levels deep")
    assert not (tmp_path / "g.db").exists()  # refused before the database is opened


@pytest.mark.parametrize("command", ["games", "stats"])
def test_a_database_in_a_missing_folder_is_one_line_and_the_folder_is_not_made(
    tmp_path: Path, command: str
) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    done = _run(command, "--database", str(missing / "x.db"))
    _one_line(done, str(missing), "does not exist")
    assert not (tmp_path / "nonexistent").exists()


def test_an_import_names_the_missing_folder_too(tmp_path: Path) -> None:
    export = tmp_path / "games.json"
    export.write_text(json.dumps({"format": "sprawlscan-games", "version": 1, "games": []}))
    missing = tmp_path / "nowhere"
    done = _run("games", "--database", str(missing / "x.db"), "--import", str(export), "--device", TOKEN)
    _one_line(done, str(missing), "does not exist")
    assert not missing.exists()


def _blocker_folder(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a-folder").mkdir()
    return {"SPRAWLSCAN_DATABASE_PATH": str(tmp_path / "a-folder")}


def _unreachable_postgres(tmp_path: Path) -> dict[str, str]:
    return {"SPRAWLSCAN_DATABASE_URL": f"postgresql://someone:secret@127.0.0.1:{free_port()}/nothing"}


def _unwritable_folder(tmp_path: Path) -> dict[str, str]:
    # /proc takes no new files, even from root (a chmod'ed folder would not stop the tests' root user).
    return {"SPRAWLSCAN_DATABASE_PATH": "/proc/sprawlscan-test.db"}


@pytest.mark.parametrize(
    ("database", "named"),
    [
        (_blocker_folder, "a-folder: it is a folder"),
        (_unreachable_postgres, "someone:***@127.0.0.1"),
        (_unwritable_folder, "/proc/sprawlscan-test.db"),
    ],
    ids=["a folder", "unreachable postgresql", "unwritable folder"],
)
def test_serve_with_a_database_it_cannot_open_says_one_line_and_exits_2(
    tmp_path: Path, database: object, named: str
) -> None:
    env = database(tmp_path)  # type: ignore[operator]
    done = _run("serve", "--port", str(free_port()), env=env)
    line = _one_line(done, "cannot open the database", named)
    assert "secret" not in line


def test_uvicorn_itself_reports_a_database_it_cannot_open_without_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, **_blocker_folder(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "uvicorn", "api.web.asgi:app", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=90,
    )
    text = done.stderr.decode()
    assert done.returncode != 0
    assert "cannot open the database" in text and "it is a folder" in text
    assert "Traceback" not in text and len(text.strip().splitlines()) <= 4, text


# ---- memory: the allocator's arenas ----------------------------------------------------------------------

HEAP_SPAN = 64 << 20  # each glibc arena but the main one lives in 64 MiB-aligned heaps of 64 MiB


def _serving_pid(port: int) -> int:
    """The process of ``sprawlscan serve --port PORT`` (one worker: the one that serves)."""
    wanted = f"--port\0{port}\0".encode()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and wanted in (entry / "cmdline").read_bytes():
                return int(entry.name)
        except OSError:
            continue
    raise AssertionError(f"no process serves port {port}")


def _glibc_arenas(pid: int) -> int:
    """How many glibc arenas besides the main one process ``pid`` has. Their heaps are anonymous
    read-write mappings starting on a 64 MiB boundary, 64 MiB in all with their reserved rest; each
    begins with its arena's address, and an arena lives in its first heap, just past that header. So an
    arena is a heap whose first word points into its own first page: an arena's further heaps point
    elsewhere, and another library's 64 MiB mapping on such a boundary (zeros: seen one run in three,
    which counting the mappings alone took for an arena) points nowhere."""
    heaps = []
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split()
        start = int(fields[0].split("-")[0], 16)
        if len(fields) == 5 and fields[1] == "rw-p" and start % HEAP_SPAN == 0:
            heaps.append(start)
    arenas = 0
    with open(f"/proc/{pid}/mem", "rb") as memory:
        for start in heaps:
            memory.seek(start)
            owner = int.from_bytes(memory.read(8), sys.byteorder)  # the heap's header: heap_info.ar_ptr
            arenas += start < owner < start + 4096
    return arenas


def _burst(url: str, requests: int = 240, parallel: int = 16) -> None:
    """Honest requests from ``parallel`` clients at once: the service's threads each allocate."""
    body = {"city": CITY, "cards": [8, 7, 17]}
    with httpx.Client(timeout=60) as http, ThreadPoolExecutor(parallel) as pool:
        codes = set(
            pool.map(lambda _: http.post(f"{url}/api/v1/score", json=body).status_code, range(requests))
        )
    assert codes == {200}


# The burst's requests score on as many threads as it sends at once (the service's default is one scoring
# thread, 4 requests from one address: the arenas grow per busy thread).
MANY_SCORING_THREADS = {
    "SPRAWLSCAN_JSON_WORKERS": "16",
    "SPRAWLSCAN_MAX_PENDING_JSON": "64",
    "SPRAWLSCAN_MAX_CLIENT_JSON": "64",
}


def test_the_serving_process_limits_its_malloc_arenas_itself(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = {"MALLOC_ARENA_MAX": "", "SPRAWLSCAN_DATABASE_PATH": str(tmp_path / "m.db"), **MANY_SCORING_THREADS}
    with serving(log, "--log-level", "info", env=env) as (url, port):
        _burst(url)
        arenas = _glibc_arenas(_serving_pid(port))
    assert 1 <= arenas <= ARENA_MAX - 1, arenas  # the main arena has no heap of this kind
    assert f"at most {ARENA_MAX} malloc arenas" in log.read_text()


def test_an_operators_own_arena_setting_is_left_alone(tmp_path: Path) -> None:
    # The same burst under glibc's default (8 arenas a core, set here by the operator's tunable) grows an
    # arena per busy thread: what the service's own limit prevents.
    log = tmp_path / "server.log"
    env = {
        "GLIBC_TUNABLES": "glibc.malloc.arena_max=64",
        "SPRAWLSCAN_DATABASE_PATH": str(tmp_path / "m.db"),
        **MANY_SCORING_THREADS,
    }
    with serving(log, "--log-level", "info", env=env) as (url, port):
        _burst(url)
        arenas = _glibc_arenas(_serving_pid(port))
    assert arenas > ARENA_MAX + 2, arenas
    assert "malloc arenas" not in log.read_text()


FREED_JOB = """
import anyio
from api.web.scanning import ScanWorkers


def rss() -> int:
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) // 1024


kept = []


def job() -> int:
    blocks = [bytearray(100_000) for _ in range(2000)]  # 200 MB in the worker thread's arena
    kept.append(bytearray(100_000))  # allocated last: the arena cannot shrink from its top
    del blocks
    return rss()


base = rss()
print(base, anyio.run(ScanWorkers(1).run, job), rss())
"""


def test_a_jobs_freed_working_set_leaves_the_process_when_the_job_is_done() -> None:
    # A scan worker's job (what a scan or a deck teaching runs in): 200 MB allocated and freed inside it
    # stays in glibc's arena, counted in the process, until the worker gives it back.
    done = subprocess.run([sys.executable, "-c", FREED_JOB], cwd=ROOT, capture_output=True, timeout=120)
    base, freed_inside, after = (int(x) for x in done.stdout.split())
    assert freed_inside - base > 150, (base, freed_inside)
    assert after - base < 40, (base, freed_inside, after)
