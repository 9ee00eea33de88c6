"""What a scan knows about one lattice cell, and the one interface every cell reader offers.

:class:`CellReading` is the single type for a cell's reading from the classifier to the city: the classifier
makes it, the re-reads replace it, the card decoding settles it and :mod:`vision.city.assemble` builds the
city from it. :class:`Classifier` is what the pipeline needs of a reader (the shipped ONNX model in
:mod:`vision.cells.classify`, or a stand-in in tests): read the cells centred at given points of a top-down
view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from scoring.city import EMPTY, Cell, block
from vision.cells.topdown import TopDown
from vision.lattice import Lattice

__all__ = ["Classifier", "CellReading", "Grid", "read_lattice"]

Option = tuple[str | None, str | None, float]
WRECKTAR = Cell("wrecktar")


@dataclass(frozen=True)
class CellReading:
    """What was read in one cell.

    ``kind`` is "block", "empty" or "wrecktar" (a cell under a Wrecktar card); ``zone`` (R, C, I, P) and
    ``road`` (a canonical segment such as ``"EW"``, or None) describe a block; ``poi`` and ``construction``
    are its expansion marks. ``confidence`` is the probability of the whole answer (zone, road and mark;
    0–1) and ``label`` its token in the city format (``"R:EW"``, ``"P*"``, ``"W"``, ``"."``).
    ``alternatives`` lists the most probable ``(zone, road, probability)`` readings that are not Wrecktar,
    best first; for a block or an empty cell the first is the answer itself, so a later stage can make
    roads agree across neighbours. ``empty_probability`` is the probability that no card lies in the cell;
    ``distribution`` the probability of every legal ``(zone, road)`` pair (``(None, None)`` empty,
    ``("W", None)`` Wrecktar), which the joint card decoding weighs.

    Examples
    --------
    >>> r = CellReading.certain("C", "NS", 0.9)
    >>> r.label, r.probability, r.cell().token()
    ('C:NS', 0.9, 'C:NS')
    >>> CellReading.certain(None, None).kind
    'empty'
    """

    zone: str | None
    road: str | None
    confidence: float
    label: str
    alternatives: tuple[Option, ...] = ()
    kind: str = "block"
    poi: bool = False
    construction: bool = False
    empty_probability: float = 0.0
    distribution: Mapping[tuple[str | None, str | None], float] = field(default_factory=dict, compare=False)

    @classmethod
    def certain(cls, zone: str | None, road: str | None = None, confidence: float = 1.0) -> CellReading:
        """A reading sure of one answer: a block, or an empty cell when ``zone`` is None."""
        if zone is None:
            return cls(
                None, None, confidence, ".", ((None, None, confidence),), "empty", empty_probability=1.0
            )
        return cls(zone, road, confidence, block(zone, road).token(), ((zone, road, confidence),))

    @classmethod
    def from_options(
        cls,
        options: Sequence[Option],
        kind: str = "block",
        *,
        poi: bool = False,
        construction: bool = False,
        confidence: float | None = None,
    ) -> CellReading:
        """A reading of ranked ``options`` (best first; the answer for a block or an empty cell)."""
        zone, road, p = options[0]
        conf = p if confidence is None else confidence
        if kind == "wrecktar":
            return cls(None, None, conf, "W", tuple(options), kind)
        if kind == "empty" or zone is None:
            return cls(None, None, conf, ".", tuple(options), "empty", empty_probability=p)
        label = block(zone, road, poi=poi, construction=construction).token()
        return cls(zone, road, conf, label, tuple(options), "block", poi, construction)

    @property
    def options(self) -> tuple[Option, ...]:
        """The ranked readings, at least the answer itself."""
        return self.alternatives or ((self.zone, self.road, float(self.confidence)),)

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def probability(self) -> float:
        return float(self.confidence)

    @property
    def card_probability(self) -> float:
        """How sure the reading is that the cell holds a card (a block of any kind, or Wrecktar)."""
        return 1.0 - float(self.empty_probability)

    @property
    def place_confidence(self) -> float:
        """How sure the reading is of what lies in the cell, leaving out its expansion mark (a shifted
        re-read that hides a mark must not look like a clearer reading)."""
        if self.kind == "wrecktar" or not self.alternatives:
            return float(self.confidence)
        return float(self.alternatives[0][2])

    def cell(self) -> Cell:
        """The city cell this reading stands for."""
        if self.kind == "wrecktar":
            return WRECKTAR
        zone, road, _ = self.best
        if zone is None:
            return EMPTY
        return block(zone, road, poi=self.poi, construction=self.construction)

    def settled(
        self, zone: str | None, road: str | None, confidence: float, others: bool = False
    ) -> CellReading:
        """This reading set to ``(zone, road)`` (marks kept on a block); the other options stay only with
        ``others`` (a decision still in doubt), else nothing is left for the road repair to swap in."""
        if zone is None:
            return replace(
                self, zone=None, road=None, confidence=confidence, label=".", kind="empty",
                alternatives=((None, None, confidence),), poi=False, construction=False,
            )  # fmt: skip
        rest = tuple(o for o in self.alternatives if (o[0], o[1]) != (zone, road)) if others else ()
        label = block(zone, road, poi=self.poi, construction=self.construction).token()
        return replace(
            self, zone=zone, road=road, confidence=confidence, label=label, kind="block",
            alternatives=((zone, road, confidence), *rest),
        )  # fmt: skip

    def with_marks_of(self, first: CellReading) -> CellReading:
        """This (re-)reading with ``first``'s expansion marks: a re-read is about the zone and road, and
        the marks were judged on the first, centred crop."""
        if self.kind != "block" or first.kind != "block":
            return self
        if (self.poi, self.construction) == (first.poi, first.construction):
            return self
        label = block(self.zone or "", self.road, poi=first.poi, construction=first.construction).token()
        return replace(self, poi=first.poi, construction=first.construction, label=label)


Grid = list[list[CellReading]]


class Classifier(Protocol):
    """Reads cells of a top-down view: one reading per centre ``(x, y)`` in ``view.image`` pixels, for
    cells of ``pitch`` ``(pitch_x, pitch_y)`` px. The view knows its colour correction (the city's white
    balance and zone colours), so every read of one view sees the same colours."""

    def __call__(
        self, view: TopDown, centres: np.ndarray, pitch: tuple[float, float]
    ) -> list[CellReading]: ...


def read_lattice(classifier: Classifier, view: TopDown, lattice: Lattice) -> Grid:
    """Every cell of ``lattice`` read by ``classifier``, in rows.

    Examples
    --------
    >>> class Parks:
    ...     def __call__(self, view, centres, pitch):
    ...         return [CellReading.certain("P") for _ in centres]
    >>> grid = read_lattice(Parks(), None, Lattice((0.0, 0.0), 89.0, 63.5, 2, 3))
    >>> [[r.label for r in row] for row in grid]
    [['P', 'P', 'P'], ['P', 'P', 'P']]
    """
    if lattice.rows < 1 or lattice.cols < 1:
        raise ValueError(f"lattice has no cells ({lattice.rows} rows × {lattice.cols} columns)")
    centres = lattice.centres().reshape(-1, 2)
    flat = classifier(view, centres, (lattice.pitch_x, lattice.pitch_y))
    return [list(flat[r * lattice.cols : (r + 1) * lattice.cols]) for r in range(lattice.rows)]


def as_grid(readings: Sequence[Sequence[CellReading]]) -> Grid:
    """A mutable copy of a grid of readings."""
    return [list(row) for row in readings]
