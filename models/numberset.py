"""Training patches for the scoring-card number classifier: yellow circles with a number, photographed.

Each sample is drawn from scratch: a number 1–18 in one of the faces of :data:`FONT_FILES` found on this
machine (bold and regular sans, mono and serif cuts of DejaVu and Liberation) or OpenCV's Hershey stroke
fonts drawn thick, set glyph by glyph with random weight, widths, spacing and slant (sometimes with a
procedurally drawn 1), squeezed to a random width, in a yellow disc with a dark rim on off-white paper;
then turned, foreshortened, lit unevenly, colour-cast, blurred, shrunk to the size a phone sees, noised
and JPEG-compressed. The patch is taken back out with :func:`vision.backs.numerals.circle_patch` from a
deliberately imperfect estimate of the circle (centre, size, squash and "up" all a little off), exactly
as the run time does it. :data:`UNSEEN_FONT` is never used for training: it measures how a new typeface
is read.

Class 0 ("no upright number") is the same circles read a quarter turn off, or half a turn off when that
does not read as another number, plus yellow discs holding letters, marks or nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.backs import NUMBERS, PATCH, circle_frame, circle_patch

#: Bold sans faces looked for; those present are used (at least one must be).
FONT_FILES = (
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSans-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
    "LiberationMono-Bold.ttf",
    # Regular cuts, thickened at random: more letterforms, and weights between regular and black.
    "DejaVuSansCondensed.ttf",
    "LiberationSansNarrow-Regular.ttf",
    "LiberationSans-Regular.ttf",
    # Serif bolds: other shapes of 1 (a foot), 4, 7 — breadth, not likeness to the cards.
    "DejaVuSerifCondensed-Bold.ttf",
    "LiberationSerif-Bold.ttf",
)
#: Pillow's built-in scalable font (Aileron): never trained on, kept to measure reading an unseen face.
UNSEEN_FONT = "pillow-default"
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts")
#: OpenCV's own stroke fonts, drawn thick: a very different letterform family from the TrueType faces.
HERSHEY = {
    "hershey-simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "hershey-duplex": cv2.FONT_HERSHEY_DUPLEX,
    "hershey-triplex": cv2.FONT_HERSHEY_TRIPLEX,
}
#: Numbers that still read as a number turned half around (1, 8, 11 as themselves, 6 and 9 as each other):
#: their half-turned views are not "no number" examples.
SELF_SIMILAR_HALF_TURN = frozenset({1, 6, 8, 9, 11})
GLYPH_H = 96  # px height of the cached high-resolution glyph masks


def find_fonts() -> dict[str, Path]:
    """Name → path of every face of :data:`FONT_FILES` installed here."""
    found: dict[str, Path] = {}
    for root in FONT_DIRS:
        if not root.is_dir():
            continue
        for name in FONT_FILES:
            if name not in [p.name for p in found.values()]:
                hits = sorted(root.rglob(name))
                if hits:
                    found[name.removesuffix(".ttf")] = hits[0]
    return found


def font_names() -> list[str]:
    """Every font the generator can draw with: the installed TrueType faces, then the Hershey ones."""
    return sorted(find_fonts()) + list(HERSHEY)


@functools.lru_cache(maxsize=512)
def glyph_mask(font: str, text: str, weight: int) -> np.ndarray:
    """``text`` in ``font`` as a tight float32 ink mask (0–1), :data:`GLYPH_H` px tall; ``weight`` 0–3
    thickens the strokes (up to a bolder cut than the font's own bold)."""
    if font in HERSHEY:
        scale = 3.0
        thick = 9 + 3 * weight
        (tw, th), base = cv2.getTextSize(text, HERSHEY[font], scale, thick)
        canvas = np.zeros((th + base + 2 * thick, tw + 2 * thick), np.uint8)
        cv2.putText(canvas, text, (thick, th + thick), HERSHEY[font], scale, 255, thick, cv2.LINE_AA)
    else:
        if font == UNSEEN_FONT:
            pil_font = ImageFont.load_default(size=120)
        else:
            pil_font = ImageFont.truetype(str(find_fonts()[font]), 120)
        stroke = 2 * weight
        left, top, right, bottom = pil_font.getbbox(text, stroke_width=stroke)
        img = Image.new("L", (right - left + 8, bottom - top + 8), 0)
        ImageDraw.Draw(img).text(
            (4 - left, 4 - top), text, font=pil_font, fill=255, stroke_width=stroke, stroke_fill=255
        )
        canvas = np.asarray(img)
    ys, xs = np.nonzero(canvas > 40)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    width = max(2, round(canvas.shape[1] * GLYPH_H / canvas.shape[0]))
    return cv2.resize(canvas, (width, GLYPH_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def drawn_one(rng: np.random.Generator) -> np.ndarray:
    """A procedurally drawn digit 1, :data:`GLYPH_H` px tall: a stem with a flag of random length and
    slope, with or without a foot. The 1 is the glyph typefaces disagree on most, and it is in 10 of
    the 18 numbers."""
    h = GLYPH_H
    stem = float(rng.uniform(0.13, 0.24)) * h
    flag = float(rng.uniform(0.15, 0.42)) * h
    slope = np.radians(rng.uniform(15, 55))
    foot = float(rng.uniform(0.45, 0.75)) * h if rng.random() < 0.35 else 0.0
    width = int(np.ceil(max(flag * np.cos(slope) + stem, foot) + stem)) + 4
    canvas = np.zeros((h, width), np.uint8)
    x_stem = width - stem - 2 - max(0.0, (foot - stem) / 2)
    cv2.rectangle(canvas, (round(x_stem), 0), (round(x_stem + stem), h - 1), 255, -1)
    top = (x_stem + stem * 0.5, stem * 0.45)
    end = (top[0] - flag * np.cos(slope), top[1] + flag * np.sin(slope))
    thick = max(2, round(stem * float(rng.uniform(0.6, 0.95))))
    cv2.line(canvas, (round(top[0]), round(top[1])), (round(end[0]), round(end[1])), 255, thick, cv2.LINE_AA)
    if foot:
        fx = x_stem + stem / 2 - foot / 2
        cv2.rectangle(canvas, (round(fx), round(h - stem * 0.8)), (round(fx + foot), h - 1), 255, -1)
    ys, xs = np.nonzero(canvas > 40)
    canvas = canvas[:, max(0, xs.min()) : xs.max() + 1]
    return canvas.astype(np.float32) / 255.0


def text_mask(rng: np.random.Generator, font: str, text: str) -> np.ndarray:
    """``text`` set glyph by glyph in ``font`` as a float32 ink mask :data:`GLYPH_H` px tall, with the
    variety typefaces have beyond their letterforms: stroke weight, glyph widths, letter spacing, slant;
    sometimes a drawn 1 (:func:`drawn_one`) in place of the font's own."""
    weight = int(rng.integers(0, 4))
    glyphs = []
    for ch in text:
        g = drawn_one(rng) if ch == "1" and rng.random() < 0.3 else glyph_mask(font, ch, weight)
        width = max(2, round(g.shape[1] * float(rng.uniform(0.9, 1.1))))
        glyphs.append(cv2.resize(g, (width, GLYPH_H), interpolation=cv2.INTER_AREA))
    gap = round(float(rng.uniform(0.02, 0.16)) * GLYPH_H)
    total = sum(g.shape[1] for g in glyphs) + gap * (len(glyphs) - 1)
    canvas = np.zeros((GLYPH_H, total + GLYPH_H // 4), np.float32)
    x = GLYPH_H // 8
    for g in glyphs:
        canvas[:, x : x + g.shape[1]] = np.maximum(canvas[:, x : x + g.shape[1]], g)
        x += g.shape[1] + gap
    if rng.random() < 0.3:  # slant, either way
        shear = float(rng.uniform(-0.15, 0.15))
        m = np.array([[1, -shear, shear * GLYPH_H / 2], [0, 1, 0]], np.float64)
        canvas = cv2.warpAffine(canvas, m, (canvas.shape[1], GLYPH_H), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.2:  # a lighter cut
        canvas = cv2.erode(canvas, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 4)))
    ys, xs = np.nonzero(canvas > 0.15)
    if len(xs) == 0:
        return glyph_mask(font, text, 0)
    return canvas[:, xs.min() : xs.max() + 1]


def _other_text(rng: np.random.Generator) -> str:
    """Content for a "no number" disc: a letter or two, a mark, or nothing."""
    kind = rng.random()
    if kind < 0.25:
        return ""
    letters = "ABCDEFGHKLMNPRSTUVWXYZ"
    if kind < 0.75:
        return "".join(letters[int(i)] for i in rng.integers(len(letters), size=int(rng.integers(1, 3))))
    return str(rng.choice(["?", "#", "%", "&", "*", "+", "=", "@"]))


@dataclass(frozen=True)
class Sample:
    """One rendered circle: its ``patch`` (PATCH × PATCH uint8), ``label`` (0, or the number 1–18) and the
    ``font`` and ``number`` drawn (``number`` 0 for a disc with no number)."""

    patch: np.ndarray
    label: int
    font: str
    number: int


def _rotation(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def render_circle(
    rng: np.random.Generator, font: str, text: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A photographed card circle holding ``text``.

    Returns (RGB ``uint8`` image, circle centre (x, y), 2×2 true frame: upright unit circle → image).
    """
    big_r = 32.0  # circle radius on the high-resolution card
    size = 150
    paper = np.array([240, 236, 224], np.float32) + rng.normal(0, 6, 3)
    card = np.empty((size, size, 3), np.float32)
    card[:] = paper
    if rng.random() < 0.7:  # graph-paper lines
        step = int(rng.integers(7, 14))
        grid = paper * float(rng.uniform(0.86, 0.95))
        phase = int(rng.integers(step))
        card[phase::step, :] = grid
        card[:, phase::step] = grid
    c = size / 2 + rng.normal(0, 3, 2)
    hue = float(rng.uniform(40, 56))  # degrees: golden to lemon yellow
    sat = float(rng.uniform(0.7, 1.0))
    val = float(rng.uniform(0.88, 1.0))
    yellow = cv2.cvtColor(np.array([[[hue / 2, sat * 255, val * 255]]], np.uint8), cv2.COLOR_HSV2RGB)[0, 0]
    rim = float(rng.uniform(0, 0.09)) * big_r
    ink = np.array([24, 20, 20], np.float32) + rng.normal(0, 8, 3)
    disc = np.clip(card, 0, 255).astype(np.uint8)  # anti-aliased drawing needs 8 bits
    centre16 = (round(c[0] * 16), round(c[1] * 16))
    cv2.circle(
        disc,
        centre16,
        round((big_r + rim) * 16),
        tuple(int(v) for v in np.clip(ink, 0, 255)),
        -1,
        cv2.LINE_AA,
        4,
    )
    cv2.circle(disc, centre16, round(big_r * 16), tuple(int(v) for v in yellow), -1, cv2.LINE_AA, 4)
    card = disc.astype(np.float32)
    if text:
        mask = text_mask(rng, font, text)
        th = big_r * float(rng.uniform(0.85, 1.45))
        squeeze = float(rng.uniform(0.7, 1.1))
        tw = min(th * mask.shape[1] / mask.shape[0] * squeeze, 1.65 * big_r)
        glyph = cv2.resize(mask, (max(2, round(tw)), max(2, round(th))), interpolation=cv2.INTER_AREA)
        # Place it about the centre, a little off and a little turned, by an affine paste.
        angle = np.radians(rng.normal(0, 3))
        gc = np.array([glyph.shape[1] / 2, glyph.shape[0] / 2])
        rot = _rotation(angle)
        m = np.c_[rot, c + rng.normal(0, 0.05 * big_r, 2) - rot @ gc]
        alpha = cv2.warpAffine(glyph, m, (size, size), flags=cv2.INTER_LINEAR)[..., None]
        card = card * (1 - alpha) + ink * alpha

    # The camera: any turn, a squash along some direction (tilt), and a size the phone resolves.
    r_px = float(np.exp(rng.uniform(np.log(6.5), np.log(30))))
    turn = rng.uniform(0, 2 * np.pi)
    squash_dir = rng.uniform(0, np.pi)
    squash = float(rng.uniform(0.72, 1.0))
    d = _rotation(squash_dir)
    lin = (r_px / big_r) * (d @ np.diag([1.0, squash]) @ d.T) @ _rotation(turn)
    out_size = int(np.ceil(4.2 * r_px)) + 4
    shift = np.array([out_size / 2, out_size / 2]) - lin @ c
    # warpAffine samples points: smooth first, as the sensor's pixels average over their area.
    card = cv2.GaussianBlur(card, (0, 0), 0.45 * big_r / r_px)
    photo = cv2.warpAffine(
        card, np.c_[lin, shift], (out_size, out_size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )

    # Light: colour cast, a brightness ramp, sometimes glare; then lens blur, noise and JPEG.
    photo *= np.exp(rng.normal(0, 0.08, 3)).astype(np.float32) * float(rng.uniform(0.55, 1.1))
    ys, xs = np.mgrid[0:out_size, 0:out_size].astype(np.float32) / out_size - 0.5
    a = rng.uniform(0, 2 * np.pi)
    photo *= (1 + float(rng.uniform(0, 0.35)) * (np.cos(a) * xs + np.sin(a) * ys))[..., None]
    if rng.random() < 0.2:
        gx, gy = rng.uniform(-0.4, 0.4, 2)
        photo += (float(rng.uniform(40, 140)) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / 0.05))[..., None]
    blur = min(0.1, abs(rng.normal(0, 0.04))) * r_px
    if blur > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += rng.normal(0, float(rng.uniform(1, 7)), photo.shape).astype(np.float32)
    photo_u8 = np.clip(photo, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", photo_u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    if ok:
        photo_u8 = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED)
    true_frame = lin @ np.array([[big_r, 0.0], [0.0, big_r]])
    return photo_u8, lin @ c + shift, true_frame


def _estimated_frame(rng: np.random.Generator, true_frame: np.ndarray, quarter_turns: int) -> np.ndarray:
    """What the detector would find: the true frame a little off in size, squash and turn, then turned on
    by ``quarter_turns`` × 90° (a wrong guess of the card's up direction)."""
    wobble = np.diag(np.exp(rng.normal(0, 0.06, 2)))
    turn = np.radians(rng.normal(0, 5)) + quarter_turns * np.pi / 2
    est = true_frame @ wobble @ _rotation(turn)
    # Re-derive it the way the run time does, from an ellipse and an up direction.
    return circle_frame(est, est @ np.array([0.0, -1.0]))


def make_sample(rng: np.random.Generator, font: str, none_share: float = 0.18) -> Sample:
    """One training patch in ``font``: a number read the right way up, or (``none_share`` of the time) a
    class-0 example."""
    number = int(rng.choice(NUMBERS))
    quarter = 0
    text = str(number)
    label = number
    if rng.random() < none_share:
        label = 0
        kind = rng.random()
        if kind < 0.45:
            quarter = int(rng.choice([1, 3]))
        elif kind < 0.7 and number not in SELF_SIMILAR_HALF_TURN:
            quarter = 2
        else:
            text = _other_text(rng)
            number = 0
    photo, centre, true_frame = render_circle(rng, font, text)
    r = float(np.sqrt(abs(np.linalg.det(true_frame))))
    est_centre = centre + rng.normal(0, 0.05 * r, 2)
    patch = circle_patch(
        photo, (float(est_centre[0]), float(est_centre[1])), _estimated_frame(rng, true_frame, quarter)
    )
    return Sample(patch, label, font, number)


def make_set(seed: int, n: int, fonts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` samples spread evenly over ``fonts``: patches (n, PATCH, PATCH) uint8, labels (n,) int64 and the
    index into ``fonts`` of each sample's font (n,) int64."""
    rng = np.random.default_rng(seed)
    patches = np.empty((n, PATCH, PATCH), np.uint8)
    labels = np.empty(n, np.int64)
    font_idx = np.empty(n, np.int64)
    for i in range(n):
        k = i % len(fonts)
        s = make_sample(rng, fonts[k])
        patches[i], labels[i], font_idx[i] = s.patch, s.label, k
    return patches, labels, font_idx
