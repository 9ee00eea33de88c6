"""The ``sprawlscan`` command line: a thin dispatcher over one module per subcommand.

Each subcommand module exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit status. Bad input (any
:class:`~scoring.errors.InputError` or an unreadable file) becomes one line on standard error and exit
status 2, never a traceback. Output cut short by its reader (``sprawlscan cards | head``) ends quietly
with the status a shell gives a command stopped by SIGPIPE (141), as ``cat`` or ``yes`` would.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from api.cli import cards, games, scan, score, serve, synth, teach
from api.core import version
from games import flag_words
from scoring.errors import InputError
from vision.runtime import Workers

if TYPE_CHECKING:
    from vision.cells import Classifier

#: The exit status of a command whose reader went away: 128 + SIGPIPE, what a shell reports for ``cat``.
BROKEN_PIPE = 141

# Subcommand modules, in the order of the help text; heavy libraries load inside the commands.
SUBCOMMANDS = (score, scan, cards, synth, serve, games, teach)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped between words only: a name such as ``boom-or-bust`` stays whole."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # argparse's usage errors: status 2, one line plus usage
        self.print_usage(sys.stderr)
        self.exit(2, f"sprawlscan: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sprawlscan", description="Score Sprawlopolis and Circle the Wagons cities.")
    parser.add_argument("--version", action="version", version=f"sprawlscan {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, classifier: Classifier | None = None) -> int:
    """Run ``sprawlscan`` with ``argv`` and return its exit status. ``classifier`` replaces the shipped
    cell classifier in the commands that scan a photo (tests give a stand-in)."""
    try:
        args = build_parser().parse_args(argv)
        args.classifier = classifier
        # The scanner's thread pools live as long as this command (vision.runtime.workers), not the process.
        with Workers() as workers, workers.active():
            status = _run(args)
        sys.stdout.flush()  # here, not at exit: a reader gone by now is told apart below
        return status
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Standard output's reader closed it (``| head``): nothing more can be said there, and nothing is
    wrong to say on standard error. Standard output now points at the null device, so that the flush at
    exit does not fail a second time, loudly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's captured stream): nothing to redirect
        pass
    return BROKEN_PIPE


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"sprawlscan: error: {flag_words(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # the reader of the output went away: main ends quietly
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        print(f"sprawlscan: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
