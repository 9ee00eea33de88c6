"""The nine Lone Cowboy scenarios: the two goal cards each puts in play and how each scores the opponent.

The opponent's town is a pile (:class:`~scoring.wagons.pile.Pile`), so only counts matter. The scoring
lines follow the scenario cards in the seed text and the printed goal cards (provenance ``printed``); only
where a scenario has the pile score a goal card that needs a grid (Wagon Train's runs, Happy Cows' Snow,
Undiscovered's spaces) is the spec's count-based reading used and the line tagged ``reading``.
Every opponent also scores 1 per territory of its three most common territory types (:func:`top_three`).
The two-town goal cards (One Too Many, Claim Jumpers, Smalltown Charm) are scored for both sides by the
caller, with the scenario's modifiers (:attr:`Scenario.opponent_extra_guns`,
:attr:`Scenario.opponent_loses_one_too_many`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scoring.breakdown import LineItem
from scoring.wagons.goals import (
    PRINTED,
    READING,
    boom_or_bust_points,
    boom_or_bust_rate,
    plural,
    wagon_train_points,
)
from scoring.wagons.pile import Pile
from scoring.wagons.town import TERRAIN_NAMES, TERRAINS

#: The option a player sets for the one count a pile cannot give (Defensible Position's Undiscovered).
UNDISCOVERED_OPTION = "opponent-undiscovered"


@dataclass(frozen=True)
class OpponentScore:
    """The opponent's scenario lines, and for each input needed but not given, what to supply."""

    items: tuple[LineItem, ...]
    missing: tuple[str, ...] = ()


OpponentScorer = Callable[[Pile, Mapping[str, int]], OpponentScore]


@dataclass(frozen=True)
class Scenario:
    """A Lone Cowboy scenario card: id, printed name, its two goal cards and the opponent's scoring."""

    id: str
    name: str
    goals: tuple[str, str]
    score_opponent: OpponentScorer
    rides_again: bool = False
    opponent_extra_guns: int = 0  # Gold Rush: "opponent starts with 2 Guns" for Claim Jumpers
    opponent_loses_one_too_many: bool = True  # Out-Drink the Competition: "cannot lose points"


def _sets(n_a: int, n_b: int) -> int:
    """Ruling: in a pile, "a set of X and Y" is min(count of X, count of Y)."""
    return min(n_a, n_b)


def _line(key: str, label: str, points: int, detail: str, provenance: str = PRINTED) -> LineItem:
    return LineItem(key, label, points, detail, provenance=provenance)


def _boomtown(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    mines, mountains = pile.icon_counts()["m"], pile.terrain_counts()["M"]
    n = mines + mountains
    counted = f"{plural(mines, 'Mine')} + {mountains} Mountains (Mountains count as Mines) = {n}"
    detail = f"{counted}: {boom_or_bust_rate(n)}"
    return OpponentScore((_line("goal:boom-or-bust", "Boom or Bust", boom_or_bust_points(n), detail),))


def _gold_rush(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    mountains, mines = pile.terrain_counts()["M"], pile.icon_counts()["m"]
    sets = _sets(mountains, mines)
    detail = f"{plural(sets, 'set')} of Mountain & Mine ({mountains} Mountains, {plural(mines, 'Mine')}) × 2"
    return OpponentScore((_line("scenario:mountain-mine", "Mountain & Mine sets", 2 * sets, detail),))


def _through_the_desert(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    wagons = pile.icon_counts()["w"]
    guns, deserts = pile.icon_counts()["g"], pile.terrain_counts()["D"]
    first = min(wagons, 6)
    sets = _sets(guns, deserts)
    return OpponentScore(
        (
            _line(
                "goal:wagon-train",
                "Wagon Train (first six Wagons)",
                wagon_train_points(first),
                f"{first} of {plural(wagons, 'Wagon')} scored as one run of {first}",
                READING,
            ),
            _line(
                "scenario:more-wagons",
                "Wagons after the sixth",
                2 * max(0, wagons - 6),
                f"{plural(max(0, wagons - 6), 'Wagon')} after the sixth × 2",
            ),
            _line(
                "scenario:gun-desert",
                "Gun & Desert sets",
                4 * sets,
                f"{plural(sets, 'set')} of Gun & Desert ({plural(guns, 'Gun')}, {plural(deserts, 'Desert')})"
                " × 4",
            ),
        )
    )


def _out_drink(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    beers, wagons = pile.icon_counts()["b"], pile.icon_counts()["w"]
    sets = _sets(beers, wagons)
    detail = f"{plural(sets, 'set')} of Beer & Wagon ({plural(beers, 'Beer')}, {plural(wagons, 'Wagon')}) × 2"
    return OpponentScore((_line("scenario:beer-wagon", "Beer & Wagon sets", 2 * sets, detail),))


def _water_the_herd(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    wagons, cows = pile.icon_counts()["w"], pile.icon_counts()["c"]
    return OpponentScore(
        (
            _line("scenario:wagons", "Wagons", 3 * wagons, f"{plural(wagons, 'Wagon')} × 3"),
            _line("scenario:cows", "Cows", 2 * cows, f"{plural(cows, 'Cow')} × 2"),
        )
    )


def _cattle_drive(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    cows, plains = pile.icon_counts()["c"], pile.terrain_counts()["P"]
    return OpponentScore(
        (
            _line(
                "goal:happy-cows",
                "Happy Cows (Snow ignored)",
                2 * cows,
                f"every Cow counts: {plural(cows, 'Cow')} × 2",
                READING,
            ),
            _line(
                "goal:prairie-life",
                "Prairie Life (not halved)",
                cows + plains,
                f"{plural(cows, 'Cow')} + {plains} Plains, not divided by 2",
            ),
        )
    )


def last_stand_fort_points(forts: int) -> int:
    """The Last Stand: 7 / 14 / 21 points for 4 / 6 / 8 Forts (the highest step reached).

    Examples
    --------
    >>> [last_stand_fort_points(n) for n in (3, 4, 6, 9)]
    [0, 7, 14, 21]
    """
    return 21 if forts >= 8 else 14 if forts >= 6 else 7 if forts >= 4 else 0


def _last_stand(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    forts, guns = pile.icon_counts()["f"], pile.icon_counts()["g"]
    return OpponentScore(
        (
            _line(
                "scenario:forts",
                "Forts",
                last_stand_fort_points(forts),
                f"{plural(forts, 'Fort')} (7/14/21 for 4/6/8)",
            ),
            _line("scenario:guns", "Guns", 2 * guns, f"{plural(guns, 'Gun')} × 2"),
        )
    )


def _defensible_position(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    forts = pile.icon_counts()["f"]
    clearing = _line(
        "goal:the-clearing",
        "The Clearing (no Forest loss)",
        2 * forts,
        f"{plural(forts, 'Fort')} × 2; Forests cost nothing",
    )
    missing: list[str] = []
    if pile.n_cards is None:
        points, detail = 0, "not scored: the number of cards in the pile decides ×2 or ×3"
        missing.append("Undiscovered needs the number of cards in the pile: add cards=N to the pile counts.")
    elif UNDISCOVERED_OPTION not in options:
        points, detail = 0, "not scored: Undiscovered cannot be counted in a pile"
        missing.append(
            f"Undiscovered cannot be counted in a pile: give the opponent's Undiscovered spaces "
            f"with option {UNDISCOVERED_OPTION}=N (or a '{UNDISCOVERED_OPTION}: N' header line)."
        )
    else:
        spaces = options[UNDISCOVERED_OPTION]
        factor = 3 if pile.n_cards >= 8 else 2
        points = 5 * spaces * factor
        detail = (
            f"{plural(spaces, 'Undiscovered space')} (as entered) × 5, × {factor} for {pile.n_cards} cards"
        )
    undiscovered = _line("goal:undiscovered", "Undiscovered (×2, ×3 with 8+ cards)", points, detail, READING)
    return OpponentScore((undiscovered, clearing), tuple(missing))


def _troubles_comin(pile: Pile, options: Mapping[str, int]) -> OpponentScore:
    guns, beers, wagons = (pile.icon_counts()[i] for i in "gbw")
    pairs = _sets(guns, beers)
    return OpponentScore(
        (
            _line(
                "scenario:gun-beer",
                "Gun & Beer pairs",
                4 * pairs,
                f"{plural(pairs, 'pair')} ({plural(guns, 'Gun')}, {plural(beers, 'Beer')}) × 4",
            ),
            _line(
                "scenario:wagons",
                "Wagons, per 4",
                5 * (wagons // 4),
                f"{plural(wagons, 'Wagon')}: {plural(wagons // 4, 'set')} of four × 5",
            ),
        )
    )


_CATALOGUE = (
    Scenario("boomtown", "Boomtown", ("smalltown-charm", "boom-or-bust"), _boomtown),
    Scenario("gold-rush", "Gold Rush", ("claim-jumpers", "gold-country"), _gold_rush, opponent_extra_guns=2),
    Scenario("through-the-desert", "Through the Desert", ("wagon-train", "badlands"), _through_the_desert),
    Scenario(
        "out-drink-the-competition",
        "Out-Drink the Competition",
        ("bootleggers", "one-too-many"),
        _out_drink,
        opponent_loses_one_too_many=False,
    ),
    Scenario("water-the-herd", "Water the Herd", ("the-herd", "cool-water"), _water_the_herd),
    Scenario("cattle-drive", "Cattle Drive", ("happy-cows", "prairie-life"), _cattle_drive),
    Scenario(
        "the-last-stand", "The Last Stand", ("fortified", "rifles-ready"), _last_stand, rides_again=True
    ),
    Scenario(
        "defensible-position",
        "Defensible Position",
        ("undiscovered", "the-clearing"),
        _defensible_position,
        rides_again=True,
    ),
    Scenario(
        "troubles-comin",
        "Trouble's Comin'",
        ("circle-the-wagons", "target-practice"),
        _troubles_comin,
        rides_again=True,
    ),
)
#: The nine scenarios by id.
SCENARIO_CARDS: dict[str, Scenario] = {s.id: s for s in _CATALOGUE}
#: Every scenario name the scorer accepts: id → printed name.
SCENARIOS: dict[str, str] = {s.id: s.name for s in _CATALOGUE}
#: Short spellings players use, normalised.
SCENARIO_ALIASES = {"out-drink": "out-drink-the-competition", "troubles-coming": "troubles-comin"}


def top_three(pile: Pile) -> LineItem:
    """1 per territory of the pile's three most common territory types (ties for third score the same)."""
    counts = pile.terrain_counts()
    ranked = sorted(TERRAINS, key=lambda t: (-counts[t], TERRAINS.index(t)))[:3]
    ranked = [t for t in ranked if counts[t]]
    points = sum(counts[t] for t in ranked)
    parts = " + ".join(f"{counts[t]} {TERRAIN_NAMES[t]}" for t in ranked) or "no territories"
    return _line("top-three", "Three most common territories", points, parts)
