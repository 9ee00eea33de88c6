"""Phone photos of Circle the Wagons towns, with the Sprawlopolis simulator's tables, light and camera.

:func:`render_town_photo` draws a random legal town (or photographs a given one, :func:`render_given_town`)
in one print of the look-alike art (:class:`~models.synth.wagons.look.Look`), lays it on a table by hand,
frames it with the phone camera of :mod:`models.synth.scene` and applies the same photo effects. The truth
is a :class:`TownTruth`: the Sprawlopolis photo truth with the town (town format) in ``city`` and
``"game": "wagons"``; ``conditions`` holds the photo's conditions and the print's ``look`` (and its
``edition`` when another printing than the boxed one is drawn: :mod:`~models.synth.wagons.edition`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from models.synth.art import paste
from models.synth.camera import local_scale, project
from models.synth.clutter import TableObject, place_objects, render_object
from models.synth.conditions import Conditions, check_conditions, coerce, sample_conditions
from models.synth.phone import encode_jpeg, frame_scene, photo_effects
from models.synth.scene import SynthPhoto, seed_streams
from models.synth.tables import table_view
from models.synth.truth import CardTruth, ObjectTruth, PhotoTruth, rounded_points
from models.synth.wagons.card import render_wagons_card
from models.synth.wagons.edition import Edition, check_edition
from models.synth.wagons.layout import TownLayout, cell_points, lay_out_town
from models.synth.wagons.look import Look, sample_look
from models.synth.wagons.town import TownPlay, simulate_town, stack_for_town
from scoring.wagons.cards import CARDS
from scoring.wagons.town import Town, format_town
from scoring.wagons.town_text import parse_town

#: Conditions of a Sprawlopolis photo that a town photo does not have (its goal cards are named by the
#: player, not photographed).
SPRAWL_ONLY = ("scoring_cards", "wrecktar", "poi", "construction")

__all__ = ["TownTruth", "render_given_town", "render_town_photo"]


@dataclass(frozen=True)
class TownTruth(PhotoTruth):
    """The truth of a town photo: ``city`` is the town in the town format, ``cards`` are of kind
    ``"wagons"`` (corners TL, TR, BR, BL as the card lies in the lattice), there are no scoring cards."""

    def parsed_town(self) -> Town:
        return parse_town(self.city)

    def to_json(self) -> dict[str, Any]:
        return {"game": "wagons", **super().to_json()}


def _n_cards(rng: np.random.Generator) -> int:
    """How many cards a finished town has: about 7 (a two-player game deals about that many each), from 1
    to 18."""
    if rng.random() < 0.08:
        return int(rng.integers(1, len(CARDS) + 1))
    return int(np.clip(round(rng.normal(7, 2.5)), 2, 15))


def town_conditions(seed_rng: np.random.Generator, overrides: dict[str, Any]) -> Conditions:
    """The photo's conditions: the Sprawlopolis ones (without its scoring cards and expansions) and the
    town's number of cards, replaced by ``overrides``; ``ValueError`` naming a bad one."""
    sprawl = sorted(set(overrides) & set(SPRAWL_ONLY))
    if sprawl:
        raise ValueError(f"{sprawl[0]} is a Sprawlopolis condition, not one of a Circle the Wagons photo")
    known = {f.name for f in fields(Conditions)} - set(SPRAWL_ONLY)
    unknown = sorted(set(overrides) - known)
    if unknown:
        names = ", ".join(sorted(known | {"look", "art_spread"}))
        raise ValueError(f"unknown condition(s) {', '.join(unknown)}; known: {names}")
    base = replace(sample_conditions(seed_rng), n_cards=_n_cards(seed_rng), scoring_cards=False)
    base = replace(base, wrecktar=False, poi=False, construction=0)
    cond = replace(base, **{k: coerce(k, v, getattr(base, k)) for k, v in overrides.items()})
    if not 1 <= cond.n_cards <= len(CARDS):
        raise ValueError(f"n_cards must be 1..{len(CARDS)} for a town, got {cond.n_cards}")
    check_conditions(replace(cond, n_cards=1))
    return cond


def _paste_town(
    img: np.ndarray,
    hom: np.ndarray,
    play: TownPlay,
    layout: TownLayout,
    print_: tuple[Look, Edition],
    cond: Conditions,
    rngs: tuple[np.random.Generator, np.random.Generator],
    objects: list[TableObject],
) -> np.ndarray:
    """Paste the objects and the town's cards (bottom first) with their shadows; the cards' coverage."""
    art_rng, clutter_rng = rngs
    scene = np.vstack([layout.corners_mm(i) for i in range(len(play.placements))])
    ppm = min(9.0, max(1.5, 1.1 * max(local_scale(hom, tuple(p)) for p in scene)))
    light = art_rng.normal(0, 1, 2)
    light = tuple(light / max(float(np.hypot(*light)), 1e-6))
    shadow_px = float(art_rng.uniform(0.5, 1.2)) * local_scale(hom, tuple(scene.mean(axis=0)))
    coverage = np.zeros(img.shape[:2], np.uint8)
    for obj in objects:
        art = render_object(obj.kind, obj.width, obj.height, clutter_rng, min(ppm, 4.0))
        to_obj = np.diag([1 / art.ppm, 1 / art.ppm, 1.0])
        paste(img, art, hom @ obj.pose.matrix() @ to_obj, min(0.6, cond.shadow * 1.5), 4 * shadow_px, light)
    card_px = np.diag([1 / ppm, 1 / ppm, 1.0])
    for i, p in enumerate(play.placements):
        art = render_wagons_card(p.number, print_[0], ppm, edition=print_[1])
        paste(img, art, hom @ layout.pose(i).matrix() @ card_px, cond.shadow, shadow_px, light, coverage)
    return coverage


def render_town_photo(
    seed: int,
    *,
    play: TownPlay | None = None,
    look: int | None = None,
    art_spread: float = 1.0,
    edition: Edition | None = None,
    **overrides: Any,
) -> SynthPhoto:
    """The town photo of ``seed``: a random town (or ``play``), in the print ``look`` (a seed; default
    ``seed``: each photo its own print) drawn ``art_spread`` wide, photographed under conditions drawn from
    the seed and replaced by ``overrides`` (any Sprawlopolis condition but its scoring cards and expansions,
    and ``n_cards`` 1–18). ``edition`` is the printing of the cards (default the boxed print). Same arguments
    → the same bytes. ``ValueError`` for a bad argument."""
    edition = check_edition(edition)
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number ≥ 0, got {seed!r}")
    if look is not None and (not isinstance(look, int) or isinstance(look, bool) or look < 0):
        raise ValueError(f"look must be a whole number ≥ 0 (a print of the art), got {look!r}")
    if isinstance(art_spread, bool) or not isinstance(art_spread, int | float):
        raise ValueError(f"art_spread must be a number 0..3, got {art_spread!r}")
    if play is not None:
        overrides = {**overrides, "n_cards": len(play.placements)}
    cond_rng, town_rng, art_rng, table_rng, fx_rng, clutter_rng = seed_streams(seed)
    cond = town_conditions(cond_rng, overrides)
    if play is None:
        play = simulate_town(random.Random(int(town_rng.integers(2**63))), cond.n_cards)
    print_ = sample_look(seed if look is None else look, art_spread)
    layout = lay_out_town(play, art_rng)
    corners = [layout.corners_mm(i) for i in range(len(play.placements))]
    scene = np.vstack(corners)
    size = cond.size()
    hom = frame_scene(scene, cond, fx_rng)
    img = table_view(cond.table, hom, size, scene, table_rng)
    objects = place_objects(cond.clutter, scene, clutter_rng)
    coverage = _paste_town(img, hom, play, layout, (print_, edition), cond, (art_rng, clutter_rng), objects)
    img = photo_effects(img, cond, fx_rng, coverage, hom)
    cells = cell_points(play, layout)
    pts = project(hom, np.array([[x, y] for _, _, x, y, _ in cells]))
    conditions = {k: v for k, v in cond.to_json().items() if k not in SPRAWL_ONLY}
    truth = TownTruth(
        seed=seed,
        width=size[0],
        height=size[1],
        city=format_town(play.town),
        cards=tuple(
            CardTruth("wagons", p.number, p.rotated, p.row, p.col, rounded_points(project(hom, corners[i])))
            for i, p in enumerate(play.placements)
        ),
        scoring_cards=(),
        cells=tuple(
            (r, c, round(float(x), 2), round(float(y), 2), token)
            for (r, c, _, _, token), (x, y) in zip(cells, pts, strict=True)
        ),
        objects=tuple(ObjectTruth(o.kind, rounded_points(project(hom, o.corners_mm()))) for o in objects),
        homography=tuple(tuple(float(f"{v:.9g}") for v in row) for row in hom),
        pitch_mm=(round(layout.pitch[0], 4), round(layout.pitch[1], 4)),
        conditions={**conditions, "look": print_.to_json(), **_edition_json(edition)},
    )
    return SynthPhoto(img, encode_jpeg(img, cond), truth, cond)


def _edition_json(edition: Edition) -> dict[str, Any]:
    """The edition as the truth's conditions name it: nothing for the boxed print (truths as before)."""
    return {} if edition.boxed else {"edition": edition.to_json()}


def render_given_town(town: Town, seed: int = 0, cards: list[int] | None = None, **kwargs: Any) -> SynthPhoto:
    """A photo of ``town`` (e.g. ``samples/wagons-rulebook.town``) built from ``cards`` (default: its
    ``cards:`` header), the stack found by :func:`~models.synth.wagons.town.stack_for_town`; the other
    arguments as :func:`render_town_photo`. ``ValueError`` when the cards cannot show the town."""
    if cards is None:
        header = town.header("cards")
        if not header:
            raise ValueError("the town names no cards (a 'cards:' header line) and none were given")
        cards = [int(w) for w in header.replace(",", " ").split()]
    return render_town_photo(seed, play=stack_for_town(town, cards), **kwargs)
