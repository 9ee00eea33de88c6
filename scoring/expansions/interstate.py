"""Interstate: a highway splitting the city into a north and a south side (the ``====`` line of the format).

Blocks on opposite sides are never neighbours (:class:`~scoring.city.City` already keeps them apart). Each
side's part of the interstate counts as one road, and every road that reaches the interstate joins that part,
so the Roads line is recomputed here. Three modes:

- *cooperative* and *solo*: the whole city is scored once against the sum of the base scoring cards;
- *competitive*: each player scores only their own side, as the interstate scoring card says — Main
  Boulevard (choice), Central Highway (majority), Great Valley Road and Mountainside Drive (standard) — and
  the card's tiebreaker settles equal scores.

The mode and card come from options ``interstate-mode`` and ``interstate-card`` or from expansion names
``interstate:competitive``, ``interstate:central-highway`` …; a card without a mode means competitive, since
only competitive games use an interstate scoring card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.base import base_items, check_variant
from scoring.breakdown import Breakdown, LineItem
from scoring.cards import RULING_EDGE, RULING_TIES, card_item
from scoring.city import EMPTY, City, cell_name, format_city
from scoring.expansions.errors import InterstateError
from scoring.expansions.lines import expansion_items
from scoring.expansions.options import Options, norm_name, option
from scoring.expansions.roads import SIDES, road_groups
from scoring.expansions.selection import select
from scoring.geometry import roads

MODES = {
    "cooperative": "cooperative",
    "coop": "cooperative",
    "co-op": "cooperative",
    "solo": "solo",
    "competitive": "competitive",
    "versus": "competitive",
}
CARDS = {
    "main-boulevard": "Main Boulevard",
    "central-highway": "Central Highway",
    "great-valley-road": "Great Valley Road",
    "mountainside-drive": "Mountainside Drive",
}
_CARD_ALIASES = {
    "boulevard": "main-boulevard",
    "central": "central-highway",
    "highway": "central-highway",
    "great-valley": "great-valley-road",
    "valley": "great-valley-road",
    "mountainside": "mountainside-drive",
}
MODE_OPTION = "interstate-mode"
CARD_OPTION = "interstate-card"
ROAD_CARDS = (1, 12, 13, 14, 16)  # scoring cards that count roads or their ends

RULING_ROADS = (
    "Interstate: each side's part of the interstate counts as one road, and a road reaching the interstate "
    "joins that part instead of counting on its own."
)
RULING_COOPERATIVE = (
    "Ruling (Interstate, cooperative/solo): the whole city is scored once, as in the base game — one largest "
    "group per zone (groups never cross the interstate), each scoring card over both sides, the two "
    "interstate parts as two roads — against the sum of the scoring cards."
)
RULING_ROAD_CARDS = (
    "Ruling (Interstate): scoring cards about roads see a road that reaches the interstate as ending there "
    "(not at the edge of the city); only the Roads line merges such roads into the interstate."
)
RULING_LONGEST = (
    "Ruling (Central Highway tiebreaker): the longest road is measured in block sections; the interstate "
    "itself has none."
)


def roads_item(city: City, parts: Sequence[str], variant: str) -> LineItem:
    """The ``roads`` line with the interstate's parts as roads (``parts``: the sides being scored)."""
    groups = road_groups(city, parts)
    n = len(groups)
    listing = "; ".join(g.text() for g in groups)
    cells = tuple(cell_name(r, c) for r, c in sorted({p for g in groups for p in g.cells}))
    counted = f"{n} road{'s' if n != 1 else ''}: {listing}. {RULING_ROADS}"
    if variant == "easier":
        return LineItem("roads", "Roads", 0, f"easier variant: no road penalty ({counted})", cells)
    return LineItem("roads", "Roads", -n, f"−1 for each of {counted}", cells)


# --- choosing the mode and the card ----------------------------------------------------------------------


def card_name(value: str) -> str:
    """The canonical name of an interstate scoring card from any spelling; raise :class:`InterstateError`.

    Examples
    --------
    >>> card_name("Boulevard"), card_name("Central Highway")
    ('main-boulevard', 'central-highway')
    """
    name = norm_name(value)
    name = _CARD_ALIASES.get(name, name)
    if name not in CARDS:
        raise InterstateError(f"unknown interstate card {value!r} (known: {', '.join(CARDS)})")
    return name


def _mode_and_card(city: City, args: Sequence[str], options: Options) -> tuple[str, str | None, list[str]]:
    """Resolve (mode, card, notes) from ``interstate:<word>`` expansion names and the two options."""
    mode: str | None = None
    card: str | None = None
    words = list(args)
    if (value := option(city, options, MODE_OPTION)) is not None:
        if norm_name(value) not in MODES:
            raise InterstateError(
                f"option {MODE_OPTION}: unknown mode {value!r} (known: cooperative, solo, competitive)"
            )
        words.append(value)
    if (value := option(city, options, CARD_OPTION)) is not None:
        words.append(card_name(value))
    for word in words:
        name = norm_name(word)
        if name in MODES:
            if mode is not None and mode != MODES[name]:
                raise InterstateError(f"two interstate modes given: {mode} and {MODES[name]}")
            mode = MODES[name]
            continue
        this = card_name(name)
        if card is not None and card != this:
            raise InterstateError(f"two interstate scoring cards given: {card} and {this}")
        card = this
    notes: list[str] = []
    if mode is None:
        mode = "competitive" if card else "cooperative"
        if card is None:
            notes.append(
                f"Interstate: no mode given, so the city is scored as a cooperative game (set option "
                f"{MODE_OPTION}=competitive and option {CARD_OPTION}=CARD for a competitive one)."
            )
    if mode != "competitive" and card is not None:
        raise InterstateError(
            f"the interstate scoring card {CARDS[card]} is used only in competitive games, not {mode} ones"
        )
    if mode == "competitive" and card is None:
        raise InterstateError(
            f"a competitive Interstate game is scored by its interstate scoring card: set option "
            f"{CARD_OPTION}=CARD (one of {', '.join(CARDS)})"
        )
    return mode, card, notes


def game_mode(expansions: Sequence[str], options: Options, city: City | None = None) -> str | None:
    """The Interstate mode of a game (``None`` without the Interstate expansion), read as the scorer reads
    it from the expansion names, ``options`` and the city's header lines."""
    selection = select(expansions)
    if "interstate" not in selection:
        return None
    return _mode_and_card(city or City(()), selection.interstate_args, options)[0]


# --- scoring ---------------------------------------------------------------------------------------------


def side_city(city: City, side: str) -> City:
    """``city`` with every cell on the other side of the interstate emptied (cell names stay the same)."""
    keep_north = side == "north"
    k = city.interstate or 0
    grid = tuple(
        row if (r < k) == keep_north else tuple(EMPTY for _ in row) for r, row in enumerate(city.grid)
    )
    return replace(city, grid=grid)


@dataclass
class SideScore:
    """One player's side scored in the standard way: largest groups, roads, base cards and expansions."""

    side: str
    city: City
    largest: list[LineItem]
    roads: LineItem
    cards: list[LineItem]
    extras: list[LineItem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def blocks(self) -> int:
        return sum(1 for _ in self.city.blocks())


def _score_side(
    city: City, side: str, numbers: Sequence[int], variant: str, others: Sequence[str], options: Options
) -> SideScore:
    own = side_city(city, side)
    base = base_items(own, variant)
    largest = [item for item in base if item.key.startswith("largest:")]
    road_line = roads_item(own, (side,), variant)
    cards = [card_item(own, n) for n in numbers]
    extras, notes = (
        expansion_items(own, others, options, [*largest, road_line, *cards]) if others else ([], [])
    )
    return SideScore(side, own, largest, road_line, cards, extras, notes)


def _prefixed(side: str, item: LineItem, points: int | None = None, detail: str | None = None) -> LineItem:
    return LineItem(
        f"{side}:{item.key}",
        f"{side.title()}: {item.label}",
        item.points if points is None else points,
        item.detail if detail is None else detail,
        item.cells,
        item.provenance,
    )


def _standard(score: SideScore, other: SideScore) -> list[LineItem]:
    s = score.side
    return [_prefixed(s, i) for i in (*score.largest, score.roads, *score.cards, *score.extras)]


def _choice(score: SideScore, other: SideScore) -> list[LineItem]:
    """Main Boulevard: the player's best 2 largest groups and best 1 scoring card, plus the road tax."""
    s = score.side
    best_groups = sorted(score.largest, key=lambda i: -i.points)[:2]
    best_card = max(score.cards, key=lambda i: i.points, default=None)
    out: list[LineItem] = []
    for item in score.largest:
        if item in best_groups:
            out.append(_prefixed(s, item, detail=f"chosen (one of the 2 best zones): {item.detail}"))
        else:
            why = (
                f"not chosen ({item.points}): Main Boulevard scores only the 2 zones of the player's choice, "
            )
            out.append(_prefixed(s, item, 0, why + "and the 2 best were taken."))
    for item in score.cards:
        if item is best_card:
            out.append(_prefixed(s, item, detail=f"chosen (the best scoring card): {item.detail}"))
        else:
            why = f"not chosen ({item.points}): Main Boulevard scores only 1 scoring card, the player's best."
            out.append(_prefixed(s, item, 0, why))
    out.append(_prefixed(s, score.roads))
    out += [_prefixed(s, i) for i in score.extras]
    return out


def _majority(score: SideScore, other: SideScore) -> list[LineItem]:
    """Central Highway: +1 per largest group and scoring card where this player is higher; −2, more roads."""
    s, o = score.side, other.side
    out: list[LineItem] = []
    for mine, theirs in zip([*score.largest, *score.cards], [*other.largest, *other.cards], strict=True):
        gain = 1 if mine.points > theirs.points else 0
        verdict = (
            "higher, gains 1"
            if gain
            else ("equal, nobody gains" if mine.points == theirs.points else "lower")
        )
        detail = f"{s} {mine.points} vs {o} {theirs.points}: {verdict}. ({s}: {mine.detail})"
        out.append(
            LineItem(
                f"{s}:majority:{mine.key}", f"{s.title()}: {mine.label} (majority)", gain, detail, mine.cells
            )
        )
    n_mine, n_theirs = _road_count(score), _road_count(other)
    loss = -2 if n_mine > n_theirs else 0
    verdict = (
        "more roads, loses 2" if loss else ("equal, nobody loses" if n_mine == n_theirs else "fewer roads")
    )
    detail = f"{s} {n_mine} roads vs {o} {n_theirs}: {verdict}. ({s}: {score.roads.detail})"
    out.append(
        LineItem(f"{s}:majority:roads", f"{s.title()}: Roads (majority)", loss, detail, score.roads.cells)
    )
    out += [_prefixed(s, i) for i in score.extras]
    return out


def _road_count(score: SideScore) -> int:
    """Roads on the player's side, their interstate part included (counted even when roads cost nothing)."""
    return len(road_groups(score.city, (score.side,)))


def _longest_road(score: SideScore) -> int:
    return max((r.sections for r in roads(score.city)), default=0)


def _park_industrial(score: SideScore) -> int:
    return sum(1 for _, _, cell in score.city.blocks() if cell.zone in ("P", "I"))


@dataclass(frozen=True)
class CardRule:
    """How an interstate scoring card scores: its method, one player's lines, and its tiebreaker."""

    method: str
    lines: Callable[[SideScore, SideScore], list[LineItem]]
    tiebreaker: str
    tie_value: Callable[[SideScore], int]


CARD_RULES: dict[str, CardRule] = {
    "main-boulevard": CardRule("choice", _choice, "most total blocks", lambda s: s.blocks),
    "central-highway": CardRule("majority", _majority, "longest road", _longest_road),
    "great-valley-road": CardRule("standard", _standard, "most roads", _road_count),
    "mountainside-drive": CardRule(
        "standard", _standard, "most park and industrial blocks", _park_industrial
    ),
}


def _rulings(items: Sequence[LineItem]) -> list[str]:
    return [r for r in (RULING_EDGE, RULING_TIES) if any(r in item.detail for item in items)]


def _road_card_note(city: City, numbers: Sequence[int]) -> list[str]:
    reaches = any(end.interstate for road in roads(city) for end in road.ends)
    return [RULING_ROAD_CARDS] if reaches and any(n in ROAD_CARDS for n in numbers) else []


def score_interstate(
    city: City,
    cards: Sequence[int] | None,
    expansions: Sequence[str] | None,
    variant: str | None,
    options: Mapping[str, str] | None,
) -> Breakdown:
    """Score an Interstate game (see the module docstring for the modes and cards).

    ``cards`` are the base scoring cards (default ``city.cards``); ``expansions`` must include
    ``interstate`` and may include others, scored per side in competitive games; ``options`` as for
    :func:`scoring.expansions.expansion_items`. Raises :class:`InterstateError` when the city has no
    interstate line or the mode/card is unknown or inconsistent.
    """
    if city.interstate is None:
        raise InterstateError(
            "the interstate expansion needs the interstate line: a row of '=' between the north and the "
            "south rows"
        )
    names = list(expansions or ())
    selection = select(names)
    others = [e for e in names if norm_name(e).partition(":")[0] != "interstate"]
    numbers = tuple(city.cards if cards is None else cards)
    chosen_variant = check_variant(variant)
    mode, card, notes = _mode_and_card(city, selection.interstate_args, options)
    if mode in ("cooperative", "solo"):
        return _cooperative(city, numbers, chosen_variant, others, options, mode, notes)
    assert card is not None
    return _competitive(city, numbers, chosen_variant, others, options, card, notes)


def _cooperative(
    city: City,
    numbers: Sequence[int],
    variant: str,
    others: Sequence[str],
    options: Options,
    mode: str,
    notes: list[str],
) -> Breakdown:
    items = [i for i in base_items(city, variant) if i.key != "roads"]
    items.append(roads_item(city, SIDES, variant))
    items += [card_item(city, n) for n in numbers]
    if others:
        extra, extra_notes = expansion_items(city, others, options, items)
        items += extra
        notes += extra_notes
    notes += [RULING_COOPERATIVE, *_road_card_note(city, numbers), *_rulings(items)]
    if mode == "solo":
        notes.insert(
            0, "Interstate solo: scored like the cooperative game (the sides only alternate in play)."
        )
    return Breakdown(
        game="sprawlopolis",
        city=format_city(city),
        cards=tuple(numbers),
        items=tuple(items),
        target=sum(numbers) if numbers else None,
        notes=tuple(notes),
        extra=(("interstate", {"mode": mode}),),
    )


def _competitive(
    city: City,
    numbers: Sequence[int],
    variant: str,
    others: Sequence[str],
    options: Options,
    card: str,
    notes: list[str],
) -> Breakdown:
    rule = CARD_RULES[card]
    method, lines, tie_name, tie_value = rule.method, rule.lines, rule.tiebreaker, rule.tie_value
    north, south = (_score_side(city, s, numbers, variant, others, options) for s in SIDES)
    per_player = {"north": lines(north, south), "south": lines(south, north)}
    totals = {s: sum(i.points for i in per_player[s]) for s in SIDES}
    ties = {"north": tie_value(north), "south": tie_value(south)}
    if totals["north"] != totals["south"]:
        winner: str | None = max(SIDES, key=lambda s: totals[s])
        decided = "score"
    elif ties["north"] != ties["south"]:
        winner, decided = max(SIDES, key=lambda s: ties[s]), "tiebreaker"
    else:
        winner, decided = None, "tie"
    result = {
        "score": f"{(winner or '').title()} wins {max(totals.values())} to {min(totals.values())}.",
        "tiebreaker": (
            f"Tied at {totals['north']}; {CARDS[card]}'s tiebreaker ({tie_name}: north {ties['north']}, "
            f"south {ties['south']}) goes to {(winner or '').title()}."
        ),
        "tie": (
            f"Tied at {totals['north']}, and {CARDS[card]}'s tiebreaker ({tie_name}) is tied too "
            f"({ties['north']} each): the players share the win."
        ),
    }[decided]
    if len(numbers) != 2:
        notes.append(
            f"Competitive Interstate uses 2 base scoring cards; {len(numbers)} were given and all are scored."
        )
    notes.append(
        f"Competitive Interstate, {CARDS[card]} ({method} scoring): each player scores only their own side. "
        f"North {totals['north']}, South {totals['south']}. {result} The 'total' adds both players and is "
        "not a score of its own."
    )
    if card == "central-highway":
        notes.append(RULING_LONGEST)
    for score in (north, south):
        notes += [f"{score.side.title()}: {n}" for n in score.notes]
    items = [*per_player["north"], *per_player["south"]]
    notes += [*_road_card_note(city, numbers), *_rulings(items)]
    players: list[dict[str, Any]] = [
        {"side": s, "total": totals[s], "tiebreaker": ties[s], "keys": [i.key for i in per_player[s]]}
        for s in SIDES
    ]
    extra: dict[str, Any] = {
        "mode": "competitive",
        "card": card,
        "method": method,
        "tiebreaker": tie_name,
        "players": players,
        "winner": winner,
        "decided_by": decided,
    }
    return Breakdown(
        game="sprawlopolis",
        city=format_city(city),
        cards=tuple(numbers),
        items=tuple(items),
        target=None,
        notes=tuple(notes),
        extra=(("interstate", extra),),
    )
