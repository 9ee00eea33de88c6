"""The photo simulator: a finished city (and its scoring cards) on a table, photographed by a phone.

:func:`render_photo` draws every condition of a real photo from one integer seed, or takes some of them
as keyword overrides, and returns a :class:`SynthPhoto` with the image, its JPEG file and the ground
truth. The seed is split into independent streams for the conditions, the city, the art and the photo
effects, so overriding a condition (say ``table="wood"``) photographs the same city with the same art:
a fixed-seed evaluation set can be stratified by condition.

Pipeline: table texture and card art are warped straight into the 12 MP frame through the camera
homography (``cv2.warpPerspective``), with the shadows of covering cards; then lens blur, white-balance
cast, uneven light and glare, sensor noise, JPEG and EXIF orientation.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

import cv2
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
from models.synth.camera import local_scale, look_at_table, project
from models.synth.city_edition import CityEdition, check_city_edition
from models.synth.clutter import TableObject, place_objects, render_object
from models.synth.tables import COMMON_TABLES, TABLE_KINDS, TableKind, render_table
from models.synth.truth import CardTruth, ObjectTruth, PhotoTruth, ScoringCardTruth
from scoring.city import format_city
from scoring.placement import Play, simulate_play

Orientation = Literal["landscape", "portrait"]
#: EXIF orientation tags a phone writes: 1 upright, 3 turned 180°, 6 and 8 turned by a quarter.
EXIF_TAGS = (1, 3, 6, 8)
_TABLE_TILE_MM = 420.0
#: The conditions only the harder rooms use (tests/bench/bench_rooms.py); off by default.
HARDER_ROOM_OPTIONS = ("shadow_band",)


@dataclass(frozen=True)
class Conditions:
    """Everything that varies between photos; every field can be fixed through :func:`render_photo`.

    Geometry: ``tilt`` (degrees of the camera axis from vertical, 0–35), ``azimuth`` (direction of the
    tilt), ``roll`` (turn of the city in the frame, any angle), ``fill`` (share of the frame the city and
    scoring cards span; above 1 only with ``partial``), ``partial`` (the framing cuts part of the city
    off), ``orientation`` and ``long_side`` (output size: 4:3, ``long_side`` px along the long side).
    Scene: ``table``, ``scoring_cards`` (the three scoring cards lie beside the city), ``shadow`` (0–1),
    ``n_cards``, ``wrecktar``, ``poi``, ``construction`` (expansions in the city), ``clutter`` (0–4 objects
    beside the city: the game box, cups, phones). Photo: ``blur`` (Gaussian σ in px at 12 MP), ``dof``
    (extra blur σ, growing with the distance from the focused scene centre, reaching ``dof`` at the
    farthest point in view), ``sharpen`` (the phone's unsharp-mask amount), ``exposure`` (overall gain),
    ``wb`` (R, G, B gains), ``light`` (strength of the brightness gradient, 0–0.5), ``glare`` (0 none, up
    to 0.6; strongest on the glossy cards), ``noise`` (σ in grey levels), ``jpeg_quality``,
    ``exif_orientation``. Harder rooms, off unless asked for (never drawn by :func:`sample_conditions`, so
    the shipped models never saw them): ``shadow_band`` (0 none, else how much a soft-edged band across
    the frame, an arm's or the phone's shadow, darkens what it covers, up to 0.8).
    """

    table: TableKind = "cloth"
    orientation: Orientation = "landscape"
    long_side: int = 4032
    tilt: float = 10.0
    azimuth: float = 0.0
    roll: float = 0.0
    fill: float = 0.85
    partial: bool = False
    scoring_cards: bool = True
    shadow: float = 0.35
    n_cards: int = 15
    wrecktar: bool = False
    poi: bool = False
    construction: int = 0
    clutter: int = 0
    blur: float = 0.6
    dof: float = 0.0
    sharpen: float = 0.0
    exposure: float = 1.0
    wb: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light: float = 0.15
    glare: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 90
    exif_orientation: int = 1
    shadow_band: float = 0.0

    def size(self) -> tuple[int, int]:
        """(width, height) of the displayed image."""
        short = int(round(self.long_side * 3 / 4))
        return (self.long_side, short) if self.orientation == "landscape" else (short, self.long_side)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["wb"] = [round(v, 4) for v in self.wb]
        for name in HARDER_ROOM_OPTIONS:  # off: left out, so a default photo's truth reads as it always did
            if d[name] == getattr(Conditions, name):
                del d[name]
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in d.items()}


def sample_conditions(rng: np.random.Generator) -> Conditions:
    """Conditions drawn the way real photos of finished games vary."""
    partial = bool(rng.random() < 0.1)
    aligned = rng.random() < 0.5  # half the photos are roughly square to the city, the rest at any angle
    roll = float(rng.integers(4) * 90 + rng.normal(0, 6)) if aligned else float(rng.uniform(0, 360))
    log_wb = rng.normal(0, 0.07, 2)
    tilt = float(35 * rng.beta(1.3, 2.2))
    return Conditions(
        table=COMMON_TABLES[int(rng.choice(4, p=[0.35, 0.3, 0.15, 0.2]))],
        orientation="portrait" if rng.random() < 0.5 else "landscape",
        tilt=tilt,
        azimuth=float(rng.uniform(0, 360)),
        roll=roll % 360,
        fill=float(rng.uniform(1.05, 1.35) if partial else rng.uniform(0.62, 0.95)),
        partial=partial,
        scoring_cards=bool(rng.random() < 0.8),
        shadow=float(rng.uniform(0.15, 0.5)),
        n_cards=15 if rng.random() < 0.9 else int(rng.integers(6, 15)),
        wrecktar=bool(rng.random() < 0.08),
        poi=bool(rng.random() < 0.08),
        construction=int(rng.choice(4, p=[0.9, 0.04, 0.03, 0.03])),
        clutter=int(rng.choice(5, p=[0.6, 0.25, 0.1, 0.04, 0.01])),
        blur=float(min(3.5, abs(rng.normal(0, 1.1)))),
        dof=float(rng.uniform(0, 2.5)) * tilt / 35,
        sharpen=float(rng.uniform(0.2, 1.2)) if rng.random() < 0.6 else 0.0,
        exposure=float(math.exp(rng.normal(0, 0.12))),
        wb=(float(math.exp(log_wb[0])), 1.0, float(math.exp(log_wb[1]))),
        light=float(rng.uniform(0, 0.4)),
        glare=float(rng.uniform(0.15, 0.6)) if rng.random() < 0.25 else 0.0,
        noise=float(rng.uniform(1.0, 5.0)),
        jpeg_quality=int(rng.integers(70, 96)),
        exif_orientation=int(rng.choice(EXIF_TAGS, p=[0.7, 0.1, 0.1, 0.1])),
    )


def check_conditions(c: Conditions) -> None:
    """Raise ``ValueError`` naming the first condition outside its range."""
    checks = [
        (c.table in TABLE_KINDS, f"table must be one of {', '.join(TABLE_KINDS)}, got {c.table!r}"),
        (
            c.orientation in ("landscape", "portrait"),
            f"orientation must be landscape or portrait, got {c.orientation!r}",
        ),
        (64 <= c.long_side <= 8192, f"long_side must be 64..8192 px, got {c.long_side}"),
        (0 <= c.tilt <= 60, f"tilt must be 0..60 degrees, got {c.tilt}"),
        (0.1 <= c.fill <= 2.0, f"fill must be 0.1..2, got {c.fill}"),
        (1 <= c.n_cards <= 15, f"n_cards must be 1..15, got {c.n_cards}"),
        (0 <= c.construction <= 3, f"construction must be 0..3, got {c.construction}"),
        (0 <= c.clutter <= 4, f"clutter must be 0..4 objects, got {c.clutter}"),
        (0 <= c.blur <= 20, f"blur must be 0..20 px, got {c.blur}"),
        (0 <= c.dof <= 20, f"dof must be 0..20 px, got {c.dof}"),
        (0 <= c.sharpen <= 3, f"sharpen must be 0..3, got {c.sharpen}"),
        (0.2 <= c.exposure <= 3, f"exposure must be 0.2..3, got {c.exposure}"),
        (
            len(c.wb) == 3 and all(0.3 <= g <= 3 for g in c.wb),
            f"wb must be three gains in 0.3..3, got {c.wb}",
        ),
        (0 <= c.light <= 1, f"light must be 0..1, got {c.light}"),
        (0 <= c.glare <= 1, f"glare must be 0..1, got {c.glare}"),
        (0 <= c.shadow_band <= 0.8, f"shadow_band must be 0..0.8, got {c.shadow_band}"),
        (0 <= c.noise <= 50, f"noise must be 0..50, got {c.noise}"),
        (1 <= c.jpeg_quality <= 100, f"jpeg_quality must be 1..100, got {c.jpeg_quality}"),
        (
            c.exif_orientation in EXIF_TAGS,
            f"exif_orientation must be one of {EXIF_TAGS}, got {c.exif_orientation}",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise ValueError(message)


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


def _streams(seed: int) -> list[np.random.Generator]:
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


def _frame(scene: np.ndarray, cond: Conditions, rng: np.random.Generator) -> np.ndarray:
    """The camera homography (table mm → displayed image px) that frames ``scene`` points as asked."""
    w, h = cond.size()
    focal = float(rng.uniform(0.75, 0.95)) * max(w, h)
    centre = scene.mean(axis=0)
    extent = float(np.ptp(scene, axis=0).max())
    distance = extent * focal / (0.9 * min(w, h))
    hom = look_at_table(
        (float(centre[0]), float(centre[1])), distance, cond.tilt, cond.azimuth, cond.roll, focal, (w, h)
    )
    pts = project(hom, scene)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    # Zoom about the image centre so that the scene spans ``fill`` of the frame (a focal-length change).
    zoom = cond.fill * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    mid = (lo + hi) / 2
    shift = np.zeros(2)
    if cond.partial:  # push the scene off centre so that one side is cut off
        shift = rng.uniform(-0.18, 0.18, 2) * np.array([w, h])
    a = np.array(
        [[zoom, 0, w / 2 - zoom * mid[0] + shift[0]], [0, zoom, h / 2 - zoom * mid[1] + shift[1]], [0, 0, 1]]
    )
    return a @ hom


def _light_field(
    cond: Conditions, rng: np.random.Generator, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Low-resolution gain (per channel, × 128) and additive glare fields, 1/16 of the image size."""
    w, h = size
    lw, lh = max(4, w // 16), max(3, h // 16)
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xs, ys = xs / lw - 0.5, ys / lh - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xs + np.sin(angle) * ys) * 2 * cond.light
    vignette = -(xs**2 + ys**2) * float(rng.uniform(0.1, 0.5))
    blob = rng.uniform(-0.5, 0.5, 2)
    lamp = (
        cond.light
        * 0.6
        * np.exp(-((xs - blob[0]) ** 2 + (ys - blob[1]) ** 2) / float(rng.uniform(0.05, 0.3)))
    )
    gain = 1.0 + ramp + vignette + lamp
    gains = np.stack([gain * g * cond.exposure for g in cond.wb], axis=-1) * 128
    glare = np.zeros((lh, lw), np.float32)
    if cond.glare > 0:
        for _ in range(int(rng.integers(1, 3))):
            gx, gy = rng.uniform(-0.4, 0.4, 2)
            sx, sy = rng.uniform(0.04, 0.16, 2)
            glare += np.exp(-((xs - gx) ** 2 / (2 * sx**2) + (ys - gy) ** 2 / (2 * sy**2)))
        glare = np.clip(glare, 0, 1) * cond.glare * 255
    return np.clip(gains, 0, 255).astype(np.uint8), np.clip(glare, 0, 255).astype(np.uint8)


def _defocus(hom: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A 1/16-size float32 map, 0 where the view is at the depth of the image centre (in focus) rising to 1
    at the depth farthest from it. The depth of the table point seen at pixel p is proportional to 1/w,
    where (x, y, w) = hom⁻¹ p."""
    w, h = size
    lw, lh = max(4, w // 16), max(3, h // 16)
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float64)
    pts = np.stack([(xs + 0.5) * w / lw, (ys + 0.5) * h / lh, np.ones_like(xs)], axis=-1)
    inv = np.linalg.inv(hom)
    depth = 1 / np.abs(pts @ inv[2])
    centre = 1 / abs(inv[2] @ np.array([w / 2, h / 2, 1.0]))
    off = np.abs(depth - centre)
    return (off / max(float(off.max()), 1e-9)).astype(np.float32)


def _photo_effects(
    img: np.ndarray,
    cond: Conditions,
    rng: np.random.Generator,
    glossy: np.ndarray | None = None,
    hom: np.ndarray | None = None,
) -> np.ndarray:
    """Lens blur (and depth of field through ``hom``, table mm → image), sharpening, exposure, white balance
    and uneven light, glare, sensor noise, on an 8-bit RGB image. ``glossy`` (H×W ``uint8``, 255 on the
    cards) makes the glare strongest on the cards' glossy coat."""
    h, w = img.shape[:2]
    scale = max(w, h) / 4032  # blur and noise are specified for 12 MP
    if cond.blur * scale > 0.15:
        img = cv2.GaussianBlur(img, (0, 0), cond.blur * scale)
    if hom is not None and cond.dof * scale > 0.3:
        far = cv2.GaussianBlur(img, (0, 0), cond.dof * scale)
        weight = cv2.resize(_defocus(hom, (w, h)), (w, h), interpolation=cv2.INTER_LINEAR)
        img = cv2.blendLinear(img, far, 1 - weight, weight)
    if cond.sharpen > 0:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2 * max(scale, 0.25))
        img = cv2.addWeighted(img, 1 + cond.sharpen, soft, -cond.sharpen, 0)
    gains, glare = _light_field(cond, rng, (w, h))
    gains = cv2.resize(gains, (w, h), interpolation=cv2.INTER_LINEAR)
    img = cv2.multiply(img, gains, scale=1 / 128, dtype=cv2.CV_8U)
    if cond.glare > 0:
        glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)
        if glossy is not None:  # matte table: a third of the glare; cards: all of it
            glare = cv2.multiply(
                glare, cv2.add(cv2.multiply(glossy, 0.67, dtype=cv2.CV_8U), 85), scale=1 / 255
            )
        # Screen blend: glare lifts dark pixels more than light ones and never flattens everything.
        lift = cv2.multiply(cv2.bitwise_not(img), cv2.merge([glare, glare, glare]), scale=1 / 255)
        img = cv2.add(img, lift)
    if cond.shadow_band > 0:
        img = _shadow_band(img, cond.shadow_band, rng)
    if cond.noise > 0:
        # Phone noise after demosaicing and denoising is grainy over 2 px: draw it at half size. Linear
        # upsampling lowers its spread by about 1.6, hence the factor.
        hw, hh = (w + 1) // 2, (h + 1) // 2
        noise = np.empty((hh, hw, 3), np.int16)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0, cond.noise * 1.6)
        noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR)
        img = cv2.add(img, noise, dtype=cv2.CV_8U)
    return img


def _shadow_band(img: np.ndarray, depth: float, rng: np.random.Generator) -> np.ndarray:
    """``img`` under a band of shadow across the frame (an arm or the phone between the lamp and the
    table): 8–25 % of the long side wide, through a point near the middle, at any angle, with a penumbra
    of 1–3 % of the long side, darkening by ``depth`` inside and a little bluer (lit by the room, not the
    lamp). Drawn at 1/8 size: the band is smooth."""
    h, w = img.shape[:2]
    long = max(h, w)
    width = float(rng.uniform(0.08, 0.25)) * long
    soft = float(rng.uniform(0.01, 0.03)) * long
    cx, cy = (0.5 + rng.uniform(-0.2, 0.2, 2)) * np.array([w, h])
    t = float(rng.uniform(0, np.pi))
    sw, sh = max(4, w // 8), max(3, h // 8)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    off = np.abs((xs * w / sw - cx) * np.cos(t) + (ys * h / sh - cy) * np.sin(t))
    inside = 1.0 / (1.0 + np.exp((off - width / 2) / max(soft / 4, 1.0)))
    gain = 1.0 - depth * inside[..., None] * np.array([1.0, 0.97, 0.9], np.float32)
    gain = cv2.resize((gain * 128).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, np.clip(gain, 0, 255).astype(np.uint8), scale=1 / 128, dtype=cv2.CV_8U)


def _encode(img: np.ndarray, cond: Conditions) -> bytes:
    """JPEG bytes whose EXIF orientation turns the stored pixels back into ``img``."""
    stored = {
        1: img,
        3: cv2.rotate(img, cv2.ROTATE_180),
        6: cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE),  # the viewer turns it 90° clockwise
        8: cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE),
    }[cond.exif_orientation]
    buf = io.BytesIO()
    pil = Image.fromarray(stored)
    if cond.exif_orientation != 1:
        exif = Image.Exif()
        exif[0x0112] = cond.exif_orientation
        pil.save(buf, "JPEG", quality=cond.jpeg_quality, exif=exif.tobytes())
    else:
        pil.save(buf, "JPEG", quality=cond.jpeg_quality)
    return buf.getvalue()


def _table_layer(
    kind: TableKind, hom: np.ndarray, size: tuple[int, int], scene: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """The table seen through ``hom``: a tileable texture warped with wrap-around, so it covers any view.
    The table is soft detail: it is warped at half size, then upsampled."""
    table_ppm = min(4.0, max(1.0, 0.5 * local_scale(hom, tuple(scene.mean(axis=0)))))
    tile = render_table(kind, rng, _TABLE_TILE_MM, _TABLE_TILE_MM, table_ppm)
    offset = rng.uniform(0, _TABLE_TILE_MM, 2)
    to_tile = np.array([[1 / table_ppm, 0, offset[0]], [0, 1 / table_ppm, offset[1]], [0, 0, 1]])
    half_size = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    half = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])
    small = cv2.warpPerspective(
        tile, half @ hom @ to_tile, half_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP
    )
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)


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


def _photo_conditions(cond_rng: np.random.Generator, overrides: dict[str, Any]) -> Conditions:
    """The conditions drawn from ``cond_rng``, replaced by ``overrides``; ``ValueError`` naming an unknown
    or out-of-range one."""
    known = {f.name for f in fields(Conditions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown condition(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    base = sample_conditions(cond_rng)
    cond = replace(base, **{k: _coerce(k, v, getattr(base, k)) for k, v in overrides.items()})
    check_conditions(cond)
    return cond


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
    cond_rng, city_rng, art_rng, table_rng, fx_rng, clutter_rng = _streams(seed)
    cond = _photo_conditions(cond_rng, overrides)
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
    hom = _frame(scene, cond, fx_rng)

    img = _table_layer(cond.table, hom, size, scene, table_rng)
    objects = place_objects(cond.clutter, np.vstack(corners + score_corners), clutter_rng)
    coverage = _paste_scene(
        img, hom, scene, play, layout, score_poses, objects, cond, art_rng, clutter_rng, edition
    )
    img = _photo_effects(img, cond, fx_rng, coverage, hom)
    truth = PhotoTruth(
        seed=seed,
        width=size[0],
        height=size[1],
        city=format_city(play.city),
        cards=tuple(
            CardTruth(p.kind, p.number, p.rotated, p.row, p.col, _pts(project(hom, corners[i])))
            for i, p in enumerate(play.placements)
        ),
        scoring_cards=tuple(
            ScoringCardTruth(n, _pts(project(hom, c)), cond.scoring_cards)
            for n, c in zip(play.scoring_cards, score_corners, strict=True)
        ),
        cells=tuple(
            (t.row, t.col, round(t.x, 2), round(t.y, 2), t.cell.token())
            for t in cell_truths(play, layout, hom)
        ),
        objects=tuple(ObjectTruth(o.kind, _pts(project(hom, o.corners_mm()))) for o in objects),
        homography=tuple(tuple(float(f"{v:.9g}") for v in row) for row in hom),
        pitch_mm=(round(layout.pitch[0], 4), round(layout.pitch[1], 4)),
        conditions=cond.to_json() | ({} if edition is None else {"edition": edition.to_json()}),
        notes=play.notes,
    )
    return SynthPhoto(img, _encode(img, cond), truth, cond)


def _coerce(name: str, value: Any, like: Any) -> Any:
    """``value`` as the type of the condition's default ``like``; ``ValueError`` naming it otherwise."""
    if isinstance(like, bool):
        if isinstance(value, bool):
            return value
        raise ValueError(f"{name} must be true or false, got {value!r}")
    if isinstance(like, int):
        if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
            return int(value)
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if isinstance(like, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(like, tuple):
        if isinstance(value, list | tuple) and all(isinstance(v, int | float) for v in value):
            return tuple(float(v) for v in value)
        raise ValueError(f"{name} must be a list of numbers, got {value!r}")
    if isinstance(value, str):
        return value
    raise ValueError(f"{name} must be text, got {value!r}")


def _pts(arr: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((round(float(x), 2), round(float(y), 2)) for x, y in arr)
