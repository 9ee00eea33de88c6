"""Editions of Circle the Wagons: how a whole printing of the cards looks, apart from the layout.

The scanner must learn any print of the cards from one photo of the deck (issue 37). To test that, the
renderer draws editions nobody designed for, beside the two real ones (``shared/reference/wagons-cards.md``):

- :data:`BOXED`: the boxed game as the rulebook's key shows it, textured pastel territories inside a cream
  outline and full-colour icons. It is the default everywhere and draws exactly what the renderer drew
  before editions existed: the per-print :class:`~models.synth.wagons.look.Look` sets its colours and
  strokes (its ``fills`` are ``None``), so a render without an edition and one with ``edition=BOXED`` are
  the same bytes.
- :data:`PRINT_AND_PLAY`: the publisher's print-and-play sheets, from the facts measured on them: flat
  saturated fills edge to edge, a black line about 0.7 mm round every territory and round the card, snow
  as white as the paper, icons as one-colour silhouettes about 40 % of the territory, black on light
  fills and white on mountains and water.
- :func:`random_edition`: six distinct fill colours (at least :data:`MIN_FILL_DELTA_E` apart in CIELAB,
  one of them sometimes the paper's white), flat or textured, outlined or not, silhouette or full-colour
  icons, the silhouettes drawn from a library of simple shapes (:mod:`~models.synth.wagons.silhouettes`).

An edition says what a printing fixes; the :class:`~models.synth.wagons.look.Look` still varies what one
press run and one card do (texture scale and stroke, small colour drift, the icons' exact pose).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from models.synth import palette as pal
from models.synth.draw import Color
from models.synth.palette import lab, min_delta_e
from models.synth.wagons.look import CREAM, GROUND, INK, SHADE, TERRAINS
from models.synth.wagons.silhouettes import GENERIC_SHAPES, PRINT_SHAPES, boxed_shape

ICONS = "bcfgmw"
#: The least CIELAB distance (CIE76) between any two fills of a random edition: a person tells them
#: apart at a glance on a card.
MIN_FILL_DELTA_E = 28.0
#: A silhouette is white on a fill darker than this L* and black on a lighter one (the print-and-play
#: sheets: white on mountains, L* 29, and water, L* 60; black on desert, L* 72, and lighter fills).
SILHOUETTE_WHITE_BELOW_L = 66.0
BLACK: Color = (28, 28, 30)
PAPER: Color = (252, 252, 250)


@dataclass(frozen=True)
class Edition:
    """One printing's look. ``fills`` maps each terrain (D F M P S W) to its fill colour, ``None`` for the
    boxed print (the look's own colours and everything else as before editions). ``textured`` draws the
    terrain textures over the fill (else a flat fill); ``gap_mm`` is paper showing between neighbouring
    territories and round the card, ``line_mm`` a ``line``-coloured outline round every territory (0:
    none), ``edge_mm`` a line round the card's cut edge (0: none), ``corner_mm`` the territories' corner
    radius. Icons are ``icon_scale`` of a territory's height; ``silhouette`` draws each as one flat colour
    (``ink`` on a light fill, ``paper`` on a dark one) with the shape named in ``shapes`` (a
    :data:`~models.synth.wagons.silhouettes.SHAPES` name per icon), else in full colour as the boxed
    print; ``icon_turn`` is the σ (degrees) of each printed icon's turn, ``icon_mirror`` lets an icon be
    printed mirrored."""

    name: str
    fills: dict[str, Color] | None
    textured: bool = False
    paper: Color = PAPER
    gap_mm: float = 0.0
    line_mm: float = 0.7
    line: Color = BLACK
    edge_mm: float = 0.5
    corner_mm: float = 0.0
    silhouette: bool = True
    shapes: dict[str, str] = field(default_factory=lambda: dict(PRINT_SHAPES))
    icon_scale: float = 0.42
    icon_turn: float = 0.0
    icon_mirror: bool = False
    ink: Color = BLACK

    @property
    def boxed(self) -> bool:
        """True for the boxed print, drawn by its :class:`~models.synth.wagons.look.Look` alone."""
        return self.fills is None

    def fill(self, terrain: str) -> Color:
        """The fill colour of ``terrain`` (not defined for the boxed print, whose look tints its own)."""
        if self.fills is None:
            raise ValueError("the boxed print's colours come from its look, not from the edition")
        return self.fills[terrain]

    def textured_colours(self, terrain: str) -> tuple[Color, Color, Color]:
        """(ground, ink, shade) of a textured fill: the fill, and the boxed print's ink and shade moved
        with it (their CIELAB offsets from the boxed ground; L* turned the other way where it would leave
        0–100, so white snow gets darker dots rather than none)."""
        ground = lab(self.fill(terrain))
        out = [self.fill(terrain)]
        for base in (INK, SHADE):
            delta = lab(base[terrain]) - lab(GROUND[terrain])
            if not 0.0 <= ground[0] + delta[0] <= 100.0:
                delta[0] = -delta[0]
            out.append(pal.from_lab(ground + delta))
        return out[0], out[1], out[2]

    def icon_colour(self, terrain: str) -> Color:
        """A silhouette's colour on ``terrain``: white (the paper) on a dark fill, ink on a light one."""
        return self.paper if lab(self.fill(terrain))[0] < SILHOUETTE_WHITE_BELOW_L else self.ink

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        """The edition as the photo's truth records it, exactly (:func:`edition_from_json` reads it back);
        the boxed print by its name alone."""
        if self.fills is None:
            return {"name": self.name}
        return {
            "name": self.name,
            "fills": {t: list(self.fills[t]) for t in TERRAINS},
            "textured": self.textured,
            "paper": list(self.paper),
            "gap_mm": self.gap_mm,
            "line_mm": self.line_mm,
            "line": list(self.line),
            "edge_mm": self.edge_mm,
            "corner_mm": self.corner_mm,
            "silhouette": self.silhouette,
            "shapes": dict(self.shapes),
            "icon_scale": self.icon_scale,
            "icon_turn": self.icon_turn,
            "icon_mirror": self.icon_mirror,
            "ink": list(self.ink),
        }


BOXED = Edition(
    "boxed",
    None,
    textured=True,
    paper=CREAM,
    gap_mm=1.0,
    line_mm=0.0,
    edge_mm=0.0,
    corner_mm=1.25,
    silhouette=False,
    shapes={i: boxed_shape(i) for i in ICONS},
    icon_scale=0.5,
    icon_turn=3.0,
    icon_mirror=True,
)

#: The print-and-play sheets (``wagons-cards.md``, last section), median colours as measured there.
PRINT_AND_PLAY = Edition(
    "print-and-play",
    {
        "D": (236, 162, 61),
        "F": (156, 205, 96),
        "M": (67, 67, 67),
        "P": (238, 212, 66),
        "S": (255, 255, 255),
        "W": (76, 151, 200),
    },
    paper=(255, 255, 255),
    line_mm=0.7,
    edge_mm=0.5,
    icon_scale=0.42,
    icon_turn=4.0,
)


def edition_from_json(data: dict[str, Any]) -> Edition:
    """The edition :meth:`Edition.to_json` wrote (:data:`BOXED` for ``{"name": "boxed"}``); ``ValueError``
    naming what is missing or wrong."""
    try:
        if "fills" not in data:
            if data.get("name") != BOXED.name:
                name = data.get("name")
                raise ValueError(f"an edition without fills must be the boxed print, got {name!r}")
            return BOXED
        values = dict(data)
        values["fills"] = {t: pal.as_colour(data["fills"][t]) for t in TERRAINS}
        for key in ("paper", "line", "ink"):
            values[key] = pal.as_colour(data[key])
        known = {f.name for f in fields(Edition)}
        return Edition(**{k: v for k, v in values.items() if k in known})
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not an edition: {exc!r} is missing or malformed") from exc


def check_edition(edition: object) -> Edition:
    """``edition`` itself, or :data:`BOXED` for ``None``; ``ValueError`` for anything else."""
    if edition is None:
        return BOXED
    if not isinstance(edition, Edition):
        raise ValueError(f"edition must be a Circle the Wagons Edition (or None), got {edition!r}")
    return edition


def random_fills(rng: np.random.Generator, paper: Color) -> dict[str, Color]:
    """Six fills at least :data:`MIN_FILL_DELTA_E` apart, in a random order over the terrains; a third of
    the editions leave one terrain the paper's white (as the print-and-play snow)."""
    colours: list[Color] = [paper] if rng.random() < 0.35 else []
    while len(colours) < len(TERRAINS):
        c = pal.random_colour(rng)
        if min_delta_e([*colours, c]) >= MIN_FILL_DELTA_E:
            colours.append(c)
    order = rng.permutation(len(TERRAINS))
    return {t: colours[int(k)] for t, k in zip(TERRAINS, order, strict=True)}


def random_shapes(rng: np.random.Generator) -> dict[str, str]:
    """A silhouette per icon, six distinct: each icon's print-and-play shape, its boxed drawing in one
    colour, or a simple shape (disc, star, cross…) that no other icon of the edition has."""
    generic = list(rng.permutation(GENERIC_SHAPES))
    shapes = {}
    for icon in ICONS:
        kind = rng.choice(["print", "boxed", "generic"], p=[0.4, 0.25, 0.35])
        shapes[icon] = PRINT_SHAPES[icon] if kind == "print" else boxed_shape(icon)
        if kind == "generic":
            shapes[icon] = str(generic.pop())
    return shapes


def random_edition(rng: np.random.Generator, name: str = "random") -> Edition:
    """An edition nobody designed for: random fills (:func:`random_fills`), flat or textured (40 %),
    outlined (60 %: 0.3–1.2 mm, mostly near black) or bare, with paper between the territories or not,
    one-colour silhouettes (65 %, shapes from :func:`random_shapes`) or full-colour icons, icons 0.3–0.6 of
    the territory, each turned up to σ 0–12°."""
    paper = (255, 255, 255) if rng.random() < 0.6 else tuple(int(v) for v in rng.integers(226, 250, 3))
    outlined = bool(rng.random() < 0.6)
    dark = tuple(int(v) for v in rng.integers(10, 70, 3))
    line = dark if rng.random() < 0.8 else tuple(int(v) for v in rng.integers(70, 200, 3))
    return Edition(
        name,
        random_fills(rng, paper),  # type: ignore[arg-type]
        textured=bool(rng.random() < 0.4),
        paper=paper,  # type: ignore[arg-type]
        gap_mm=float(rng.choice([0.0, rng.uniform(0.4, 1.6)])),
        line_mm=float(rng.uniform(0.3, 1.2)) if outlined else 0.0,
        line=line,  # type: ignore[arg-type]
        edge_mm=float(rng.uniform(0.2, 0.8)) if rng.random() < 0.6 else 0.0,
        corner_mm=float(rng.choice([0.0, rng.uniform(0.5, 2.5)])),
        silhouette=bool(rng.random() < 0.65),
        shapes=random_shapes(rng),
        icon_scale=float(rng.uniform(0.3, 0.6)),
        icon_turn=float(rng.uniform(0.0, 12.0)),
        icon_mirror=bool(rng.random() < 0.4),
        ink=dark,  # type: ignore[arg-type]
    )
