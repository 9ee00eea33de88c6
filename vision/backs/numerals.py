"""Read the number (1–18) printed in a scoring card's yellow circle.

Two pieces, shared by the run time (:mod:`vision.backs.read`) and the training script
(``models/train_numbers.py``) so that both see exactly the same input:

* :func:`circle_patch` samples the inside of the circle into a small upright grey patch, given where the
  circle lies in the image and which way the card's "up" points there;
* :class:`NumberReader` runs the tiny ONNX classifier (``models/numbers.onnx``) on such patches. Its classes
  are ``0`` ("no upright number here": a wrong rotation, or not a card's circle at all) and the numbers
  1–18;
* :func:`ink_frame`, :func:`jittered_patches` and :func:`agreed` read one circle at its number's own
  place and size, through small changes of that, and keep what every view agrees on (the run time only).

The classifier runs with onnxruntime: one session per process, created on first use, thread count from
``SPRAWLSCAN_THREADS`` like the cell classifier.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.runtime import MODEL_DIR, ProcessWide, load_model, softmax

MODEL_PATH = MODEL_DIR / "numbers.onnx"
META_PATH = MODEL_DIR / "numbers.json"

#: Patch side in pixels, and how far from the centre it reaches, in circle radii. The digits of the real
#: cards and of our renders fill about ±0.6 radii; 0.9 keeps them whole when the circle estimate is a
#: little off, while the dark rim of the circle stays mostly outside.
PATCH = 32
REACH = 0.9
#: The digits' height each circle is read at, in circle radii: the geometric middle of the heights the
#: classifier trained on (0.85–1.45). The real backs print theirs about 1.4 radii tall, and a circle
#: fitted a little small or large moves them further out; read at their own height, the size of the fit
#: no longer counts.
INK_HEIGHT = 1.1
#: Bounds of that rescaling (a frame a quarter turn off measures a number's width as its height).
INK_SCALE = (0.8, 1.6)
#: Where the ink is looked for: inside this radius (the dark rim stays out), on a grid of this many px.
INK_REACH = 0.85
INK_GRID = 64
#: The changes of the (ink-centred, ink-scaled) frame every circle is also read through
#: (:func:`jittered_patches`): scales (the digits at 1.0, 1.1 and 1.2 radii tall), and shifts of the
#: centre in radii.
JITTER_SCALES = (0.91, 1.0, 1.09)
JITTER_SHIFTS = ((0.0, 0.0), (0.06, 0.0), (-0.06, 0.0), (0.0, 0.06), (0.0, -0.06))
#: Class 0 means "no upright number"; class k (1..18) is the card number k.
NUMBERS = tuple(range(1, 19))
N_CLASSES = len(NUMBERS) + 1


def circle_frame(axes: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The 2×2 map from upright unit-circle coordinates (x right, y down, radius 1) to image pixels.

    ``axes`` is any 2×2 matrix mapping the unit circle onto the circle's ellipse in the image (for
    instance ``R(θ) · diag(a, b)`` from an ellipse fit, semi-axes ``a``, ``b``); ``up`` is an image direction
    (x, y) pointing to the top of the card's lettering. The result maps (0, −1) onto a multiple of ``up``
    and keeps handedness (a photo is never mirrored), which fixes the rotation the ellipse leaves open.
    """
    axes = np.asarray(axes, np.float64).reshape(2, 2)
    if np.linalg.det(axes) < 0:  # an ellipse fit may return a mirrored frame; the circle does not care
        axes = axes @ np.diag([1.0, -1.0])
    u = np.linalg.solve(axes, np.asarray(up, np.float64).reshape(2))
    # Rotation that takes (0, -1) to u / |u| in the circle's own frame.
    angle = np.arctan2(u[1], u[0]) - np.arctan2(-1.0, 0.0)
    c, s = np.cos(angle), np.sin(angle)
    return axes @ np.array([[c, -s], [s, c]])


def circle_patch(image: np.ndarray, centre: tuple[float, float], frame: np.ndarray) -> np.ndarray:
    """The inside of a circle as an upright ``PATCH`` × ``PATCH`` grey ``uint8`` patch.

    ``image`` is RGB (or grey) ``uint8``; ``centre`` the circle's centre in its pixels; ``frame`` the 2×2
    map of :func:`circle_frame`. The patch covers ±``REACH`` radii; pixels outside the image repeat the
    border. When the circle is much larger than the patch, the image is smoothed first so that thin
    strokes do not alias away.
    """
    frame = np.asarray(frame, np.float64).reshape(2, 2)
    step = 2.0 * REACH / PATCH  # circle units per patch pixel
    spacing = step * float(np.sqrt(abs(np.linalg.det(frame))))  # image px per patch pixel
    cx, cy = float(centre[0]), float(centre[1])
    half = REACH * float(np.abs(frame).sum(axis=1).max()) + 3
    h, w = image.shape[:2]
    x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
    x1, y1 = min(w, int(cx + half) + 2), min(h, int(cy + half) + 2)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((PATCH, PATCH), np.uint8)
    crop = image[y0:y1, x0:x1]
    if crop.ndim == 3:
        crop = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2GRAY)
    if spacing > 1.6:
        crop = cv2.GaussianBlur(crop, (0, 0), 0.45 * spacing)
    # Patch pixel (u, v) has circle coordinates q = step * (u, v) + (step / 2 - REACH).
    offset = step / 2 - REACH
    m = np.empty((2, 3), np.float64)
    m[:, :2] = frame * step
    m[:, 2] = np.array([cx - x0, cy - y0]) + frame @ np.array([offset, offset])
    return cv2.warpAffine(
        crop,
        m,
        (PATCH, PATCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def ink_frame(
    image: np.ndarray, centre: tuple[float, float], frame: np.ndarray
) -> tuple[tuple[float, float], np.ndarray]:
    """The circle's frame moved onto its number and scaled so that the number stands :data:`INK_HEIGHT`
    radii tall, as the classifier saw numbers in training: (centre, frame). The ink is what is darker
    than Otsu's threshold inside :data:`INK_REACH` radii; its box (1st to 99th percentile along each of
    the frame's axes) gives centre and height. Without ink the circle is returned as it came."""
    frame = np.asarray(frame, np.float64).reshape(2, 2)
    step = 2.0 / INK_GRID  # a grid over ±1 radius
    m = np.empty((2, 3), np.float64)
    m[:, :2] = frame * step
    m[:, 2] = np.asarray(centre, np.float64) + frame @ np.array([step / 2 - 1.0, step / 2 - 1.0])
    view = cv2.warpAffine(
        image,
        m,
        (INK_GRID, INK_GRID),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if view.ndim == 3:
        view = cv2.cvtColor(view, cv2.COLOR_RGB2GRAY)
    yy, xx = (np.mgrid[0:INK_GRID, 0:INK_GRID] + 0.5) * step - 1.0
    inside = np.hypot(xx, yy) < INK_REACH
    threshold, _ = cv2.threshold(view[inside].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = cv2.morphologyEx(
        ((view < threshold) & inside).astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)
    )
    if int(ink.sum()) < 10:
        return (float(centre[0]), float(centre[1])), frame
    on = ink > 0
    x0, x1 = np.percentile(xx[on], [1, 99])
    y0, y1 = np.percentile(yy[on], [1, 99])
    scale = float(np.clip((y1 - y0) / INK_HEIGHT, *INK_SCALE))
    moved = np.asarray(centre, np.float64) + frame @ np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    return (float(moved[0]), float(moved[1])), frame * scale


def jittered_patches(image: np.ndarray, centre: tuple[float, float], frame: np.ndarray) -> np.ndarray:
    """The circle read at its number's own place and size (:func:`ink_frame`) and through every change
    of :data:`JITTER_SCALES` × :data:`JITTER_SHIFTS` around it: patches (J, PATCH, PATCH), each as
    :func:`circle_patch` (a shift is in the frame's own radii, the same on the card whichever way up it
    is read)."""
    (cx, cy), frame = ink_frame(image, centre, frame)
    out = []
    for scale in JITTER_SCALES:
        for shift in JITTER_SHIFTS:
            dx, dy = frame @ np.asarray(shift)
            out.append(circle_patch(image, (cx + dx, cy + dy), frame * scale))
    return np.stack(out)


def agreed(probs: np.ndarray) -> np.ndarray:
    """Class probabilities (..., J, C) of J views of one circle → (..., C): their geometric mean,
    renormalised. A class every view gives keeps its probability; one only some views give loses most
    of it, so the answer does not hang on the one view a crop or a recompression happens to give."""
    log = np.log(np.maximum(np.asarray(probs, np.float64), 1e-6)).mean(axis=-2)
    q = np.exp(log - log.max(axis=-1, keepdims=True))
    return q / q.sum(axis=-1, keepdims=True)


def normalise(patches: np.ndarray) -> np.ndarray:
    """uint8 patches (N, PATCH, PATCH) → float32 (N, 1, PATCH, PATCH), each to zero mean and unit spread:
    the classifier then sees only the pattern of ink, not the light or the camera's exposure."""
    x = patches.astype(np.float32).reshape(len(patches), 1, PATCH, PATCH)
    mean = x.mean(axis=(2, 3), keepdims=True)
    std = x.std(axis=(2, 3), keepdims=True)
    return (x - mean) / np.maximum(std, 8.0)


class NumberModelError(RuntimeError):
    """The shipped number model is missing or does not match this code (a build problem)."""


def _check_meta(meta: dict) -> None:
    if int(meta["patch"]) != PATCH or float(meta["reach"]) != REACH or list(meta["classes"]) != [0, *NUMBERS]:
        raise NumberModelError(f"{META_PATH.name} describes a different patch or class list than this code")


class NumberReader:
    """The loaded number classifier (``numbers.onnx`` with its ``numbers.json``)."""

    def __init__(
        self, model_path: Path = MODEL_PATH, meta_path: Path = META_PATH, threads: int | None = None
    ):
        loaded = load_model(
            model_path,
            meta_path,
            "number classifier",
            NumberModelError,
            "python -m models.train_numbers",
            threads,
            check=_check_meta,
        )
        self.session, self.input_name = loaded.session, loaded.input_name

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 19) for uint8 patches (N, PATCH, PATCH); column 0 is "no number"."""
        if not isinstance(patches, np.ndarray) or patches.dtype != np.uint8:
            raise ValueError(
                f"patches must be a uint8 numpy array, got {getattr(patches, 'dtype', type(patches))}"
            )
        if patches.ndim != 3 or patches.shape[1:] != (PATCH, PATCH):
            raise ValueError(f"patches must have shape (N, {PATCH}, {PATCH}), got {patches.shape}")
        if len(patches) == 0:
            return np.zeros((0, N_CLASSES), np.float32)
        (logits,) = self.session.run(None, {self.input_name: normalise(patches)})
        return softmax(logits)


_shipped: ProcessWide[NumberReader] = ProcessWide(NumberReader)


def get_reader() -> NumberReader:
    """The process-wide number reader, loaded on first call and reused afterwards (thread-safe)."""
    return _shipped.get()


def use_reader(reader: NumberReader | None) -> None:
    """Make ``reader`` the process-wide number reader (benchmarks comparing models); ``None`` goes back to
    loading the shipped model on next use."""
    _shipped.set(reader)
