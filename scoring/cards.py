"""The 18 Sprawlopolis scoring cards (``shared/rules/sprawlopolis.md``, "The 18 scoring cards").

Each card is a :class:`ScoringCard`: its number (also its target value), its name and a function that
scores a :class:`~scoring.city.City` as one :class:`~scoring.breakdown.LineItem` keyed ``card:N``. Every
item's ``detail`` says in plain words what was counted and names the cells (``B3``, ``C3`` …), and quotes
the spec's **Ruling** whenever that ruling decided the line. :func:`card_item` is the entry point.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import SupportsIndex

from scoring.breakdown import LineItem
from scoring.city import ZONE_NAMES, City, cell_name, cell_names
from scoring.errors import InputError
from scoring.geometry import CityShape, Pos, Road, is_corner, shape

RULING_EDGE = (
    "Ruling (edge of the city): a block side with no block across it is on the edge, including a side "
    "facing a gap enclosed inside the city."
)
RULING_TIES = (
    "Ruling (ties): when several groups tie for the largest, the one giving the most points is used."
)

BLOCK_PARTY_TABLE = {0: -8, 1: -5, 2: -2, 3: 1, 4: 4}  # 5 or more squares: +7
BLOCK_PARTY_MAX = 7


class UnknownCardError(InputError):
    """A scoring-card number that is not 1–18, or a card given twice."""

    code = "unknown_card"


@dataclass(frozen=True)
class ScoringCard:
    """One scoring card: ``score(city)`` returns its line item."""

    number: int
    name: str
    score: Callable[[City], LineItem]


# --- wording helpers -------------------------------------------------------------------------------------


def _names(cells: Iterable[Pos]) -> str:
    """Cell names in reading order, or "none"."""
    text = cell_names(cells)
    return text or "none"


def _names_tuple(cells: Iterable[Pos]) -> tuple[str, ...]:
    return tuple(cell_name(r, c) for r, c in sorted(set(cells)))


def road_text(road: Road) -> str:
    """A road as a player traces it: its cells in order along the road, e.g. ``A1–B1–B2`` or ``loop …``."""
    path = "–".join(cell_name(r, c) for r, c in road.cells)
    return f"loop {path}" if road.loop else path


def _roads_text(roads: Iterable[Road]) -> str:
    return "; ".join(road_text(r) for r in roads) or "none"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _row_label(row: int) -> str:
    return f"row {row + 1}"


def _column_label(col: int) -> str:
    return f"column {cell_name(0, col)[:-1]}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


# --- the cards -------------------------------------------------------------------------------------------


def _outskirts(city: City) -> LineItem:
    """Card 1: +1 per road with no end at the city edge (loops included), −1 per road with at least one."""
    sh = shape(city)
    inner: list[Road] = []
    outer: list[Road] = []
    by_gap_only: list[Road] = []
    gaps = sh.enclosed_gaps
    for road in sh.roads:
        edge_ends = [e for e in road.ends if e.at_edge]
        if edge_ends:
            outer.append(road)
            if all(e.beyond in gaps for e in edge_ends):
                by_gap_only.append(road)
        else:
            inner.append(road)
    detail = (
        f"+1 for each of {_plural(len(inner), 'road')} not ending at the city edge ({_roads_text(inner)}); "
        f"−1 for each of {_plural(len(outer), 'road')} with an end at the edge ({_roads_text(outer)})."
    )
    if any(r.loop for r in inner):
        detail += " A closed loop has no end, so it counts as not ending at the edge."
    if by_gap_only:
        detail += f" {_roads_text(by_gap_only)} end(s) only at an inner gap. {RULING_EDGE}"
    cells = [p for r in sh.roads for p in r.cells]
    return _item(1, len(inner) - len(outer), detail, cells)


def _bloom_boom(city: City) -> LineItem:
    """Card 2: +1 per row and column with exactly 3 parks, −1 per row and column with none."""
    sh = shape(city)
    blocks = sh.blocks
    three: list[str] = []
    none: list[str] = []
    counted: list[Pos] = []
    lines = [(_row_label(r), cells) for r, cells in sh.rows.items()]
    lines += [(_column_label(c), cells) for c, cells in sh.columns.items()]
    for label, cells in lines:
        parks = [p for p in cells if blocks[p].zone == "P"]
        if len(parks) == 3:
            three.append(label)
            counted.extend(parks)
        elif not parks:
            none.append(label)
    detail = (
        f"+1 for each row or column with exactly 3 park blocks ({', '.join(three) or 'none'}); "
        f"−1 for each with no park block ({', '.join(none) or 'none'}). Rows and columns without any block "
        "do not count."
    )
    return _item(2, len(three) - len(none), detail, counted)


def _go_green(city: City) -> LineItem:
    """Card 3: +1 per park block, −3 per industrial block."""
    sh = shape(city)
    parks = [p for p, cell in sh.blocks.items() if cell.zone == "P"]
    industry = [p for p, cell in sh.blocks.items() if cell.zone == "I"]
    detail = (
        f"+1 × {_plural(len(parks), 'park block')} ({_names(parks)}); "
        f"−3 × {_plural(len(industry), 'industrial block')} ({_names(industry)})."
    )
    return _item(3, len(parks) - 3 * len(industry), detail, parks + industry)


def block_party_squares(city: City) -> list[Pos]:
    """Top-left corners of every 2×2 square of four same-zone blocks (squares may overlap)."""
    sh = shape(city)
    blocks, across = sh.blocks, sh.across
    found = []
    for pos, cell in blocks.items():
        east, south = across[pos]["E"], across[pos]["S"]
        if east is None or south is None:
            continue
        corner = across[east]["S"]
        if corner is not None and all(blocks[p].zone == cell.zone for p in (east, south, corner)):
            found.append(pos)
    return found


def _block_party(city: City) -> LineItem:
    """Card 4: count 2×2 same-zone squares (overlapping allowed) and read the card's table."""
    sh = shape(city)
    squares = block_party_squares(city)
    points = BLOCK_PARTY_TABLE.get(len(squares), BLOCK_PARTY_MAX)
    described = [
        f"{ZONE_NAMES[sh.blocks[(r, c)].zone or 'R']} {cell_name(r, c)}–{cell_name(r + 1, c + 1)}"
        for r, c in squares
    ]
    detail = (
        f"{_plural(len(squares), 'square')} of four same-zone blocks ({'; '.join(described) or 'none'}) → "
        f"{_signed(points)} (0 → −8, 1 → −5, 2 → −2, 3 → +1, 4 → +4, 5 or more → +7; squares may overlap)."
    )
    cells = [(r + dr, c + dc) for r, c in squares for dr in (0, 1) for dc in (0, 1)]
    return _item(4, points, detail, cells)


def _stacks_and_scrapers(city: City) -> LineItem:
    """Card 5: +2 per industrial block whose side neighbours are all commercial or industrial."""
    sh = shape(city)
    scoring = [
        pos
        for pos, cell in sh.blocks.items()
        if cell.zone == "I"
        and all(o is None or sh.blocks[o].zone in ("C", "I") for o in sh.across[pos].values())
    ]
    detail = (
        f"+2 × {_plural(len(scoring), 'industrial block')} whose side neighbours are all commercial or "
        f"industrial ({_names(scoring)}); sides with no block do not count against a block."
    )
    return _item(5, 2 * len(scoring), detail, scoring)


def _master_planned(city: City) -> LineItem:
    """Card 6: largest residential group minus largest industrial group."""
    sh = shape(city)
    res = sh.zone_groups["R"][0] if sh.zone_groups["R"] else frozenset()
    ind = sh.zone_groups["I"][0] if sh.zone_groups["I"] else frozenset()
    detail = (
        f"largest residential group {len(res)} ({_names(res)}) − largest industrial group {len(ind)} "
        f"({_names(ind)}) = {len(res) - len(ind)}."
    )
    return _item(6, len(res) - len(ind), detail, [*res, *ind])


def _central_perks(city: City) -> LineItem:
    """Card 7: +1 per interior park block, −2 per park block on the edge."""
    sh = shape(city)
    parks = [p for p, cell in sh.blocks.items() if cell.zone == "P"]
    interior = [p for p in parks if not sh.edge[p]]
    edge = [p for p in parks if sh.edge[p]]
    by_gap_only = [p for p in edge if sh.inner_edge_sides(p) == sh.edge[p]]
    detail = (
        f"+1 × {_plural(len(interior), 'interior park block')} ({_names(interior)}); "
        f"−2 × {_plural(len(edge), 'park block')} on the edge ({_names(edge)})."
    )
    if by_gap_only:
        detail += f" {_names(by_gap_only)} touch(es) the edge only at a gap inside the city. {RULING_EDGE}"
    return _item(7, len(interior) - 2 * len(edge), detail, parks)


def _burbs(city: City) -> LineItem:
    """Card 8: +1 per park, −2 per industrial block beside the largest residential group (best tied one)."""
    sh = shape(city)
    groups = [g for g in sh.zone_groups["R"] if len(g) == len(sh.zone_groups["R"][0])]
    if not groups:
        return _item(8, 0, "no residential block, so no largest residential group: 0.", [])
    options = []
    for group in groups:
        touching = {o for p in group for o in sh.across[p].values() if o is not None and o not in group}
        parks = [p for p in touching if sh.blocks[p].zone == "P"]
        industry = [p for p in touching if sh.blocks[p].zone == "I"]
        options.append((len(parks) - 2 * len(industry), group, parks, industry))
    points, group, parks, industry = max(options, key=lambda o: o[0])  # first best on equal points
    detail = (
        f"largest residential group: {_plural(len(group), 'block')} ({_names(group)}); +1 × "
        f"{_plural(len(parks), 'park block')} beside it ({_names(parks)}); −2 × "
        f"{_plural(len(industry), 'industrial block')} beside it ({_names(industry)})."
    )
    if len(groups) > 1:
        scores = ", ".join(_signed(o[0]) for o in options)
        detail += f" {len(groups)} groups tie for the largest (they would score {scores}). {RULING_TIES}"
    return _item(8, points, detail, [*group, *parks, *industry])


def _concrete_jungle(city: City) -> LineItem:
    """Card 9: +1 per industrial block with another industrial block diagonally next to it."""
    sh = shape(city)
    scoring = [
        pos
        for pos, cell in sh.blocks.items()
        if cell.zone == "I" and any(sh.blocks[d].zone == "I" for d in sh.diagonal_blocks(pos))
    ]
    detail = (
        f"+1 × {_plural(len(scoring), 'industrial block')} touching another industrial block corner to "
        f"corner ({_names(scoring)}); touching only side by side does not score."
    )
    return _item(9, len(scoring), detail, scoring)


def _the_strip(city: City) -> LineItem:
    """Card 10: +1 per commercial block in the best single row or column."""
    sh = shape(city)
    best_label, best = "", []
    lines = [(_row_label(r), cells) for r, cells in sh.rows.items()]
    lines += [(_column_label(c), cells) for c, cells in sh.columns.items()]
    for label, cells in lines:
        commercial = [p for p in cells if sh.blocks[p].zone == "C"]
        if len(commercial) > len(best):
            best_label, best = label, commercial
    if not best:
        return _item(10, 0, "no commercial block in any row or column: 0.", [])
    detail = (
        f"{best_label} holds {_plural(len(best), 'commercial block')} ({_names(best)}), the most of any "
        "row or column: +1 each."
    )
    return _item(10, len(best), detail, best)


def _mini_marts(city: City) -> LineItem:
    """Card 11: +2 per commercial block whose road joins residential roads at both of its ends."""
    sh = shape(city)
    scoring = [
        pos
        for pos, cell in sh.blocks.items()
        if cell.zone == "C"
        and pos in sh.links
        and all(o is not None and sh.blocks[o].zone == "R" for o in sh.links[pos].values())
    ]
    detail = (
        f"+2 × {_plural(len(scoring), 'commercial block')} whose road runs on both ends straight into a "
        f"residential block's road ({_names(scoring)}); in line or stepped both count."
    )
    return _item(11, 2 * len(scoring), detail, scoring)


def _superhighway(city: City) -> LineItem:
    """Card 12: half the sections of the longest road, rounded down."""
    sh = shape(city)
    if not sh.roads:
        return _item(12, 0, "no road: 0.", [])
    longest = max(sh.roads, key=lambda r: r.sections)  # first of equal length
    detail = (
        f"longest road: {_plural(longest.sections, 'section')} ({road_text(longest)}); "
        f"{longest.sections} ÷ 2 rounded down = {longest.sections // 2}."
    )
    return _item(12, longest.sections // 2, detail, longest.cells)


def _park_hopping(city: City) -> LineItem:
    """Card 13: +3 per road whose two ends dead-end against two different park blocks."""
    sh = shape(city)
    hops = []
    for road in sh.roads:
        parks = [e.against for e in road.ends if e.against is not None and sh.blocks[e.against].zone == "P"]
        if len(road.ends) == 2 and len(parks) == 2 and parks[0] != parks[1]:
            hops.append((road, parks))
    described = "; ".join(
        f"{road_text(road)} (from park {cell_name(*parks[0])} to park {cell_name(*parks[1])})"
        for road, parks in hops
    )
    detail = (
        f"+3 × {_plural(len(hops), 'road')} whose two ends dead-end against two different park blocks "
        f"({described or 'none'})."
    )
    cells = [p for road, parks in hops for p in (*road.cells, *parks)]
    return _item(13, 3 * len(hops), detail, cells)


def _looping_lanes(city: City) -> LineItem:
    """Card 14: +1 per section of every closed loop."""
    loops = [r for r in shape(city).roads if r.loop]
    sections = sum(r.sections for r in loops)
    detail = f"+1 per section of each closed loop: {_plural(len(loops), 'loop')} ({_roads_text(loops)})."
    return _item(14, sections, detail, [p for r in loops for p in r.cells])


def _skid_row(city: City) -> LineItem:
    """Card 15: +2 per residential block with industrial blocks on 2 or more sides."""
    sh = shape(city)
    scoring = [
        pos
        for pos, cell in sh.blocks.items()
        if cell.zone == "R"
        and sum(1 for o in sh.across[pos].values() if o is not None and sh.blocks[o].zone == "I") >= 2
    ]
    detail = (
        f"+2 × {_plural(len(scoring), 'residential block')} sharing a side with 2 or more industrial blocks "
        f"({_names(scoring)})."
    )
    return _item(15, 2 * len(scoring), detail, scoring)


def _morning_commute(city: City) -> LineItem:
    """Card 16: +2 per road passing through at least one residential and one commercial block."""
    sh = shape(city)
    commutes = [road for road in sh.roads if {"R", "C"} <= {sh.blocks[p].zone for p in road.cells}]
    detail = (
        f"+2 × {_plural(len(commutes), 'road')} passing through at least one residential and one commercial "
        f"block ({_roads_text(commutes)})."
    )
    return _item(16, 2 * len(commutes), detail, [p for r in commutes for p in r.cells])


def _tourist_traps(city: City) -> LineItem:
    """Card 17: +1 per commercial block on the edge, +1 more when it is on a corner edge."""
    sh = shape(city)
    edge = [p for p, cell in sh.blocks.items() if cell.zone == "C" and sh.edge[p]]
    corner = [p for p in edge if is_corner(sh.edge[p])]
    # Blocks that score more only because a side faces a gap enclosed inside the city.
    by_gap = [p for p in edge if _trap_points(sh.edge[p]) != _trap_points(_outer_edge(sh, p))]
    detail = (
        f"+1 × {_plural(len(edge), 'commercial block')} on the edge ({_names(edge)}); +1 more for each of "
        f"the {len(corner)} on a corner edge ({_names(corner)})."
    )
    if by_gap:
        detail += f" {_names(by_gap)} score(s) more because of a gap inside the city. {RULING_EDGE}"
    return _item(17, len(edge) + len(corner), detail, edge)


def _outer_edge(sh: CityShape, pos: Pos) -> str:
    inner = sh.inner_edge_sides(pos)
    return "".join(s for s in sh.edge[pos] if s not in inner)


def _trap_points(edge: str) -> int:
    return (1 if edge else 0) + (1 if is_corner(edge) else 0)


def _sprawlopolis(city: City) -> LineItem:
    """Card 18: blocks in the fullest row plus blocks in the fullest column (gaps skipped)."""
    sh = shape(city)
    if not sh.blocks:
        return _item(18, 0, "no block: 0.", [])
    row, row_cells = max(sh.rows.items(), key=lambda kv: len(kv[1]))
    col, col_cells = max(sh.columns.items(), key=lambda kv: len(kv[1]))
    detail = (
        f"{_row_label(row)} has the most blocks of any row, {len(row_cells)} ({_names(row_cells)}), and "
        f"{_column_label(col)} the most of any column, {len(col_cells)} ({_names(col_cells)}): "
        f"{len(row_cells)} + {len(col_cells)}; gaps inside a row or column are skipped."
    )
    return _item(18, len(row_cells) + len(col_cells), detail, [*row_cells, *col_cells])


def _item(number: int, points: int, detail: str, cells: Iterable[Pos]) -> LineItem:
    return LineItem(f"card:{number}", CARD_NAMES[number], points, detail, _names_tuple(cells))


CARDS: dict[int, ScoringCard] = {
    card.number: card
    for card in (
        ScoringCard(1, "The Outskirts", _outskirts),
        ScoringCard(2, "Bloom Boom", _bloom_boom),
        ScoringCard(3, "Go Green", _go_green),
        ScoringCard(4, "Block Party", _block_party),
        ScoringCard(5, "Stacks and Scrapers", _stacks_and_scrapers),
        ScoringCard(6, "Master Planned", _master_planned),
        ScoringCard(7, "Central Perks", _central_perks),
        ScoringCard(8, "The 'Burbs", _burbs),
        ScoringCard(9, "Concrete Jungle", _concrete_jungle),
        ScoringCard(10, "The Strip", _the_strip),
        ScoringCard(11, "Mini Marts", _mini_marts),
        ScoringCard(12, "Superhighway", _superhighway),
        ScoringCard(13, "Park Hopping", _park_hopping),
        ScoringCard(14, "Looping Lanes", _looping_lanes),
        ScoringCard(15, "Skid Row", _skid_row),
        ScoringCard(16, "Morning Commute", _morning_commute),
        ScoringCard(17, "Tourist Traps", _tourist_traps),
        ScoringCard(18, "Sprawlopolis", _sprawlopolis),
    )
}
CARD_NAMES: dict[int, str] = {n: card.name for n, card in CARDS.items()}


def check_card(number: object) -> int:
    """Return ``number`` as an ``int`` if it names a scoring card (an integer 1–18, numpy integers too);
    raise :class:`UnknownCardError` for anything else (other numbers, strings, floats, booleans).

    Examples
    --------
    >>> check_card(8)
    8
    """
    if isinstance(number, SupportsIndex) and not isinstance(number, bool):
        value = operator.index(number)
        if value in CARDS:
            return value
    raise UnknownCardError(f"unknown scoring card {number!r} (Sprawlopolis cards are numbered 1 to 18)")


def card_item(city: City, number: int) -> LineItem:
    """Score ``city`` with scoring card ``number`` (1–18); raise :class:`UnknownCardError` otherwise.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> card_item(parse_city("R:EW  C:EW\\nP     I\\n"), 8).key
    'card:8'
    """
    return CARDS[check_card(number)].score(city)


__all__ = [
    "BLOCK_PARTY_TABLE",
    "CARDS",
    "CARD_NAMES",
    "RULING_EDGE",
    "RULING_TIES",
    "ScoringCard",
    "UnknownCardError",
    "block_party_squares",
    "card_item",
    "check_card",
    "road_text",
]
