"""The city text format read into a :class:`~scoring.city.City`: the grid (cells from
:mod:`scoring.city`) and the header lines, checked against the engine's names (:mod:`scoring.city_headers`),
which is why reading lives here and not beside the City itself: those names import the City."""

from __future__ import annotations

from scoring.city import (
    _HEADER,
    _TOKEN,
    Cell,
    City,
    CityFormatError,
    _lines,
    _parse_cell,
    check_grid_size,
    last_line,
)
from scoring.city_headers import CityHeaders

__all__ = ["parse_city"]


def parse_city(text: str | bytes) -> City:
    """Read a city from its text form; raise :class:`CityFormatError` naming line and column."""
    text = CityFormatError.decode(text)
    headers = CityHeaders()
    rows: list[tuple[Cell, ...]] = []
    interstate: int | None = None
    width: int | None = None
    for lineno, raw in enumerate(_lines(text), start=1):
        bad = next((i for i, ch in enumerate(raw) if not ch.isprintable() and ch != "\t"), None)
        if bad is not None:
            raise CityFormatError(f"unexpected control character {raw[bad]!r}", lineno, bad + 1)
        content = raw.split("#", 1)[0].rstrip()
        if not content.strip():
            continue
        indent = len(content) - len(content.lstrip())
        stripped = content.strip()
        header = _HEADER.match(stripped)
        if header and not rows and interstate is None and len(header[1]) > 1:
            colon = indent + stripped.index(":")  # 0-based; the value starts after the colon's spaces
            rest = content[colon + 1 :]
            vcol = colon + 2 + len(rest) - len(rest.lstrip())
            headers.add(header[1].lower(), header[2].strip(), lineno, indent + 1, vcol)
            continue
        if set(stripped) == {"="}:
            if not rows:
                raise CityFormatError("the interstate line must lie between two rows", lineno, indent + 1)
            if interstate is not None:
                raise CityFormatError("a city has only one interstate line", lineno, indent + 1)
            interstate = len(rows)
            continue
        matches = list(_TOKEN.finditer(content))
        check_grid_size(len(rows), matches, lineno)
        cells = [_parse_cell(m.group(), lineno, m.start() + 1) for m in matches]
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            raise CityFormatError(
                f"row has {len(cells)} cells but the rows above have {width} (pad with '.')",
                lineno,
                len(content) + 1 if len(cells) < width else matches[width].start() + 1,
            )
        rows.append(tuple(cells))
    if not rows:
        last = last_line(text)
        raise CityFormatError("no city grid found (expected rows of cells such as 'R:EW  P  C:NS')", last, 1)
    if interstate is not None and interstate >= len(rows):
        raise CityFormatError("the interstate line must lie between two rows", last_line(text), 1)
    city = City(tuple(rows), headers.cards, headers.expansions, interstate, tuple(headers.others))
    headers.check_cards(city)
    return city
