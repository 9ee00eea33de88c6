"""``sprawlscan scan PHOTO`` when the photo shows a Circle the Wagons town: the town read, its breakdown
with the goal cards of ``--goals`` (or read from the photo; the text says which) and the cells in doubt
(``--format text``), the TownScan JSON with ``"game": "wagons"`` and ``"goals_source"`` (``json``), or
only the town in the town format (``city``); ``--overlay OUT.png`` is written by ``sprawlscan scan`` as
for a city. Warnings go to standard error. A town whose cards the reader does not know (``retake``,
``needs_deck``) is printed unscored with what to do, status 2."""

from __future__ import annotations

import argparse
import json
import sys

from api.cli.doubts import doubt_text
from api.core import ScoredTown
from scoring.wagons import GOALS

__all__ = ["goals_line", "print_town"]

_GOALS_FROM = {"read": "read from the photo", "given": "as given"}


def goals_line(goals: tuple[str, ...], source: str | None) -> str:
    """The line saying which goal cards scored the town and where they came from (none: no line)."""
    if not goals or source not in _GOALS_FROM:
        return ""
    return f"Goal cards ({_GOALS_FROM[source]}): {', '.join(GOALS.get(g, g) for g in goals)}\n"


def print_town(scored: ScoredTown, args: argparse.Namespace) -> int:
    """Print ``scored`` as ``args.format`` asks; the exit status (0, or 2 for a retake)."""
    from api.cli.wagons import render_town

    text = scored.scan.text
    if args.format == "city":
        sys.stdout.write(text)
    elif args.format == "json":
        sys.stdout.write(json.dumps(scored.to_json(), indent=2, ensure_ascii=False) + "\n")
    elif scored.retake is not None:
        sys.stdout.write(
            "The town read (not scored):\n"
            + "".join(line + "\n" for line in text.splitlines() if ":" not in line)
        )
    else:
        grid = "".join(line + "\n" for line in text.splitlines() if ":" not in line)  # the grid, no headers
        table = render_town(scored.breakdown)
        table = table if table.endswith("\n") else table + "\n"
        sys.stdout.write("The town read (A1 is its top-left cell):\n" + grid + "\n" + table)
        sys.stdout.write(goals_line(scored.scan.goals, scored.scan.goals_source))
        sys.stdout.write(doubt_text(scored.doubt))
    for warning in scored.warnings:
        print(f"sprawlscan: warning: {warning}", file=sys.stderr)
    if scored.retake is not None:
        print(f"sprawlscan: retake: {scored.retake}", file=sys.stderr)
        return 2
    return 0
