"""Look-alike card art and the top-down render of a finished city.

Cards are drawn procedurally (``models.synth.blocks``) at any resolution; :func:`render_city_topdown` lays
the cards of a :class:`~scoring.placement.Play` on a table the way hands do (small shifts and turns, gaps,
shadows along covering edges) and returns the exact centre of every lattice cell with its label: the
training source of the cell classifier.

Coordinates: an image pixel (i, j) has its centre at (x=i, y=j); card-local millimetres map to card-image
pixels by ``px = mm * ppm``. The lattice in the top-down image is the one of :mod:`vision.lattice.fit`: blocks
wider than tall, lattice rows along the image y axis.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

from models.synth import palette as pal
from models.synth.blocks import BLOCK_H, BLOCK_W, draw_block
from models.synth.city_edition import CityEdition, check_city_edition, draw_edition_block
from models.synth.draw import Pen, rounded_rect_mask
from models.synth.tables import COMMON_TABLES, TableKind, render_table
from scoring.city import EMPTY, Cell, City
from scoring.placement import Placement, Play, card_cell
from vision.lattice import Lattice

CARD_W = 2 * BLOCK_W  # 88.9 mm
CARD_H = 2 * BLOCK_H  # 63.5 mm
CORNER_R = 3.0
#: Card corners in card-local mm, in the order used everywhere: TL, TR, BR, BL (as the card lies).
CARD_CORNERS_MM = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)


def as_generator(rng: np.random.Generator | random.Random | int) -> np.random.Generator:
    """A NumPy generator from a NumPy generator, a ``random.Random`` (one draw from it) or a seed."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(64))
    return np.random.default_rng(rng)


@dataclass(frozen=True)
class CardArt:
    """One card's picture: ``rgb`` (H×W×3 ``uint8``) and ``mask`` (H×W ``uint8``, 255 inside the rounded
    outline), drawn at ``ppm`` px/mm; W = round(88.9 ppm), H = round(63.5 ppm)."""

    rgb: np.ndarray
    mask: np.ndarray
    ppm: float


def _blank_card(ppm: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = int(round(CARD_W * ppm)), int(round(CARD_H * ppm))
    return np.zeros((h, w, 3), np.uint8), rounded_rect_mask(w, h, CORNER_R * ppm)


def render_city_card(
    blocks: tuple[tuple[Cell, Cell], tuple[Cell, Cell]],
    rng: np.random.Generator,
    ppm: float,
    edition: CityEdition | None = None,
) -> CardArt:
    """A city card showing ``blocks`` ((TL, TR), (BL, BR)) as laid; the art is new on every call. In
    ``edition``'s printing when one is given (:mod:`~models.synth.city_edition`), else the shipped look."""
    edition = check_city_edition(edition)
    rgb, mask = _blank_card(ppm)
    for dr in (0, 1):
        for dc in (0, 1):
            pen = Pen(rgb, ppm, (dc * BLOCK_W, dr * BLOCK_H))
            if edition is None:
                draw_block(pen, blocks[dr][dc], rng)
            else:
                draw_edition_block(pen, blocks[dr][dc], rng, edition)
    if rng.random() < 0.7:  # the cut edge of the card reads as a thin dark or light line
        edge = (40, 36, 34) if rng.random() < 0.6 else (236, 232, 222)
        Pen(rgb, ppm).rect(0.1, 0.1, CARD_W - 0.2, CARD_H - 0.2, None, edge, float(rng.uniform(0.15, 0.4)))
    return CardArt(print_variation(rgb, rng), mask, ppm)


def print_variation(rgb: np.ndarray, rng: np.random.Generator, strength: float = 0.6) -> np.ndarray:
    """The same art printed on another press run: per-channel gains (σ 3% × ``strength``) and slight
    cross-talk between channels (σ 1.5% × ``strength``),
    as a 3×3 colour matrix."""
    m = np.eye(3) + rng.normal(0, 0.015 * strength, (3, 3)) + np.diag(rng.normal(0, 0.03 * strength, 3))
    return cv2.transform(rgb, m.astype(np.float32))


def render_wrecktar(rng: np.random.Generator, ppm: float) -> CardArt:
    """Wrecktar, drawn as a dark monster card (its printed look is not documented; this is a stand-in)."""
    rgb, mask = _blank_card(ppm)
    pen = Pen(rgb, ppm)
    sky = pal.vary(rng, (92, 46, 70), 10)
    pen.rect(0, 0, CARD_W, CARD_H, sky)
    for _ in range(14):  # rubble
        pen.rect(
            float(rng.uniform(0, CARD_W)),
            float(rng.uniform(40, CARD_H)),
            float(rng.uniform(3, 9)),
            float(rng.uniform(2, 6)),
            pal.vary(rng, (110, 100, 96), 14),
            pal.OUTLINE,
            0.3,
            float(rng.uniform(-30, 30)),
        )
    body = pal.vary(rng, (70, 130, 70), 14)
    pen.ellipse(CARD_W / 2, CARD_H * 0.55, 22, 20, 0, body, pal.OUTLINE, 0.6)
    pen.circle(CARD_W / 2 - 8, CARD_H * 0.42, 4, (250, 240, 120), pal.OUTLINE, 0.4)
    pen.circle(CARD_W / 2 + 8, CARD_H * 0.42, 4, (250, 240, 120), pal.OUTLINE, 0.4)
    pen.rect(CARD_W / 2 - 10, CARD_H * 0.62, 20, 4, (40, 20, 24), pal.OUTLINE, 0.4)
    return CardArt(rgb, mask, ppm)


def render_poi_card(
    blocks: tuple[tuple[Cell, Cell], tuple[Cell, Cell]], rng: np.random.Generator, ppm: float
) -> CardArt:
    """The Point of Interest card: blocks drawn like a city card's (its POI block gets the yellow frame)."""
    return render_city_card(blocks, rng, ppm)


def _condensed_text(
    rgb: np.ndarray,
    text: str,
    box: tuple[int, int, int, int],
    color: tuple[int, int, int],
) -> None:
    """Write ``text`` squeezed into pixel ``box`` (x, y, w, h) in a bold Hershey font, dark over light."""
    x, y, w, h = box
    if w < 2 or h < 2:
        return
    scale = 4.0
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 12)
    tmp = np.zeros((th + base + 12, tw + 12), np.uint8)
    cv2.putText(tmp, text, (6, th + 6), cv2.FONT_HERSHEY_DUPLEX, scale, 255, 12, cv2.LINE_AA)
    ys, xs = np.nonzero(tmp)
    tmp = tmp[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    patch = cv2.resize(tmp, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    roi = rgb[y : y + h, x : x + w]
    roi[:] = (roi * (1 - patch) + np.asarray(color, np.float32) * patch).astype(np.uint8)


def render_scoring_back(number: int, rng: np.random.Generator, ppm: float) -> CardArt:
    """The scoring side of card ``number``, laid out as the real backs measure: graph paper; a grey-brown
    title band across the card from 0.10 to 0.23 of its height, with a light dashed line; the number circle
    on the band (centre at 0.125 of the width and 0.15 of the height, 0.19 of the height across: it stands
    out above and below the band), pale yellow with a thin olive rim and the number in bold black; the
    card's name as dark capital-like shapes on the band right of the circle; rule text and small cell
    diagrams below. Our own drawing: only the layout follows the real cards, no text or art is copied."""
    rgb, mask = _blank_card(ppm)
    pen = Pen(rgb, ppm)
    paper = pal.vary(rng, (214, 211, 204), 8, 3)
    pen.rect(0, 0, CARD_W, CARD_H, paper)
    grid = pal.scaled(paper, 0.9)
    step = float(rng.choice([2.5, 3.0, 4.0]))
    for k in np.arange(step, CARD_W, step):
        pen.line((k, 0), (k, CARD_H), grid, 0.12)
    for k in np.arange(step, CARD_H, step):
        pen.line((0, k), (CARD_W, k), grid, 0.12)
    band_top, band_h = CARD_H * float(rng.uniform(0.095, 0.105)), CARD_H * float(rng.uniform(0.125, 0.135))
    pen.rect(0, band_top, CARD_W, band_h, pal.vary(rng, (138, 127, 103), 10, 4))
    mid = band_top + band_h / 2
    for k in np.arange(1.5, CARD_W, 5.0):
        pen.line((k, mid), (k + 2.6, mid), pal.vary(rng, (226, 222, 210), 8), 0.45)
    cx, cy = CARD_W * float(rng.uniform(0.12, 0.13)), CARD_H * float(rng.uniform(0.145, 0.155))
    r = CARD_H * float(rng.uniform(0.092, 0.098))
    pen.circle(cx, cy, r, pal.vary(rng, (222, 182, 104), 10, 4), pal.vary(rng, (112, 104, 52), 10), 0.35)
    text = str(number)
    # Digits about 70 % of the circle's height; two of them about 0.75 of its width (measured on backs).
    tw = (0.75 if len(text) == 1 else 1.5) * r * float(rng.uniform(0.9, 1.1))
    th = 1.4 * r * float(rng.uniform(0.95, 1.05))
    _condensed_text(
        rgb,
        text,
        (int((cx - tw / 2) * ppm), int((cy - th / 2) * ppm), int(tw * ppm), int(th * ppm)),
        (18, 16, 16),
    )
    # The name: a run of bold capital-like shapes on the band.
    ink = pal.vary(rng, (40, 36, 34), 6)
    x = cx + r + float(rng.uniform(1.0, 2.0))
    cap_h = band_h * float(rng.uniform(0.55, 0.7))
    for _ in range(int(rng.integers(6, 15))):
        cw = float(rng.uniform(2.0, 3.0))
        if x + cw > CARD_W - 3:
            break
        pen.rect(x, mid - cap_h / 2, cw, cap_h, ink)
        pen.rect(x + cw * 0.35, mid - cap_h / 2 + rng.uniform(0.6, 2.0), cw * 0.3, 1.0, pal.scaled(ink, 3.0))
        x += cw + (0.5 if rng.random() < 0.85 else 2.4)
    # Rule text: one or two paragraphs of word-like dashes (some red), room on the right for cell diagrams.
    bottom = CARD_H - 3.0
    red = pal.vary(rng, (196, 52, 48), 10)
    right = CARD_W - float(rng.uniform(28, 34))
    ty = band_top + band_h + float(rng.uniform(3.0, 5.0))
    for paragraph in range(int(rng.integers(1, 3))):
        colour = red if rng.random() < 0.25 else pal.scaled(ink, 1.4)
        for _line in range(int(rng.integers(2, 5))):
            if ty > bottom - 2:
                break
            x = 4.0
            end = right - float(rng.uniform(0, 10)) * (paragraph > 0)
            while x < end - 2:
                ww = min(float(rng.uniform(2, 8)), end - x)
                pen.rect(x, ty, ww, 1.3, colour)
                x += ww + 1.2
            ty += 2.6
        ty += 2.0
    zones = list(pal.GROUND.values())
    bx = right + 2.0
    for d in range(int(rng.integers(1, 3))):  # small diagrams of coloured cells
        rows, cols = int(rng.integers(2, 4)), int(rng.integers(2, 4))
        by = band_top + band_h + 4.0 + d * 12.0
        if by + rows * 3.6 > bottom:
            break
        for i in range(rows):
            for j in range(cols):
                z = zones[int(rng.integers(len(zones)))]
                pen.rect(bx + j * 3.6, by + i * 3.6, 3.4, 3.4, z, pal.OUTLINE, 0.15)
    return CardArt(rgb, mask, ppm)


def paste(
    dst: np.ndarray,
    art: CardArt,
    h_card_to_dst: np.ndarray,
    shadow: float = 0.0,
    shadow_px: float = 2.0,
    light: tuple[float, float] = (0.6, 0.8),
    coverage: np.ndarray | None = None,
) -> None:
    """Composite ``art`` onto ``dst`` (RGB ``uint8``, in place) through the 3×3 map from card pixels to
    ``dst`` pixels, after darkening ``dst`` by up to ``shadow`` (0–1) under a soft copy of the card's
    outline, ``shadow_px`` wide and shifted along ``light`` (the direction the shadow falls). When given,
    ``coverage`` (H×W ``uint8``, same size as ``dst``) is raised to the card's alpha where it lies."""
    hc, wc = art.mask.shape
    corners = np.array([[0, 0, 1], [wc, 0, 1], [wc, hc, 1], [0, hc, 1]], np.float64) @ h_card_to_dst.T
    corners = corners[:, :2] / corners[:, 2:]
    pad = int(np.ceil(3 * shadow_px + 2))
    x0 = max(0, int(np.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - pad)
    x1 = min(dst.shape[1], int(np.ceil(corners[:, 0].max())) + pad + 1)
    y1 = min(dst.shape[0], int(np.ceil(corners[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ h_card_to_dst
    size = (x1 - x0, y1 - y0)
    alpha = cv2.warpPerspective(art.mask, shift, size, flags=cv2.INTER_LINEAR, borderValue=0)
    rgb = cv2.warpPerspective(art.rgb, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    roi = dst[y0:y1, x0:x1]
    a = alpha.astype(np.float32) * (1 / 255)
    out = roi
    # cv2.blendLinear mixes two uint8 images with per-pixel float weights, without float copies of them.
    if shadow > 0:
        m = np.float32([[1, 0, light[0] * shadow_px], [0, 1, light[1] * shadow_px]])
        soft = cv2.warpAffine(a, m, size, borderValue=0)
        dark = cv2.GaussianBlur(soft, (0, 0), max(0.5, shadow_px)) * np.float32(shadow)
        out = cv2.blendLinear(out, np.zeros_like(out), 1 - dark, dark)
    roi[:] = cv2.blendLinear(out, rgb, 1 - a, a)
    if coverage is not None:
        np.maximum(coverage[y0:y1, x0:x1], alpha, out=coverage[y0:y1, x0:x1])


@dataclass(frozen=True)
class CardPose:
    """Where a card lies on the table: its top-left corner ``(x, y)`` in mm and its turn in degrees
    (positive turns the card clockwise on screen, image y pointing down)."""

    x: float
    y: float
    angle: float

    def matrix(self) -> np.ndarray:
        """3×3 map from card-local mm to table mm."""
        t = np.deg2rad(self.angle)
        c, s = np.cos(t), np.sin(t)
        return np.array([[c, -s, self.x], [s, c, self.y], [0, 0, 1]], np.float64)


@dataclass(frozen=True)
class Layout:
    """The cards of a play as hands laid them on the table, in table mm.

    ``poses[i]`` is the pose of ``play.placements[i]``; ``pitch`` is the (x, y) lattice pitch in mm (a block
    plus half the typical gap between cards); the lattice cell (r, c) nominally spans
    ``[c * pitch_x, (c + 1) * pitch_x] × [r * pitch_y, (r + 1) * pitch_y]``.
    """

    poses: tuple[CardPose, ...]
    pitch: tuple[float, float]

    def block_center_mm(self, index: int, dr: int, dc: int) -> tuple[float, float]:
        """Table mm of the centre of block (dr, dc) of card ``index``."""
        p = self.poses[index].matrix() @ np.array([(dc + 0.5) * BLOCK_W, (dr + 0.5) * BLOCK_H, 1.0])
        return float(p[0]), float(p[1])

    def corners_mm(self, index: int) -> np.ndarray:
        """4×2 table mm of card ``index``'s corners: TL, TR, BR, BL as laid."""
        pts = np.c_[CARD_CORNERS_MM, np.ones(4)] @ self.poses[index].matrix().T
        return pts[:, :2]


def lay_out(
    play: Play,
    rng: np.random.Generator,
    *,
    max_shift: float = 3.0,
    max_turn: float = 2.0,
    gap: tuple[float, float] = (0.2, 1.6),
) -> Layout:
    """Hand-placement jitter: each card shifted by up to ``max_shift`` mm and turned by up to ``max_turn``
    degrees about its centre (normal, clipped), on a lattice whose pitch leaves a gap of ``gap`` mm."""
    g = float(rng.uniform(*gap))
    pitch = (BLOCK_W + g / 2, BLOCK_H + g / 2 * float(rng.uniform(0.6, 1.4)))
    poses = []
    for p in play.placements:
        dx, dy = np.clip(rng.normal(0, max_shift / 2.5, 2), -max_shift, max_shift)
        turn = float(np.clip(rng.normal(0, max_turn / 2.5), -max_turn, max_turn))
        # Turn about the card's centre: top-left = centre - R @ half-size.
        cx = (p.col + 1) * pitch[0] + dx
        cy = (p.row + 1) * pitch[1] + dy
        t = np.deg2rad(turn)
        c, s = np.cos(t), np.sin(t)
        hx, hy = CARD_W / 2, CARD_H / 2
        poses.append(CardPose(float(cx - (c * hx - s * hy)), float(cy - (s * hx + c * hy)), turn))
    return Layout(tuple(poses), pitch)


def render_card_art(
    play: Play, index: int, rng: np.random.Generator, ppm: float, edition: CityEdition | None = None
) -> CardArt:
    """The art of ``play.placements[index]`` as laid (blocks in lattice orientation), in ``edition``."""
    p = play.placements[index]
    if p.kind == "wrecktar":
        return render_wrecktar(rng, ppm)
    blocks = tuple(tuple(_shown_cell(play, index, p, dr, dc) for dc in (0, 1)) for dr in (0, 1))
    return render_city_card(blocks, rng, ppm, edition)  # type: ignore[arg-type]


def _shown_cell(play: Play, index: int, p: Placement, dr: int, dc: int) -> Cell:
    """The block card ``index`` shows at (dr, dc), with its POI frame or construction mark if it has one."""
    r, c = p.row + dr, p.col + dc
    cell = card_cell(p, r, c)
    poi = p.kind == "poi" and play.poi_block == (r, c)
    construction = (index, (r, c)) in play.construction
    if poi or construction:
        cell = replace(cell, poi=poi, construction=construction)
    return cell


@dataclass(frozen=True)
class CellTruth:
    """One lattice cell of the city grid in a rendered image: its exact pixel centre ``(x, y)`` (the centre
    of the visible block on the card that lies on top, or the nominal lattice centre for an empty cell),
    ``angle`` (degrees, the top card's turn; 0 for empty cells), the ``cell`` label and the index of the top
    card in ``play.placements`` (``None`` for an empty cell)."""

    row: int
    col: int
    x: float
    y: float
    angle: float
    cell: Cell
    card: int | None


@dataclass(frozen=True)
class TopDown:
    """A top-down render of a finished city (return type of :func:`render_city_topdown`).

    - ``image``: H×W×3 ``uint8`` RGB, table around and between the cards.
    - ``px_per_mm``: scale of ``image``.
    - ``city``: the visible city (``play.city``), the labels.
    - ``cells``: one :class:`CellTruth` per cell of the city grid (``city.n_rows × city.n_cols``, reading
      order), including empty cells, with exact pixel centres.
    - ``card_corners``: per placement (play order) a 4×2 float array of pixel corners TL, TR, BR, BL as laid.
    - ``lattice``: the nominal :class:`~vision.lattice.fit.Lattice` in pixels with
      ``offsets[r, c]`` set to the true centre minus the nominal one (zero for empty cells).
    - ``table``: the table kind drawn.
    """

    image: np.ndarray
    px_per_mm: float
    city: City
    cells: tuple[CellTruth, ...]
    card_corners: tuple[np.ndarray, ...]
    lattice: Lattice
    table: TableKind

    def center(self, row: int, col: int) -> tuple[float, float]:
        c = self.cells[row * self.city.n_cols + col]
        return c.x, c.y


def cell_truths(play: Play, layout: Layout, to_px: np.ndarray) -> tuple[CellTruth, ...]:
    """Every grid cell's truth under ``to_px``, a 3×3 map from table mm to image pixels."""
    out = []
    for r in range(play.city.n_rows):
        for c in range(play.city.n_cols):
            i = play.top_index_at(r, c)
            if i is None:
                mm = ((c + 0.5) * layout.pitch[0], (r + 0.5) * layout.pitch[1])
                angle = 0.0
            else:
                p = play.placements[i]
                mm = layout.block_center_mm(i, r - p.row, c - p.col)
                angle = layout.poses[i].angle
            v = to_px @ np.array([mm[0], mm[1], 1.0])
            cell = play.city.cell(r, c) if i is not None else EMPTY
            out.append(CellTruth(r, c, float(v[0] / v[2]), float(v[1] / v[2]), angle, cell, i))
    return tuple(out)


def render_city_topdown(
    play: Play,
    rng: np.random.Generator | random.Random | int,
    px_per_mm: float = 2.0,
    *,
    table: TableKind | None = None,
    margin_mm: float = 20.0,
    supersample: int = 1,
) -> TopDown:
    """Render ``play`` seen from straight above at ``px_per_mm``: new art for every card, hand-placement
    jitter (≤ 3 mm, ≤ 2°), gaps showing the table, shadows cast by covering cards, ``margin_mm`` of table
    around the city. ``table`` is drawn at random from the four kinds when not given. ``supersample`` > 1
    draws at that many times the resolution and shrinks the result (pixel-area averaging), which gives
    the softer, camera-like edges of a downsampled photo. Deterministic for a given ``rng`` state (a NumPy
    generator, a ``random.Random`` or an int seed). Returns a :class:`TopDown`.
    """
    if supersample < 1:
        raise ValueError(f"supersample must be a whole number ≥ 1, got {supersample}")
    g = as_generator(rng)
    layout = lay_out(play, g)
    kind: TableKind = table or COMMON_TABLES[int(g.integers(len(COMMON_TABLES)))]
    width = int(round((play.city.n_cols * layout.pitch[0] + 2 * margin_mm) * px_per_mm))
    height = int(round((play.city.n_rows * layout.pitch[1] + 2 * margin_mm) * px_per_mm))
    k = int(supersample)
    ppm_k = px_per_mm * k
    image = render_table(kind, g, width / px_per_mm, height / px_per_mm, ppm_k)
    to_px = np.array(
        [[px_per_mm, 0, margin_mm * px_per_mm], [0, px_per_mm, margin_mm * px_per_mm], [0, 0, 1]]
    )
    # Drawing pixel k*i + (k-1)/2 is the centre of output pixel i once k×k blocks are averaged.
    to_drawing = np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1]]) @ to_px
    card_px = np.diag([1 / ppm_k, 1 / ppm_k, 1.0])
    light = g.normal(0, 1, 2)
    light = tuple(light / max(np.hypot(*light), 1e-6))
    for i in range(len(play.placements)):
        art = render_card_art(play, i, g, ppm_k)
        h = to_drawing @ layout.poses[i].matrix() @ card_px
        paste(image, art, h, float(g.uniform(0.25, 0.45)), float(g.uniform(0.5, 1.2)) * ppm_k, light)
    if k > 1:
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    cells = cell_truths(play, layout, to_px)
    corners = tuple(
        (np.c_[layout.corners_mm(i), np.ones(4)] @ to_px.T)[:, :2] for i in range(len(play.placements))
    )
    pitch_x, pitch_y = layout.pitch[0] * px_per_mm, layout.pitch[1] * px_per_mm
    origin = (margin_mm * px_per_mm, margin_mm * px_per_mm)
    offsets = np.zeros((play.city.n_rows, play.city.n_cols, 2), np.float64)
    nominal = Lattice(origin, pitch_x, pitch_y, play.city.n_rows, play.city.n_cols)
    for t in cells:
        if t.card is not None:
            nx, ny = nominal.center(t.row, t.col)
            offsets[t.row, t.col] = (t.x - nx, t.y - ny)
    lattice = Lattice(origin, pitch_x, pitch_y, play.city.n_rows, play.city.n_cols, offsets)
    return TopDown(image, px_per_mm, play.city, cells, corners, lattice, kind)
