"""The Circle the Wagons goal cards that score one town's grid, and the card catalogue.

Each scorer takes a :class:`Town` and returns a :class:`GoalScore`. The rules are the table in
``shared/rules/circle-the-wagons.md``; each card carries the provenance the spec gives it, which the breakdown
shows. Since the publisher's print-and-play sheets confirmed every card's wording, all 18 are ``printed``;
``reading`` is left to the count-based rulings a Lone Cowboy pile needs (:mod:`scoring.wagons.scenarios`).
The three cards that compare two towns live in :mod:`scoring.wagons.duels`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from scoring.city import cell_names
from scoring.wagons.town import Pos, Territory, Town

PRINTED, READING = "printed", "reading"


@dataclass(frozen=True)
class GoalCard:
    """A goal card: its id (``cool-water``), printed name, provenance and whether it compares two towns."""

    id: str
    name: str
    provenance: str
    two_town: bool = False


_CATALOGUE = (
    GoalCard("cool-water", "Cool Water", PRINTED),
    GoalCard("badlands", "Badlands", PRINTED),
    GoalCard("one-too-many", "One Too Many", PRINTED, two_town=True),
    GoalCard("happy-cows", "Happy Cows", PRINTED),
    GoalCard("bootleggers", "Bootleggers", PRINTED),
    GoalCard("the-clearing", "The Clearing", PRINTED),
    GoalCard("undiscovered", "Undiscovered", PRINTED),
    GoalCard("gold-country", "Gold Country", PRINTED),
    GoalCard("circle-the-wagons", "Circle the Wagons", PRINTED),
    GoalCard("smalltown-charm", "Smalltown Charm", PRINTED, two_town=True),
    GoalCard("prairie-life", "Prairie Life", PRINTED),
    GoalCard("claim-jumpers", "Claim Jumpers", PRINTED, two_town=True),
    GoalCard("boom-or-bust", "Boom or Bust", PRINTED),
    GoalCard("wagon-train", "Wagon Train", PRINTED),
    GoalCard("fortified", "Fortified", PRINTED),
    GoalCard("the-herd", "The Herd", PRINTED),
    GoalCard("target-practice", "Target Practice", PRINTED),
    GoalCard("rifles-ready", "Rifles Ready", PRINTED),
)
#: The 18 goal cards of the base game, by id, in the spec's order.
GOAL_CARDS: dict[str, GoalCard] = {g.id: g for g in _CATALOGUE}
#: The Lone Cowboy Rides Again card "Wildest West", playable as an extra goal; scored after all others.
WILDEST_WEST = GoalCard("wildest-west", "Wildest West", PRINTED)
#: Every goal name the scorer accepts: id → printed name.
GOALS: dict[str, str] = {g.id: g.name for g in (*_CATALOGUE, WILDEST_WEST)}
#: Spellings that are not the id, normalised (the Cattle Drive card prints "Prarie Life").
GOAL_ALIASES = {"prarie-life": "prairie-life"}

#: How this project settles what a card's text leaves open; shown in the breakdown when the card is in play.
RULINGS = {
    "cool-water": (
        "Cool Water: when Water groups tie for largest, the one with the most Wagons on or beside it counts "
        "(the player chooses)."
    ),
    "one-too-many": "One Too Many: with equal Beers nobody has the most, so nobody loses points.",
    "smalltown-charm": (
        "Smalltown Charm: a pile holds 4 territories per card (with no card count: the territories counted)."
    ),
    "prairie-life": "Prairie Life: a Plains territory carrying a Cow counts twice, as Plains and as a Cow.",
    "claim-jumpers": "Claim Jumpers: with equal Mines nobody gains.",
    "target-practice": (
        "Target Practice: each Beer looks along its row and column; empty spaces between it and the Gun "
        "neither count nor block; of two equally near Guns, the one with more territories between counts."
    ),
    "wildest-west": (
        "Wildest West: a territory scores in another way when it lies in a counted largest group or itself "
        "earns points on a goal card; territories that only lose points, or only help another territory "
        "score, count for Wildest West."
    ),
}


@dataclass(frozen=True)
class GoalScore:
    """What a rule gave a town: points, a plain-words ``detail`` naming the cells, the cells it counted
    (``cells``, for display) and those that earned points (``scoring``, for Wildest West).

    ``alternatives`` are the other ways the player may read the card for the same points (tied largest
    groups); they matter only to Wildest West, which prefers the reading that leaves most territories idle.
    """

    points: int
    detail: str
    cells: frozenset[Pos] = frozenset()
    scoring: frozenset[Pos] = frozenset()
    alternatives: tuple[GoalScore, ...] = ()

    def readings(self) -> tuple[GoalScore, ...]:
        """This score and its alternatives, each without alternatives of its own."""
        return (replace(self, alternatives=()), *self.alternatives)


def _at(cells: Iterable[Pos]) -> str:
    """' (A1, B2)' or '' for no cells."""
    names = cell_names(cells)
    return f" ({names})" if names else ""


def plural(n: int, word: str) -> str:
    """'1 Cow', '2 Cows', '3 territories'.

    Examples
    --------
    >>> plural(1, "Cow"), plural(2, "Cow"), plural(3, "territory")
    ('1 Cow', '2 Cows', '3 territories')
    """
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def groups(town: Town, member: Callable[[Territory], bool]) -> list[frozenset[Pos]]:
    """Every group of territories satisfying ``member`` connected through shared sides, largest first
    (ties in reading order of their first cell)."""
    seen: set[Pos] = set()
    found: list[frozenset[Pos]] = []
    for pos, territory in town.territories():
        if pos in seen or not member(territory):
            continue
        seen.add(pos)
        stack, group = [pos], {pos}
        while stack:
            for other, t in town.neighbours(stack.pop()):
                if other not in seen and member(t):
                    seen.add(other)
                    group.add(other)
                    stack.append(other)
        found.append(frozenset(group))
    found.sort(key=lambda g: (-len(g), sorted(g)))
    return found


def largest_groups(town: Town, member: Callable[[Territory], bool]) -> list[frozenset[Pos]]:
    """All groups tying for the largest size (empty when no territory satisfies ``member``)."""
    gs = groups(town, member)
    return [g for g in gs if len(g) == len(gs[0])] if gs else []


def _with_icon(town: Town, icon: str) -> list[Pos]:
    return [pos for pos, t in town.territories() if t.icon == icon]


def _touches(town: Town, pos: Pos, test: Callable[[Territory], bool]) -> bool:
    """True when the territory at ``pos`` or one sharing a side with it satisfies ``test``."""
    own = town.cell(*pos)
    return (own is not None and test(own)) or any(test(t) for _, t in town.neighbours(pos))


def cool_water(town: Town) -> GoalScore:
    """+3 per Wagon on, or adjacent to, the largest Water group (tied groups: the one scoring most)."""
    tied = largest_groups(town, lambda t: t.terrain == "W")
    which = {p: k for k, group in enumerate(tied) for p in group}
    beside: list[set[Pos]] = [set() for _ in tied]
    for p in _with_icon(town, "w"):  # one pass over the Wagons, not one per tied group
        for o in (p, *(o for o, _ in town.neighbours(p))):
            if o in which:
                beside[which[o]].add(p)
    readings = []
    for group, near in zip(tied, beside, strict=True):
        wagons = frozenset(near)
        detail = (
            f"{plural(len(wagons), 'Wagon')}{_at(wagons)} on or beside the largest Water group of "
            f"{len(group)}{_at(group)} × 3"
        )
        readings.append(GoalScore(3 * len(wagons), detail, wagons, wagons))
    return _best(readings, "no Water territory")


def _best(readings: list[GoalScore], nothing: str) -> GoalScore:
    """The highest-scoring reading, carrying the equally scoring others as alternatives."""
    if not readings:
        return GoalScore(0, nothing)
    top = max(r.points for r in readings)
    first, *others = [r for r in readings if r.points == top]
    return replace(first, alternatives=tuple(others))


def badlands(town: Town) -> GoalScore:
    """+4 per Gun with Desert on both sides in its row (west and east) or its column (north and south)."""

    def desert(r: int, c: int) -> bool:
        cell = town.cell(r, c)
        return cell is not None and cell.terrain == "D"

    guns = frozenset(
        (r, c)
        for r, c in _with_icon(town, "g")
        if (desert(r, c - 1) and desert(r, c + 1)) or (desert(r - 1, c) and desert(r + 1, c))
    )
    detail = f"{plural(len(guns), 'Gun')}{_at(guns)} between two Deserts × 4"
    return GoalScore(4 * len(guns), detail, guns, guns)


def happy_cows(town: Town) -> GoalScore:
    """+2 per Cow neither on nor adjacent to a Snow territory."""
    cows = _with_icon(town, "c")
    happy = frozenset(p for p in cows if not _touches(town, p, lambda t: t.terrain == "S"))
    return GoalScore(
        2 * len(happy),
        f"{plural(len(happy), 'Cow')}{_at(happy)} away from Snow × 2 ({len(cows) - len(happy)} near Snow)",
        happy,
        happy,
    )


def bootleggers(town: Town) -> GoalScore:
    """+2 per Beer adjacent to a Wagon, −1 per Beer that is not."""
    beers = _with_icon(town, "b")
    served = frozenset(p for p in beers if any(t.icon == "w" for _, t in town.neighbours(p)))
    dry = frozenset(beers) - served
    return GoalScore(
        2 * len(served) - len(dry),
        f"{plural(len(served), 'Beer')}{_at(served)} beside a Wagon × 2, "
        f"{plural(len(dry), 'Beer')}{_at(dry)} not × −1",
        frozenset(beers),
        served,
    )


def the_clearing(town: Town) -> GoalScore:
    """+2 per Fort, −1 per Forest territory."""
    forts = frozenset(_with_icon(town, "f"))
    forests = frozenset(p for p, t in town.territories() if t.terrain == "F")
    detail = (
        f"{plural(len(forts), 'Fort')}{_at(forts)} × 2, {plural(len(forests), 'Forest')}{_at(forests)} × −1"
    )
    return GoalScore(2 * len(forts) - len(forests), detail, forts | forests, forts)


def undiscovered(town: Town) -> GoalScore:
    """+5 per empty cell whose 8 surrounding cells all hold a territory."""
    holes = frozenset(
        (r, c)
        for r in range(town.n_rows)
        for c in range(town.n_cols)
        if town.cell(r, c) is None
        and all(town.cell(r + dr, c + dc) is not None for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    )
    return GoalScore(
        5 * len(holes), f"{plural(len(holes), 'enclosed empty space')}{_at(holes)} × 5", holes, frozenset()
    )


def gold_country(town: Town) -> GoalScore:
    """+2 per Mine on, or adjacent to, a Mountains territory."""
    mines = frozenset(p for p in _with_icon(town, "m") if _touches(town, p, lambda t: t.terrain == "M"))
    detail = f"{plural(len(mines), 'Mine')}{_at(mines)} on or beside Mountains × 2"
    return GoalScore(2 * len(mines), detail, mines, mines)


def circle_the_wagons(town: Town) -> GoalScore:
    """+6 per territory whose 4 side neighbours are all territories carrying a Wagon."""
    circled = frozenset(
        pos for pos, _ in town.territories() if sum(1 for _, t in town.neighbours(pos) if t.icon == "w") == 4
    )
    detail = f"{plural(len(circled), 'territory')}{_at(circled)} ringed by 4 Wagons × 6"
    return GoalScore(6 * len(circled), detail, circled, circled)


def prairie_life(town: Town) -> GoalScore:
    """(Cows + Plains territories) ÷ 2, rounded down; a Plains territory with a Cow counts twice."""
    cows = frozenset(_with_icon(town, "c"))
    plains = frozenset(p for p, t in town.territories() if t.terrain == "P")
    points = (len(cows) + len(plains)) // 2
    return GoalScore(
        points,
        f"({plural(len(cows), 'Cow')} + {len(plains)} Plains) ÷ 2, rounded down",
        cows | plains,
        cows | plains if points else frozenset(),
    )


#: Boom or Bust as printed, "Score points per Mine": (least Mines of a column, its heading, points per Mine).
BOOM_OR_BUST = ((0, "0–2", 5), (3, "3–6", 0), (7, "7", 3), (8, "8+", 8))


def boom_or_bust_column(mines: int) -> tuple[str, int]:
    """The printed card's column for ``mines``: its heading and the points per Mine.

    Examples
    --------
    >>> [boom_or_bust_column(n) for n in (0, 4, 7, 9)]
    [('0–2', 5), ('3–6', 0), ('7', 3), ('8+', 8)]
    """
    return next((heading, rate) for least, heading, rate in reversed(BOOM_OR_BUST) if mines >= least)


def boom_or_bust_points(mines: int) -> int:
    """Boom or Bust by the number of Mines, per Mine: 0–2 → 5; 3–6 → 0; 7 → 3; 8 or more → 8.

    Examples
    --------
    >>> [boom_or_bust_points(n) for n in (0, 2, 5, 7, 8)]
    [0, 10, 0, 21, 64]
    """
    return mines * boom_or_bust_column(mines)[1]


def boom_or_bust_rate(mines: int) -> str:
    """The card's column for ``mines`` in words, for the breakdown: '0–2 → 5 per Mine'."""
    heading, rate = boom_or_bust_column(mines)
    return f"{heading} → {rate} per Mine"


def boom_or_bust(town: Town) -> GoalScore:
    """Boom or Bust: every Mine scores the points of the printed card's column for the town's Mines."""
    mines = frozenset(_with_icon(town, "m"))
    points = boom_or_bust_points(len(mines))
    return GoalScore(
        points,
        f"{plural(len(mines), 'Mine')}{_at(mines)}: {boom_or_bust_rate(len(mines))}",
        mines,
        mines if points else frozenset(),
    )


WAGON_TRAIN_POINTS = {2: 1, 3: 2, 4: 4, 5: 7}


def wagon_train_points(length: int) -> int:
    """A straight run of ``length`` Wagons: 2 → 1, 3 → 2, 4 → 4, 5 → 7, 6 or more → 10; shorter → 0.

    Examples
    --------
    >>> [wagon_train_points(n) for n in range(1, 8)]
    [0, 1, 2, 4, 7, 10, 10]
    """
    return 10 if length >= 6 else WAGON_TRAIN_POINTS.get(length, 0)


def wagon_runs(town: Town) -> list[tuple[Pos, ...]]:
    """Every maximal straight run of 2 or more Wagons in a row or a column (rows first, reading order)."""

    def wagon(r: int, c: int) -> bool:
        cell = town.cell(r, c)
        return cell is not None and cell.icon == "w"

    runs: list[tuple[Pos, ...]] = []
    for along_rows in (True, False):
        outer, inner = (town.n_rows, town.n_cols) if along_rows else (town.n_cols, town.n_rows)
        for a in range(outer):
            run: list[Pos] = []
            for b in range(inner + 1):  # one step past the end closes the last run
                pos = (a, b) if along_rows else (b, a)
                if b < inner and wagon(*pos):
                    run.append(pos)
                    continue
                if len(run) >= 2:
                    runs.append(tuple(run))
                run = []
    return runs


def wagon_train(town: Town) -> GoalScore:
    """Each maximal straight run of Wagons scores by its length (see :func:`wagon_train_points`)."""
    runs = wagon_runs(town)
    points = sum(wagon_train_points(len(run)) for run in runs)
    parts = [f"{len(run)} ({cell_names(run)}) → {wagon_train_points(len(run))}" for run in runs]
    cells = frozenset(p for run in runs for p in run)
    detail = "runs of Wagons: " + "; ".join(parts) if runs else "no two Wagons in a straight line"
    return GoalScore(points, detail, cells, cells)


def fortified(town: Town) -> GoalScore:
    """+7 per 2×2 square of four Forts; squares may overlap."""

    def fort(r: int, c: int) -> bool:
        cell = town.cell(r, c)
        return cell is not None and cell.icon == "f"

    corners = [
        (r, c)
        for r in range(town.n_rows - 1)
        for c in range(town.n_cols - 1)
        if fort(r, c) and fort(r, c + 1) and fort(r + 1, c) and fort(r + 1, c + 1)
    ]
    cells = frozenset((r + dr, c + dc) for r, c in corners for dr in (0, 1) for dc in (0, 1))
    tops = ", ".join(f"{cell_names([(r, c)])}–{cell_names([(r + 1, c + 1)])}" for r, c in corners)
    return GoalScore(
        7 * len(corners),
        f"{plural(len(corners), 'square')} of four Forts{f' ({tops})' if tops else ''} × 7",
        cells,
        cells,
    )


def the_herd(town: Town) -> GoalScore:
    """2 × the size of the largest group of Cows in territories sharing sides."""
    herds = largest_groups(town, lambda t: t.icon == "c")
    readings = [
        GoalScore(2 * len(herd), f"largest herd of {plural(len(herd), 'Cow')}{_at(herd)} × 2", herd, herd)
        for herd in herds
    ]
    return _best(readings, "no Cow")


def target_practice(town: Town) -> GoalScore:
    """For each Beer, the nearest Gun in its row or column: +1 per territory between them.

    Rulings: empty cells between the two do not count (only territories do) and do not block the line;
    when two Guns are equally near, the one with more territories between them is used.
    """
    by_row: dict[int, list[int]] = {}
    by_col: dict[int, list[int]] = {}
    for r, c in _with_icon(town, "g"):  # reading order: each list comes out sorted
        by_row.setdefault(r, []).append(c)
        by_col.setdefault(c, []).append(r)
    points, parts, counted, scoring = 0, [], set(), set()
    for beer in _with_icon(town, "b"):
        in_line = _closest_in_line(beer, by_row, by_col)
        if not in_line:
            continue
        distance = {g: abs(g[0] - beer[0]) + abs(g[1] - beer[1]) for g in in_line}
        nearest = min(distance.values())
        between, gun = max((_between(town, beer, g), g) for g in in_line if distance[g] == nearest)
        points += between
        counted |= {beer, gun}
        if between:
            scoring.add(beer)
        parts.append(f"{cell_names([beer])}→{cell_names([gun])} {between}")
    detail = (
        "Beer→nearest Gun, territories between: " + ", ".join(parts)
        if parts
        else "no Gun in line with a Beer"
    )
    return GoalScore(points, detail, frozenset(counted), frozenset(scoring))


def _closest_in_line(pos: Pos, by_row: dict[int, list[int]], by_col: dict[int, list[int]]) -> list[Pos]:
    """The Guns nearest ``pos`` on each of its four sides in its row and column: any Gun at the least
    distance is one of them, so the nearest are found without looking at every Gun (one bisection each)."""
    r, c = pos
    found: list[Pos] = []
    cols, rows = by_row.get(r, []), by_col.get(c, [])
    i, j = bisect_left(cols, c), bisect_left(rows, r)
    found += [(r, cols[k]) for k in (i - 1, i) if 0 <= k < len(cols) and cols[k] != c]
    found += [(rows[k], c) for k in (j - 1, j) if 0 <= k < len(rows) and rows[k] != r]
    return found


def _between(town: Town, a: Pos, b: Pos) -> int:
    """Territories strictly between two cells of the same row or column."""
    if a[0] == b[0]:
        lo, hi = sorted((a[1], b[1]))
        return sum(town.cell(a[0], c) is not None for c in range(lo + 1, hi))
    lo, hi = sorted((a[0], b[0]))
    return sum(town.cell(r, a[1]) is not None for r in range(lo + 1, hi))


def rifles_ready(town: Town) -> GoalScore:
    """+2 per Fort adjacent to at least one Gun."""
    forts = frozenset(p for p in _with_icon(town, "f") if any(t.icon == "g" for _, t in town.neighbours(p)))
    detail = f"{plural(len(forts), 'Fort')}{_at(forts)} beside a Gun × 2"
    return GoalScore(2 * len(forts), detail, forts, forts)


#: The scorer of every goal card that reads only the player's own grid.
GRID_SCORERS: dict[str, Callable[[Town], GoalScore]] = {
    "cool-water": cool_water,
    "badlands": badlands,
    "happy-cows": happy_cows,
    "bootleggers": bootleggers,
    "the-clearing": the_clearing,
    "undiscovered": undiscovered,
    "gold-country": gold_country,
    "circle-the-wagons": circle_the_wagons,
    "prairie-life": prairie_life,
    "boom-or-bust": boom_or_bust,
    "wagon-train": wagon_train,
    "fortified": fortified,
    "the-herd": the_herd,
    "target-practice": target_practice,
    "rifles-ready": rifles_ready,
}


def wildest_west(town: Town, scored: frozenset[Pos]) -> GoalScore:
    """+1 per territory outside ``scored`` (the territories that earned points in any other way)."""
    idle = frozenset(pos for pos, _ in town.territories()) - scored
    detail = f"{len(idle)} of {town.n_territories} territories score nothing else{_at(idle)}"
    return GoalScore(len(idle), detail, idle, idle)
