"""The assemble stage and what a scan returns: the city, each cell with its card, the placements, the
scoring cards and the warnings, and the overlay when asked for."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scoring.city import City, cell_name
from vision.backs import CITY_SURE, ScoringCards
from vision.city.assemble import Assembled, assemble_city
from vision.city.cut import cut_by_frame
from vision.city.doubt import CARDS_DOUBT_MARGIN, CellDoubt, Evidence, find_doubts
from vision.city.doubt_matters import doubts_that_matter, unsure_city_cards
from vision.city.geometry import MIN_BLOCKS, Geometry
from vision.city.light import Light, read_light
from vision.city.overlay import cell_outlines, draw_overlay
from vision.city.read_cards import CityCards
from vision.city.retake import ask_retake, needs_deck, unread_city

__all__ = ["CityCell", "ScanResult", "assemble_scan", "with_overlay"]

OVERLAY_LONG_SIDE = 1400


@dataclass
class CityCell:
    """One cell of the city read: its label in the city format (``"."`` for no block), how sure, the card
    whose block shows there (when the card decoding placed one) and, when the overlay is drawn, the
    cell's corners as fractions of the photo (see :func:`vision.city.overlay.cell_outlines`)."""

    row: int
    col: int
    label: str
    confidence: float
    card: int | None = None
    outline: list[list[float]] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "row": self.row,
            "col": self.col,
            "name": cell_name(self.row, self.col),
            "label": self.label,
            "confidence": round(self.confidence, 4),
            "card": self.card,
        }
        if self.outline is not None:
            out["outline"] = self.outline
        return out


@dataclass
class ScanResult:
    city: City
    cells: list[CityCell]
    warnings: list[str]
    timings: dict[str, float]
    overlay: np.ndarray | None  # RGB, drawn on a downscaled copy of the photo
    # The cards the decoding placed, in the city's grid: {"card", "rotated", "row", "col"} (top-left block).
    placements: list[dict[str, Any]] = field(default_factory=list)
    # The three cards missing from a city decoded as 15 known cards: a reading of the scoring cards.
    cards_from_city: tuple[int, ...] | None = None
    # The scoring cards chosen from the backs, the city and the player (see vision.backs.choose).
    scoring_cards: ScoringCards | None = None
    # What the overlay and the cell outlines are drawn from (not part of the JSON).
    geometry: Geometry | None = field(default=None, repr=False)
    assembled: Assembled | None = field(default=None, repr=False)
    # The cells that could be otherwise (vision.city.doubt); the JSON's "doubt" adds each alternative's total.
    doubts: tuple[CellDoubt, ...] = ()
    cards_read: CityCards | None = field(default=None, repr=False)
    # Why another photo is needed and what to change, when this one cannot be read reliably
    # (vision.city.retake); such a result is a reading to correct by hand, not a score.
    retake: str | None = None
    # The retake is for cards of a print the scanner does not know: teach the deck (vision.city.retake).
    needs_deck: bool = False

    def to_json(self) -> dict[str, Any]:
        """What was read, for the JSON outputs beside the breakdown (the CLI's and the service's)."""
        return {
            "cells": [cell.to_json() for cell in self.cells],
            "placements": list(self.placements),
            "scoring_cards_from_city": list(self.cards_from_city) if self.cards_from_city else None,
            "cards_source": self.scoring_cards.source if self.scoring_cards else None,
            "scoring_cards": self.scoring_cards.to_json() if self.scoring_cards else None,
            "warnings": [str(w) for w in self.warnings],
            "doubt": [d.to_json() for d in self.doubts],
            "retake": self.retake,
            "needs_deck": self.needs_deck,
        }


def assemble_scan(
    geometry: Geometry,
    cards: CityCards,
    extra_warnings: list[str],
    timings: dict[str, float],
    doubt_margin: float = CARDS_DOUBT_MARGIN,
    taught: bool = False,
) -> ScanResult:
    """Build the city from the settled readings (road consistency, warnings) and the scan's result;
    ``doubt_margin``: the cards' margin under which a cell is in doubt, for the reader that read it;
    ``taught``: read by a taught deck's look (the retake's advice: :func:`ask_retake`).
    Raises :class:`~vision.lattice.locate.NoCityFound` when fewer than MIN_BLOCKS blocks were read."""
    as_cards, scoring = cards.as_cards, cards.scoring
    assembled = assemble_city(as_cards.readings, cards=list(scoring.cards) if scoring.cards else None)
    blocks = sum(1 for _ in assembled.city.blocks())
    if blocks < MIN_BLOCKS:
        raise unread_city(geometry, blocks, MIN_BLOCKS, taught)
    r0, c0 = assembled.origin
    cells = [
        CityCell(
            r, c, assembled.labels[r][c], float(assembled.confidence[r, c]), as_cards.cards[r + r0][c + c0]
        )
        for r in range(assembled.city.n_rows)
        for c in range(assembled.city.n_cols)
    ]
    placements = [
        {"card": p.card, "rotated": p.rotated, "row": p.row - r0, "col": p.col - c0}
        for p in (as_cards.decoding.placements if as_cards.used else ())
    ]
    against = (*cards.against_warnings(assembled.origin), *cards.moved_warnings(assembled.origin))
    warnings = [*geometry.warnings, *extra_warnings, *cards.warnings, *against, *assembled.warnings]
    light = read_light(geometry, assembled)
    found = _doubts(assembled, cards, light, doubt_margin)
    assembled, cards, doubts = settle_doubts(assembled, cards, found)
    if cards.scoring is not scoring:  # the city's cards taken back: its warning replaces theirs
        warnings = [w for w in warnings if w not in scoring.warnings] + list(cards.scoring.warnings)
        scoring = cards.scoring
    # The city's three missing cards, where it is sure of them or the scoring cards agree with them.
    agreed = scoring.cards is not None and cards.from_city == scoring.cards
    sure_city = cards.from_city if (cards.certainty >= CITY_SURE and scoring.cards) or agreed else None
    cut = cut_by_frame(geometry, assembled, cards.settled_cells())
    retake = ask_retake(light, assembled, as_cards, found, cut, taught)
    return ScanResult(
        city=assembled.city,
        cells=cells,
        warnings=warnings,
        timings=timings,
        overlay=None,
        placements=placements,
        cards_from_city=sure_city,
        scoring_cards=scoring,
        geometry=geometry,
        assembled=assembled,
        doubts=doubts,
        cards_read=cards,
        retake=retake,
        needs_deck=needs_deck(retake, as_cards),
    )


def _doubts(assembled: Assembled, cards: CityCards, light: Light, margin: float) -> tuple[CellDoubt, ...]:
    """Every cell of ``assembled`` that could reasonably be otherwise (:func:`find_doubts`), with the
    light's evidence (glare, the table's pattern) and the cards' (the first look, scoring cards held)."""
    evidence = Evidence(
        glare=light.glare_cells,
        photographed=cards.photographed,
        table_pattern=light.table_pattern,
        cards_margin=margin,
        held=cards.held_cells(),
        settled=cards.settled_cells(),
    )
    return find_doubts(assembled, cards.as_cards, evidence)


def settle_doubts(
    assembled: Assembled, cards: CityCards, found: tuple[CellDoubt, ...]
) -> tuple[Assembled, CityCards, tuple[CellDoubt, ...]]:
    """The doubts a player is told of (:func:`vision.city.doubt_matters.doubts_that_matter` of those
    ``found``), and the city and its cards without the scoring cards the city alone chose where a doubt
    that matters is left in it (:func:`vision.city.doubt_matters.unsure_city_cards`)."""
    # A road drawn otherwise that no card scores moves no card: only what some card scores takes them back.
    unsure = unsure_city_cards(cards.scoring, doubts_that_matter(assembled.city, found, None, seen=False))
    if unsure is not None:
        cards = replace(cards, scoring=unsure, warnings=unsure.warnings)
        assembled = replace(assembled, city=replace(assembled.city, cards=()))
    scoring = cards.scoring.cards
    return assembled, cards, doubts_that_matter(assembled.city, found, scoring)


def with_overlay(result: ScanResult, base: tuple[np.ndarray, float] | None = None) -> ScanResult:
    """``result`` with the overlay drawn (the lattice, labels, groups, roads and the scoring cards' boxes)
    and each cell's outline in the photo; ``base``: :func:`vision.city.overlay.overlay_base` of the photo at
    :data:`OVERLAY_LONG_SIDE`, when made already."""
    assert result.geometry is not None and result.assembled is not None
    scoring = result.scoring_cards
    boxes = (
        [(b.number, np.array(b.where["corners"])) for b in scoring.backs if "corners" in b.where]
        if scoring
        else []
    )
    result.overlay = draw_overlay(
        result.geometry,
        result.assembled,
        long_side=OVERLAY_LONG_SIDE,
        scoring_cards=boxes,
        base=base,
        doubtful=[(d.row, d.col) for d in result.doubts],
    )
    outlines = cell_outlines(result.geometry, result.assembled)
    for cell in result.cells:
        cell.outline = outlines[(cell.row, cell.col)]
    return result
