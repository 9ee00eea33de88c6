"""Circle the Wagons as a :class:`~games.interface.Game`: a town of 18 territory cards, scored by
:mod:`scoring.wagons` with the goal cards, scenario and opponent the player gives, read from a photo by
the territory reader (:mod:`vision.towns`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from games.decks import DECK_SHARE
from games.flags import breakdown_in_flag_words
from games.interface import DeckFit, Evidence, Game, GameOptionError, OptionSpec, Photo
from games.wagons import catalogue
from games.wagons.choices import TownChoices
from games.wagons.scan import ScoredTown, read_town, score_town_scan
from games.wagons.text import render_town, render_town_check
from scoring.breakdown import Breakdown
from scoring.wagons import GOALS, SCENARIOS, Town, parse_town, score_town
from scoring.wagons.check import TownCheck, check_town_tally
from scoring.wagons.town import town_from_rows
from vision.deck import DeckError, Teaching
from vision.frames import FrameCards
from vision.towns import (
    CELL_MM,
    RING,
    WIDE_RING,
    TownDeck,
    TownFix,
    find_town_cards,
    load_town_deck,
    parse_town_fix,
    read_deck_photo,
    relabel_town_deck,
    shipped_reader,
    taught_reader,
    teaching_of,
    town_fix_from_json,
    town_game_evidence,
    wagons_share,
)

__all__ = ["Wagons"]


class Wagons(Game):
    """See the module note."""

    name = "wagons"
    title = "Circle the Wagons"
    grid_word = "town"
    file_suffix = ".town"
    aliases = ("circle-the-wagons",)
    options = (
        OptionSpec("goals", "--goals", "the goal cards in play, e.g. cool-water badlands (any case; default: "
                   "read from the photo, or the town file's 'goals:' header, else the scenario's two cards). "
                   f"Goal ids: {', '.join(GOALS)}", "NAME", "+"),
        OptionSpec("scenario", "--scenario", f"Lone Cowboy scenario ({', '.join(SCENARIOS)})", "NAME",
                   commands=("score", "check")),
        OptionSpec("opponent-pile", "--opponent-pile", "the opponent's pile: card numbers 0-17, or counts "
                   "such as prairie=5 snow=5 wagon=3 cards=6", "N", "+", commands=("score", "check")),
        OptionSpec("opponent-town", "--opponent-town", "the other player's town, for the two-town goal cards "
                   "of a two-player game", "FILE", commands=("score", "check"), kind="file"),
        OptionSpec("options", "--option", "a rule option, e.g. opponent-undiscovered=2", "KEY=VALUE",
                   kind="pairs", commands=("score", "check")),
    )  # fmt: skip

    def __init__(self, reader: Callable[[], Any] = shipped_reader) -> None:
        """``reader`` gives the territory reader (the shipped one: a test gives a stand-in); it raises
        :class:`RuntimeError` when there is none in this build."""
        self.reader = reader

    def choices(self, given: Mapping[str, Any], *, command_line: bool = False) -> TownChoices:
        return TownChoices.from_given(given)

    def _scored(self, town: Town, choices: TownChoices) -> Breakdown:
        breakdown = score_town(
            town,
            goals=choices.goals,
            opponent_town=choices.town,
            opponent_pile=choices.pile,
            scenario=choices.scenario,
            options=choices.options,
        )
        return breakdown_in_flag_words(breakdown)

    def score_text(self, text: str | bytes, choices: TownChoices, *, name: str = "") -> Breakdown:
        return self._scored(parse_town(text), choices)

    def score_rows(self, rows: Sequence[Sequence[str]], choices: TownChoices) -> Breakdown:
        return self._scored(town_from_rows([list(r) for r in rows]), choices)

    def check_tally(self, breakdown: Breakdown, lines: Sequence[Any]) -> TownCheck:
        """Lines that begin with "opponent" are checked against the opponent's score."""
        return check_town_tally(breakdown, lines)

    def render_check(self, verdict: TownCheck) -> str:
        return render_town_check(verdict)

    page_dir = Path(__file__).resolve().parent / "page"
    stats_heading = "Circle the Wagons (goal cards)"

    def card_name(self, card: Any) -> str:
        return GOALS.get(card, "") if isinstance(card, str) else ""

    def page_choices(self) -> dict[str, Any]:
        return catalogue.page_choices()

    def card_listing(self, as_json: bool) -> str:
        return catalogue.card_listing(as_json)

    def render_breakdown(self, breakdown: Breakdown) -> str:
        return render_town(breakdown)

    def played_with(self, breakdown: Mapping[str, Any]) -> tuple[list[Any], bool | None]:
        """The goal cards (a town's own cards are not a choice) and whether the opponent was beaten."""
        result = breakdown.get("result")
        return list(breakdown.get("goals") or []), None if result is None else result == "win"

    def render_photo(self, seed: int, overrides: dict[str, Any]) -> Any:
        from models.synth.wagons.photo import render_town_photo  # loads only for `sprawlscan synth`

        return render_town_photo(seed, **overrides)

    def render_deck_photo(self, seed: int) -> tuple[Any, dict[str, Any]]:
        from models.synth.wagons.deck import render_wagons_deck  # loads only for `sprawlscan synth`

        return render_wagons_deck(seed)

    def frame_cards(self) -> FrameCards:
        return FrameCards(self.name, find_town_cards, CELL_MM)

    def deck_fit(self, photos: Sequence[bytes], names: Sequence[str]) -> DeckFit | None:
        """The share of the cards found that one of the 18 town cards fits (by the shipped reader or by
        the deck's structure), none where the town cards' finding finds no card in a photo (another game's
        deck may still be found, by its own finding: a Sprawlopolis print on a cloth near its colours was
        refused as having no cards); ``None`` when there is no territory reader in this build."""
        try:
            return self._fit(photos, names)
        except DeckError:
            return DeckFit(0.0)

    def _fit(self, photos: Sequence[bytes], names: Sequence[str]) -> DeckFit | None:
        """:meth:`deck_fit`, raising :class:`~vision.deck.DeckError` where a photo shows no card."""
        try:
            reader = self.reader()
        except RuntimeError:
            return None
        found = [read_deck_photo(p, n, reader) for p, n in zip(photos, names, strict=True)]
        cards = sum(len(f.places) for f in found)
        share = sum(wagons_share(f) * len(f.places) for f in found) / max(1, cards)
        return DeckFit(share, found)

    def teach(
        self,
        photos: Sequence[bytes],
        names: Sequence[str],
        extras: Sequence[Any],
        fit: DeckFit | None,
        start: float,
    ) -> Teaching:
        self.deck_extras(extras)
        fit = fit or self._fit(photos, names)  # the game named: a photo with no card says so
        if fit is None:
            raise GameOptionError("a Circle the Wagons deck cannot be taught here: no territory reader")
        if fit.share < DECK_SHARE:
            cards = sum(len(f.places) for f in fit.found)
            label, fitting = ", ".join(dict.fromkeys(names)), round(fit.share * cards)
            raise DeckError(
                f"{label}: the cards found do not look like Circle the Wagons cards ({fitting} of {cards} "
                "fit one; for a deck of another game leave out the game)"
            )
        return teaching_of(fit.found, list(names), start)

    def load_deck(self, data: bytes, name: str) -> TownDeck:
        return load_town_deck(data, name)

    def deck_fix(self, text: str) -> TownFix:
        return parse_town_fix(text)

    def deck_fix_from_json(self, item: object, where: str) -> TownFix:
        return town_fix_from_json(item, where)

    def relabel_deck(self, deck: TownDeck, fixes: Sequence[Any], name: str) -> TownDeck:
        return relabel_town_deck(deck, fixes, name=name)

    def evidence(self, photo: Photo, choices: TownChoices, deck: Any) -> Evidence:
        """The town cards' share of the card region, read as the town scan would read it (a taught deck's
        reader on the wider lattice): the reading is kept for :meth:`read`."""
        try:
            reader = self._territories(deck)
        except RuntimeError as exc:  # no territory classifier in this build: no photo is a town
            return Evidence(self.name, 0.0, 0, str(exc))
        ring = WIDE_RING if deck is not None else RING
        found = photo.stages.run("game", town_game_evidence, photo.rgb, reader, ring)
        return Evidence(self.name, found.explained, found.cells, found.why, reading=(found, reader))

    def read(self, photo: Photo, evidence: Evidence | None, choices: TownChoices, deck: Any) -> ScoredTown:
        """The town read on the lattice and with the reader game telling used (neither made again)."""
        told, reader = evidence.reading if evidence is not None else (None, self._territories(deck))
        town = read_town(photo, tuple(choices.goals or ()), reader, deck is not None, told)
        return score_town_scan(town, taught=deck is not None)

    def _territories(self, deck: Any) -> Any:
        """The territory reader: this game's (the shipped one), with the taught ``deck`` when there is one."""
        return taught_reader(deck, self.reader()) if deck is not None else self.reader()
