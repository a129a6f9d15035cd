"""A frame source that draws its frames: a live or scripted table for the demo and the tests.

The source calls ``scene(t)`` with the seconds since it started, at a steady rate, and can be
told to fail for a while to rehearse a camera that drops out. The scene is usually a
:class:`~hardware.table_model.TableModel` that a demo dealer changes while the camera runs, or a
:class:`~hardware.table_script.TableScript` (steps at set times) for tests and replays; both draw
with ``vision.render.scene.render_scene``. Any function of ``t`` returning a BGR image also works.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.errors import FrameSourceError
from hardware.frames import FrameSource, Image, as_bgr

Scene = Callable[[float], Image]
"""Seconds since the start → a BGR frame."""


class SyntheticTableSource(FrameSource):
    """Frames from ``scene(t)`` at ``fps``; ``fail_for(seconds)`` simulates an unplugged camera.

    ``scene`` is typically a :class:`~hardware.table_model.TableModel` or a
    :class:`~hardware.table_script.TableScript` (both are callable with ``t``).
    """

    name = "synthetic camera"

    def __init__(self, scene: Scene, *, fps: float = 10.0, **kwargs: Any) -> None:
        if fps is not None and fps > 0:
            kwargs.setdefault("fault_after", max(1.5, 3 / fps))  # three missed frames at a slow rate
        super().__init__(**kwargs)
        if fps <= 0:
            raise FrameSourceError(f"synthetic camera rate must be above 0 frames per second, got {fps}")
        self.scene = scene
        self.fps = fps
        self._started = 0.0
        self._next_at = 0.0
        self._fail_until = 0.0
        self._fail_lock = threading.Lock()

    def fail_for(self, seconds: float) -> None:
        """Behave like an unplugged camera for ``seconds`` (errors, then recovery)."""
        with self._fail_lock:
            self._fail_until = time.monotonic() + seconds

    def _open(self) -> None:
        with self._fail_lock:
            if time.monotonic() < self._fail_until:
                raise OSError("synthetic camera unplugged")
        if not self._started:
            self._started = time.monotonic()
        self._next_at = time.monotonic()

    def _grab(self) -> Image | None:
        delay = self._next_at - time.monotonic()
        if delay > 0:
            self._stop.wait(delay)
        self._next_at = max(self._next_at + 1 / self.fps, time.monotonic() - 1 / self.fps)
        with self._fail_lock:
            if time.monotonic() < self._fail_until:
                raise OSError("synthetic camera unplugged")
        return as_bgr(self.scene(time.monotonic() - self._started), what=self.name)
