"""Which three scoring cards a game used, from the two readings a photo gives.

The numbers printed on the scoring cards' backs (:mod:`vision.backs.read`) are one reading. The city is
the other: it is built from 15 of the 18 known cards, so a city decoded as known cards
(:mod:`vision.cards.stacking`) names the three it lacks, which are the scoring cards. When both agree the
result says so (``source == "both"``); when only one exists it is used; when they disagree the more
certain one is used and a warning names the cards in doubt. A player is asked only for what is still
unknown.

Examples
--------
>>> from vision.backs.choose import BackNumber, choose_scoring_cards
>>> backs = [BackNumber(12, 0.94), BackNumber(14, 0.91)]  # the third back was not read
>>> chosen = choose_scoring_cards(backs, from_city=(12, 14, 15), city_certainty=0.9)
>>> chosen.cards, chosen.source, chosen.warnings
((12, 14, 15), 'both', ())
>>> choose_scoring_cards(backs, from_city=None).warnings[0]
'scoring cards: read 2 of 3 from their backs (12, 14); give the third to score them'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

__all__ = ["BackNumber", "ScoringCards", "choose_scoring_cards"]

Source = Literal["backs", "city", "both", "given"]
#: A back read less surely than this gives way to a certain city decoding that disagrees with it.
BACKS_OVER_CITY = 0.8
#: A city decoding this sure stands on its own; a less sure one counts only where backs agree with it.
CITY_SURE = 0.8
#: A back read less surely than the reader reports (vision.backs.read.MIN_CONFIDENCE) whose most likely
#: number is at least this likely and not one the city lacks puts the cards chosen in doubt.
UNSURE_AGAINST_CITY = 0.3
_ORDINAL = {1: "the third", 2: "the last two", 3: "all three"}
_HOW_MANY = {0: "none", 1: "one", 2: "two", 3: "three"}


@dataclass(frozen=True)
class BackNumber:
    """A number read on one back: ``number`` (None when unread), its confidence (0–1) and the next most
    likely numbers with theirs (best first), ``where`` anything the caller keeps with it (its JSON);
    ``outline`` the card's four corners in the photo when its way up was seen (its title band), else None."""

    number: int | None
    confidence: float
    alternatives: tuple[tuple[int, float], ...] = ()
    where: dict[str, Any] = field(default_factory=dict, compare=False)
    outline: tuple[tuple[float, float], ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ScoringCards:
    """The scoring cards chosen: ``cards`` (three, ascending; None when not known), where they came from,
    every back read, the city's reading, the cards in doubt and warnings for the player."""

    cards: tuple[int, ...] | None
    source: Source | None
    backs: tuple[BackNumber, ...] = ()
    from_city: tuple[int, ...] | None = None
    in_doubt: tuple[int, ...] = ()
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards) if self.cards else None,
            "source": self.source,
            "backs": [
                {**b.where, "number": b.number, "confidence": round(b.confidence, 4)} for b in self.backs
            ],
            "from_city": list(self.from_city) if self.from_city else None,
            "in_doubt": list(self.in_doubt),
        }


def _names(cards: Sequence[int]) -> str:
    return ", ".join(map(str, sorted(cards)))


def choose_scoring_cards(
    backs: Sequence[BackNumber],
    from_city: Sequence[int] | None,
    city_certainty: float = 1.0,
    given: Sequence[int] | None = None,
    against: Sequence[int] = (),
    alike: Sequence[Sequence[int]] = (),
) -> ScoringCards:
    """Choose the scoring cards from the backs read, the city's three missing cards and the player's.

    ``city_certainty`` (0–1) is how sure the city's reading is; ``given`` (the player's own numbers)
    always wins, with a warning when a reading disagrees. ``against``: the cards read on backs that the
    caller found the city holds (:func:`vision.city.read_cards.stack_city`, which names them with their
    cells): where the backs and the city disagree the choice is made as ever, without a warning of its own.
    ``alike``: groups of cards the city cannot tell apart (:func:`vision.cards.read_alike`); a city that
    has any is never taken for the cards the backs do not name, and the warning names the groups.
    """
    city = tuple(sorted(from_city)) if from_city else None
    backs = tuple(backs)
    if given is not None:
        return _given(backs, city, tuple(sorted(given)))
    read = sorted((b for b in backs if b.number is not None), key=lambda b: -b.confidence)
    if city is not None:
        # A back the reader was unsure of still agrees when its most likely number is one of the city's;
        # when it is not, it still speaks against the city (never dropped in silence).
        numbers = {b.number for b in read}
        unsure: list[tuple[int, float]] = []
        for b in backs:
            if b.number is None and b.alternatives:
                guess, p = b.alternatives[0]
                if guess in set(city) - numbers:
                    read.append(BackNumber(guess, p, b.alternatives, b.where))
                    numbers.add(guess)
                elif guess not in numbers and p >= UNSURE_AGAINST_CITY:
                    unsure.append((guess, p))
        chosen = _with_city(backs, read[:3], city, city_certainty, alike)
        if against and chosen.in_doubt and chosen.cards is not None:
            chosen = replace(chosen, warnings=())
        return _against_unsure(chosen, unsure, numbers)
    if len(read) >= 3:
        chosen = tuple(sorted(b.number for b in read[:3] if b.number is not None))
        warnings = ()
        if len(read) > 3:
            ignored = ", ".join(str(b.number) for b in read[3:])
            warnings = (f"more than three scoring cards seen; used {_names(chosen)}, ignored {ignored}",)
        return ScoringCards(chosen, "backs", backs, None, (), warnings)
    missing = 3 - len(read)
    seen = f"read {len(read)} of 3 from their backs ({_names([b.number for b in read if b.number])})"
    if not read:
        seen = "none read from their backs" if backs else "none seen in the photo"
    return ScoringCards(
        None, None, backs, None, (), (f"scoring cards: {seen}; give {_ORDINAL[missing]} to score them",)
    )


def _given(
    backs: tuple[BackNumber, ...], city: tuple[int, ...] | None, chosen: tuple[int, ...]
) -> ScoringCards:
    """The player's cards, with a warning when the city's missing cards are others (a caller that knows
    which cards the city holds, :func:`vision.city.read_cards.stack_city`, words that itself)."""
    doubt = tuple(sorted(set(chosen) ^ set(city))) if city and set(city) != set(chosen) else ()
    warnings = (
        (
            f"the scoring cards given ({_names(chosen)}) are not the three cards missing from the city "
            f"({_names(city or ())}): please check them",
        )
        if doubt
        else ()
    )
    return ScoringCards(chosen, "given", backs, city, doubt, warnings)


def _with_city(
    backs: tuple[BackNumber, ...],
    read: list[BackNumber],
    city: tuple[int, ...],
    certainty: float,
    alike: Sequence[Sequence[int]] = (),
) -> ScoringCards:
    from_backs = tuple(sorted(b.number for b in read if b.number is not None))
    against = [n for n in from_backs if n not in city]
    if not against and not alike and (certainty >= CITY_SURE or len(read) >= 2):
        if not read:
            warning = (
                "scoring cards not read from their backs; taken as the three cards missing from the city: "
                + _names(city)
            )
            return ScoringCards(city, "city", backs, city, (), (warning,))
        return ScoringCards(city, "both", backs, city)
    if not against:  # an unsure city: no answer, and no suggestion either
        doubt = set().union(*map(set, alike)) if alike else set(city) - set(from_backs)
        return ScoringCards(
            None, None, backs, city, tuple(sorted(doubt)), (_unsure_city(from_backs, city, alike),)
        )
    # They disagree. Three backs read outweigh an unsure city, and a sure one when they are surer still; a
    # sure city outweighs fewer or less sure backs.
    three = len(read) == 3
    sure_backs = three and (
        certainty < CITY_SURE or min(b.confidence for b in read) >= max(BACKS_OVER_CITY, certainty)
    )
    doubt = tuple(sorted(set(from_backs) ^ set(city)))
    if not sure_backs and certainty < CITY_SURE:
        return ScoringCards(
            None,
            None,
            backs,
            city,
            doubt,
            (
                f"the backs read {_names(from_backs)} but the city lacks {_names(city)}: "
                "give the scoring cards",
            ),
        )
    chosen = from_backs if sure_backs else city
    warning = (
        f"the backs read {_names(from_backs)} but the city lacks {_names(city)}; used the "
        f"{'backs' if sure_backs else 'city'}: please check cards {_names(doubt)}"
    )
    return ScoringCards(chosen, "backs" if sure_backs else "city", backs, city, doubt, (warning,))


def _unsure_city(from_backs: Sequence[int], city: Sequence[int], alike: Sequence[Sequence[int]]) -> str:
    """What an unsure city says of the scoring cards: which cards it cannot tell apart, where it knows."""
    seen = (
        f"scoring cards: read {_names(from_backs)} on their backs" if from_backs else "scoring cards not read"
    )
    if not alike:
        return f"{seen}, and the city does not tell surely which cards it lacks: give them to score them"
    sure = [n for n in city if not any(n in g for g in alike)]
    lacks = [_names(sure)] if sure else []
    lacks += [f"{_HOW_MANY[len(set(g) & set(city))]} of cards {_names(g)}" for g in alike]
    return (
        f"{seen}, and the city cannot tell which cards it lacks: {' and '.join(lacks)}; "
        "give the scoring cards to score them"
    )


def _against_unsure(
    chosen: ScoringCards, unsure: Sequence[tuple[int, float]], confirmed: set[int | None]
) -> ScoringCards:
    """``chosen`` with the unsure backs that name a card it does not hold: those cards, and the chosen
    ones no back confirmed, in doubt, and a warning naming them."""
    against = [(n, p) for n, p in unsure if not chosen.cards or n not in chosen.cards]
    if not against or not chosen.cards:
        return chosen
    doubt = {n for n, _ in against} | (set(chosen.cards) - confirmed)
    read = ", ".join(f"{n} ({p:.0%} sure)" for n, p in against)
    warning = (
        f"a back reads {read}, not one of the cards used ({_names(chosen.cards)}): "
        f"please check cards {_names(doubt)}"
    )
    return replace(
        chosen, in_doubt=tuple(sorted(set(chosen.in_doubt) | doubt)), warnings=(*chosen.warnings, warning)
    )
