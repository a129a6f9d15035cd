"""Frame sources: a camera (or a stand-in) delivering BGR frames on a background thread.

Every source is a context manager. A thread captures continuously and keeps only the newest
frame, so a slow reader never sees stale frames piling up; ``read(newer_than=...)`` waits for
a frame newer than the one the caller already has. When the device fails (unplugged, read
errors) the source reports it in :meth:`FrameSource.health` and reconnects by itself with an
exponential backoff; nothing is raised into the caller's loop.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from hardware.errors import FrameSourceError

Image = npt.NDArray[np.uint8]


def as_bgr(image: Any, *, what: str) -> Image:
    """Check a captured image is a BGR uint8 (h, w, 3) array; convert grey or BGRA."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3) or image.size == 0:
        raise OSError(f"{what} gave no usable image")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    if image.shape[2] != 3:
        raise OSError(f"{what} gave an image with {image.shape[2]} channels")
    return image


@dataclass(frozen=True)
class Frame:
    """One captured frame: a BGR ``uint8`` image of shape (height, width, 3)."""

    image: Image
    timestamp: float
    """Monotonic time of capture, in seconds."""
    index: int
    """1, 2, 3, ... in capture order (across reconnects)."""


@dataclass(frozen=True)
class SourceHealth:
    """What the status LED and the admin page show about a source."""

    running: bool
    connected: bool
    fps: float
    """Frames per second over the last few seconds."""
    last_frame_age: float | None
    """Seconds since the newest frame, or None before the first one."""
    last_error: str | None
    reconnects: int
    ended: bool = False
    """True when a finite source (a file played without looping) has nothing more."""

    @property
    def ok(self) -> bool:
        return self.running and self.connected and self.last_error is None


class FrameSource(ABC):
    """Base of every source: subclasses say how to open, grab one frame and close.

    ``fault_after``: with no new frame for this long, health reports a fault; 1.5 s keeps the
    promise that a lost camera shows within two seconds (a source with a slow frame rate passes
    a longer time). ``backoff``: first and longest wait between reconnection attempts.
    """

    name = "source"

    def __init__(
        self,
        *,
        fault_after: float = 1.5,
        backoff: tuple[float, float] = (0.25, 4.0),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if fault_after <= 0 or not 0 < backoff[0] <= backoff[1]:
            raise FrameSourceError(
                f"fault_after must be above 0 s and backoff (first, longest) with 0 < first <= longest, "
                f"got {fault_after} and {backoff}"
            )
        self._fault_after = fault_after
        self._backoff = backoff
        self._clock = clock
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._latest: Frame | None = None
        self._index = 0
        self._times: deque[float] = deque(maxlen=60)
        self._connected = False
        self._error: str | None = None
        self._reconnects = 0
        self._ended = False
        self._opened_at = 0.0

    # -- what subclasses provide -------------------------------------------------------
    @abstractmethod
    def _open(self) -> None:
        """Open the device; raise on failure."""

    @abstractmethod
    def _grab(self) -> Image | None:
        """Block until the next frame and return it (BGR); None at the end of a finite source;
        raise on a device error."""

    def _close(self) -> None:  # noqa: B027 - an optional hook: most devices need no release
        """Release the device (must not raise)."""

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> FrameSource:
        """Start the capture thread (idempotent)."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-capture", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop capturing and release the device."""
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- reading -----------------------------------------------------------------------
    def read(self, *, newer_than: int = 0, timeout: float = 1.0) -> Frame | None:
        """The newest frame with ``index > newer_than``, waiting up to ``timeout`` seconds;
        None if none came (see :meth:`health` for why)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._latest is None or self._latest.index <= newer_than:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set() or self._ended:
                    return None
                self._lock.wait(left)
            return self._latest

    def frames(self, *, timeout: float = 1.0) -> Iterator[Frame]:
        """Each new frame in turn until the source stops or ends (skipping any that a slow
        caller missed: only the newest is kept)."""
        last = 0
        while not self._stop.is_set():
            frame = self.read(newer_than=last, timeout=timeout)
            if frame is None:
                if self._ended:
                    return
                continue
            last = frame.index
            yield frame

    def health(self) -> SourceHealth:
        """Connection state, frame rate, age of the newest frame, last error."""
        now = self._clock()
        with self._lock:
            times = list(self._times)
            latest = self._latest
            error = self._error
            connected = self._connected
        fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0
        age = None if latest is None else now - latest.timestamp
        running = self._thread is not None and self._thread.is_alive()
        if running and connected and error is None and not self._ended:
            silent = now - (latest.timestamp if latest is not None else self._opened_at)
            if silent > self._fault_after:
                error = f"no frame for {silent:.1f} s"
        return SourceHealth(running, connected, fps, age, error, self._reconnects, self._ended)

    # -- the capture thread ------------------------------------------------------------
    def _run(self) -> None:
        wait = self._backoff[0]
        opened = False
        while not self._stop.is_set():
            if not opened:
                try:
                    self._open()
                except Exception as exc:  # a camera that is not there yet: report, retry later
                    self._set_fault(f"cannot open {self.name}: {exc}")
                    self._stop.wait(wait)
                    wait = min(wait * 2, self._backoff[1])
                    continue
                opened = True
                with self._lock:
                    if self._error is not None or self._index:
                        self._reconnects += 1
                    self._connected, self._error = True, None
                    self._opened_at = self._clock()
            try:
                image = self._grab()
            except Exception as exc:  # unplugged or failing: release, report, reconnect
                self._close()
                opened = False
                self._set_fault(f"{self.name} failed: {exc}")
                self._stop.wait(wait)
                wait = min(wait * 2, self._backoff[1])
                continue
            if image is None:
                with self._lock:
                    self._ended = True
                    self._lock.notify_all()
                break
            wait = self._backoff[0]
            self._publish(image)
        if opened:
            self._close()
        with self._lock:
            self._connected = False
            self._lock.notify_all()

    def _publish(self, image: Image) -> None:
        now = self._clock()
        with self._lock:
            self._index += 1
            self._latest = Frame(image, now, self._index)
            self._times.append(now)
            self._lock.notify_all()

    def _set_fault(self, message: str) -> None:
        with self._lock:
            self._connected = False
            self._error = message
