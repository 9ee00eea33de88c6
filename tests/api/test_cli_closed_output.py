"""The command line when its reader goes away (``sprawlscan cards --game wagons | head``): every command
ends quietly, with the status a shell gives ``cat`` stopped by SIGPIPE, and says nothing on standard error.
Each runs as its own process, its standard output a pipe whose reading end is already closed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli.dispatch import BROKEN_PIPE

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def run_into_closed_pipe(*argv: str) -> tuple[int, str]:
    """Run ``sprawlscan ARGV…`` with standard output a pipe nobody reads; (exit status, standard error)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "api.cli", *argv],
            cwd=ROOT,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("cards", "--game", "wagons"),
        ("cards",),
        ("score", str(SAMPLES / "demo.city")),
        ("check", str(SAMPLES / "example.city"), "--tally", str(SAMPLES / "example.tally")),
        ("score", str(SAMPLES / "wagons-rulebook.town"), "--format", "json"),
        ("--help",),
    ],
)
def test_a_command_whose_reader_closed_the_output_ends_quietly(argv: tuple[str, ...]) -> None:
    code, err = run_into_closed_pipe(*argv)
    assert err == ""
    assert code in (0, BROKEN_PIPE)


def test_the_closed_output_is_told_by_the_shells_sigpipe_status() -> None:
    code, err = run_into_closed_pipe("cards", "--game", "wagons")
    assert (code, err) == (141, "")


def test_a_bad_file_is_still_an_error_with_its_message(tmp_path: Path) -> None:
    code, err = run_into_closed_pipe("score", str(tmp_path / "missing.city"))
    assert code == 2 and err.startswith("sprawlscan: error: ") and "missing.city" in err
