"""A pinhole camera over the table for :mod:`vision.render.scene`: tilt, foreshortening and a wide lens's edge.

The table is a plane whose coordinates are the frame's pixels when the camera looks straight down
(so a :class:`~vision.render.scene.PlacedCard`'s centre and height keep their meaning). A :class:`View`
turns the camera about the frame's centre point on the table: ``tilt`` degrees away from straight
down, so that the far side of the table lies ``azimuth`` degrees round from the bottom of the
frame (0: the bottom is far, 90: the left, 180: the top, 270: the right); ``roll`` then turns the
picture about the lens's axis.
The camera stays at the distance where, looking straight down, one table pixel is one image pixel
at the centre; tilted, the near side of the table grows and the far side shrinks exactly as a real
pinhole camera of horizontal field of view ``fov`` sees it (wide lenses show more of it).

``bulge`` adds a wide lens's barrel distortion: straight lines bow outward towards the frame's
edge, by about ``bulge`` of the half diagonal near the corners. Points (card corners) are mapped
exactly with :meth:`Lens.to_image`; the picture is resampled with :meth:`Lens.warp`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import SceneError


@dataclass(frozen=True)
class View:
    """Where the camera looks from; see the module docstring. Angles in degrees."""

    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    fov: float = 60.0
    bulge: float = 0.0

    def __post_init__(self) -> None:
        values = (self.tilt, self.azimuth, self.roll, self.fov, self.bulge)
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
            raise SceneError(f"camera view angles must be finite numbers, got {self!r}")
        if not 0 <= self.tilt <= 60:
            raise SceneError(f"camera tilt must be 0..60 degrees from straight down, got {self.tilt!r}")
        if not 20 <= self.fov <= 120:
            raise SceneError(f"camera field of view must be 20..120 degrees, got {self.fov!r}")
        if not 0 <= self.bulge <= 0.2:
            raise SceneError(f"lens bulge must be 0..0.2, got {self.bulge!r}")


def homography(view: View, size: tuple[int, int]) -> np.ndarray:
    """The 3×3 map from table-plane pixels to (undistorted) image pixels for ``view``."""
    w, h = size
    focal = (w / 2) / math.tan(math.radians(view.fov) / 2)
    intrinsics = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    # World axes: x right, y down the frame, z into the table; the camera sits at z = -focal.
    t, a, r = (math.radians(v) for v in (view.tilt, view.azimuth, view.roll))
    turn = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    roll = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    # Tilt about the table axis square to the azimuth, so the camera leans away from that direction.
    rotation = roll @ turn @ tilt @ turn.T
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, focal]])
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    matrix: np.ndarray = intrinsics @ extrinsic @ centre
    normalised: np.ndarray = matrix / matrix[2, 2]
    return normalised


@dataclass(frozen=True)
class Lens:
    """Barrel distortion of strength ``bulge`` for frames of ``size`` (identity at 0)."""

    bulge: float
    size: tuple[int, int]

    # In units of the half diagonal, the pixel at radius r shows what the undistorted frame has at
    # r (1 + k r²) / (1 + k): the frame's corners stay its corners (nothing from outside the frame
    # comes in), the middle is magnified by 1 / (1 + k) and lines bow outward by about ``bulge``.

    def _unit(self) -> tuple[float, float, float]:
        w, h = self.size
        return w / 2, h / 2, math.hypot(w, h) / 2

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Undistorted pixel positions (N×2) → where the lens puts them (Newton on the radius)."""
        if self.bulge == 0:
            return points.astype(np.float64)
        cx, cy, unit = self._unit()
        p = (points.astype(np.float64) - [cx, cy]) / unit
        ru = np.hypot(p[:, 0], p[:, 1])
        rd = ru.copy()
        k = self.bulge
        for _ in range(20):
            rd -= (rd * (1 + k * rd**2) / (1 + k) - ru) / ((1 + 3 * k * rd**2) / (1 + k))
        scale = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        out: np.ndarray = p * scale[:, None] * unit + [cx, cy]
        return out

    def warp(self, image: np.ndarray) -> np.ndarray:
        """Resample an undistorted frame as the lens draws it."""
        if self.bulge == 0:
            return image
        cx, cy, unit = self._unit()
        h, w = image.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dx, dy = (xx - cx) / unit, (yy - cy) / unit
        factor = (1 + np.float32(self.bulge) * (dx * dx + dy * dy)) / np.float32(1 + self.bulge)
        map_x, map_y = dx * factor * unit + cx, dy * factor * unit + cy
        warped: np.ndarray = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
        return warped


def project(matrix: np.ndarray, lens: Lens, points: np.ndarray) -> np.ndarray:
    """Table-plane points (N×2) → image pixels through ``matrix`` and ``lens``."""
    flat = cv2.perspectiveTransform(points.reshape(1, -1, 2).astype(np.float64), matrix)[0]
    return lens.to_image(flat)


def plane_maps(matrix: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """For every (undistorted) image pixel, the table-plane x and y it sees (float32 H×W each)."""
    w, h = size
    inverse = np.linalg.inv(matrix)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    den = inverse[2, 0] * xx + inverse[2, 1] * yy + inverse[2, 2]
    u = (inverse[0, 0] * xx + inverse[0, 1] * yy + inverse[0, 2]) / den
    v = (inverse[1, 0] * xx + inverse[1, 1] * yy + inverse[1, 2]) / den
    return u.astype(np.float32), v.astype(np.float32)


def local_scale(matrix: np.ndarray, lens: Lens, point: tuple[float, float], angle: float = 0.0) -> float:
    """Image pixels per table pixel at a table ``point``, along the direction ``angle`` (degrees)."""
    a = math.radians(angle)
    step = np.array([math.sin(a), math.cos(a)]) * 2.0
    ends = project(matrix, lens, np.array([np.asarray(point) - step, np.asarray(point) + step]))
    return float(np.linalg.norm(ends[1] - ends[0]) / 4.0)


def to_plane(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Undistorted image pixels (N×2) → the table-plane points they see."""
    plane: np.ndarray = cv2.perspectiveTransform(points.reshape(1, -1, 2).astype(np.float64), np.linalg.inv(matrix))[0]
    return plane
