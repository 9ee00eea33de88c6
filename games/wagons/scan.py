"""A Circle the Wagons town read from a photo and scored: the goal cards the player names, or when they
name none the goal cards read from the photo (:mod:`vision.towns.goals`: a card read unsurely is asked for
in the warnings, never guessed); without goal cards the town is scored without them and the breakdown
says so."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from games.doubt_text import doubt_text
from games.flags import breakdown_in_flag_words
from games.interface import Photo, ScoredReading
from games.wagons.text import goals_line, render_town
from vision.city import OVERLAY_LONG_SIDE
from vision.towns import (
    TownEvidence,
    TownScan,
    draw_town_overlay,
    read_goal_cards,
    scan_town,
)

__all__ = ["NO_GOALS_NOTE", "ScoredTown", "read_town", "score_town_scan"]

NO_GOALS_NOTE = (
    "No goal cards were given: the town is scored without them (name the goal cards to score them)."
)


@dataclass(frozen=True)
class ScoredTown(ScoredReading):
    """A town read from a photo (``scan``) and scored with its goal cards (see
    :class:`~games.interface.ScoredReading`): the breakdown notes when there were none, and each doubt
    carries the cell's ``row`` and ``col`` in the town, as the page takes them."""

    scan: TownScan
    game = "wagons"

    @property
    def text(self) -> str:
        return self.scan.text

    def to_json(self) -> dict[str, Any]:
        out = {**self.breakdown.to_json(), **self.scan.reading_json(), "game": self.game}
        out.update(warnings=list(self.warnings), doubt=list(self.doubt))
        if (
            self.retake is not None
        ):  # the reading stays, to see; no score from a look the reader does not know
            out.update(items=[], total=None)
        return out

    def render_text(self) -> str:
        grid = "".join(line + "\n" for line in self.text.splitlines() if ":" not in line)  # no headers
        if self.retake is not None:
            return "The town read (not scored):\n" + grid
        table = render_town(self.breakdown)
        table = table if table.endswith("\n") else table + "\n"
        out = "The town read (A1 is its top-left cell):\n" + grid + "\n" + table
        return out + goals_line(self.scan.goals, self.scan.goals_source) + doubt_text(self.doubt)


def read_town(
    photo: Photo, goals: tuple[str, ...], reader: Any, taught: bool, told: TownEvidence | None = None
) -> TownScan:
    """The town in ``photo``, read by the territory ``reader`` (``taught``: a taught deck's), on the lattice
    game telling ``told`` of when there is one (it is not found again); scored with the ``goals`` the
    player gave, else with those read from the photo (``goals_source`` says which)."""
    stages = photo.stages
    source = "given" if goals else None
    notes: tuple[str, ...] = ()
    if not goals:  # the player named none: the goal cards beside the town, read from the photo
        cards = stages.run("goals", read_goal_cards, photo.rgb)
        goals, notes = cards.scored, cards.warnings
        source = "read" if cards.scored else None
    region, reading = (told.region, told.reading) if told is not None else (0, None)
    read = partial(scan_town, goals=goals, reader=reader, taught=taught, region=region, reading=reading)
    scanned = stages.run("town", read, photo.rgb)
    scanned = replace(scanned, goals_source=source, warnings=(*scanned.warnings, *notes))
    if photo.overlay:
        picture = stages.run("overlay", partial(draw_town_overlay, long_side=OVERLAY_LONG_SIDE), scanned)
        scanned = replace(scanned, overlay=picture)
    return scanned


def score_town_scan(scan: TownScan, *, taught: bool = False) -> ScoredTown:
    """``scan`` scored with its goals (see :class:`ScoredTown`)."""
    breakdown = breakdown_in_flag_words(scan.breakdown())
    if not scan.goals:
        breakdown = replace(breakdown, notes=(*breakdown.notes, NO_GOALS_NOTE))
    doubt = tuple({**d.to_json(), "row": d.row, "col": d.col} for d in scan.doubt)
    return ScoredTown(scan, breakdown, scan.warnings, doubt, taught)
