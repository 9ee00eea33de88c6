"""The photo simulator: a finished city (and its scoring cards) on a table, photographed by a phone.

:func:`render_photo` draws every condition of a real photo from one integer seed, or takes some of them
as keyword overrides, and returns a :class:`SynthPhoto` with the image, its JPEG file and the ground
truth. The seed is split into independent streams for the conditions, the city, the art and the photo
effects, so overriding a condition (say ``table="wood"``) photographs the same city with the same art:
a fixed-seed evaluation set can be stratified by condition.

Pipeline: table texture (:func:`models.synth.tables.table_view`) and card art are warped straight into the
12 MP frame through the camera homography (``cv2.warpPerspective``), with the shadows of covering cards;
then what the phone does (:mod:`models.synth.phone`): lens blur, white-balance cast, uneven light and glare,
sensor noise, JPEG and EXIF orientation. What varies is :mod:`models.synth.conditions`'.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from models.synth.art import (
    CARD_CORNERS_MM,
    CARD_H,
    CARD_W,
    CardPose,
    Layout,
    cell_truths,
    lay_out,
    paste,
    render_card_art,
    render_scoring_back,
)
from models.synth.camera import local_scale, project
from models.synth.city_edition import CityEdition, check_city_edition
from models.synth.clutter import TableObject, place_objects, render_object
from models.synth.conditions import Conditions, conditions_with
from models.synth.phone import encode_jpeg, frame_scene, photo_effects
from models.synth.tables import table_view
from models.synth.truth import CardTruth, ObjectTruth, PhotoTruth, ScoringCardTruth, rounded_points
from scoring.city import format_city
from scoring.placement import Play, simulate_play

__all__ = ["SynthPhoto", "render_photo", "seed_streams"]


@dataclass(frozen=True)
class SynthPhoto:
    """A simulated photo: ``image`` (H×W×3 ``uint8`` RGB, as displayed, i.e. after applying the EXIF
    orientation; before JPEG), ``jpeg`` (the file's bytes: the pixels stored turned so that the EXIF tag
    turns them back to ``image``), and ``truth`` (in ``image`` pixel coordinates)."""

    image: np.ndarray
    jpeg: bytes
    truth: PhotoTruth
    conditions: Conditions = field(repr=False)

    def heic(self, quality: int = 80) -> bytes:
        """``image`` encoded as HEIC, the way iPhones upload photos (upright, no EXIF orientation). Slow:
        several seconds at 12 MP."""
        import pillow_heif  # optional codec, loaded only when asked for

        pillow_heif.register_heif_opener()
        buf = io.BytesIO()
        Image.fromarray(self.image).save(buf, format="HEIF", quality=quality)
        return buf.getvalue()


def seed_streams(seed: int) -> list[np.random.Generator]:
    """Independent generators for: conditions, city, card art and layout, table, photo effects, clutter."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(6)]


def _scoring_layout(layout: Layout, play: Play, rng: np.random.Generator) -> list[CardPose]:
    """The three scoring cards in a row beside the city (below, above, left or right of it)."""
    corners = np.vstack([layout.corners_mm(i) for i in range(len(play.placements))])
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    side = int(rng.integers(4))
    gap = float(rng.uniform(12, 45))
    spacing = float(rng.uniform(4, 20))
    poses = []
    for k in range(3):
        turn = float(rng.normal(0, 2.5)) + (180.0 if rng.random() < 0.25 else 0.0)
        if side in (0, 1):  # a row below or above
            x = (x0 + x1) / 2 + (k - 1) * (CARD_W + spacing) - CARD_W / 2
            y = y1 + gap if side == 0 else y0 - gap - CARD_H
        else:  # a column right or left
            x = x1 + gap if side == 2 else x0 - gap - CARD_W
            y = (y0 + y1) / 2 + (k - 1) * (CARD_H + spacing) - CARD_H / 2
        x += float(rng.normal(0, 3))
        y += float(rng.normal(0, 3))
        poses.append(_turned_about_centre(x, y, turn))
    return poses


def _turned_about_centre(x: float, y: float, turn: float) -> CardPose:
    t = math.radians(turn)
    c, s = math.cos(t), math.sin(t)
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    return CardPose(cx - (c * CARD_W / 2 - s * CARD_H / 2), cy - (s * CARD_W / 2 + c * CARD_H / 2), turn)


def _paste_scene(
    img: np.ndarray,
    hom: np.ndarray,
    scene: np.ndarray,
    play: Play,
    layout: Layout,
    score_poses: list[CardPose],
    objects: list[TableObject],
    cond: Conditions,
    art_rng: np.random.Generator,
    clutter_rng: np.random.Generator,
    edition: CityEdition | None = None,
) -> np.ndarray:
    """Paste the objects, the scoring cards and the city's cards (bottom to top, in ``edition``) into
    ``img`` with their shadows; return the coverage mask of the glossy cards (H×W ``uint8``), for the glare.
    Cards are drawn at a resolution just above what the camera resolves anywhere on them."""
    ppm = min(9.0, max(1.5, 1.1 * max(local_scale(hom, tuple(p)) for p in scene)))
    card_px = np.diag([1 / ppm, 1 / ppm, 1.0])
    light = art_rng.normal(0, 1, 2)
    light = tuple(light / max(float(np.hypot(*light)), 1e-6))
    shadow_px = float(art_rng.uniform(0.5, 1.2)) * local_scale(hom, tuple(scene.mean(axis=0)))
    coverage = np.zeros(img.shape[:2], np.uint8)
    for obj in objects:
        art = render_object(obj.kind, obj.width, obj.height, clutter_rng, min(ppm, 4.0))
        to_obj = np.diag([1 / art.ppm, 1 / art.ppm, 1.0])
        # Objects stand taller than cards: a longer, softer shadow.
        paste(img, art, hom @ obj.pose.matrix() @ to_obj, min(0.6, cond.shadow * 1.5), 4 * shadow_px, light)
    if cond.scoring_cards:
        for number, pose in zip(play.scoring_cards, score_poses, strict=True):
            art = render_scoring_back(number, art_rng, ppm)
            paste(img, art, hom @ pose.matrix() @ card_px, cond.shadow, shadow_px, light, coverage)
    for i in range(len(play.placements)):
        art = render_card_art(play, i, art_rng, ppm, edition)
        paste(img, art, hom @ layout.poses[i].matrix() @ card_px, cond.shadow, shadow_px, light, coverage)
    return coverage


def render_photo(seed: int, *, edition: CityEdition | None = None, **overrides: Any) -> SynthPhoto:
    """Render the photo of ``seed``: conditions drawn from the seed, then replaced by ``overrides``
    (any :class:`Conditions` field, e.g. ``table="wood", tilt=30, long_side=800``); the city's cards in
    ``edition``'s printing (:mod:`~models.synth.city_edition`; default the shipped look, the truth's
    conditions then naming no edition).

    Same seed and overrides → byte-identical ``image``, ``jpeg`` and ``truth``. Raises ``ValueError`` for an
    unknown or out-of-range condition.
    """
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number ≥ 0, got {seed!r}")
    edition = check_city_edition(edition)
    cond_rng, city_rng, art_rng, table_rng, fx_rng, clutter_rng = seed_streams(seed)
    cond = conditions_with(cond_rng, overrides)
    play = simulate_play(
        random.Random(int(city_rng.integers(2**63))),
        cond.n_cards,
        wrecktar=cond.wrecktar,
        poi=cond.poi,
        construction=cond.construction,
    )
    layout = lay_out(play, art_rng)
    score_poses = _scoring_layout(layout, play, art_rng)
    corners = [layout.corners_mm(i) for i in range(len(play.placements))]
    score_corners = [(np.c_[CARD_CORNERS_MM, np.ones(4)] @ p.matrix().T)[:, :2] for p in score_poses]
    scene = np.vstack(corners + (score_corners if cond.scoring_cards else []))
    size = cond.size()
    hom = frame_scene(scene, cond, fx_rng)

    img = table_view(cond.table, hom, size, scene, table_rng)
    objects = place_objects(cond.clutter, np.vstack(corners + score_corners), clutter_rng)
    coverage = _paste_scene(
        img, hom, scene, play, layout, score_poses, objects, cond, art_rng, clutter_rng, edition
    )
    img = photo_effects(img, cond, fx_rng, coverage, hom)
    truth = PhotoTruth(
        seed=seed,
        width=size[0],
        height=size[1],
        city=format_city(play.city),
        cards=tuple(
            CardTruth(p.kind, p.number, p.rotated, p.row, p.col, rounded_points(project(hom, corners[i])))
            for i, p in enumerate(play.placements)
        ),
        scoring_cards=tuple(
            ScoringCardTruth(n, rounded_points(project(hom, c)), cond.scoring_cards)
            for n, c in zip(play.scoring_cards, score_corners, strict=True)
        ),
        cells=tuple(
            (t.row, t.col, round(t.x, 2), round(t.y, 2), t.cell.token())
            for t in cell_truths(play, layout, hom)
        ),
        objects=tuple(ObjectTruth(o.kind, rounded_points(project(hom, o.corners_mm()))) for o in objects),
        homography=tuple(tuple(float(f"{v:.9g}") for v in row) for row in hom),
        pitch_mm=(round(layout.pitch[0], 4), round(layout.pitch[1], 4)),
        conditions=cond.to_json() | ({} if edition is None else {"edition": edition.to_json()}),
        notes=play.notes,
    )
    return SynthPhoto(img, encode_jpeg(img, cond), truth, cond)
