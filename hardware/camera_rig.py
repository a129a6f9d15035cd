"""A synthetic camera that can be raised, lowered, tilted and put out of focus, for the demo's
set-up page: the host moves it and watches the aim advice (:mod:`hardware.aim`) change.

The table model draws the table as a camera at its mounted height sees it. The rig turns that
picture into what the camera would see from elsewhere, with the geometry of a pinhole camera
looking straight down: raised by ``lift`` metres from ``height`` metres, everything on the table
shrinks about the middle by ``height / (height + lift)``; tilted by ``tilt`` degrees (a rotation
about the picture's horizontal axis), the picture is warped by ``K R K⁻¹`` with the lens's focal
length; ``blur`` is a Gaussian blur of that many pixels (a lens out of focus). Beyond the table
the picture shows the floor (dark grey).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardware.errors import CameraRigError
from hardware.frames import Image
from hardware.mounting import CAMERA_MODULE_3, Lens

FLOOR = (38, 38, 42)
"""BGR of what lies beyond the table."""
LIFT_RANGE = (-0.4, 0.6)
"""Metres the rig can be moved from its mounted height (down, up)."""
TILT_RANGE = (-20.0, 20.0)
BLUR_RANGE = (0.0, 8.0)


@dataclass(frozen=True)
class RigSettings:
    """Where the synthetic camera is, from its mounted position."""

    lift: float = 0.0
    """Metres above (positive) or below the mounted height."""
    tilt: float = 0.0
    """Degrees off straight down, about the picture's horizontal axis."""
    blur: float = 0.0
    """Gaussian blur in pixels (0: in focus)."""

    def to_dict(self) -> dict[str, float]:
        return {"lift": self.lift, "tilt": self.tilt, "blur": self.blur}


def _checked(name: str, value: Any, bounds: tuple[float, float], unit: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise CameraRigError(f"{name} must be a number of {unit}, got {value!r}")
    low, high = bounds
    if not low <= value <= high:
        raise CameraRigError(f"{name} must be {low:g}..{high:g} {unit}, got {value:g}")
    return float(value)


class CameraRig:
    """Moves a synthetic camera mounted ``height`` metres above the felt (``lens``: its field of
    view). :meth:`wrap` turns a scene (``t`` → frame) or a picture function into the moved
    camera's; :meth:`set` moves it (checked: :class:`CameraRigError` outside the ranges)."""

    def __init__(self, height: float, *, lens: Lens = CAMERA_MODULE_3) -> None:
        if not 0.1 <= height <= 5.0:
            raise CameraRigError(f"the mounted height must be 0.1..5 m, got {height!r}")
        self.height = float(height)
        self.lens = lens
        self._settings = RigSettings()
        self._lock = threading.Lock()

    @property
    def settings(self) -> RigSettings:
        with self._lock:
            return self._settings

    def set(self, *, lift: Any = None, tilt: Any = None, blur: Any = None) -> RigSettings:
        """Move the camera; a value left None stays as it is. All or nothing."""
        with self._lock:
            old = self._settings
            new = RigSettings(
                old.lift if lift is None else _checked("lift", lift, LIFT_RANGE, "metres"),
                old.tilt if tilt is None else _checked("tilt", tilt, TILT_RANGE, "degrees"),
                old.blur if blur is None else _checked("blur", blur, BLUR_RANGE, "pixels"),
            )
            self._settings = new
            return new

    def homography(self, size: tuple[int, int], settings: RigSettings | None = None) -> np.ndarray:
        """The 3x3 map from the mounted camera's pixels to the moved camera's."""
        s = self.settings if settings is None else settings
        w, h = size
        cx, cy = (w - 1) / 2, (h - 1) / 2
        scale = self.height / (self.height + s.lift)
        zoom = np.array([[scale, 0, cx * (1 - scale)], [0, scale, cy * (1 - scale)], [0, 0, 1]], np.float64)
        focal = (w / 2) / math.tan(math.radians(self.lens.horizontal_fov / 2))
        k = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]], np.float64)
        a = math.radians(s.tilt)
        rotate = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]], np.float64)
        out: np.ndarray = k @ rotate @ np.linalg.inv(k) @ zoom
        return out

    def view(self, image: Image) -> Image:
        """``image`` (as the mounted camera sees the table) as the moved camera sees it."""
        import cv2

        s = self.settings
        if s == RigSettings():
            return image
        h, w = image.shape[:2]
        out = cv2.warpPerspective(image, self.homography((w, h), s), (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=FLOOR)  # fmt: skip
        if s.blur > 0:
            out = cv2.GaussianBlur(out, (0, 0), s.blur)
        result: Image = np.asarray(out, np.uint8)
        return result

    def wrap(self, draw: Callable[..., Image]) -> Callable[..., Image]:
        """``draw`` (any arguments: a scene of ``t`` or a picture of nothing) seen through the rig."""

        def moved(*args: Any) -> Image:
            return self.view(draw(*args))

        return moved
