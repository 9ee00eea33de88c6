"""What every scan runs on: the ONNX models (loaded once per process), the thread pools a scan works on,
and the stages' timing and stopping (a deadline, a client gone). Other rooms use only the names below.
"""

from vision.runtime.onnx_models import MODEL_DIR, ProcessWide, load_model, softmax
from vision.runtime.stages import ScanCancelled, ScanPastDeadline, Stages, StageTimer, Stop
from vision.runtime.workers import Workers, current_workers, serving

__all__ = [
    "MODEL_DIR",
    "ProcessWide",
    "ScanCancelled",
    "ScanPastDeadline",
    "StageTimer",
    "Stages",
    "Stop",
    "Workers",
    "current_workers",
    "load_model",
    "serving",
    "softmax",
]
