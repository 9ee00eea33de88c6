"""Pydantic models at the web service's edge: what a request may carry and what a response holds.

The JSON breakdown itself is produced by the scoring engine (``Breakdown.to_json()``); the response models
here describe it for the OpenAPI document and allow the extra fields that an expansion or the other game adds.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from games import GameOptionError, game_named, game_names
from scoring.tally import MAX_TALLY_CHARS

# Bounds keep a single request cheap: a real city is at most a few dozen cells across.
MAX_CITY_CHARS = 20_000
MAX_ROWS = 64


class CityRequest(BaseModel):
    """A city (as text or as rows of cell tokens) and how to score it."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(
        game_names()[0],
        max_length=40,
        description=f"Which game the grid belongs to: {', '.join(game_names())}.",
    )
    city: str | None = Field(
        None,
        max_length=MAX_CITY_CHARS,
        description="The city in the text format (docs/city-format.md in the sprawlscan repository), header "
        "lines allowed.",
        examples=["cards: 8 7 17\nR:EW  I:EW  C:EW\nP     C:SE  I:SW\n"],
    )
    rows: list[list[str]] | None = Field(
        None,
        max_length=MAX_ROWS,
        description="The grid as rows of cell tokens, e.g. [['R:EW', 'P'], ['.', 'C:NS']].",
    )
    # Strict: JSON true, "8" and 8.0 are not card numbers (lax ints would score true as card 1).
    cards: list[StrictInt] | None = Field(
        None,
        max_length=8,
        description="Scoring card numbers (1–18, JSON integers); override the city's 'cards:' header.",
    )
    expansions: list[str] | None = Field(
        None, max_length=16, description="Expansions in play; override the city's 'expansions:' header."
    )
    variant: str | None = Field(None, max_length=32, description="Rule variant, e.g. 'easier' or 'harder'.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Further scoring inputs the engine asks for (e.g. a construction-zone penalty; for "
        "Circle the Wagons the goal cards, scenario and opponent pile).",
    )

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        try:
            return game_named(value).name
        except GameOptionError as exc:
            raise ValueError(str(exc)) from None

    def has_city(self) -> bool:
        return self.city is not None or self.rows is not None


class ScoreRequest(CityRequest):
    """``POST /api/v1/score``: exactly one of ``city`` and ``rows``."""

    @model_validator(mode="after")
    def _one_city(self) -> ScoreRequest:
        if (self.city is None) == (self.rows is None):
            raise ValueError("send the city either as text in 'city' or as 'rows', not both and not neither")
        return self


class CheckRequest(CityRequest):
    """``POST /api/v1/check``: a city (or the id of an earlier scan) and the player's hand tally."""

    scan_id: str | None = Field(None, max_length=64, description="Check the city read by this scan.")
    tally: str | list[Any] | dict[str, Any] = Field(
        ...,
        description="The hand tally: text with one line per item (e.g. 'parks 7', 'roads -5', 'card 8: 4'), "
        "or the same as JSON.",
        examples=["parks 7\nresidential 6\nroads -5\ncard 8: 4\ntotal 12"],
    )

    @model_validator(mode="after")
    def _one_source(self) -> CheckRequest:
        given = [name for name in ("city", "rows", "scan_id") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("send exactly one of 'city', 'rows' or 'scan_id' to say which city to check")
        # A JSON tally has the text form's limit, counted on the JSON text that the engine reads.
        text = self.tally if isinstance(self.tally, str) else json.dumps(self.tally)
        if len(text) > MAX_TALLY_CHARS:
            as_json = "" if isinstance(self.tally, str) else f" ({len(text):,} as JSON)"
            raise ValueError(f"the tally is longer than {MAX_TALLY_CHARS} characters{as_json}")
        return self


class LineItemOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    key: str = Field(description="Stable machine-readable key: 'largest:P', 'roads', 'card:8', 'wrecktar', …")
    label: str
    points: int
    detail: str = ""
    cells: list[str] = Field(default_factory=list, description="Cells counted, named like 'B3'.")
    provenance: str | None = None


class BreakdownOut(BaseModel):
    """The JSON breakdown: its items, total and target (docs/deployment.md describes the endpoints)."""

    model_config = ConfigDict(extra="allow")

    game: str
    city: str = Field(description="The scored city in the canonical text format (docs/city-format.md).")
    cards: list[int | str]
    items: list[LineItemOut]
    total: int
    target: int | None = None
    won: bool | None = None
    notes: list[str] = Field(default_factory=list)


class CellOut(BaseModel):
    row: int
    col: int
    name: str = Field(description="The cell's name as a player reads it, e.g. 'B3'.")
    label: str = Field(description="The cell token in the city format, e.g. 'R:EW', 'P', '.'.")
    confidence: float
    card: int | None = Field(
        None, description="The card (1–18) whose block shows here, when the city was read as known cards."
    )


class PlacementOut(BaseModel):
    card: int = Field(description="The card's number, 1–18.")
    rotated: bool = Field(description="Whether the card lies turned by 180°.")
    row: int = Field(description="Grid row of the card's top-left block (0-based; may be -1 at an edge).")
    col: int = Field(description="Grid column of the card's top-left block.")


class BackOut(BaseModel):
    number: int | None = Field(description="The number read on the back (None: seen, not read surely).")
    confidence: float
    corners: list[list[float]] = Field(description="The card's corners TL, TR, BR, BL in photo pixels.")
    circle: list[float] = Field(description="The number circle: centre x, y and radius in photo pixels.")


class ScoringCardsOut(BaseModel):
    """The scoring cards: every back read, the city's reading, and what was chosen."""

    cards: list[int] | None = Field(description="The three scoring cards chosen (None: not known).")
    source: Literal["backs", "city", "both", "given"] | None
    backs: list[BackOut]
    from_city: list[int] | None = Field(description="The three cards missing from the city, as decoded.")
    in_doubt: list[int] = Field(description="Cards the readings disagree on (a warning names them).")


class ScanOut(BreakdownOut):
    """A scan: the breakdown of the city read from the photo, plus what was read and how sure."""

    scan_id: str
    overlay: str | None = Field(description="URL of the overlay image (None when none was drawn).")
    cells: list[CellOut]
    placements: list[PlacementOut] = Field(
        default_factory=list,
        description="The cards the scan placed to explain the city (cards covered whole are not listed).",
    )
    scoring_cards_from_city: list[int] | None = Field(
        None, description="The three cards missing from a city read as 15 known cards, when certain."
    )
    cards_source: Literal["backs", "city", "both", "given"] | None = Field(
        None, description="Where the scoring cards came from: their backs, the city, both agreeing, or you."
    )
    scoring_cards: ScoringCardsOut | None = None
    warnings: list[str]
    total: int | None = Field(description="The total; null when the scan asks for another photo (retake).")
    retake: str | None = Field(
        None,
        description="Why the photo cannot be read reliably and what to change; when set, nothing is scored "
        "(total, target and won are null, items is empty) and the reading is there to correct by hand.",
    )
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds per scanner stage.")
    taught_deck: bool = Field(False, description="Whether the device's taught deck (/api/v1/deck) was used.")


class CheckOut(BaseModel):
    """The engine's line-by-line tally comparison, plus the breakdown it was compared with."""

    model_config = ConfigDict(extra="allow")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    scanner: bool = Field(description="Whether photo scanning is available in this process.")


class ErrorDetail(BaseModel):
    code: str = Field(
        description="Stable machine-readable error code, e.g. 'not_an_image', 'malformed_city'."
    )
    message: str = Field(description="What was wrong, in plain words.")


class ErrorOut(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in (
        (400, "Bad input (malformed city, unknown card, damaged photo)"),
        (404, "Unknown or expired scan id"),
        (413, "Upload or image too large"),
        (415, "Not a JPEG, PNG, WebP or HEIC photo"),
        (422, "Request body invalid, or no city found in the photo"),
    )
}
