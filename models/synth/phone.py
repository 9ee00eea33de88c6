"""What the phone does to the picture of a table with cards on it: where it frames them
(:func:`frame_scene`, the camera homography), then lens blur and depth of field, its sharpening, exposure
and white balance, uneven light and glare, an arm's shadow, sensor noise (:func:`photo_effects`), and the
JPEG file it writes with its EXIF orientation (:func:`encode_jpeg`). Both games' photo renderers use them.
"""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image

from models.synth.camera import look_at_table, project
from models.synth.conditions import Conditions

__all__ = ["encode_jpeg", "frame_scene", "photo_effects"]


def frame_scene(scene: np.ndarray, cond: Conditions, rng: np.random.Generator) -> np.ndarray:
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


def photo_effects(
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


def encode_jpeg(img: np.ndarray, cond: Conditions) -> bytes:
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
