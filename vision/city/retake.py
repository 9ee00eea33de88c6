"""When a photo cannot be read reliably: say so, and what to change, instead of printing a score.

A wrong total with nothing pointing at the cause is the worst thing the scanner can give; a request for
another photo is honest. The evidence is the pipeline's own, measured on rendered photos and the devset's
perturbations (``make bench-real``):

* the light on the cards (:mod:`vision.city.light`): the share of each cell washed out to white by a
  lamp's reflection, how much darker a band of the city is than the rest of it, and how much of the photo
  is clipped to white (an overexposed photo, whose pale colours came out white);
* the frame: the blocks :func:`vision.city.cut.cut_by_frame` names, where the city may go on beyond the
  photo's edge (a score of part of a city is a wrong score);
* the reading itself: how many of its blocks are in doubt, and how much of it the known cards explain.
"""

from __future__ import annotations

from vision.advice import TEACH_AGAIN, teach_your_cards
from vision.cards import CardReading
from vision.city.assemble import Assembled
from vision.city.doubt import GLARE_DOUBT, CellDoubt
from vision.city.geometry import Geometry
from vision.city.light import Light
from vision.lattice import NoCityFound
from vision.photo import OVEREXPOSED_SHARE

__all__ = [
    "UNKNOWN_COLOURS_ADVICE",
    "UNKNOWN_COLOURS_MISFIT",
    "UnknownCityLook",
    "ask_retake",
    "doubt_count",
    "needs_deck",
    "unread_city",
]

# The thresholds below were chosen on rendered photos and the devset read clean, with a lamp's glare spot
# and a shadow band of two sizes (tests/bench/perturb.py), then checked on the devset's twelve
# perturbations (models/MODEL_CARD.md, "Retake"): no photo read right asks for a retake.
# Another photo is asked for when at least this share of the city's blocks lie under glare ...
GLARE_RETAKE = 0.2
# ... or at least this share of its blocks is in doubt, or the known cards explain less than this of it
# (or the decoding found no solution): a real city is built of them, and photos read right measure 0.85
# and more (expansion marks and a city cut by the frame's edge lower it), a wrong period 0.
DOUBT_RETAKE = 0.3
EXPLAINED_RETAKE = 0.5
# A shadow this deep asks for another photo by itself (rendered photos read right reach 0.51; below
# about 0.7 the blocks' colours are still read) ...
SHADOW_RETAKE = 0.7
# ... and what is named as the cause of a doubtful reading: glare over this share of the blocks, else a
# shadow this deep (the devset's own light reaches 0.17, its shadow perturbation 0.3 to 0.44).
GLARE_CAUSE = 0.1
SHADOW_CAUSE = 0.3

# The blocks named in the advice for a city cut by the frame, at most.
MAX_CUT_NAMED = 4

GLARE_ADVICE = (
    "glare on the cards washes out {n} cells of the city: tilt the phone or move the lamp so that no "
    "reflection falls on the cards, and take another photo"
)
SHADOW_ADVICE = (
    "a shadow lies across the city ({why}): light the cards evenly (keep your arm and the phone's shadow "
    "off them, or turn towards the light) and take another photo"
)
CUT_ADVICE = (
    "the city runs off the edge of the photo beside {cells}: step back or zoom out so that the whole city "
    "shows with some table around it, and take another photo"
)
# An overexposed photo (vision.photo.OVEREXPOSED_SHARE of it clipped to white) washes pale grounds out to
# white, which looks like glare or, beside the grounds that kept their colour, a shadow: the light's advice
# is then the exposure's.
OVEREXPOSED_ADVICE = (
    "the photo is overexposed ({share:.0%} of it is pure white), which washes the cards' pale colours "
    "out: tap the cards on the phone's screen so that it exposes for them, or dim the light, and take "
    "another photo"
)
GEOMETRY_ADVICE = (
    "the cards' grid could not be read surely ({why}): take another photo from straight above, with the "
    "whole city filling most of the frame"
)
# When the known cards explain almost none of the grid, the photo's angle is one cause and a print of the
# cards the scanner has never seen (other colours or art) is the other: both are said.
UNKNOWN_LOOK_EXPLAINED = 0.2
UNKNOWN_LOOK_ADVICE = (
    "the known cards explain only {explained:.0%} of the cards' grid: if your cards are a print the scanner "
    "has not seen (other colours or art), " + teach_your_cards() + "; otherwise take another photo from "
    "straight above, with the whole city filling most of the frame"
)
# ... and read by a taught deck, the deck is already this print's, most likely: the photo is asked again
# first (rendered random edition 37 064, its own deck, a lattice across the city's long strip: 0 %).
TEACH_AGAIN_CITY = "if it still reads so, the taught deck may not be of these cards: " + TEACH_AGAIN
TAUGHT_LOOK_ADVICE = (
    "the known cards explain only {explained:.0%} of the cards' grid: take another photo from straight "
    "above, evenly lit, with the whole city filling most of the frame; " + TEACH_AGAIN_CITY
)


# The cards' zones lie this far (a*b*) or more from the colours the classifier learned (two zones at
# least, :func:`vision.city.unexplained.zone_colour_misfit`): a print of other colours. Photos of the shipped
# print measure 1–3 (rendered and the devset), random editions 25–50.
UNKNOWN_COLOURS_MISFIT = 12.0
# A retaken city read by the shipped classifier with at least this share of its blocks in doubt does not
# look like the print it knows, whatever else the photo shows (the devset's photos, perturbed, doubt 1 %
# of their blocks; fresh random editions 37 052 and 37 091, untaught, 65 % and 67 %, retaken for their grid
# and for glare with no word of teaching): teaching is said before the retake's own advice.
UNSURE_LOOK_SHARE = 0.5
UNSURE_LOOK_ADVICE = (
    "{doubted} of the city's {blocks} blocks could be read otherwise in a way that changes the score: if "
    "your cards are a print the scanner has not seen (other colours or art), " + teach_your_cards() + "; "
    "otherwise, {advice}"
)
UNKNOWN_COLOURS_ADVICE = (
    "these cards' colours are not those of the print the scanner knows (the zones lie {misfit:.0f} a*b* "
    "units from them), so a score read from them would be a guess: " + teach_your_cards()
)


# Every card shows each of the four zones once, so a city's blocks are about a quarter each (the devset's
# 24 cities: the commonest zone 0.30 at most). A reading of this many blocks with this share or more in one
# zone is not a city of the print the scanner knows (random edition 37 068, magenta, orange, cyan and teal,
# read by the shipped classifier as residential blocks and table, was scored).
ONE_ZONE_BLOCKS = 16
ONE_ZONE_SHARE = 0.6
ONE_ZONE_ADVICE = (
    "these cards do not read as a city of the print the scanner knows ({share:.0%} of its {blocks} blocks "
    "read as {zone}, where every card shows each zone once), so a score read from them would be a guess: if "
    "your cards are another print, " + teach_your_cards() + "; otherwise take another photo in even, white "
    "light"
)


class UnknownCityLook(NoCityFound):
    """The photo shows a grid of cards (a card region of a city's size) of which the scanner reads too few
    blocks: cards of a print it does not know, most likely. Teaching the deck is what to do."""

    code = "needs_deck"


UNREAD_CITY_ADVICE = (
    "no city found: the photo shows cards over {cells} cells, but only {blocks} of them read as blocks of "
    "the print the scanner knows: if your cards are another print (other colours or art), "
    + teach_your_cards()
    + "; otherwise take another photo from straight above"
)
UNREAD_TAUGHT_ADVICE = (
    "no city found: the photo shows cards over {cells} cells, but only {blocks} of them read as blocks of "
    "the taught deck's print: take another photo from straight above, evenly lit; " + TEACH_AGAIN_CITY
)


def unread_city(geometry: Geometry, blocks: int, least: int, taught: bool = False) -> NoCityFound:
    """The refusal of a city of which only ``blocks`` (fewer than ``least``) were read: an
    :class:`UnknownCityLook` when the card region covers ``least`` cells or more (cards the scanner cannot
    read; read by a ``taught`` deck's look, the photo is asked again before the deck), else "no city
    found"."""
    cells = int((geometry.occupied & geometry.visible).sum())
    if cells >= least:
        advice = UNREAD_TAUGHT_ADVICE if taught else UNREAD_CITY_ADVICE
        return UnknownCityLook(advice.format(cells=cells, blocks=blocks))
    return NoCityFound(
        f"no city found: only {blocks} block{'s' * (blocks != 1)} could be read "
        f"(a city to score has at least {least})"
    )


def needs_deck(retake: str | None, as_cards: CardReading) -> bool:
    """Whether a reading asking for another photo is one of a look the scanner does not know: the known
    cards explain almost none of it (the retake then names teaching: :data:`UNKNOWN_LOOK_ADVICE`)."""
    return retake is not None and as_cards.decoding.explained < UNKNOWN_LOOK_EXPLAINED


def ask_retake(
    light: Light,
    assembled: Assembled,
    as_cards: CardReading,
    doubts: tuple[CellDoubt, ...],
    cut: tuple[str, ...] = (),
    taught: bool = False,
) -> str | None:
    """Why another photo is needed and what to change, or None when this one is read reliably enough
    for its doubtful cells to be checked one by one; ``cut``: the blocks
    :func:`vision.city.cut.cut_by_frame` names; ``taught``: read by a taught deck's look, so a grid its
    cards hardly explain is not first told to teach the deck."""
    blocks = sum(1 for _ in assembled.city.blocks())
    if blocks == 0:
        return None
    if cut:
        shown = ", ".join(cut[:MAX_CUT_NAMED]) + (" ..." if len(cut) > MAX_CUT_NAMED else "")
        return CUT_ADVICE.format(cells=shown)
    glared = int((light.glare_cells >= GLARE_DOUBT).sum())
    over = light.clipped >= OVEREXPOSED_SHARE
    overexposed = OVEREXPOSED_ADVICE.format(share=light.clipped) if over else None
    if glared >= GLARE_RETAKE * blocks:
        return overexposed or GLARE_ADVICE.format(n=glared)
    if light.shadow >= SHADOW_RETAKE:
        why = f"part of it is {light.shadow:.0%} darker than the rest"
        return overexposed or SHADOW_ADVICE.format(why=why)
    unexplained = as_cards.decoding.explained < EXPLAINED_RETAKE
    if len(doubts) < DOUBT_RETAKE * blocks and not unexplained:
        return None
    if glared >= GLARE_CAUSE * blocks:
        return overexposed or GLARE_ADVICE.format(n=glared)
    explained = as_cards.decoding.explained
    if explained < UNKNOWN_LOOK_EXPLAINED:  # a wrong grid, or cards of a look the reader does not know
        return (TAUGHT_LOOK_ADVICE if taught else UNKNOWN_LOOK_ADVICE).format(explained=explained)
    if overexposed is not None:  # after the unknown look: that answer names teaching (needs_deck)
        return overexposed
    if unexplained:  # the grid itself is wrong (a wrong period or phase), whatever the light
        why = f"the known cards explain only {explained:.0%} of it"
        return GEOMETRY_ADVICE.format(why=why)
    why = doubt_count(assembled, doubts)
    shadow = light.shadow if light.shadow_on_cards is None else light.shadow_on_cards
    return (SHADOW_ADVICE if shadow >= SHADOW_CAUSE else GEOMETRY_ADVICE).format(why=why)


def doubt_count(assembled: Assembled, doubts: tuple[CellDoubt, ...]) -> str:
    """The doubtful cells in words, each count within its whole: a doubt may name a cell read as table (a
    hole that could be a park), which is none of the city's blocks, so those are counted apart. The count is
    of every cell that could be read otherwise (how surely the photo was read), not only of those whose
    other reading changes the score, which the scan's doubt list names (:mod:`vision.city.doubt_matters`)."""
    grid = assembled.city.grid
    doubted = {(d.row, d.col) for d in doubts}
    on_blocks = sum(
        1 for r, c in doubted if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c].is_block
    )
    blocks = sum(1 for _ in assembled.city.blocks())
    words = f"{on_blocks} of its {blocks} blocks could be read otherwise"
    others = len(doubted) - on_blocks
    if others:
        words += f", and {others} {'cell' if others == 1 else 'cells'} read as table could be blocks"
    return words
