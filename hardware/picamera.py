"""The Raspberry Pi camera through picamera2, which is imported only when the camera opens.

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and cannot even be
imported elsewhere, so nothing here touches it until :meth:`Picamera2Source.start` runs on the
capture thread. Everything else in tocktable runs on any computer.

Choices, and why:

- **RGB888** is stored B, G, R in memory: exactly OpenCV's BGR, so frames need no conversion.
- **Frames newer than the request**: each capture asks picamera2 for a frame whose exposure
  started after the request (``flush=True``), never a stale buffer from the queue.
- **Focus**: a Camera Module 3 focuses continuously by default; give ``focus_distance`` (metres
  from lens to felt) to fix the lens instead, which stops the focus from hunting when an arm
  passes under the camera. Modules without autofocus are left alone.
- **Exposure and white balance** are automatic for the first ``lock_after`` seconds, then fixed
  at the values the camera chose (when the camera has those controls): a dark sleeve or a
  white shirt reaching over the table then no longer shifts the colour and brightness of every
  card. ``exposure_us``, ``analogue_gain`` and ``colour_gains`` fix them from the start instead.
- **A camera that stops answering** (cable pulled, driver hung) makes a capture time out after
  ``request_timeout`` seconds; the source then closes and reopens it, with the usual backoff.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import numpy as np

from hardware.errors import FrameSourceError
from hardware.frames import FrameSource, Image, as_bgr

AF_MODE_MANUAL = 0
AF_MODE_CONTINUOUS = 2  # libcamera's AfModeContinuous
_LARGE_FRAME = 8_000_000  # pixels: above this, fewer buffers (each RGB888 frame is 3 bytes a pixel)


class Picamera2Source(FrameSource):
    """The Pi camera: ``camera`` index, ``size`` (width, height) and ``fps`` of the main stream.

    Other arguments as in :class:`~hardware.frames.FrameSource` (``fault_after``, ``backoff``).
    """

    name = "pi camera"

    def __init__(
        self,
        *,
        camera: int = 0,
        size: tuple[int, int] = (1280, 720),
        fps: float = 15.0,
        autofocus: bool = True,
        focus_distance: float | None = None,
        lock_after: float | None = 2.0,
        exposure_us: int | None = None,
        analogue_gain: float | None = None,
        colour_gains: tuple[float, float] | None = None,
        request_timeout: float = 3.0,
        **kwargs: Any,
    ) -> None:
        if fps is not None and fps > 0:
            kwargs.setdefault("fault_after", max(1.5, 3 / fps))  # three missed frames at a slow rate
        super().__init__(**kwargs)
        if len(size) != 2 or size[0] <= 0 or size[1] <= 0 or fps <= 0:
            raise FrameSourceError(f"camera size and rate must be positive, got {size} at {fps} fps")
        if focus_distance is not None and focus_distance <= 0:
            raise FrameSourceError(f"focus distance must be above 0 metres, got {focus_distance}")
        if exposure_us is not None and exposure_us <= 0:
            raise FrameSourceError(f"exposure must be above 0 microseconds, got {exposure_us}")
        if analogue_gain is not None and (exposure_us is None or analogue_gain < 1):
            raise FrameSourceError("analogue_gain needs exposure_us too, and must be 1.0 or more")
        if colour_gains is not None and (len(colour_gains) != 2 or min(colour_gains) <= 0):
            raise FrameSourceError(f"colour gains are (red, blue), both above 0, got {colour_gains}")
        if lock_after is not None and lock_after < 0:
            raise FrameSourceError(f"lock_after must be 0 s or more (None: never lock), got {lock_after}")
        if request_timeout <= 0:
            raise FrameSourceError(f"request timeout must be above 0 s, got {request_timeout}")
        self.camera, self.size, self.fps = camera, (int(size[0]), int(size[1])), float(fps)
        self.autofocus, self.focus_distance = autofocus, focus_distance
        self.lock_after = lock_after
        self.exposure_us, self.analogue_gain, self.colour_gains = exposure_us, analogue_gain, colour_gains
        self.request_timeout = request_timeout
        self.locked: dict[str, Any] = {}
        """The exposure and white balance fixed after ``lock_after`` (empty until then)."""
        self._picam: Any = None
        self._available: dict[str, Any] = {}
        self._started_at = 0.0
        self._lock_done = False

    # -- opening ------------------------------------------------------------------------
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
            width, height = self.size
            config = picam.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},
                controls={"FrameRate": self.fps},
                buffer_count=2 if width * height > _LARGE_FRAME else 4,
            )
            picam.configure(config)
            self._available = dict(picam.camera_controls)
            controls = self.start_controls(self._available)
            if controls:
                picam.set_controls(controls)
            picam.start()
        except Exception:
            picam.close()
            raise
        self._picam = picam
        self._started_at = time.monotonic()
        self._lock_done = False
        self.locked = {}

    def start_controls(self, available: dict[str, Any]) -> dict[str, Any]:
        """The controls set when the camera opens, given the controls this camera has
        (``camera_controls``: name → (min, max, default))."""
        controls: dict[str, Any] = {}
        if "AfMode" in available:
            if self.focus_distance is not None and "LensPosition" in available:
                controls["AfMode"] = AF_MODE_MANUAL
                controls["LensPosition"] = _clamp(1.0 / self.focus_distance, available["LensPosition"])
            elif self.autofocus:
                controls["AfMode"] = AF_MODE_CONTINUOUS
        if self.exposure_us is not None:
            for name in ("AeEnable", "ExposureTime"):
                if name not in available:
                    raise FrameSourceError(f"this camera has no {name} control: leave exposure_us unset")
            controls["AeEnable"] = False
            controls["ExposureTime"] = int(_clamp(self.exposure_us, available["ExposureTime"]))
            if self.analogue_gain is not None and "AnalogueGain" in available:
                controls["AnalogueGain"] = float(_clamp(self.analogue_gain, available["AnalogueGain"]))
        if self.colour_gains is not None:
            for name in ("AwbEnable", "ColourGains"):
                if name not in available:
                    raise FrameSourceError(f"this camera has no {name} control: leave colour_gains unset")
            controls["AwbEnable"] = False
            controls["ColourGains"] = (float(self.colour_gains[0]), float(self.colour_gains[1]))
        return controls

    def lock_controls(self, metadata: dict[str, Any]) -> dict[str, Any]:
        """The controls that fix what the automatic exposure and white balance chose, read from
        a frame's metadata; only for what is still automatic and what this camera can fix."""
        controls: dict[str, Any] = {}
        if self.exposure_us is None and "AeEnable" in self._available and "ExposureTime" in metadata:
            controls["AeEnable"] = False
            controls["ExposureTime"] = int(metadata["ExposureTime"])
            if "AnalogueGain" in metadata and "AnalogueGain" in self._available:
                controls["AnalogueGain"] = float(metadata["AnalogueGain"])
        if self.colour_gains is None and "AwbEnable" in self._available and "ColourGains" in metadata:
            red, blue = metadata["ColourGains"]
            controls["AwbEnable"] = False
            controls["ColourGains"] = (float(red), float(blue))
        return controls

    # -- capturing ----------------------------------------------------------------------
    def _grab(self) -> Image | None:
        # wait=: picamera2 raises TimeoutError instead of waiting for ever on a dead camera;
        # flush=True: only a frame whose exposure started after this request.
        with self._picam.captured_request(wait=self.request_timeout, flush=True) as request:
            image = request.make_array("main")
            lock = (
                not self._lock_done
                and self.lock_after is not None
                and time.monotonic() - self._started_at >= self.lock_after
            )
            metadata = dict(request.get_metadata()) if lock else {}
        if lock:
            self._lock_done = True
            controls = self.lock_controls(metadata)
            if controls:
                self._picam.set_controls(controls)
                self.locked = controls
        return as_bgr(np.ascontiguousarray(image[:, :, :3]), what=self.name)

    def _close(self) -> None:
        if self._picam is not None:
            picam, self._picam = self._picam, None
            # A camera that vanished may fail to stop or close; that must not take the program down.
            with contextlib.suppress(Exception):
                picam.stop()
            with contextlib.suppress(Exception):
                picam.close()


def _clamp(value: float, limits: Any) -> float:
    """``value`` within a control's (min, max, default) limits, when they are numbers."""
    try:
        low, high = float(limits[0]), float(limits[1])
    except (TypeError, ValueError, IndexError):
        return float(value)
    return min(max(float(value), low), high) if low < high else float(value)
