"""What a game is to the rest of sprawlscan: one :class:`Game` per game, registered once
(:mod:`games.registry`).

The command line, the web service and the page know games only through this face. A game says:

- who it is (``name``, ``title``, the ``aliases`` a file header may use, the ``file_suffix`` of its typed
  grids and the word for its grid: a city, a town);
- which choices a player gives it (:class:`OptionSpec`: the scoring cards of Sprawlopolis, the goal cards of
  Circle the Wagons…), read by :meth:`Game.choices` from a form, a JSON request or the command line alike;
- how a typed grid is scored and a hand tally checked (:meth:`Game.score_text`, :meth:`Game.score_rows`,
  :meth:`Game.check_tally`, and how the breakdown is printed);
- how it is told from a photo (:meth:`Game.evidence`: how much of the photo its cards explain, with what
  it read to get there, so that reading the photo never starts again) and how a photo of it is read,
  doubted and scored (:meth:`Game.read`, a :class:`ScoredPhoto`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scoring.breakdown import Breakdown
from scoring.errors import InputError
from vision.frames import FrameCards
from vision.runtime import Stages

__all__ = [
    "DeckFit",
    "Evidence",
    "Game",
    "GameOptionError",
    "OptionSpec",
    "Photo",
    "ScoredPhoto",
    "ScoredReading",
]


class GameOptionError(InputError):
    """A choice of one game given for another, or a game no one registered."""

    code = "wrong_game_option"


@dataclass(frozen=True)
class OptionSpec:
    """One choice a player may give a game: its ``key`` in a form, a JSON request or the command line's
    ``flag``; ``nargs`` as argparse takes it (``"+"`` several words, ``None`` one); ``commands`` the
    command-line commands that offer it (``scan``, ``score``, ``check``)."""

    key: str
    flag: str
    help: str
    metavar: str = "VALUE"
    nargs: str | None = None
    choices: tuple[str, ...] | None = None
    commands: tuple[str, ...] = ("scan", "score", "check")
    #: ``words`` (text, or several words), ``numbers`` (whole numbers: ``what`` says of what), ``pairs``
    #: (``KEY=VALUE`` on the command line, an object in a request) or ``file`` (the command line reads the
    #: file named and sends its text).
    kind: str = "words"
    what: str = ""

    @property
    def dest(self) -> str:
        """The attribute argparse keeps it under."""
        return self.key.replace("-", "_")


@dataclass(frozen=True)
class Photo:
    """A decoded photo on its way to a score: the upright ``rgb`` (at the working size), the scan's
    ``stages`` (timing and stopping), whether a picture of what was read is wanted (``overlay``) and the
    cell ``classifier`` standing in for a game's shipped one (tests, benchmarks; ``None``: shipped)."""

    rgb: np.ndarray
    stages: Stages
    overlay: bool = False
    classifier: Any = None


@dataclass(frozen=True)
class Evidence:
    """How well one game's cards explain a photo: ``explained`` is the share of the ``cells`` of the card
    region that a decoded card of the game shows (0, with ``why``, when the game found no lattice of its
    cards, and ``refusal`` the game's own error for it); ``reading`` what the game read to measure it,
    handed back to :meth:`Game.read` so that nothing is read twice; ``readable`` whether the game would
    read the photo even unsure that it is its own (:attr:`Game.reads_when_unsure`)."""

    game: str
    explained: float
    cells: int
    why: str = ""
    reading: Any = field(default=None, repr=False)
    readable: bool = False
    refusal: InputError | None = None


@dataclass(frozen=True)
class DeckFit:
    """How many of the cards found in deck photos fit one of a game's cards (``share``), and what was found
    (``found``: handed back to :meth:`Game.teach`, which does not look again)."""

    share: float
    found: Any = field(default=None, repr=False)


class ScoredPhoto(ABC):
    """A photo read and scored: the answer every interface shows. ``retake`` says why it is not scored and
    what to do (``needs_deck``: the cards' look is unknown: teach it); ``doubt`` the cells that could be
    read otherwise, each alternative with the total it would score. An implementation is a frozen
    dataclass with ``warnings`` and ``timings`` among its fields: :func:`games.scan_photo` adds to them
    with :func:`dataclasses.replace`."""

    game: str
    taught: bool
    breakdown: Breakdown
    warnings: tuple[str, ...]
    doubt: tuple[dict[str, Any], ...]
    retake: str | None
    needs_deck: bool
    text: str
    overlay: np.ndarray | None
    timings: dict[str, float]

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The JSON answer (the breakdown, ``cells``, ``doubt``, ``warnings``, ``retake``, ``game``)."""

    @abstractmethod
    def render_text(self) -> str:
        """What ``sprawlscan scan`` prints on standard output: the grid read, the table and the doubt (or,
        with a retake, the reading not scored)."""


@dataclass(frozen=True)
class ScoredReading(ScoredPhoto):
    """A :class:`ScoredPhoto` from a game's reading of the photo (``scan``), which says whether to take the
    photo again (``retake``, ``needs_deck``) and carries the picture of what was read (``overlay``): the
    ``breakdown`` with the player's choices, the ``warnings``, the ``doubt`` (each alternative with the
    total it would score) and whether a taught deck read it (``taught``)."""

    scan: Any
    breakdown: Breakdown
    warnings: tuple[str, ...]
    doubt: tuple[dict[str, Any], ...]
    taught: bool = False
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def retake(self) -> str | None:  # type: ignore[override]
        """Why another photo is needed and what to change, when the scan asks for one."""
        return self.scan.retake  # type: ignore[no-any-return]

    @property
    def needs_deck(self) -> bool:  # type: ignore[override]
        """The retake is for cards of a print the scanner does not know: teach the deck."""
        return bool(self.scan.needs_deck)

    @property
    def overlay(self) -> np.ndarray | None:  # type: ignore[override]
        return self.scan.overlay  # type: ignore[no-any-return]


class Game(ABC):
    """One game: see the module note. Subclasses set the class attributes and the abstract methods; the
    others are capabilities a game may lack (listing its cards, the live camera's check, taught decks, a
    renderer), each refused with a clear error until the game has it."""

    name: str
    title: str
    grid_word: str
    file_suffix: str
    aliases: tuple[str, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    #: A photo no game's cards clearly explain is read by the first game that says so, its own doubt and
    #: retake speaking for it (Sprawlopolis: a city read poorly is still shown, never silently dropped).
    reads_when_unsure: bool = False

    def owns(self, key: str) -> bool:
        """Whether ``key`` is one of this game's choices."""
        return any(o.key == key for o in self.options)

    @abstractmethod
    def choices(self, given: Mapping[str, Any], *, command_line: bool = False) -> Any:
        """The player's choices in ``given`` (option key → text, words or JSON values) read and checked
        cheaply, before any photo is read (``command_line``: typed as flags); raises
        :class:`~scoring.errors.InputError` naming the bad one."""

    @abstractmethod
    def score_text(self, text: str | bytes, choices: Any, *, name: str = "") -> Breakdown:
        """The breakdown of a grid typed in this game's text format (``name``: where it came from)."""

    @abstractmethod
    def score_rows(self, rows: Sequence[Sequence[str]], choices: Any) -> Breakdown:
        """The breakdown of a grid sent as rows of cell tokens."""

    @abstractmethod
    def check_tally(self, breakdown: Breakdown, lines: Sequence[Any]) -> Any:
        """The verdict of each hand-tally line against ``breakdown`` (``to_json()`` gives its JSON)."""

    @abstractmethod
    def render_check(self, verdict: Any) -> str:
        """The text the command line prints for :meth:`check_tally`'s verdict."""

    @abstractmethod
    def render_breakdown(self, breakdown: Breakdown) -> str:
        """The breakdown as the command line's table."""

    @abstractmethod
    def evidence(self, photo: Photo, choices: Any, deck: Any) -> Evidence:
        """How well this game's cards explain ``photo`` (read with the taught ``deck``, if any). May raise an
        :class:`~scoring.errors.InputError` that ends the telling (a photo no game's cards can be in)."""

    @abstractmethod
    def read(self, photo: Photo, evidence: Evidence | None, choices: Any, deck: Any) -> ScoredPhoto:
        """``photo`` read, doubted and scored with ``choices`` and the taught ``deck``; ``evidence`` is this
        game's own evidence when the game was told from the photo (what it read is used, not read again),
        ``None`` when the player named the game."""

    def page_choices(self) -> dict[str, Any]:
        """What the page offers a player of this game to choose (merged into ``/api/v1/meta``)."""
        return {}

    #: The folder of the game's own part of the phone page: its ``page.js`` (an ES module whose default
    #: export draws the game's cells, choices and words; see ``api/web/static/gamepage.js``) and the
    #: modules it imports. ``None``: the page offers the game with its plain defaults (cells as typed, each
    #: option of :attr:`options` as a text field).
    page_dir: Path | None = None

    def card_listing(self, as_json: bool) -> str:
        """The game's cards as ``sprawlscan cards`` prints them (text, or JSON)."""
        raise GameOptionError(f"{self.title} lists no cards here")

    #: The heading of the game's section of the saved games' statistics.
    stats_heading: str = ""

    def card_name(self, card: Any) -> str:
        """The printed name of ``card`` as :meth:`played_with` counts it (empty when it has none)."""
        return ""

    def frame_cards(self) -> FrameCards:
        """How the live camera's frame check finds this game's cards (:mod:`vision.frames`)."""
        raise GameOptionError(f"the live camera check does not know {self.title} cards")

    def render_photo(self, seed: int, overrides: dict[str, Any]) -> Any:
        """A simulated photo of a random finished game (``sprawlscan synth``), with its truth; ``overrides``
        fix the renderer's conditions."""
        raise GameOptionError(f"no renderer draws {self.title} photos")

    def render_deck_photo(self, seed: int) -> tuple[np.ndarray, dict[str, Any]]:
        """A simulated photo of the game's 18 cards laid out to teach from, with its truth."""
        raise GameOptionError(f"no renderer draws {self.title} decks")

    # Teaching the look of a print from a photo of the game's 18 cards (see :mod:`games.decks`).

    def deck_extras(self, extras: Sequence[tuple[str, object]]) -> list[Any]:
        """The other cards the player names lying in a deck photo (``(where, what)`` pairs, typed or JSON),
        read and checked cheaply before any photo is; a game whose decks hold none refuses any."""
        if extras:
            raise GameOptionError(f"{extras[0][0]}: a {self.title} deck holds no other cards")
        return []

    def deck_fit(self, photos: Sequence[bytes], names: Sequence[str]) -> DeckFit | None:
        """How many of the cards found in deck ``photos`` fit one of this game's cards by their structure
        alone, to tell the deck's game (``None``: this game does not tell its cards so)."""
        return None

    def teach(
        self,
        photos: Sequence[bytes],
        names: Sequence[str],
        extras: Sequence[Any],
        fit: DeckFit | None,
        start: float,
    ) -> Any:
        """The teaching of this game's deck from ``photos`` (``fit``: :meth:`deck_fit`'s, when it was
        measured; ``start`` when the teaching began); refuses a deck that is not one of the game's."""
        raise GameOptionError(f"{self.title} decks cannot be taught")

    def load_deck(self, data: bytes, name: str) -> Any:
        """The taught deck in a ``.deck`` file of this game."""
        raise GameOptionError(f"{name}: {self.title} decks cannot be taught")

    def deck_fix(self, text: str) -> Any:
        """One correction of a taught deck as the command line types it (``2,3=9r``)."""
        raise GameOptionError(f"{self.title} decks cannot be taught")

    def deck_fix_from_json(self, item: object, where: str) -> Any:
        """One correction of a taught deck as a JSON request sends it."""
        raise GameOptionError(f"{self.title} decks cannot be taught")

    def relabel_deck(self, deck: Any, fixes: Sequence[Any], name: str) -> Any:
        """``deck`` with the corrections ``fixes`` applied, rebuilt."""
        raise GameOptionError(f"{self.title} decks cannot be taught")

    def played_with(self, breakdown: Mapping[str, Any]) -> tuple[list[Any], bool | None]:
        """What a saved game's statistics count from its JSON ``breakdown``: the cards it was played with
        and whether it was won (``None``: the game has no winning)."""
        return list(breakdown.get("cards") or []), breakdown.get("won")

    def deck_of(self, decks: Sequence[Any]) -> Any:
        """This game's taught deck among ``decks`` (each records its game in ``game``), else ``None``."""
        return next((d for d in decks if getattr(d, "game", None) == self.name), None)
