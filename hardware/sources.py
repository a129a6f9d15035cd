"""Concrete frame sources: a USB webcam or stream (OpenCV), a replay of files, the Pi camera."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.errors import FrameSourceError
from hardware.frames import FrameSource, Image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


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


class OpenCVSource(FrameSource):
    """A USB webcam (index), a video file or a stream URL through ``cv2.VideoCapture``.

    ``capture_factory`` makes the capture object (default ``cv2.VideoCapture``); tests pass a fake.
    """

    name = "opencv camera"

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = (1280, 720),
        fps: float | None = None,
        capture_factory: Callable[..., Any] = cv2.VideoCapture,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
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


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2, imported here only when the source opens.

    RGB888 from picamera2 is stored B, G, R in memory: already OpenCV's BGR. With a Camera
    Module 3 the lens focuses continuously; ``exposure_us`` and ``colour_gains`` fix the
    exposure and white balance (steadier colours for the card reader) when given.
    """

    name = "pi camera"

    def __init__(
        self,
        *,
        camera: int = 0,
        size: tuple[int, int] = (1280, 720),
        fps: float = 15.0,
        autofocus: bool = True,
        exposure_us: int | None = None,
        analogue_gain: float | None = None,
        colour_gains: tuple[float, float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if size[0] <= 0 or size[1] <= 0 or fps <= 0:
            raise FrameSourceError(f"camera size and rate must be positive, got {size} at {fps} fps")
        self.camera, self.size, self.fps = camera, size, fps
        self.autofocus = autofocus
        self.exposure_us, self.analogue_gain, self.colour_gains = exposure_us, analogue_gain, colour_gains
        self._picam: Any = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise FrameSourceError(
                "picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
                "and create the venv with --system-site-packages"
            ) from exc
        picam = Picamera2(self.camera)
        try:
            config = picam.create_video_configuration(
                main={"size": tuple(self.size), "format": "RGB888"},
                controls={"FrameRate": float(self.fps)},
                buffer_count=4,
            )
            picam.configure(config)
            picam.set_controls(self._controls(picam.camera_controls))
            picam.start()
        except Exception:
            picam.close()
            raise
        self._picam = picam

    def _controls(self, available: dict[str, Any]) -> dict[str, Any]:
        controls: dict[str, Any] = {}
        if self.autofocus and "AfMode" in available:
            controls["AfMode"] = 2  # libcamera AfModeContinuous
        if self.exposure_us is not None:
            controls.update(AeEnable=False, ExposureTime=int(self.exposure_us))
            if self.analogue_gain is not None:
                controls["AnalogueGain"] = float(self.analogue_gain)
        if self.colour_gains is not None:
            controls.update(AwbEnable=False, ColourGains=tuple(self.colour_gains))
        return controls

    def _grab(self) -> Image | None:
        # flush=True: only a frame whose exposure started after this request is returned.
        with self._picam.captured_request(flush=True) as request:
            image = request.make_array("main")
        return as_bgr(np.ascontiguousarray(image[:, :, :3]), what="pi camera")

    def _close(self) -> None:
        if self._picam is not None:
            try:
                self._picam.stop()
                self._picam.close()
            except Exception:  # closing a camera that vanished must not take the program down
                pass
            self._picam = None


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
