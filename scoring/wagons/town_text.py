"""The town text format read into a :class:`~scoring.wagons.town.Town`, its header lines checked against the
scorer's goal, scenario and option names (which import the Town: hence a module of its own)."""

from __future__ import annotations

from scoring.city import check_grid_size
from scoring.city_headers import did_you_mean
from scoring.wagons.errors import UnknownNameError
from scoring.wagons.names import split_names
from scoring.wagons.score import OPTIONS, resolve_goals, resolve_scenario
from scoring.wagons.town import (
    _HEADER,
    _TOKEN,
    TOWN_KEYS,
    Territory,
    Town,
    TownFormatError,
    _lines,
    _parse_cell,
)

__all__ = ["check_town_header", "parse_town"]


def check_town_header(
    key: str, value: str, before: list[tuple[str, str]], line: int, kcol: int, vcol: int
) -> None:
    """Refuse a header key the scorer does not read, a key given twice and a goal or scenario name that
    does not exist, naming the line, the column and the nearest valid word."""
    keys = (*TOWN_KEYS, *OPTIONS)
    if key not in keys:
        hint = did_you_mean(key, keys) or f" (known: {', '.join(keys)})"
        raise TownFormatError(f"unknown header {key!r}{hint}", line, kcol)
    if any(k == key for k, _ in before):
        raise TownFormatError(f"header {key!r} given twice", line, kcol)
    names = split_names(value) if key == "goals" else [value] if key == "scenario" and value else []
    for name in names:
        try:
            resolve_goals([name]) if key == "goals" else resolve_scenario(name)
        except UnknownNameError as exc:
            raise TownFormatError(str(exc), line, vcol + value.index(name)) from None


def parse_town(text: str | bytes) -> Town:
    """Read a town from its text form.

    Header lines (``key: value``, keys lower-cased) are kept in order in :attr:`Town.headers`; what they mean
    (``goals``, ``scenario``, ``opponent-pile``…) is read by the scorer. Raises :class:`TownFormatError`
    naming the line and column of the first problem.
    """
    text = TownFormatError.decode(text)
    headers: list[tuple[str, str]] = []
    rows: list[tuple[Territory | None, ...]] = []
    lines = _lines(text)
    for lineno, raw in enumerate(lines, start=1):
        bad = next((i for i, ch in enumerate(raw) if not ch.isprintable() and ch != "\t"), None)
        if bad is not None:
            raise TownFormatError(f"unexpected control character {raw[bad]!r}", lineno, bad + 1)
        content = raw.split("#", 1)[0].rstrip()
        if not content.strip():
            continue
        stripped = content.strip()
        header = _HEADER.match(stripped)
        # One-letter keys are not headers: "D:" would be a mistyped cell, reported as such.
        if header and len(header[1]) > 1:
            kcol = len(content) - len(content.lstrip()) + 1
            if rows:
                raise TownFormatError(
                    f"header line {header[1]!r} after the grid (headers must come first)", lineno, kcol
                )
            key, value = header[1].lower(), header[2].strip()
            check_town_header(key, value, headers, lineno, kcol, kcol + stripped.index(value) if value else 1)
            headers.append((key, value))
            continue
        matches = list(_TOKEN.finditer(content))
        check_grid_size(len(rows), matches, lineno, TownFormatError)
        cells = tuple(_parse_cell(m.group(), lineno, m.start() + 1) for m in matches)
        if rows and len(cells) != len(rows[0]):
            width = len(rows[0])
            column = len(content) + 1 if len(cells) < width else matches[width].start() + 1
            raise TownFormatError(
                f"row has {len(cells)} cells but the rows above have {width} (pad with '.')", lineno, column
            )
        rows.append(cells)
    if not rows:
        last = max(1, len(lines))
        raise TownFormatError("no town grid found (expected rows of cells such as 'D/w  P/c  .')", last, 1)
    town = Town(tuple(rows), tuple(headers))
    if town.n_territories == 0:
        raise TownFormatError("the town has no territory (every cell is '.')", 1, 1)
    return town
