"""A look-alike Circle the Wagons card: four territories (2 × 2) on a portrait card, each a texture on its
pale ground inside a thin cream outline, with its icon large in the middle.

An :class:`~models.synth.wagons.edition.Edition` other than the boxed one (the default) draws another
printing of the same cards: its fills, flat or textured, its outlines and its icons (full colour or
one-colour silhouettes); see :func:`render_edition_card`.

Cards are drawn unturned (icons upright); a card lying turned by 180° is this picture turned. The art of
card ``n`` in print ``look`` is drawn from ``rng([look.seed, n])`` (:func:`card_rng`), so the same print
shows the same card at every resolution, in a town photo as in a deck photo.
"""

from __future__ import annotations

import numpy as np

from models.synth import palette as pal
from models.synth.art import CardArt, print_variation
from models.synth.draw import Color, Pen, rounded_rect_mask
from models.synth.wagons.edition import Edition, check_edition
from models.synth.wagons.icons import draw_icon
from models.synth.wagons.look import Look
from models.synth.wagons.silhouettes import draw_silhouette
from models.synth.wagons.textures import draw_territory
from scoring.wagons.cards import CARDS, card_grid

CARD_W = 63.5  # mm: the Button Shy card, lying portrait
CARD_H = 88.9
TERR_W = CARD_W / 2  # a territory, about 31.75 × 44.45 mm
TERR_H = CARD_H / 2
CORNER_R = 3.0
#: Card corners in card-local mm: TL, TR, BR, BL (as the card lies unturned).
CARD_CORNERS_MM = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)


def card_rng(look: Look, number: int) -> np.random.Generator:
    """The generator card ``number``'s art is drawn from in print ``look``."""
    return np.random.default_rng([look.seed, number, 2929])


def render_territory(
    terrain: str,
    icon: str | None,
    look: Look,
    rng: np.random.Generator,
    ppm: float,
    size: tuple[int, int] | None = None,
    edition: Edition | None = None,
) -> np.ndarray:
    """One territory's picture inside its cream outline (``size`` = (w, h) px, default a whole territory):
    its texture and, unless ``icon`` is ``None``, its icon in the middle; in ``edition``'s printing when
    one other than the boxed print is given."""
    w_px, h_px = size or (int(round(TERR_W * ppm)), int(round(TERR_H * ppm)))
    w, h = w_px / ppm, h_px / ppm
    img = np.zeros((h_px, w_px, 3), np.uint8)
    pen = Pen(img, ppm)
    edition = check_edition(edition)
    if not edition.boxed:
        _edition_territory(pen, terrain, icon, (w, h), look, rng, edition)
        return img
    draw_territory(pen, terrain, w, h, look, rng)
    if icon is not None:
        height = TERR_H * look.icon_size * float(rng.uniform(0.92, 1.08))
        centre = (w / 2 + float(rng.normal(0, 0.4)), h / 2 + float(rng.normal(0, 0.6)))
        draw_icon(pen, icon, centre, height, look, rng, look.colours(terrain)[0])
    return img


def _edition_territory(
    pen: Pen,
    terrain: str,
    icon: str | None,
    size_mm: tuple[float, float],
    look: Look,
    rng: np.random.Generator,
    edition: Edition,
) -> None:
    """A territory of a non-boxed edition: its fill (flat, or the terrain's texture in the fill's
    colours) and its icon (a one-colour silhouette or the boxed full-colour drawing)."""
    w, h = size_mm
    fill = edition.fill(terrain)
    if edition.textured:
        draw_territory(pen, terrain, w, h, look, rng, edition.textured_colours(terrain))
    else:
        pen.rect(-1, -1, w + 2, h + 2, pal.vary(rng, fill, 1.5, 1.0))
    if icon is None:
        return
    height = TERR_H * edition.icon_scale * float(rng.uniform(0.95, 1.05))
    centre = (w / 2 + float(rng.normal(0, 0.3)), h / 2 + float(rng.normal(0, 0.4)))
    if edition.silhouette:
        pose = (float(rng.normal(0, edition.icon_turn)), edition.icon_mirror and bool(rng.random() < 0.5))
        draw_silhouette(pen, edition.shapes[icon], centre, height, edition.icon_colour(terrain), pose, rng)
    else:
        draw_icon(pen, icon, centre, height, look, rng, fill)


def _rounded_outline(
    pen: Pen, box: tuple[float, float, float, float], r: float, colour: Color, width: float
) -> None:
    """The outline of the mm box (x, y, w, h) with corners rounded to ``r`` mm."""
    x, y, w, h = box
    r = max(0.0, min(r, w / 2, h / 2))
    pts = []
    for cx, cy, a0 in (
        (x + w - r, y + r, -90),
        (x + w - r, y + h - r, 0),
        (x + r, y + h - r, 90),
        (x + r, y + r, 180),
    ):
        pts += [
            (cx + r * np.cos(np.radians(a)), cy + r * np.sin(np.radians(a)))
            for a in np.linspace(a0, a0 + 90, 7)
        ]
    pen.poly(pts, None, colour, width)


def render_edition_card(
    number: int, look: Look, ppm: float, rng: np.random.Generator, edition: Edition
) -> CardArt:
    """Card ``number`` in a non-boxed ``edition``: paper, four territories with ``edition.gap_mm`` of paper
    between them and round the card, their outlines, the line round the cut edge."""
    w, h = int(round(CARD_W * ppm)), int(round(CARD_H * ppm))
    rgb = np.empty((h, w, 3), np.uint8)
    rgb[:] = pal.vary(rng, edition.paper, 1.5, 1.0)
    pen, gap, grid = Pen(rgb, ppm), edition.gap_mm, card_grid(number)
    boxes = []
    for dr in (0, 1):
        for dc in (0, 1):
            x0, x1 = dc * TERR_W + gap * (1.0 - dc / 2), (dc + 1) * TERR_W - gap * (0.5 + dc / 2)
            y0, y1 = dr * TERR_H + gap * (1.0 - dr / 2), (dr + 1) * TERR_H - gap * (0.5 + dr / 2)
            px0, py0, px1, py1 = (int(round(v * ppm)) for v in (x0, y0, x1, y1))
            cell = grid[dr][dc]
            inner = render_territory(cell.terrain, cell.icon, look, rng, ppm, (px1 - px0, py1 - py0), edition)
            mask = rounded_rect_mask(px1 - px0, py1 - py0, edition.corner_mm * ppm)[..., None] > 0
            roi = rgb[py0:py1, px0:px1]
            roi[:] = np.where(mask, inner, roi)
            boxes.append((px0 / ppm, py0 / ppm, (px1 - px0) / ppm, (py1 - py0) / ppm))
    if edition.line_mm > 0:
        for box in boxes:
            _rounded_outline(pen, box, edition.corner_mm, pal.vary(rng, edition.line, 2, 1), edition.line_mm)
    if edition.edge_mm > 0:
        e = edition.edge_mm / 2
        _rounded_outline(
            pen, (e, e, CARD_W - 2 * e, CARD_H - 2 * e), CORNER_R - e, edition.line, edition.edge_mm
        )
    return CardArt(print_variation(rgb, rng, 0.5 * look.spread), rounded_rect_mask(w, h, CORNER_R * ppm), ppm)


def render_wagons_card(
    number: int,
    look: Look,
    ppm: float,
    rng: np.random.Generator | None = None,
    edition: Edition | None = None,
) -> CardArt:
    """Card ``number`` (0–17) in print ``look`` at ``ppm`` px/mm, unturned: RGB and its rounded outline.
    ``rng`` defaults to the card's own (:func:`card_rng`); the printed territories are its table's.
    ``edition`` (default the boxed print) is the printing drawn."""
    if number not in CARDS:
        raise ValueError(f"no Circle the Wagons card {number} (cards are 0 to {max(CARDS)})")
    edition = check_edition(edition)
    rng = card_rng(look, number) if rng is None else rng
    if not edition.boxed:
        return render_edition_card(number, look, ppm, rng, edition)
    w, h = int(round(CARD_W * ppm)), int(round(CARD_H * ppm))
    rgb = np.empty((h, w, 3), np.uint8)
    rgb[:] = pal.vary(rng, look.cream, 3, 2)
    grid = card_grid(number)
    border = look.border * float(rng.uniform(0.9, 1.1))
    for dr in (0, 1):
        for dc in (0, 1):
            x0 = int(round((dc * TERR_W + border) * ppm))
            y0 = int(round((dr * TERR_H + border) * ppm))
            x1 = int(round(((dc + 1) * TERR_W - border) * ppm))
            y1 = int(round(((dr + 1) * TERR_H - border) * ppm))
            cell = grid[dr][dc]
            inner = render_territory(cell.terrain, cell.icon, look, rng, ppm, (x1 - x0, y1 - y0))
            mask = rounded_rect_mask(x1 - x0, y1 - y0, look.corner * ppm)[..., None] > 0
            roi = rgb[y0:y1, x0:x1]
            roi[:] = np.where(mask, inner, roi)
    if rng.random() < 0.6:  # the cut edge reads as a thin dark or light line
        edge = (60, 54, 50) if rng.random() < 0.5 else (236, 230, 216)
        Pen(rgb, ppm).rect(0.1, 0.1, CARD_W - 0.2, CARD_H - 0.2, None, edge, float(rng.uniform(0.15, 0.35)))
    return CardArt(print_variation(rgb, rng, 0.5 * look.spread), rounded_rect_mask(w, h, CORNER_R * ppm), ppm)
