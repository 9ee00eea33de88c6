"""The shipped ONNX models at run time: loading one with its metadata, the CPU session, and one loaded
instance per process.

Both the cell classifier (:mod:`vision.cells.classify`) and the number reader (:mod:`vision.backs.numerals`)
ship as an ``.onnx`` file with a ``.json`` of what it was trained on; a missing or mismatched pair is a
build problem, reported with the command that rebuilds it.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

__all__ = ["MODEL_DIR", "Loaded", "ProcessWide", "cpu_session", "default_threads", "load_model", "softmax"]

# The shipped models live in models/ at the repository root, beside the training code.
MODEL_DIR = Path(__file__).resolve().parents[2] / "models"
T = TypeVar("T")


class Loaded:
    """A model file's onnxruntime session, its input's name and its metadata."""

    def __init__(self, session: Any, meta: dict[str, Any]) -> None:
        self.session = session
        self.input_name: str = session.get_inputs()[0].name
        self.meta = meta


def load_model(
    model_path: Path,
    meta_path: Path,
    what: str,
    error: type[Exception],
    rebuild: str,
    threads: int | None = None,
    check: Callable[[dict[str, Any]], None] | None = None,
) -> Loaded:
    """Load ``model_path`` with its ``meta_path`` JSON, or raise ``error`` saying ``what`` is missing, its
    files and the command that rebuilds them (``rebuild``). ``check`` looks at the metadata first (and
    raises when the model does not fit the code), before the model itself is loaded."""
    if not model_path.is_file() or not meta_path.is_file():
        raise error(
            f"{what} not found ({model_path.name} / {meta_path.name} in {model_path.parent}); "
            f"run `{rebuild}` to train it"
        )
    meta = json.loads(meta_path.read_text())
    if check is not None:
        check(meta)
    return Loaded(cpu_session(model_path, threads if threads is not None else default_threads()), meta)


def cpu_session(model_path: Path, threads: int) -> Any:
    """An onnxruntime session on the CPU with ``threads`` threads inside each operator and operators run
    one after another (the models are small chains; parallel operators would only contend)."""
    import onnxruntime as ort  # imported here so that importing this module stays cheap

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle worker threads sleep instead of spinning: a scan runs its other stages (and the scoring cards'
    # thread) between the model's calls, and on two cores a spinning thread takes one from them.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


def default_threads() -> int:
    """Threads for onnxruntime: ``SPRAWLSCAN_THREADS`` if set (a positive integer), else min(2, CPUs)."""
    raw = os.environ.get("SPRAWLSCAN_THREADS")
    if raw is not None:
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"SPRAWLSCAN_THREADS must be a positive integer, got {raw!r}") from None
        if value < 1:
            raise ValueError(f"SPRAWLSCAN_THREADS must be a positive integer, got {raw!r}")
        return value
    return max(1, min(2, os.cpu_count() or 1))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, float32.

    >>> softmax(np.array([[0.0, 0.0], [0.0, np.log(3.0)]])).round(2).tolist()
    [[0.5, 0.5], [0.25, 0.75]]
    """
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class ProcessWide(Generic[T]):
    """One instance per process, made on first use (thread-safe) and replaceable (benchmarks, tests)."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        if self._value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._make()
        return self._value

    def set(self, value: T | None) -> None:
        """Use ``value`` from now on; ``None`` makes a fresh one on next use."""
        with self._lock:
            self._value = value
