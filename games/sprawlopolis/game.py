"""Sprawlopolis as a :class:`~games.interface.Game`: a city of 18 block cards, scored by
:mod:`scoring` with the scoring cards, expansions and variant the player gives, read from a photo by the
city scan (:func:`vision.pipeline.scan_rgb`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.flags import breakdown_in_flag_words
from games.interface import DeckFit, Evidence, Game, OptionSpec, Photo
from games.sprawlopolis import catalogue
from games.sprawlopolis.evidence import cards_evidence
from games.sprawlopolis.options import ScoreOptions
from games.sprawlopolis.scored import ScoredScan, score_scan
from scoring.breakdown import Breakdown
from scoring.cards import CARD_NAMES
from scoring.city import City, city_from_rows
from scoring.city_text import parse_city
from scoring.engine import score_city
from scoring.errors import InputError
from scoring.report import render_check, render_text
from scoring.tally import TallyReport, check_tally
from vision.deck import (
    EXTRA_KINDS,
    TaughtDeck,
    Teaching,
    correction_from_json,
    load_deck,
    parse_correction,
    relabel,
    teach_deck,
)
from vision.frames import FrameCards, find_city_cards
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM, TooManyCards
from vision.pipeline import ScanResult, scan_rgb

__all__ = ["EXPANSION_NAMES", "Sprawlopolis"]

EXPANSION_NAMES = "poi, construction, wrecktar, beaches, beach:peninsula, interstate, roadwork"
VARIANTS = ("standard", "easier", "harder")


def _extra(where: str, item: object) -> Any:
    """An expansion card in a deck photo, typed or as JSON; refused unless it names an expansion card."""
    extra = parse_correction(item) if isinstance(item, str) else correction_from_json(item, where)
    if extra.extra is None:
        raise InputError(f"{where}: name an expansion card ({', '.join(EXTRA_KINDS)}), not a card number")
    return extra


class Sprawlopolis(Game):
    """See the module note."""

    name = "sprawlopolis"
    title = "Sprawlopolis"
    grid_word = "city"
    file_suffix = ".city"
    reads_when_unsure = True
    options = (
        OptionSpec("cards", "--cards", "the scoring cards in play, e.g. 8 7 17", "N", "+", kind="numbers",
                   what="card number"),
        OptionSpec("expansions", "--expansion", f"expansion(s) in play ({EXPANSION_NAMES})", "NAME", "+"),
        OptionSpec("variant", "--variant", "rulebook variant (default: the file's, else standard)",
                   choices=VARIANTS, commands=("score", "check")),
        OptionSpec("options", "--option", "an expansion's option, e.g. construction-penalty=2, "
                   "beach-cards=peninsula, interstate-mode=competitive", "KEY=VALUE", kind="pairs",
                   commands=("score", "check")),
    )  # fmt: skip

    def choices(self, given: Mapping[str, Any], *, command_line: bool = False) -> ScoreOptions:
        opts = ScoreOptions.from_given(given, command_line=command_line)
        opts.check()
        return opts

    def _scored(self, city: City, opts: ScoreOptions) -> Breakdown:
        opts.check(city)
        cards = opts.cards
        expansions = opts.expansions_for(city)
        breakdown = score_city(city, cards, expansions, variant=opts.variant, options=opts.options)
        return breakdown_in_flag_words(breakdown)

    def score_text(self, text: str | bytes, choices: ScoreOptions, *, name: str = "") -> Breakdown:
        return self._scored(parse_city(text), choices)

    def score_rows(self, rows: Sequence[Sequence[str]], choices: ScoreOptions) -> Breakdown:
        return self._scored(city_from_rows([list(r) for r in rows]), choices)

    def check_tally(self, breakdown: Breakdown, lines: Sequence[Any]) -> TallyReport:
        return check_tally(breakdown, lines)

    def render_check(self, verdict: TallyReport) -> str:
        return render_check(verdict)

    page_dir = Path(__file__).resolve().parent / "page"
    stats_heading = "Sprawlopolis"

    def card_name(self, card: Any) -> str:
        return CARD_NAMES.get(card, "") if isinstance(card, int) else ""

    def page_choices(self) -> dict[str, Any]:
        return catalogue.page_choices()

    def card_listing(self, as_json: bool) -> str:
        return catalogue.card_listing(as_json)

    def render_breakdown(self, breakdown: Breakdown) -> str:
        return render_text(breakdown)

    def render_photo(self, seed: int, overrides: dict[str, Any]) -> Any:
        from models.synth.scene import render_photo  # the renderer loads only for `sprawlscan synth`

        return render_photo(seed, **{"scoring_cards": True, **overrides})  # a scan reads them, as of a game

    def render_deck_photo(self, seed: int) -> tuple[Any, dict[str, Any]]:
        from models.synth.deck import render_deck  # the renderer loads only for `sprawlscan synth`

        return render_deck(seed)

    def frame_cards(self) -> FrameCards:
        return FrameCards(self.name, find_city_cards, (BLOCK_W_MM, BLOCK_H_MM))

    def teach(
        self,
        photos: Sequence[bytes],
        names: Sequence[str],
        extras: Sequence[Any],
        fit: DeckFit | None,
        start: float,
    ) -> Teaching:
        return teach_deck(list(photos), names=names, extras=self.deck_extras(extras))

    def deck_extras(self, extras: Sequence[tuple[str, object]]) -> list[Any]:
        """The expansion cards lying beside the 18: (where, correction) pairs, each as typed
        (``2,3=wrecktar``) or as JSON (``{"photo", "row", "col", "extra"}``), ``where`` naming it in an
        error."""
        return [_extra(where, item) for where, item in extras]

    def load_deck(self, data: bytes, name: str) -> TaughtDeck:
        return load_deck(data, name)

    def deck_fix(self, text: str) -> Any:
        return parse_correction(text)

    def deck_fix_from_json(self, item: object, where: str) -> Any:
        return correction_from_json(item, where)

    def relabel_deck(self, deck: TaughtDeck, fixes: Sequence[Any], name: str) -> TaughtDeck:
        return relabel(deck, fixes, name=name)

    def _scan(self, photo: Photo, opts: ScoreOptions, deck: Any) -> ScanResult:
        stages = photo.stages
        return scan_rgb(
            photo.rgb, cards=opts.cards, overlay=photo.overlay, classifier=photo.classifier,
            timings=stages.timer.timings, deck=deck, stop=stages.stop,
        )  # fmt: skip

    def evidence(self, photo: Photo, choices: ScoreOptions, deck: Any) -> Evidence:
        """The city scan itself: the share of its card region that the decoded cards show. A photo refused
        as a patterned surface (:class:`~vision.lattice.TooManyCards`) ends the telling: any game's
        lattice would find the same pattern."""
        try:
            scan = self._scan(photo, choices, deck)
        except TooManyCards:
            raise
        except InputError as exc:  # no city: it may be another game's cards
            return Evidence(self.name, 0.0, 0, str(exc), refusal=exc)
        explained, cells = cards_evidence(scan.geometry, scan.cards_read.as_cards.decoding)
        return Evidence(self.name, explained, cells, reading=scan, readable=True)

    def read(self, photo: Photo, evidence: Evidence | None, choices: ScoreOptions, deck: Any) -> ScoredScan:
        scan = evidence.reading if evidence is not None else self._scan(photo, choices, deck)
        return score_scan(scan, choices, taught=deck is not None)
