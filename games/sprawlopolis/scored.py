"""A scanned city scored with what the player gave: the one path ``sprawlscan scan`` and the service's
``POST /api/v1/scan`` share, so the same photo and the same choices give the same JSON on both.

The rule for what the player gives: scoring cards given replace the ones the scan read; the expansions
scored are exactly the ones the player names (the scanner never puts an expansion in play on its own; where
it read an expansion's marks that the player did not name, a warning says so and names the cells).

When the scan asks for another photo (``ScanResult.retake``), the result keeps the reading (city, cells,
doubt) to correct by hand but scores nothing: ``total``, ``target`` and ``won`` are null, ``items`` is empty
and the doubt's alternatives carry no total, since any figure read off such a photo would be a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.doubt_text import doubt_text
from games.flags import breakdown_in_flag_words
from games.interface import ScoredReading
from games.sprawlopolis.options import ScoreOptions
from scoring.breakdown import Breakdown
from scoring.city import City, cell_names, parse_cell
from scoring.engine import score_city
from scoring.errors import InputError
from scoring.expansions import select
from scoring.expansions.wrecktar import NO_CELLS_NOTE
from scoring.report import render_text
from vision.city import ScanResult

__all__ = ["PHOTO_WRECKTAR_NOTE", "ScoredScan", "photo_notes", "score_scan"]

# The marks the scanner reads, and the expansion each one belongs to.
_MARKS = {
    "wrecktar": lambda cell: cell.kind == "wrecktar",
    "poi": lambda cell: cell.poi,
    "construction": lambda cell: cell.construction,
}


PHOTO_WRECKTAR_NOTE = (
    "Wrecktar: the scanner did not find Wrecktar in the photo, so it scores 0; if it lies in the city, "
    "write the scan out with 'sprawlscan scan PHOTO --format city > game.city', mark the four cells it "
    "covers with 'W' and score that file."
)


def photo_notes(breakdown: Breakdown) -> Breakdown:
    """``breakdown`` of a city read from a photo: advice that speaks of typed cells becomes advice for a
    photo (the player cannot type into a photo)."""
    notes = tuple(PHOTO_WRECKTAR_NOTE if n == NO_CELLS_NOTE else n for n in breakdown.notes)
    return replace(breakdown, notes=notes)


@dataclass(frozen=True)
class ScoredScan(ScoredReading):
    """A city read from a photo (``scan``) and scored (see :class:`~games.interface.ScoredReading`)."""

    scan: ScanResult
    game = "sprawlopolis"

    @property
    def text(self) -> str:
        """The city scored, in the city format (its cards and expansions too)."""
        return self.breakdown.city

    def render_text(self) -> str:
        if self.retake is not None:  # the reading, to check by hand; no total from this photo
            return "The city read (not scored):\n" + self.text + doubt_text(self.doubt)
        table = render_text(self.breakdown)
        table = table if table.endswith("\n") else table + "\n"
        return table + doubt_text(self.doubt, self.breakdown.total)

    def to_json(self) -> dict[str, Any]:
        out = self.breakdown.to_json()
        out.update(self.scan.to_json())
        out["warnings"] = list(self.warnings)
        out["doubt"] = list(self.doubt)
        if self.retake is not None:  # the reading stays, to correct by hand; no score from it
            out.update(items=[], total=None, target=None, won=None)
        return out


def _city(scan: ScanResult, opts: ScoreOptions) -> tuple[City, list[str]]:
    city = scan.city
    if opts.cards is not None:
        city = replace(city, cards=opts.cards)
    named = tuple(opts.expansions or ())
    city = replace(city, expansions=named)
    warnings = []
    in_play = select(named)
    for expansion, marked in _MARKS.items():
        cells = [(r, c) for r, c, cell in city.cells() if marked(cell)]
        if cells and expansion not in in_play:
            warnings.append(
                f"the photo shows {expansion} marks at {cell_names(cells)}, but {expansion} was not named, "
                "so they are not scored: name it to score them"
            )
    return city, warnings


def _score(city: City, opts: ScoreOptions) -> Breakdown:
    return score_city(city, variant=opts.variant, options=dict(opts.options))


def _doubt(scan: ScanResult, city: City, opts: ScoreOptions, read: Breakdown) -> tuple[dict[str, Any], ...]:
    """Each doubtful cell with the total the city would score under each of its alternatives, and the
    lines of the breakdown that would change (``changes``: what a player sees move even where the total
    stays: the scan names a cell only where some line does, :mod:`vision.city.doubt_matters`)."""
    out = []
    for doubt in scan.doubts:
        entry = doubt.to_json()
        alternatives = []
        for alt in entry["alternatives"]:
            try:
                changed = city.with_cell(doubt.row, doubt.col, parse_cell(alt["label"]))
                scored = None if scan.retake is not None else _score(changed, opts)
            except InputError:  # an alternative these rules cannot score (a mark of an expansion not named)
                continue
            if scored is None:
                alternatives.append({**alt, "total": None})
            else:
                alternatives.append({**alt, "total": scored.total, "changes": _changes(read, scored)})
        out.append({**entry, "alternatives": alternatives})
    return tuple(out)


def _changes(read: Breakdown, other: Breakdown) -> list[dict[str, Any]]:
    """The lines of ``other`` that score otherwise than in ``read``: {"line", "from", "to"} (None where a
    line is in one breakdown only)."""
    before = {i.key: i for i in read.items}
    after = {i.key: i for i in other.items}
    keys = [*before, *(k for k in after if k not in before)]
    return [
        {
            "line": (before.get(k) or after[k]).label,
            "from": before[k].points if k in before else None,
            "to": after[k].points if k in after else None,
        }
        for k in keys
        if (before[k].points if k in before else None) != (after[k].points if k in after else None)
    ]


def score_scan(scan: ScanResult, opts: ScoreOptions, *, taught: bool = False) -> ScoredScan:
    """Score ``scan``'s city with the player's ``opts``, with each doubtful cell's alternative totals;
    ``taught`` says a taught deck read it."""
    city, warnings = _city(scan, opts)
    read = _score(city, opts)
    breakdown = photo_notes(breakdown_in_flag_words(read))
    doubt = _doubt(scan, city, opts, read)
    return ScoredScan(scan, breakdown, (*map(str, scan.warnings), *warnings), doubt, taught)
