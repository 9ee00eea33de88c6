"""``sprawlscan games`` and ``sprawlscan stats``: the saved games in the database, read directly.

The command line opens the same database as the service (``--database``, else ``SPRAWLSCAN_DATABASE_URL``
or ``SPRAWLSCAN_DATABASE_PATH``, else the per-user SQLite file). Whoever can open the database can read all
of it, so without ``--device`` these commands show every device's games; ``--device TOKEN`` narrows them to
one device's, and importing needs one (an imported game belongs to a device).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from api.cli.argtypes import whole
from api.core import MAX_IMPORT_GAMES, BadImport, export_document, import_records, owner_of_token
from api.storage import DatabaseUnavailable, DeviceStore, GameStore, database_url, open_database, sqlite_file
from games import game_named
from scoring.errors import InputError
from scoring.numbers import JSONError, load_json

# An export holds at most MAX_IMPORT_GAMES games of a few kB each; past this a file is not an export (or
# must be split), and reading stops there instead of filling memory (``--import /dev/zero``).
MAX_IMPORT_BYTES = 32_000_000
_CHUNK = 1 << 20


def register(subparsers: Any) -> None:
    """Add the ``games`` and ``stats`` subcommands to the ``sprawlscan`` parser."""
    games = subparsers.add_parser(
        "games",
        help="list, export or import saved games",
        description="List the saved games (newest first), export them as JSON or import an export.",
    )
    _common(games)
    games.add_argument("--limit", type=whole("limit", 1), default=50, help="games to list (default 50)")
    what = games.add_mutually_exclusive_group()
    what.add_argument(
        "--export", metavar="FILE", help="write the games as a JSON export ('-': standard output)"
    )
    what.add_argument("--import", dest="import_file", metavar="FILE", help="add the games of a JSON export")
    games.set_defaults(func=run_games)
    stats = subparsers.add_parser(
        "stats",
        help="print the statistics of the saved games",
        description="Games, won, mean, best and worst score per combination of scoring cards and overall, "
        "and per card how many games (and won games) it was in.",
    )
    _common(stats)
    stats.set_defaults(func=run_stats)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database", metavar="PATH_OR_URL", help="SQLite file or database URL (default: as the service)"
    )
    parser.add_argument("--device", metavar="TOKEN", help="only this device token's games")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def _store(args: argparse.Namespace, *, write: bool = False) -> Any:
    """The games in the database ``--database`` names (migrated to the current schema); a database that
    cannot be opened is one line naming it (password hidden) and why (``write``: for an import)."""
    given = args.database or ""
    url = database_url(
        given if "://" in given else os.environ.get("SPRAWLSCAN_DATABASE_URL", ""),
        given or os.environ.get("SPRAWLSCAN_DATABASE_PATH", ""),
    )
    shown = make_url(url).render_as_string(hide_password=True).removeprefix("sqlite:///")
    _require_folder(url, shown, write=write)
    try:
        return GameStore(open_database(url))
    except DatabaseUnavailable as exc:
        raise InputError(f"cannot open the database {shown}: {exc.reason}") from None


def _require_folder(url: str, shown: str, *, write: bool) -> None:
    """Refuse a SQLite database whose folder is missing: a typo in ``--database`` would otherwise become
    new folders and an empty database, listed as "0 of 0 games". Only an import (``write``) into the
    per-user database makes its folder, as the service does."""
    file = sqlite_file(url)
    folder = Path(file).parent if file else None
    if folder is not None and not folder.is_dir() and not (write and url == database_url()):
        raise InputError(f"cannot open the database {shown}: the folder {folder} does not exist")


def _read_import(name: str) -> str:
    """The text of the export ``name`` (``-``: standard input), read in chunks up to
    :data:`MAX_IMPORT_BYTES`; a file that is not UTF-8 is refused naming the line and column."""
    chunks: list[bytes] = []
    size = 0
    with open(sys.stdin.fileno(), "rb", closefd=False) if name == "-" else open(name, "rb") as stream:
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            if size > MAX_IMPORT_BYTES:
                raise BadImport(
                    f"{name}: larger than {MAX_IMPORT_BYTES // 1_000_000} MB, more than an export of "
                    f"{MAX_IMPORT_GAMES} games: is it an export? (split a large one)"
                )
            chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        column = len(raw[start : exc.start].decode("utf-8")) + 1  # the text before the bad byte is UTF-8
        raise BadImport(f"{name}: line {line}, column {column}: not UTF-8 text (is it an export?)") from None


def _owner(args: argparse.Namespace) -> str | None:
    return owner_of_token(args.device) if args.device else None


def run_games(args: argparse.Namespace) -> int:
    """List, export or import; returns the exit status."""
    if args.import_file:
        if not args.device:
            raise BadImport("--import needs --device TOKEN: imported games belong to a device")
        raw = _read_import(args.import_file)
        try:
            document = load_json(raw)  # nesting bounded: Python's own parser overflows the stack
        except JSONError as exc:
            raise BadImport(f"{args.import_file}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise BadImport(f"{args.import_file}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        records = import_records(document)  # scored before the database is opened for writing
        store, owner = _store(args, write=True), _owner(args)
        saved = store.add_many(owner, records)
        # The token is the operator's to give: the service hears it from now on (it checks issued tokens).
        DeviceStore(store.engine, 0, 0.0).enrol(owner)
        print(f"imported {len(saved)} games")
        return 0
    owner = _owner(args)  # a bad token is named before the database is opened
    store = _store(args)
    if args.export:
        text = json.dumps(export_document(store.export(owner)), indent=2) + "\n"
        if args.export == "-":
            sys.stdout.write(text)
        else:
            Path(args.export).write_text(text, "utf-8")
        return 0
    page = store.page(owner, args.limit)
    if args.format == "json":
        print(json.dumps({"games": page.games, "count": page.count}, indent=2))
        return 0
    rows = [("played (UTC)", "game", "cards", "total", "target", "result", "label", "id")]
    for g in page.games:
        result = {True: "won", False: "lost", None: "-"}[g["won"]]
        target = "-" if g["target"] is None else str(g["target"])
        played = g["played_at"][:16].replace("T", " ")
        cards = " ".join(str(c) for c in g["cards"]) or "-"
        rows.append((played, g["game"], cards, str(g["total"]), target, result, g["label"], g["id"]))
    print(_table(rows, numeric={3, 4}))
    print(f"{len(page.games)} of {page.count} games")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """Print the statistics table; returns the exit status."""
    owner = _owner(args)
    stats = _store(args).stats(owner)
    if args.format == "json":
        print(json.dumps(stats, indent=2))
        return 0
    if not stats["sections"]:
        print("no saved games")
        return 0
    for section in stats["sections"]:
        game = game_named(section["game"])
        heading = game.stats_heading or game.title
        rows = [("scoring cards", "games", "won", "mean", "best", "worst")]
        for label, line in [("all", section["overall"])] + [
            (" ".join(str(c) for c in combo["cards"]) or "(none)", combo) for combo in section["combinations"]
        ]:
            rows.append((label, *(str(line[k]) for k in ("games", "won", "mean", "best", "worst"))))
        print(f"{heading}\n{_table(rows, numeric={1, 2, 3, 4, 5})}\n")
        cards = [("card", "name", "games", "won")]
        for c in section["cards"]:
            cards.append((str(c["card"]), game.card_name(c["card"]), str(c["games"]), str(c["won"])))
        print(f"{_table(cards, numeric={2, 3})}\n")
    return 0


def _table(rows: list[tuple[str, ...]], numeric: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            c.rjust(w) if i in numeric else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
