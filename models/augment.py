"""Training-time disturbances that imitate real photos: tables, light, optics and lattice-fit errors.

Everything here takes a :class:`numpy.random.Generator` so a training run is reproducible from its seed.
Images are RGB uint8 (H, W, 3) unless stated otherwise. The ranges are deliberately wider than what the
renderer produces on its own: the classifier must not learn one renderer's look (``real-cards.md``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cells import CropJitter

TABLE_KINDS = ("blue_cloth", "wood", "white", "dark", "grey", "felt", "plain")


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Zero-mean, unit-ish float32 noise with features about ``scale`` pixels wide."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


def table_texture(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A random table surface of ``kind`` (one of :data:`TABLE_KINDS`, random when None): uint8 (h, w, 3).

    The blue cloth is drawn with a hue close to the commercial blocks on purpose (real-cards.md), and
    ``plain`` picks any colour at all, so an empty cell can never be told by colour alone.
    """
    kind = kind or str(rng.choice(TABLE_KINDS))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.zeros((h, w, 3), np.float32)
    if kind == "blue_cloth":
        base = np.array([120, 142, 165]) + rng.normal(0, 14, 3)
        img[:] = base
        period = rng.uniform(8, 40)
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        pattern = rng.integers(0, 3)
        if pattern == 0:  # gingham-like checks
            m = (np.sin(u * 2 * np.pi / period) > 0).astype(np.float32) + (
                np.sin(v * 2 * np.pi / period) > 0
            ).astype(np.float32)
            img += (m[..., None] - 1.0) * rng.uniform(8, 30) * np.array([0.8, 0.9, 1.0])
        elif pattern == 1:  # scattered pale flowers / dots
            for _ in range(int(h * w / (period**2) * 0.6)):
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
                col = base + rng.uniform(30, 90)
                cv2.circle(img, (int(cx), int(cy)), int(rng.uniform(2, period / 3)), col.tolist(), -1)
        else:  # weave stripes
            img += np.sin(u * 2 * np.pi / period)[..., None] * rng.uniform(5, 20)
        img += _smooth_noise(rng, h, w, 3)[..., None] * rng.uniform(2, 8)
    elif kind == "wood":
        base = np.array([150, 105, 65]) * rng.uniform(0.55, 1.3) + rng.normal(0, 10, 3)
        angle = rng.uniform(0, np.pi)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        warp = _smooth_noise(rng, h, w, 60) * rng.uniform(5, 25)
        grain = np.sin((v + warp) * 2 * np.pi / rng.uniform(4, 14)) + 0.5 * _smooth_noise(rng, h, w, 2)
        img[:] = base
        img += grain[..., None] * rng.uniform(6, 18) * np.array([1.0, 0.8, 0.6])
        plank = rng.uniform(60, 240)
        seams = (((v + rng.uniform(0, plank)) % plank) < 1.5).astype(np.float32)
        img -= seams[..., None] * 50
    elif kind == "white":
        img[:] = rng.uniform(205, 250) + rng.normal(0, 5, 3)
        img += _smooth_noise(rng, h, w, rng.uniform(2, 30))[..., None] * rng.uniform(1, 6)
        if rng.random() < 0.4:  # marble veins
            veins = np.abs(_smooth_noise(rng, h, w, 40)) < 0.06
            img[veins] -= rng.uniform(20, 60)
    elif kind == "dark":
        img[:] = rng.uniform(15, 70) + rng.normal(0, 6, 3)
        img += _smooth_noise(rng, h, w, rng.uniform(1.5, 10))[..., None] * rng.uniform(2, 8)
    elif kind == "grey":  # close to the industrial ground colour
        img[:] = np.array([148, 144, 147]) * rng.uniform(0.75, 1.2) + rng.normal(0, 8, 3)
        img += _smooth_noise(rng, h, w, rng.uniform(1.5, 20))[..., None] * rng.uniform(2, 10)
    elif kind == "felt":
        img[:] = np.array([40, 110, 60]) * rng.uniform(0.6, 1.4) + rng.normal(0, 12, 3)
        img += _smooth_noise(rng, h, w, 1.5)[..., None] * rng.uniform(3, 10)
    elif kind == "plain":
        img[:] = rng.uniform(20, 240, 3)
        img += _smooth_noise(rng, h, w, rng.uniform(1.5, 40))[..., None] * rng.uniform(2, 15)
    else:
        raise ValueError(f"unknown table kind {kind!r} (expected one of {', '.join(TABLE_KINDS)})")
    return np.clip(img, 0, 255).astype(np.uint8)


def photo_effects(rng: np.random.Generator, image: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Imitate what a phone photo does to a top-down view of the cards, returning a new uint8 image.

    In order: white-balance cast (moves C and I together), exposure and gamma, saturation, a brightness
    gradient and vignette, soft shadows, glare spots, resolution loss, blur, sensor noise, JPEG. ``strength``
    scales every range (0 gives the image back unchanged apart from JPEG round-off).
    """
    h, w = image.shape[:2]
    img = image.astype(np.float32) / 255.0
    s = strength
    # White balance: a warm/cool temperature shift plus a small green/magenta tint.
    temp = rng.normal(0, 0.12 * s)
    tint = rng.normal(0, 0.05 * s)
    img *= np.exp(np.array([temp, tint, -temp], np.float32))
    img *= np.exp(rng.normal(0, 0.18 * s))
    img = np.clip(img, 0, None) ** np.exp(rng.normal(0, 0.12 * s))
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * np.exp(rng.normal(0, 0.15 * s))
    # Light falls off smoothly, so the illumination field is computed at a quarter of the resolution.
    q = 4
    qh, qw = max(2, h // q), max(2, w // q)
    yy, xx = np.mgrid[0:qh, 0:qw].astype(np.float32)
    xn, yn = xx / qw - 0.5, yy / qh - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xn * np.cos(angle) + yn * np.sin(angle)) * rng.uniform(0, 0.6 * s)
    vignette = -(xn**2 + yn**2) * rng.uniform(0, 0.8 * s)
    gain = np.exp(ramp + vignette)
    for _ in range(rng.poisson(0.8 * s)):  # soft shadows (hand, phone, cup)
        cx, cy = rng.uniform(0, qw), rng.uniform(0, qh)
        sig = rng.uniform(0.05, 0.3) * max(qh, qw)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig**2))
        gain *= 1 - rng.uniform(0.15, 0.45) * blob
    glare = np.zeros_like(gain)
    for _ in range(rng.poisson(0.8 * s)):  # glare on glossy card stock, up to a blown-out white patch
        cx, cy = rng.uniform(0, qw), rng.uniform(0, qh)
        sx, sy = rng.uniform(4, 90, 2) / q
        peak = rng.uniform(0.2, 0.9) if rng.random() < 0.6 else rng.uniform(0.9, 1.8)
        glare += peak * np.exp(-((xx - cx) ** 2 / (2 * sx**2) + (yy - cy) ** 2 / (2 * sy**2)))
    img *= cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    if glare.any():
        img += cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    img = np.clip(img, 0, 1)
    if rng.random() < 0.5 * s:  # far side of a tilted photo: fewer real pixels per mm
        f = rng.uniform(0.45, 0.9)
        small = cv2.resize(img, (max(2, int(w * f)), max(2, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 1.4 * s)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(0, 0.03 * s))
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    quality = int(rng.uniform(35, 95))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid array
        return out
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def random_jitter(rng: np.random.Generator, strength: float = 1.0) -> CropJitter:
    """A crop disturbance like the real lattice fit's: centre ±10 % of the pitch, scale ±8 %, turn ±4°, and
    a little residual perspective.

    Not wider: the pipeline also uses the classifier's confidence to judge between lattice hypotheses, and a
    model trained on crops 0.3 pitch off (tried) reads misaligned lattices confidently and loses that role.
    """
    s = strength
    reach = 0.1
    return CropJitter(
        dx=float(rng.uniform(-reach, reach) * s),
        dy=float(rng.uniform(-reach, reach) * s),
        scale=float(np.exp(rng.uniform(-0.08, 0.08) * s)),
        angle=float(rng.uniform(-4, 4) * s),
        persp=rng.uniform(-0.03, 0.03, (4, 2)) * s if rng.random() < 0.5 else None,
    )
