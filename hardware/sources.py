"""Concrete frame sources: a USB webcam or stream (OpenCV), a replay of files; and the Pi camera
(:mod:`hardware.picamera`) chosen from a short name."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from hardware.errors import FrameSourceError
from hardware.frames import FrameSource, Image, as_bgr
from hardware.picamera import Picamera2Source

__all__ = ["IMAGE_SUFFIXES", "OpenCVSource", "Picamera2Source", "ReplaySource", "as_bgr", "source_from_spec"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


STREAM_TIMEOUT_MS = 3000
"""How long a stream URL may take to open or to deliver a frame before it counts as lost."""


def open_capture(device: int | str) -> Any:
    """``cv2.VideoCapture`` for a webcam index or a URL; a stream that goes silent times out
    (instead of blocking for ever) so the source can reconnect."""
    if isinstance(device, str) and "://" in device:
        timeouts = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_TIMEOUT_MS]
        timeouts += [cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_TIMEOUT_MS]
        return cv2.VideoCapture(device, cv2.CAP_ANY, timeouts)
    return cv2.VideoCapture(device)


class OpenCVSource(FrameSource):
    """A USB webcam (index), a video file or a stream URL through ``cv2.VideoCapture``.

    ``capture_factory`` makes the capture object (default :func:`open_capture`); tests pass a fake.
    """

    name = "opencv camera"

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = (1280, 720),
        fps: float | None = None,
        capture_factory: Callable[..., Any] = open_capture,
        **kwargs: Any,
    ) -> None:
        if fps is not None and fps > 0:
            kwargs.setdefault("fault_after", max(1.5, 3 / fps))  # three missed frames at a slow rate
        super().__init__(**kwargs)
        if size is not None and (len(size) != 2 or min(size) <= 0):
            raise FrameSourceError(f"camera size must be (width, height) above 0, got {size}")
        if fps is not None and fps <= 0:
            raise FrameSourceError(f"camera rate must be above 0 frames per second, got {fps}")
        self.device = device
        self.size = size
        self.fps = fps
        self._factory = capture_factory
        self._capture: Any = None

    def _open(self) -> None:
        capture = self._factory(self.device)
        if not capture.isOpened():
            capture.release()
            raise OSError(f"cannot open {self.device!r} (is the camera plugged in? is the path or URL right?)")
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self.fps)
        if isinstance(self.device, int):
            capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued in the driver
        self._capture = capture

    def _grab(self) -> Image | None:
        ok, image = self._capture.read()
        if not ok:
            raise OSError(f"reading from {self.device!r} failed")
        return as_bgr(image, what=str(self.device))

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class ReplaySource(FrameSource):
    """A folder of images (sorted by name) or a video file, played at ``fps``, looping or not."""

    name = "replay"

    def __init__(self, path: str | Path, *, fps: float = 10.0, loop: bool = True, **kwargs: Any) -> None:
        if fps is not None and fps > 0:
            kwargs.setdefault("fault_after", max(1.5, 3 / fps))  # three missed frames at a slow rate
        super().__init__(**kwargs)
        self.path = Path(path)
        if fps <= 0:
            raise FrameSourceError(f"replay rate must be above 0 frames per second, got {fps}")
        self.fps = fps
        self.loop = loop
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise FrameSourceError(f"{self.path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        elif self.path.is_file():
            self._files = []
        else:
            raise FrameSourceError(f"{self.path} does not exist: give a folder of images or a video file")
        self._position = 0
        self._video: Any = None
        self._next_at = 0.0

    def _open(self) -> None:
        if not self._files:
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise OSError(f"cannot read video {self.path}")
        self._next_at = time.monotonic()

    def _pace(self) -> None:
        delay = self._next_at - time.monotonic()
        if delay > 0:
            self._stop.wait(delay)
        self._next_at = max(self._next_at + 1 / self.fps, time.monotonic() - 1 / self.fps)

    def _grab(self) -> Image | None:
        self._pace()
        if self._files:
            if self._position >= len(self._files):
                if not self.loop:
                    return None
                self._position = 0
            path = self._files[self._position]
            self._position += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"cannot read image {path}")
            return as_bgr(image, what=str(path))
        ok, image = self._video.read()
        if not ok:
            if not self.loop:
                return None
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._video.read()
            if not ok:
                raise OSError(f"cannot read video {self.path}")
        return as_bgr(image, what=str(self.path))

    def _close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None


def source_from_spec(spec: str, *, size: tuple[int, int] = (1280, 720), fps: float = 15.0) -> FrameSource:
    """A source from its short name in the configuration or on the command line.

    ``picamera`` (the Pi camera), a number (USB webcam index), an ``rtsp://``/``http://`` URL,
    a folder of images or a video file (replayed, looping).
    """
    text = spec.strip()
    if text in ("picamera", "pi", "picamera2"):
        return Picamera2Source(size=size, fps=fps)
    if text.isdigit():
        return OpenCVSource(int(text), size=size, fps=fps)
    if "://" in text:
        return OpenCVSource(text, size=None)
    if Path(text).exists():
        return ReplaySource(text, fps=fps, loop=True)
    raise FrameSourceError(
        f"unknown camera {spec!r}: use 'picamera', a webcam number such as '0', a stream URL, "
        "a folder of images or a video file"
    )
