"""How a scan's stages are timed, and how a scan is stopped between them: two separate mechanisms.

:class:`StageTimer` is the one way a stage is timed: its seconds are added into a mapping
(``ScanResult.timings``) as it ends. :class:`Stop` is a scan's cancel token and deadline: another thread
cancels it (the web service, when the client has gone) and it runs out on its own at the deadline; the scan
asks it at each stage's end, never inside a stage. :class:`Stages` is where the two meet: the boundary
:func:`vision.pipeline.scan_image` passes through after each stage.

>>> timer = StageTimer()
>>> with timer("decode"):
...     pass
>>> list(timer.timings)
['decode']
>>> stop = Stop()
>>> stop.check("decode")  # nothing asked it to stop
>>> stop.cancel("the client has gone")
>>> stop.check("locate")
Traceback (most recent call last):
...
vision.runtime.stages.ScanCancelled: stopped after the 'locate' stage: the client has gone
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["ScanCancelled", "ScanPastDeadline", "ScanStopped", "StageTimer", "Stages", "Stop"]

T = TypeVar("T")


class ScanStopped(Exception):
    """A scan stopped at a stage boundary by its :class:`Stop` (not a fault of the photo)."""


class ScanCancelled(ScanStopped):
    """The scan was cancelled (:meth:`Stop.cancel`), e.g. because its client has gone."""


class ScanPastDeadline(ScanStopped):
    """The scan ran past its :class:`Stop`'s deadline; ``stage`` is the stage it stopped after."""

    def __init__(self, stage: str, deadline_s: float) -> None:
        super().__init__(
            f"the scan was stopped after its {stage!r} stage: it ran past its {deadline_s:g} s deadline"
        )
        self.stage = stage
        self.deadline_s = deadline_s


class _Cancel:
    """A cancellation shared by the stops made from one another (:meth:`Stop.within`)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.reason = "cancelled"


class Stop:
    """When a scan should stop: once :meth:`cancel` is called (from any thread), or ``deadline_s`` seconds
    after this object was made (``None``: no deadline). Only :meth:`check` raises, where the scan asks."""

    def __init__(self, deadline_s: float | None = None, *, _cancel: _Cancel | None = None) -> None:
        self.deadline_s = deadline_s
        self._deadline = math.inf if deadline_s is None else time.monotonic() + deadline_s
        self._cancel = _Cancel() if _cancel is None else _cancel

    def within(self, deadline_s: float) -> Stop:
        """A stop cancelled together with this one that also runs out ``deadline_s`` seconds from now (the
        web service cancels when the client leaves, and starts the deadline when a worker starts the scan)."""
        return Stop(deadline_s, _cancel=self._cancel)

    def cancel(self, reason: str = "cancelled") -> None:
        """Ask the scan to stop at its next stage boundary; ``reason`` ends up in the message."""
        self._cancel.reason = reason
        self._cancel.event.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.event.is_set()

    def check(self, after: str | None = None) -> None:
        """Raise :class:`ScanCancelled` when cancelled, or :class:`ScanPastDeadline` when past the deadline;
        ``after`` is the stage just ended (``None``: before the first stage, where only a cancel counts)."""
        if self.cancelled:
            where = "before its first stage" if after is None else f"after the {after!r} stage"
            raise ScanCancelled(f"stopped {where}: {self._cancel.reason}")
        if after is not None and time.monotonic() > self._deadline:
            raise ScanPastDeadline(after, self.deadline_s or 0.0)


class StageTimer:
    """Each stage's seconds, added into ``timings`` as the stage ends without an error (a stage timed twice,
    as ``refine`` is, adds up)."""

    def __init__(self, timings: dict[str, float] | None = None) -> None:
        self.timings: dict[str, float] = {} if timings is None else timings

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        yield
        self.add(stage, time.perf_counter() - start)

    def add(self, stage: str, seconds: float) -> None:
        """Add seconds measured elsewhere (on another thread) to ``stage``."""
        self.timings[stage] = self.timings.get(stage, 0.0) + seconds


@dataclass
class Stages:
    """A scan's stage boundaries: each stage timed by ``timer``, and ``stop`` asked as it ends."""

    timer: StageTimer = field(default_factory=StageTimer)
    stop: Stop = field(default_factory=Stop)

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        with self.timer(stage):
            yield
        self.stop.check(stage)

    def run(self, stage: str, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` as the stage ``stage``."""
        with self(stage):
            out = work(*args)
        return out
