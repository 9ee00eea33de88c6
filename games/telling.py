"""Which game a photo shows, told by the games' own cards (:func:`tell_game`).

All the games are played with cards of one size, laid on one lattice, so the geometry does not tell them
apart; their cards do. Each game reads the photo its own way and decodes the reading as its own cards; a
reader shown another game's art still reads something, often confidently, but what it reads does not fit
its game's cards quadrant by quadrant. A game's evidence is the share of the card region its cards explain
(:class:`~games.interface.Evidence`); the game whose cards explain at least :data:`MIN_EXPLAINED` of it,
and :data:`CLEAR_BY` more than any other's, is the photo's (:func:`decide`).

The games are asked in the order they were registered, and the asking stops at a game whose cards explain
more than ``1 - CLEAR_BY``: no other could beat it by ``CLEAR_BY``, so a photo of the first game costs only
its own reading.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.interface import Evidence, Game, Photo
from games.registry import registered
from scoring.errors import InputError
from vision.advice import teach_your_cards

__all__ = ["CLEAR_BY", "MIN_EXPLAINED", "UnknownLook", "Verdict", "decide", "tell_game"]

# A game's cards must explain at least this share of the card region (right readings explain 0.9 and more:
# a misread cell or two, a card cut by the photo's edge) ...
MIN_EXPLAINED = 0.6
# ... and this much more of it than any other game's cards.
CLEAR_BY = 0.2

UNKNOWN_CARDS = (
    "the photo shows cards, but they do not look like any print of {games} the scanner knows ({why}): if "
    "they are cards of another print, " + teach_your_cards()
)


class UnknownLook(InputError):
    """The photo shows a lattice of cards whose look no game's reader knows (no taught deck fits them):
    teaching is what to do."""

    code = "needs_deck"


@dataclass(frozen=True)
class Verdict:
    """The game the photo shows (``None``: none, or no telling), each game's evidence and why."""

    game: str | None
    evidence: tuple[Evidence, ...]
    why: str


def _percent(e: Evidence) -> str:
    return f"{e.game} cards explain {100 * e.explained:.0f}% of the cards' cells" + (
        f" ({e.why})" if e.why else ""
    )


def decide(evidence: Sequence[Evidence]) -> Verdict:
    """The verdict from each game's evidence (see the module note).

    >>> decide([Evidence("a", 0.95, 60), Evidence("b", 0.3, 60)]).game
    'a'
    >>> decide([Evidence("a", 0.7, 60), Evidence("b", 0.6, 60)]).game is None
    True
    """
    ranked = sorted(evidence, key=lambda e: -e.explained)
    best = ranked[0]
    runner = ranked[1].explained if len(ranked) > 1 else 0.0
    said = "; ".join(_percent(e) for e in ranked)
    if best.explained < MIN_EXPLAINED:
        return Verdict(None, tuple(evidence), f"no game's cards explain the photo: {said}")
    if best.explained - runner < CLEAR_BY:
        return Verdict(None, tuple(evidence), f"the photo fits more than one game's cards: {said}")
    return Verdict(best.game, tuple(evidence), said)


def tell_game(photo: Photo, choices: Mapping[str, Any], decks: Sequence[Any]) -> tuple[Game, Evidence]:
    """The game ``photo`` shows and its evidence (what it read, for :meth:`Game.read`). ``choices`` holds
    each game's choices read (by name), ``decks`` the taught decks given. A photo no game clearly explains
    is read by the first game that reads what it is unsure of (``Evidence.readable``); otherwise
    :class:`UnknownLook` when some game found cards there, else the first game's refusal with every game's
    reason."""
    games = {g.name: g for g in registered()}
    evidence: list[Evidence] = []
    for game in games.values():
        found = game.evidence(photo, choices[game.name], game.deck_of(decks))
        evidence.append(found)
        if found.explained > 1 - CLEAR_BY:
            break
    verdict = decide(evidence)
    if verdict.game is not None:
        return games[verdict.game], next(e for e in evidence if e.game == verdict.game)
    readable = next((e for e in evidence if e.readable), None)
    if readable is not None:
        return games[readable.game], readable
    if any(e.cells > 0 for e in evidence):
        titles = " or ".join(g.title for g in games.values())
        raise UnknownLook(UNKNOWN_CARDS.format(games=titles, why=verdict.why))
    raise _refusal(evidence)


def _refusal(evidence: Sequence[Evidence]) -> InputError:
    """The first game's refusal of a photo in which no game found its cards, saying every game's own reason
    in its own words: the player of either game is told why neither read it (a town of a print the scanner
    has not seen was refused with the Sprawlopolis reason alone, "no city found: the cards' edges do not
    repeat like a lattice of blocks")."""
    said = "; ".join(dict.fromkeys(e.why for e in evidence if e.why))
    first = next((e.refusal for e in evidence if e.refusal is not None), None)
    if first is None:
        return InputError(said or "no cards found in the photo")
    refusal = copy.copy(first)
    refusal.args = (said or str(first),)
    return refusal
