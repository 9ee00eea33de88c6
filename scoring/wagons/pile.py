"""The Lone Cowboy opponent's town: a pile of cards, where only which cards it holds matters.

A pile is given either as card numbers from the 18-card table (``1 4 7``) or as counted territories and
icons (``prairie=5 snow=5 forest=4 wagon=3 cards=6``). Both give a :class:`Pile` of counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.numbers import NumberError, whole_number
from scoring.wagons.cards import CARDS
from scoring.wagons.errors import PileError
from scoring.wagons.town import ICON_NAMES, TERRAIN_NAMES, TERRAINS

TERRITORIES_PER_CARD = 4

# Accepted count names (singular; a trailing "s" is also accepted) → territory or icon letter.
_TERRAIN_WORDS = {name: letter for letter, name in TERRAIN_NAMES.items()} | {
    "mountain": "M",
    "plain": "P",
    "prairie": "P",
}
_ICON_WORDS = {name: letter for letter, name in ICON_NAMES.items()}
_KNOWN_WORDS = {*_TERRAIN_WORDS, *_ICON_WORDS, "card"}
COUNT_NAMES = (*TERRAIN_NAMES.values(), "prairie", *ICON_NAMES.values(), "cards")


@dataclass(frozen=True)
class Pile:
    """Counted territories (by letter ``D F M P S W``) and icons (``b c f g m w``) of an opponent's pile.

    ``cards`` lists the card numbers when the pile was given by number; ``n_cards`` is the number of cards
    when known (given by number, or counted as ``cards=N``).
    """

    terrains: dict[str, int] = field(default_factory=dict)
    icons: dict[str, int] = field(default_factory=dict)
    cards: tuple[int, ...] = ()
    n_cards: int | None = None

    def terrain_counts(self) -> Counter[str]:
        return Counter({k: v for k, v in self.terrains.items() if v})

    def icon_counts(self) -> Counter[str]:
        return Counter({k: v for k, v in self.icons.items() if v})

    @property
    def n_territories(self) -> int:
        """Every card holds 4 territories; without a card count, the territories counted."""
        if self.n_cards is not None:
            return TERRITORIES_PER_CARD * self.n_cards
        return sum(self.terrains.values())

    def describe(self) -> str:
        """One line for the breakdown, e.g. ``cards 1 4 7: 5 plains, 3 snow, … ; 3 wagon, …``."""
        terr = ", ".join(f"{n} {TERRAIN_NAMES[t]}" for t, n in sorted(self.terrain_counts().items()))
        icons = ", ".join(f"{n} {ICON_NAMES[i]}" for i, n in sorted(self.icon_counts().items()))
        head = f"cards {' '.join(map(str, self.cards))}" if self.cards else f"{self.n_cards or '?'} cards"
        return f"{head}: {terr or 'no territories'}; {icons or 'no icons'}"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": list(self.cards),
            "n_cards": self.n_cards,
            "territories": {TERRAIN_NAMES[t]: n for t, n in sorted(self.terrain_counts().items())},
            "icons": {ICON_NAMES[i]: n for i, n in sorted(self.icon_counts().items())},
        }
        return out


def pile_from_cards(numbers: Iterable[int]) -> Pile:
    """The pile holding these cards of the 18-card table (numbers 0–17, each at most once)."""
    cards = tuple(numbers)
    unknown = [n for n in cards if n not in CARDS]
    if unknown:
        raise PileError(
            f"no card {unknown[0]} in the 18-card table (cards are numbered 0 to {max(CARDS)}); "
            f"pile was {' '.join(map(str, cards))}"
        )
    repeated = sorted(n for n, k in Counter(cards).items() if k > 1)
    if repeated:
        raise PileError(f"card {repeated[0]} appears more than once in the pile (each card exists once)")
    terrains: Counter[str] = Counter()
    icons: Counter[str] = Counter()
    for n in cards:
        for territory in CARDS[n]:
            terrains[territory.terrain] += 1
            icons[territory.icon] += 1
    return Pile(dict(terrains), dict(icons), cards, len(cards))


def pile_from_counts(counts: dict[str, int]) -> Pile:
    """A pile from counted territories and icons, keyed by name (``prairie``, ``wagons``, ``cards``…).

    Names ignore case and a plural "s". Counts not given are 0. The number of cards is known only when
    ``cards`` is given; the counts may not exceed what that many cards hold.
    """
    terrains: dict[str, int] = dict.fromkeys(TERRAINS, 0)
    icons: dict[str, int] = dict.fromkeys(ICON_NAMES, 0)
    n_cards: int | None = None
    seen: dict[str, str] = {}  # letter (or "cards") → the name that set it, to refuse "cow=2 cows=3"
    for name, value in counts.items():
        word = name.strip().lower()
        if value < 0:
            raise PileError(f"pile count {name}={value} is negative")
        singular = word[:-1] if word.endswith("s") and word[:-1] in _KNOWN_WORDS else word
        if singular not in _KNOWN_WORDS:
            raise PileError(f"unknown pile count {name!r}; expected one of: {', '.join(COUNT_NAMES)}")
        slot = "cards" if singular == "card" else _TERRAIN_WORDS.get(singular, singular)
        if slot in seen:
            raise PileError(f"pile counts {seen[slot]!r} and {name!r} count the same thing")
        seen[slot] = name
        if singular == "card":
            n_cards = value
        elif singular in _TERRAIN_WORDS:
            terrains[_TERRAIN_WORDS[singular]] = value
        else:
            icons[_ICON_WORDS[singular]] = value
    counted = sum(terrains.values())
    # No card count is implied from the territories: a player may count only the types that matter.
    if n_cards is not None:
        limit = TERRITORIES_PER_CARD * n_cards
        for what, total in (("territories", counted), ("icons", sum(icons.values()))):
            if total > limit:
                raise PileError(f"{total} {what} counted but {n_cards} cards hold only {limit}")
    if n_cards is not None and n_cards > len(CARDS):
        raise PileError(f"a pile of {n_cards} cards: the game has only {len(CARDS)}")
    return Pile(terrains, icons, (), n_cards)


def parse_pile(tokens: Iterable[str]) -> Pile:
    """Read a pile from command-line or header tokens: all card numbers, or all ``name=count``.

    Commas separate like spaces. Raises :class:`PileError` for anything else, naming the bad token.

    Examples
    --------
    >>> parse_pile(["1,4", "7"]).cards, parse_pile(["prairie=5", "wagon=3"]).cards
    ((1, 4, 7), ())
    """
    words = [w for token in tokens for w in token.replace(",", " ").split()]
    if not words:
        raise PileError(
            "the opponent pile is empty (give card numbers such as '1 4 7' or counts such as 'snow=5')"
        )
    if all(w.isascii() and w.isdigit() for w in words):
        return pile_from_cards(_number(w, f"pile card {w!r}") for w in words)
    counts: dict[str, int] = {}
    for w in words:
        name, sep, value = w.partition("=")
        if not sep or not name:
            raise PileError(
                f"cannot read pile entry {w!r}: give only card numbers (e.g. '1 4 7') "
                f"or only counts (e.g. 'prairie=5 wagon=3')"
            )
        if name.lower() in counts:
            raise PileError(f"pile count {name!r} given twice")
        counts[name.lower()] = _number(value, f"pile count {w!r}")
    return pile_from_counts(counts)


def _number(text: str, what: str) -> int:
    try:
        return whole_number(text)
    except NumberError as exc:
        raise PileError(f"{what}: {exc}") from None
