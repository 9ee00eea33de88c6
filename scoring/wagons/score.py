"""Score a Circle the Wagons town: base scoring, goal cards, two-town cards and the Lone Cowboy opponent.

:func:`score_town` is the one entry point. What it needs may come from the arguments or from the town's
header lines (``goals:``, ``scenario:``, ``opponent-pile:``, ``cards:``, ``opponent-undiscovered:``); an
argument always overrides the header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.breakdown import Breakdown, LineItem
from scoring.city import cell_names
from scoring.numbers import NumberError, whole_number
from scoring.wagons import duels
from scoring.wagons.cards import CARDS
from scoring.wagons.errors import (
    ConflictError,
    MissingInputError,
    OptionError,
    PileError,
    UnknownNameError,
)
from scoring.wagons.fewest import fewest_scoring
from scoring.wagons.goals import (
    GOAL_ALIASES,
    GOAL_CARDS,
    GOALS,
    GRID_SCORERS,
    READING,
    RULINGS,
    WILDEST_WEST,
    GoalScore,
    largest_groups,
    wildest_west,
)
from scoring.wagons.names import resolve_name, split_names
from scoring.wagons.pile import Pile, parse_pile
from scoring.wagons.scenarios import (
    SCENARIO_ALIASES,
    SCENARIO_CARDS,
    SCENARIOS,
    UNDISCOVERED_OPTION,
    Scenario,
    top_three,
)
from scoring.wagons.town import TERRAIN_NAMES, TERRAINS, Town, format_town

GAME = "wagons"
#: Options a player may set (given with the town, or as a header line), with what each means.
OPTIONS = {
    UNDISCOVERED_OPTION: "Defensible Position: the opponent's Undiscovered spaces, which a pile cannot show",
}

#: Every goal card is printed; only a pile scoring a card that needs a grid is a reading (scenarios.py).
_READING_NOTE = (
    "Lines marked 'reading' score a goal card that needs a grid on the opponent's pile, by counts: this "
    "project's reading of how the card applies to a pile. Every other line follows the printed cards."
)


def resolve_goals(names: Iterable[str]) -> tuple[str, ...]:
    """Goal ids for the given names (any case, spaces or dashes); raises for unknown or repeated ones.

    Examples
    --------
    >>> resolve_goals(["Cool Water", "badlands"])
    ('cool-water', 'badlands')
    """
    ids = tuple(resolve_name(n, "goal card", GOALS, GOAL_ALIASES) for n in names)
    repeated = sorted({g for g in ids if ids.count(g) > 1})
    if repeated:
        raise ConflictError(f"goal card {GOALS[repeated[0]]!r} is named twice")
    return ids


def resolve_scenario(name: str) -> str:
    """The scenario id for a name (any case, spaces or dashes); raises UnknownNameError listing them all.

    Examples
    --------
    >>> resolve_scenario("Boomtown")
    'boomtown'
    """
    return resolve_name(name, "scenario", SCENARIOS, SCENARIO_ALIASES)


def parse_options(options: Mapping[str, object]) -> dict[str, int]:
    """Check option names and turn their values into whole numbers ≥ 0.

    Examples
    --------
    >>> parse_options({"Opponent_Undiscovered": "3"})
    {'opponent-undiscovered': 3}
    """
    out: dict[str, int] = {}
    for key, value in options.items():
        name = key.strip().lower().replace("_", "-")
        if name not in OPTIONS:
            raise UnknownNameError(
                f"unknown option {key!r} for Circle the Wagons; expected one of: {', '.join(OPTIONS)}"
            )
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise OptionError(f"option {name}: expected a whole number ≥ 0, got {value!r}")
        try:
            out[name] = whole_number(str(value), lo=0, hi=999)
        except NumberError as exc:
            raise OptionError(f"option {name}: {exc}") from None
    return out


@dataclass(frozen=True)
class _Side:
    """One town's scored lines."""

    items: tuple[LineItem, ...]

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)


def _goal_item(goal_id: str, score: GoalScore, provenance: str) -> LineItem:
    return LineItem(
        f"goal:{goal_id}",
        GOALS[goal_id],
        score.points,
        score.detail,
        tuple(cell_names([p]) for p in sorted(score.cells)),
        provenance,
    )


def _score_side(town: Town, goal_ids: Sequence[str], duel_lines: Mapping[str, LineItem]) -> _Side:
    """Base scoring and goal cards for one town; the two-town cards' lines come ready in ``duel_lines``."""
    goal_scores = {g: GRID_SCORERS[g](town) for g in goal_ids if g in GRID_SCORERS}
    largest = {t: largest_groups(town, lambda x, t=t: x.terrain == t) for t in TERRAINS}
    goal_scores, groups, scored = fewest_scoring(goal_scores, largest)
    items: list[LineItem] = []
    for terrain in TERRAINS:
        name = TERRAIN_NAMES[terrain]
        if terrain not in groups:
            items.append(LineItem(f"largest:{terrain}", name.capitalize(), 0, f"no {name} territory"))
            continue
        group = groups[terrain]
        tie = f"; {len(largest[terrain])} groups tie" if len(largest[terrain]) > 1 else ""
        items.append(
            LineItem(
                f"largest:{terrain}",
                name.capitalize(),
                len(group),
                f"largest {name} group: {len(group)} ({cell_names(group)}){tie}",
                tuple(cell_names([p]) for p in sorted(group)),
            )
        )
    for goal_id in goal_ids:
        if goal_id in goal_scores:
            items.append(_goal_item(goal_id, goal_scores[goal_id], GOAL_CARDS[goal_id].provenance))
        elif goal_id in duel_lines:
            items.append(duel_lines[goal_id])
    if WILDEST_WEST.id in goal_ids:
        items.append(_goal_item(WILDEST_WEST.id, wildest_west(town, scored), WILDEST_WEST.provenance))
    return _Side(tuple(items))


def _duels(
    goal_ids: Sequence[str], player: duels.Holdings, opponent: duels.Holdings, scenario: Scenario | None
) -> tuple[dict[str, LineItem], dict[str, LineItem]]:
    """The two-town cards' lines for the player and for the opponent (details from the player's side)."""
    mine: dict[str, LineItem] = {}
    theirs: dict[str, LineItem] = {}
    for goal_id in goal_ids:
        if goal_id == "one-too-many":
            can_lose = scenario is None or scenario.opponent_loses_one_too_many
            result = duels.one_too_many(player, opponent, opponent_can_lose=can_lose)
        elif goal_id == "claim-jumpers":
            extra = scenario.opponent_extra_guns if scenario else 0
            result = duels.claim_jumpers(player, opponent, opponent_extra_guns=extra)
        elif goal_id == "smalltown-charm":
            result = duels.smalltown_charm(player, opponent)
        else:
            continue
        card = GOAL_CARDS[goal_id]
        mine[goal_id] = LineItem(
            f"goal:{goal_id}", card.name, result.player, result.detail, provenance=card.provenance
        )
        theirs[goal_id] = LineItem(
            f"goal:{goal_id}", card.name, result.opponent, result.detail, provenance=card.provenance
        )
    return mine, theirs


def _header_ints(town: Town, key: str) -> tuple[int, ...]:
    value = town.header(key)
    if value is None:
        return ()
    words = [w for w in re.split(r"[\s,]+", value.strip()) if w]
    try:
        numbers = tuple(whole_number(w) for w in words)
    except NumberError as exc:
        raise PileError(f"header '{key}': card numbers 0 to {max(CARDS)}, {exc}") from None
    unknown = [n for n in numbers if n not in CARDS]
    if unknown:
        raise PileError(
            f"header '{key}': no card {unknown[0]} in the 18-card table (cards are 0 to {max(CARDS)})"
        )
    return numbers


def _as_pile(pile: Pile | Iterable[int | str] | None) -> Pile | None:
    if pile is None or isinstance(pile, Pile):
        return pile
    return parse_pile(str(p) for p in pile)


@dataclass(frozen=True)
class _Setup:
    """Everything a game needs, resolved from the arguments and the town's header and checked."""

    goal_ids: tuple[str, ...]
    scenario: Scenario | None
    pile: Pile | None
    opponent_town: Town | None
    options: dict[str, int]
    cards: tuple[int, ...]

    @property
    def opponent(self) -> Town | Pile | None:
        return self.opponent_town if self.opponent_town is not None else self.pile


def _setup(
    town: Town,
    goals: Iterable[str] | None,
    opponent_town: Town | None,
    opponent_pile: Pile | Iterable[int | str] | None,
    scenario: str | None,
    options: Mapping[str, object] | None,
) -> _Setup:
    """Resolve names and defaults (arguments over header lines) and refuse inputs that cannot be scored."""
    scenario_name = scenario if scenario is not None else town.header("scenario")
    chosen = SCENARIO_CARDS[resolve_scenario(scenario_name)] if scenario_name else None

    goal_names = list(goals) if goals is not None else None
    # A scenario named as an argument brings its own goal cards, replacing the header's.
    if goal_names is None and town.header("goals") and not (chosen and scenario is not None):
        goal_names = split_names(town.header("goals") or "")
    goal_ids = resolve_goals(goal_names) if goal_names is not None else (chosen.goals if chosen else ())
    if chosen and set(goal_ids) - {WILDEST_WEST.id} != set(chosen.goals):
        raise ConflictError(
            f"scenario {chosen.name} plays with {GOALS[chosen.goals[0]]} and {GOALS[chosen.goals[1]]} "
            f"(plus Wildest West if you like), not {', '.join(GOALS[g] for g in goal_ids) or 'no goal cards'}"
        )

    header_options = {k: v for k, v in town.headers if k in OPTIONS}
    opts = parse_options({**header_options, **(options or {})})
    pile = _as_pile(opponent_pile)
    if pile is None and town.header("opponent-pile") is not None and opponent_town is None:
        pile = parse_pile([town.header("opponent-pile") or ""])
    cards = _header_ints(town, "cards")
    if pile is not None and opponent_town is not None:
        raise ConflictError("give the opponent as a town or as a pile, not both")
    if pile is not None and pile.cards:
        shared = sorted(set(cards) & set(pile.cards))
        if shared:
            raise PileError(f"card {shared[0]} is both in your town (cards:) and in the opponent's pile")
    if chosen and opponent_town is not None:
        raise ConflictError(
            f"{chosen.name} is a Lone Cowboy scenario: its opponent is a pile of cards, not a town"
        )
    if chosen and pile is None:
        raise MissingInputError(
            f"{chosen.name} scores the opponent's pile: give it as card numbers (opponent-pile 1 4 7) "
            "or counts (opponent-pile prairie=5 wagon=3)"
        )
    setup = _Setup(goal_ids, chosen, pile, opponent_town, opts, cards)
    two_town = [g for g in goal_ids if g in GOAL_CARDS and GOAL_CARDS[g].two_town]
    if two_town and setup.opponent is None:
        raise MissingInputError(
            f"{GOALS[two_town[0]]} compares two towns: give the opponent's town (opponent-town) "
            "or pile (opponent-pile N …)"
        )
    return setup


def score_town(
    town: Town,
    goals: Iterable[str] | None = None,
    opponent_town: Town | None = None,
    opponent_pile: Pile | Iterable[int | str] | None = None,
    scenario: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Breakdown:
    """Score ``town`` and, when there is one, its opponent.

    ``goals`` are goal-card names (default: the header's ``goals:``, else the scenario's two cards);
    ``scenario`` a Lone Cowboy scenario name (default: the header's ``scenario:``); ``opponent_pile`` a
    :class:`Pile`, card numbers or ``name=count`` tokens (default: the header's ``opponent-pile:``);
    ``opponent_town`` the other town of a two-player game; ``options`` values such as
    ``opponent-undiscovered`` (default: header lines of the same name).

    Returns a :class:`Breakdown` with ``game="wagons"``: the player's lines (``largest:D`` … ``largest:W``,
    then ``goal:<id>`` per card, each with its provenance) and, in ``extra``, ``goals``, ``scenario``,
    ``opponent`` (its lines and total), ``beat_opponent`` and ``result`` (win, tie or loss). ``cards`` are
    the town's own cards from its ``cards:`` header (this game's cards are not scoring cards). Raises an
    :class:`~scoring.errors.InputError` for unknown names, impossible piles, contradicting inputs or a
    two-town card without an opponent.
    """
    setup = _setup(town, goals, opponent_town, opponent_pile, scenario, options)
    opponent = setup.opponent
    mine, theirs = (
        _duels(setup.goal_ids, town, opponent, setup.scenario) if opponent is not None else ({}, {})
    )
    player = _score_side(town, setup.goal_ids, mine)
    extra: list[tuple[str, Any]] = [
        ("goals", list(setup.goal_ids)),
        ("scenario", setup.scenario.id if setup.scenario else None),
    ]
    notes: list[str] = []
    if opponent is not None:
        info, opp_notes = _score_opponent(setup, town, theirs)
        extra.append(("opponent", info))
        notes.extend(opp_notes)
        opp_total = info["total"]
        extra.append(("beat_opponent", None if opp_total is None else player.total > opp_total))
        if opp_total is not None:
            won = "win" if player.total > opp_total else "tie" if player.total == opp_total else "loss"
            extra.append(("result", won))
    notes.extend(RULINGS[g] for g in setup.goal_ids if g in RULINGS)
    return Breakdown(
        game=GAME,
        city=format_town(town, header=False),
        cards=setup.cards,
        items=player.items,
        notes=tuple(notes),
        extra=tuple(extra),
    )


def _score_opponent(
    setup: _Setup, town: Town, duel_lines: Mapping[str, LineItem]
) -> tuple[dict[str, Any], list[str]]:
    """The opponent's JSON entry (lines, total or ``None`` when it cannot be known) and notes to add."""
    if setup.opponent_town is not None:
        other = _score_side(setup.opponent_town, setup.goal_ids, duel_lines)
        return _opponent_json("town", other.items, other.total, (), None), []
    assert setup.pile is not None  # an opponent that is not a town is a pile
    if setup.scenario is None:
        note = "Without a scenario the pile only answers the two-town cards; its own score is not defined."
        return _opponent_json("pile", tuple(duel_lines.values()), None, (), setup.pile), [note]
    result = setup.scenario.score_opponent(setup.pile, setup.options)
    duel = (duel_lines[g] for g in setup.scenario.goals if g in duel_lines)
    items = (*result.items, *duel, top_three(setup.pile))
    total = None if result.missing else sum(i.points for i in items)
    notes = ["In a pile, 'a set of X and Y' counts min(X, Y) over every territory of the opponent's cards."]
    if any(i.provenance == READING for i in items):
        notes.append(_READING_NOTE)
    if WILDEST_WEST.id in setup.goal_ids:
        notes.append("Wildest West is scored for your town only; a pile has no territories that score alone.")
    notes.extend(f"The opponent's score is incomplete: {m}" for m in result.missing)
    return _opponent_json("pile", items, total, result.missing, setup.pile), notes


def _opponent_json(
    kind: str, items: Sequence[LineItem], total: int | None, missing: Sequence[str], pile: Pile | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": kind,
        "items": [i.to_json() for i in items],
        "total": total,
        "complete": not missing and total is not None,
    }
    if missing:
        out["missing"] = list(missing)
    if pile is not None:
        out["pile"] = pile.to_json()
    return out


def opponent_breakdown(breakdown: Breakdown) -> Breakdown | None:
    """The opponent's lines of a scored town as a breakdown of their own (``None`` without an opponent).

    Its items are those in ``extra["opponent"]``; for a pile without a scenario, or a scenario whose
    opponent score is incomplete, the total of the lines is not the opponent's score (``complete`` says so).
    """
    info = dict(breakdown.extra).get("opponent")
    if not info:
        return None
    items = tuple(
        LineItem(
            i["key"],
            i["label"],
            i["points"],
            i.get("detail", ""),
            tuple(i.get("cells", ())),
            i.get("provenance"),
        )
        for i in info["items"]
    )
    notes = (
        ()
        if info["complete"]
        else tuple(info.get("missing", ())) or ("the opponent's score is not complete",)
    )
    return Breakdown(GAME, "", (), items, notes=notes, extra=(("complete", info["complete"]),))
