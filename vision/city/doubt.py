"""Which cells of a read city could reasonably be otherwise, and what else they could be.

A wrong cell that nothing points at is the worst thing a scanner can give a player: the total is off and
nobody knows where to look. Each source below is evidence a cell may be misread; a cell that any of them
names becomes a :class:`CellDoubt` with its alternatives, best first. The scoring of each alternative is
done by the caller, who knows the scoring cards and the expansions (:mod:`api.scan_score`).

The sources, each measured on photos of the real cards (``make bench-real``):

``classifier``  the classifier's own probability of the final reading is low;
``cards``       the joint card decoding found a second explanation almost as good (its margin is small), or
                it overruled the classifier's reading of the cell with little margin, or with a card it placed
                partly beyond the cells read (only that card's other cells speak for it);
``enclosed``    table read where blocks lie on all four sides: a finished city rarely has such a hole, while
                a pale block (a sports field, a pond) is read as table more than any other mistake; unless
                the cards, explaining the city, leave it bare by a clear margin (a hole the cards make);
``table``       table read beside a block without high confidence (glare, a pale park at the city's edge);
``order``       two placed cards overlap here, both with a block of the same zone but another road, and only
                the readings of the cells they share tell which lies on top: a stacking order rests on a
                road's shape, which the classifier reads on the real art less surely than a zone, so it is
                in doubt at a wider margin than ``cards`` (whose alternatives must fit more cells);
``rim``         a block at the city's edge that the classifier gives some chance of being bare table and the
                cards back by little: a patterned or coloured table (a check cloth) can look like art there;
``unexplained`` a block that no card placement explains, in a city the cards otherwise explain;
``glare``       a cell washed out by a lamp's reflection (:func:`vision.city.light.glare_cells`): the art
                under it is lost, so any reading of it is a guess, however sure the classifier is;
``held``        a scoring card (read on its back, or given) that the city seems to hold: the cards explain
                the blocks as read only with it, and without it they read this cell otherwise. A scoring
                card lies beside the city, so either its number or these blocks are misread (random city
                edition 37 078: two residential blocks under a lamp's blue shade read commercial, the city
                "holding" scoring card 4, said only in a warning).
``backs``       three backs read surely settled the cell otherwise than the city alone read it (the city
                held their cards only through a reading a little likelier than the best without them), so
                the photo's own reading is still a likely one (random city edition 37 079: the table beside
                the city made a park so, said only in a warning).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoring.city import ZONE_NAMES, block, cell_name
from scoring.layouts import LAYOUTS
from scoring.placement import POI_ZONES
from vision.cards import CardReading, StackedCell
from vision.cells import CellReading, Grid
from vision.city.assemble import Assembled
from vision.city.cell_facts import CellFacts, cell_facts
from vision.city.stack_order import label_text, reading_weights

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CellDoubt", "Evidence", "find_doubts"]

# The thresholds were chosen on the real-art development set read upright, with the scoring cards given,
# and in twelve everyday perturbations (336 readings, 32 wrong cells; models/MODEL_CARD.md, "Doubt"): the
# fewest wrong cells left unnamed with about one doubtful cell per photo.
# Below this probability of its final reading a cell is in doubt on the classifier's word alone.
CLASSIFIER_DOUBT = 0.5
# The card decoding's margin (nats) under which its explanation of a cell is in doubt.
CARDS_DOUBT_MARGIN = 1.0
# Which of two overlapping cards lies on top is in doubt when the readings of the cells they share prefer
# the top card's blocks by less than this (nats), colour-corrected or as photographed. The real industrial
# curve of devset comp012 D2, read straight, is preferred by 0.4-3.1 nats in its 14 readings; at 3.5 the
# source names 0.31 right cells a reading (models/MODEL_CARD.md, "Doubt").
ORDER_DOUBT = 3.5
# The cards overruled a classifier at least this sure of another reading, by less than this margin.
OVERRULED_SURE = 0.9
OVERRULED_MARGIN = 2.0
# A hole among blocks is taken as read when the cards explain the city and leave it bare by this margin
# (nats): on the devset's perturbed readings the true holes are left bare by 1.2-5.2 nats, a park washed
# out by glare by 0.3 (tests/bench/bench_real.py); under CARDS_DOUBT_MARGIN "cards" names it anyway.
ENCLOSED_MARGIN = CARDS_DOUBT_MARGIN
# Table read beside a block with less than this confidence (glare and pale parks read as table at the edge).
TABLE_BESIDE_BLOCKS = 0.9
# A block beside the table is in doubt when the classifier gives table at least this probability and the
# cards' margin (where checked) is under RIM_MARGIN nats: on the devset 1 right cell in 336 readings; a red
# check cloth's square read as a residential block at 0.57 (table 0.04, margin 1.7) was named by nothing.
RIM_TABLE = 0.02
RIM_MARGIN = 2.0
# Alternatives shown per cell, and the least probability (relative to the answer) an alternative needs.
MAX_ALTERNATIVES = 3
ALTERNATIVE_SHARE = 0.02
# A cell with at least this share of its core washed out by a glare spot is in doubt (vision.city.light).
GLARE_DOUBT = 0.3
# What a cell can be: table, or a block one of the 18 cards shows, either way round. The classifier also
# gives weight to blocks none of them has (an industrial block without a road): offered to a player as "if
# it is I the total is ...", such a city cannot be built with the base game (see EXPANSION_ONLY).
POSSIBLE = frozenset(
    {".", *(way.token() for cells in LAYOUTS.values() for cell in cells for way in (cell, cell.rotated()))}
)
# Blocks only an expansion's card shows, each with the note that says so: the Points of Interest card's
# blocks carry no road. The scan never assumes an expansion, nor rules one out (the player names them when
# scoring, and the card's frame may lie under another card): such a reading is offered like any other, its
# note telling a player without the expansion to pass it by (a Point of Interest city's roadless R, read
# R:NS under a shadow band, was named nowhere before: tests/bench/bench_rooms.py, seed 80004000).
EXPANSION_ONLY: dict[str, str] = {
    block(zone).token(): f"{ZONE_NAMES[zone]} without a road: only the Points of Interest card shows one"
    for zone in POI_ZONES
    if block(zone).token() not in POSSIBLE
}


@dataclass(frozen=True)
class CellDoubt:
    """A cell (row, col of the city as read) whose reading could be otherwise.

    ``reading`` is its label in the city format, ``alternatives`` the other labels it could be, likeliest
    first, ``why`` says in plain words what raised the doubt and ``sources`` which sources named it.
    ``named``: the (source, reason, alternative) of each reason that rests on one alternative alone (two
    cards in the other order, the table at the rim): where that alternative changes nothing scored, the
    reason is moot (:mod:`vision.city.doubt_matters`). ``seen``: the alternatives that are another road of
    the same block where the doubt is about that very road (:func:`_seen_roads`): the player is told of
    them even where no line of the score changes, since the road drawn does.
    """

    row: int
    col: int
    reading: str
    alternatives: tuple[str, ...]
    why: str
    sources: tuple[str, ...]
    named: tuple[tuple[str, str, str], ...] = ()
    seen: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return cell_name(self.row, self.col)

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": self.name,
            "row": self.row,
            "col": self.col,
            "reading": self.reading,
            "alternatives": [_alternative_json(label) for label in self.alternatives],
            "why": self.why,
            "sources": list(self.sources),
        }


def _alternative_json(label: str) -> dict[str, str]:
    """An alternative for the scan's JSON: its label, and a ``note`` where only an expansion shows it."""
    note = EXPANSION_ONLY.get(label)
    return {"label": label} if note is None else {"label": label, "note": note}


def _ranked_labels(reading: CellReading | None) -> list[tuple[str, float]]:
    """Every reading of the cell the classifier gave any weight, likeliest first (Wrecktar left out)."""
    if reading is None:
        return []
    weights = reading_weights(reading)
    ranked = sorted(((p, label_text(*zr)) for zr, p in weights.items() if zr[0] != "W"), reverse=True)
    return [(label, float(p)) for p, label in ranked]


def _signals(
    cell: CellFacts, cards_used: bool, explained: bool, margin: float = CARDS_DOUBT_MARGIN
) -> list[tuple[str, str]]:
    """The (source, plain-words reason) pairs that name this cell; ``margin``: the cards' margin (nats)
    under which their explanation of it is in doubt."""
    out: list[tuple[str, str]] = []
    if cell.confidence < CLASSIFIER_DOUBT:
        out.append(("classifier", f"read with {cell.confidence:.0%} confidence"))
    d = cell.decoded if cards_used else None
    if d is not None and d.margin is not None and d.margin < margin:
        out.append(("cards", "the cards fit another reading almost as well"))
    before = cell.before
    overruled = d is not None and before is not None and before.label != cell.label
    narrowly = d is not None and (d.margin is None or d.margin < OVERRULED_MARGIN)
    if overruled and cell.hanging:
        why = f"the classifier read {before.label}; the cards say {cell.label}"
        out.append(("cards", f"{why}, by a card lying partly beyond the cells read"))
    elif overruled and narrowly and before.probability > OVERRULED_SURE:
        out.append(("cards", f"the classifier read {before.label}; the cards say {cell.label}"))
    if cell.label == "." and not cell.table_pattern:
        # A cell whose reading did not count (off the card region, not surely a card) is table for sure to
        # the decoding: the classifier's own doubt of it is what says whether it could be a block.
        sure = cell.confidence if before is None else min(cell.confidence, before.empty_probability)
        if cell.block_sides == 4 and not _a_hole_of_the_cards(d, explained):
            out.append(("enclosed", "table read where blocks lie on all four sides"))
        elif cell.block_sides and sure < TABLE_BESIDE_BLOCKS:
            out.append(("table", f"table read beside the city with {sure:.0%} confidence"))
    if _could_be_table(cell):
        out.append(("rim", "at the city's edge, and the table is another reading the cards hardly rule out"))
    order = cell.order
    if order is not None and order.nats < ORDER_DOUBT:
        why = f"cards {order.top} and {order.card} overlap here: with {order.card} on top it is {order.label}"
        out.append(("order", why))
    if explained and d is not None and d.source == "kept" and cell.label not in (".", "W"):
        out.append(("unexplained", "no card of the 18 shows this block here"))
    if cell.glare >= GLARE_DOUBT:
        out.append(("glare", f"under a glare spot, {cell.glare:.0%} of it washed out"))
    if cell.held is not None:
        card, label = cell.held
        why = f"the city seems to hold scoring card {card}, which lies beside it: without it this is {label}"
        out.append(("held", why))
    if cell.settled is not None:
        why = f"the scoring cards read on their backs settled it, where the photo alone reads {cell.settled}"
        out.append(("backs", why))
    return out


def _named(cell: CellFacts, signals: list[tuple[str, str]]) -> tuple[tuple[str, str, str], ...]:
    """The reasons among ``signals`` that rest on one alternative: the order's other card on top, the
    table at the rim, the block read without a scoring card the city seems to hold, the block as the photo
    alone read it where the backs settled it."""
    own = {
        "order": cell.order.label if cell.order is not None else None,
        "rim": ".",
        "held": cell.held[1] if cell.held is not None else None,
        "backs": cell.settled,
    }
    return tuple((src, why, alt) for src, why in signals if (alt := own.get(src)) is not None)


def _seen_roads(cell: CellFacts, sources: tuple[str, ...], alternatives: tuple[str, ...]) -> tuple[str, ...]:
    """The ``alternatives`` that are another road of the cell's block, where the doubt is about the road
    itself: the card decoding hardly tells it (``cards``), or two overlapping cards' order rests on the
    classifier's own first reading of it (``order``, the classifier reading what is given). A wrong road
    there scores the same more often than not (comp012 D2, a real industrial curve read straight in every
    devset reading, and comp016 F4/F6: 18 of the 312 perturbed readings), yet the player sees it drawn.
    Where the cards overruled the classifier's road, the order rests on the other cells they share, and a
    road swap that scores the same is left out (on the devset those were all read right)."""
    if cell.label in (".", "W"):
        return ()
    zone = cell.label.split(":")[0]
    roads = [a for a in alternatives if a != cell.label and a.split(":")[0] == zone and ":" in a]
    if "cards" in sources:
        return tuple(roads)
    before = cell.before
    if "order" in sources and cell.order is not None and before is not None and before.label == cell.label:
        return tuple(a for a in roads if a == cell.order.label)
    return ()


def _a_hole_of_the_cards(d: StackedCell | None, explained: bool) -> bool:
    """Whether the cards, explaining the city, leave this cell bare by :data:`ENCLOSED_MARGIN` or more."""
    return explained and d is not None and d.source == "empty" and (d.margin or 0.0) >= ENCLOSED_MARGIN


def _could_be_table(cell: CellFacts) -> bool:
    d, before = cell.decoded, cell.before
    if d is None or before is None or cell.label in (".", "W") or cell.block_sides == 4:
        return False
    return before.empty_probability >= RIM_TABLE and d.margin is not None and d.margin < RIM_MARGIN


def _alternatives(cell: CellFacts, sources: tuple[str, ...], marks: bool = False) -> tuple[str, ...]:
    ranked = _ranked_labels(cell.before)
    top = ranked[0][1] if ranked else 1.0
    alts = [label for label, p in ranked if label != cell.label and p >= ALTERNATIVE_SHARE * top]
    if cell.before is not None and cell.before.label != cell.label and cell.before.label not in alts:
        alts.insert(0, cell.before.label)
    if "order" in sources and cell.order is not None:
        alts = [cell.order.label, *(a for a in alts if a != cell.order.label)]
    if "rim" in sources:
        alts = [".", *(a for a in alts if a != ".")]
    if "held" in sources and cell.held is not None:
        alts = [cell.held[1], *(a for a in alts if a != cell.held[1])]
    if "backs" in sources and cell.settled is not None:
        alts = [cell.settled, *(a for a in alts if a != cell.settled)]
    if cell.label == "." and not any(a != "." for a in alts):
        alts.insert(0, "P")  # a hole among blocks: the pale park is what reads as table
    limit: int | None = MAX_ALTERNATIVES
    if cell.glare >= GLARE_DOUBT:  # the art is washed out: every runner-up, likeliest first, is a guess
        alts += [label for label, _ in ranked if label != cell.label and label not in alts]
        alts = alts or ["."]
        limit = None  # cut once the ones that change nothing scored are left out (vision.city.doubt_matters)
    covered = _covered_among_blocks(cell)
    base = [a for a in alts if a in POSSIBLE and not (covered and a == ".")][:limit]
    # An expansion's block comes on top, in its place by likelihood: it never pushes a base block out.
    return tuple(a for a in alts if a in base or _expansion_offered(a, cell, ranked, marks))


def _expansion_offered(label: str, cell: CellFacts, ranked: list[tuple[str, float]], marks: bool) -> bool:
    """Whether ``label``, a block only an expansion's card shows (:data:`EXPANSION_ONLY`), is offered for
    ``cell``: only for a block (a Point of Interest lies among the cards; a red check's square beside the
    city reads as a roadless R, Wrecktar's art as roadless blocks), and there when the photo shows that
    expansion's ``marks`` elsewhere or the classifier reads this very block so (its likeliest reading,
    which the cards overruled): a roadless runner-up of a block a card shows is a crop that missed the
    road, on every devset photo."""
    if label not in EXPANSION_ONLY or cell.label in (".", "W"):  # Wrecktar's cells are no block either
        return False
    return marks or bool(ranked and ranked[0][0] == label)


def _covered_among_blocks(cell: CellFacts) -> bool:
    """A block with blocks on all four sides that a card shows, the cards sure of it: table there would be
    a hole in the middle of the city that the cards cover (a park read as "." there is no alternative)."""
    d = cell.decoded
    if cell.label == "." or cell.block_sides < 4 or d is None or d.source != "card":
        return False
    return d.margin is None or d.margin >= CARDS_DOUBT_MARGIN


@dataclass(frozen=True)
class Evidence:
    """What the scan measured of the photo besides the readings and the cards, for :func:`find_doubts`.

    ``glare``: the share of each cell washed out by glare, (rows, cols) in the city's grid, when measured;
    ``photographed``: the readings of the photo's own colours, before the colour correction (grid of the
    readings), when it was corrected; ``table_pattern``: the cells read as table that show the table's
    own pattern off the cards (:func:`vision.city.light.read_light`), (rows, cols), which are not in doubt
    for being table beside or among blocks: a check cloth's squares are seen to be the cloth;
    ``cards_margin``: the cards' margin (nats) under which their explanation of a cell is in doubt, the
    reader's own (:data:`CARDS_DOUBT_MARGIN` for the shipped classifier); ``held``: the lattice's cells read
    otherwise without a scoring card the city seems to hold, each with (that card, its label there);
    ``settled``: the lattice's cells three backs settled, each with the label the city alone read there.
    """

    glare: np.ndarray | None = None
    photographed: Grid | None = None
    table_pattern: np.ndarray | None = None
    cards_margin: float = CARDS_DOUBT_MARGIN
    held: Mapping[tuple[int, int], tuple[int, str]] = field(default_factory=dict)
    settled: Mapping[tuple[int, int], str] = field(default_factory=dict)


def find_doubts(
    assembled: Assembled, as_cards: CardReading, evidence: Evidence | None = None
) -> tuple[CellDoubt, ...]:
    """The cells of ``assembled`` that could reasonably be otherwise, in reading order, from the readings,
    the cards and what else the scan measured (``evidence``, none by default)."""
    evidence = evidence or Evidence()
    cells = cell_facts(
        assembled,
        as_cards,
        glare=evidence.glare,
        photographed=evidence.photographed,
        table_pattern=evidence.table_pattern,
        held=evidence.held,
        settled=evidence.settled,
    )
    explained = as_cards.used and as_cards.decoding.explained >= 0.9
    # A Point of Interest seen anywhere: its roadless blocks are offered wherever they are likely.
    marks = any(rd is not None and rd.poi for row in as_cards.before or () for rd in row)
    out = []
    for (r, c), cell in cells.items():  # in reading order
        signals = _signals(cell, as_cards.used, explained, evidence.cards_margin)
        sources = tuple(dict.fromkeys(source for source, _ in signals))
        alts = _alternatives(cell, sources, marks) if signals else ()
        if alts:
            why = "; ".join(reason for _, reason in signals)
            named, roads = _named(cell, signals), _seen_roads(cell, sources, alts)
            out.append(CellDoubt(r, c, cell.label, alts, why, sources, named, roads))
    return tuple(out)
